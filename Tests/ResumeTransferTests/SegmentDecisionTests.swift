import Foundation
@testable import ResumeDataCodec
import Testing

@testable import ResumeTransfer

private let url = "http://127.0.0.1:8080/file.bin"
private let strong = "\"abc-123\""

private func configuration() -> DownloadStateMachine.Configuration {
    DownloadStateMachine.Configuration(
        maximumRedirects: 10,
        retry: RetryPolicy(
            maximumRetries: 2, initialBackoff: .milliseconds(500), maximumBackoff: .seconds(30),
            maximumRetryAfter: .seconds(300), jitter: { 1 }),
        policy: TrustPolicy(allowsInsecureRedirects: false),
        checkpointBytes: 100,
        checkpointInterval: .seconds(2))
}

/// A machine that received a 200 for a fresh download of 1000 bytes with these headers.
private func receiving(_ headers: [HTTPHeaderField], checkpoint: DownloadCheckpoint? = nil) -> DownloadStateMachine {
    var machine = DownloadStateMachine(
        checkpoint: checkpoint ?? DownloadCheckpoint(originalURL: url, currentURL: url), configuration: configuration())
    _ = machine.start()
    _ = machine.receivedResponse(status: 200, headers: headers, now: .zero)
    return machine
}

private let servable = fields(["ETag": strong, "Content-Length": "1000", "Accept-Ranges": "bytes"])

/// The machine's decisions for segmented downloads (`--connections`), and the blob they leave.
@Suite struct SegmentDecisionTests {
    @Test func segmentsNeedRangesALengthAndAStrongETag() {
        var machine = receiving(servable)
        #expect(machine.beginSegments(acceptsRanges: true, now: .zero) == 1000)
        var noRanges = receiving(servable)
        #expect(noRanges.beginSegments(acceptsRanges: false, now: .zero) == nil)
        var weak = receiving(fields(["ETag": "W/\"x\"", "Content-Length": "1000"]))
        #expect(weak.beginSegments(acceptsRanges: true, now: .zero) == nil)
        var dateOnly = receiving(fields(["Last-Modified": "Sun, 01 Nov 2026 10:00:01 GMT", "Content-Length": "1000"]))
        #expect(dateOnly.beginSegments(acceptsRanges: true, now: .zero) == nil)
        var noLength = receiving(fields(["ETag": strong]))
        #expect(noLength.beginSegments(acceptsRanges: true, now: .zero) == nil)
        var empty = receiving(fields(["ETag": strong, "Content-Length": "0"]))
        #expect(empty.beginSegments(acceptsRanges: true, now: .zero) == nil)
        // Accepted: the machine follows segments now. Declined: it still receives one stream.
        // (Asking again, or outside receiving, is a preconditionFailure: see DownloadStateMachineTotalityTests.)
        #expect(machine.state == .segmented(total: 1000, best: 0, lastCheckpointBytes: 0, lastCheckpointTime: .zero))
        #expect(noRanges.state == .receiving(.init(
            written: 0, prefix: 0, total: 1000, rangeEnd: nil, restarted: false, lastCheckpointBytes: 0, lastCheckpointTime: .zero)))
    }

    @Test func segmentRequestsCarryIfRangeAndOnlyTheHeadersTrustAllows() {
        var checkpoint = DownloadCheckpoint(originalURL: "http://a.example/f", currentURL: "http://b.example/f")
        checkpoint.extraHeaders = fields(["Authorization": "Bearer secret", "Cookie": "c=1", "User-Agent": "t", "Range": "bytes=1-"])
        var machine = receiving(servable, checkpoint: checkpoint)
        _ = machine.beginSegments(acceptsRanges: true, now: .zero)
        let plan = machine.segmentRequest(500..<750)
        #expect(plan.url.string == "http://b.example/f")
        #expect(plan.offset == 500)
        // The credentials were given for a.example: never sent to b.example, segment or not.
        #expect(plan.headers.map { "\($0.name): \($0.value)" } == [
            "User-Agent: t", "Accept-Encoding: identity", "Range: bytes=500-749", "If-Range: \(strong)",
        ])
    }

    @Test func segmentAnswersAreJudgedByEveryNumberTheyCarry() {
        var machine = receiving(servable)
        _ = machine.beginSegments(acceptsRanges: true, now: .zero)
        let range: Range<Int64> = 500..<750
        func judge(_ status: Int, _ headers: KeyValuePairs<String, String>) -> DownloadStateMachine.SegmentVerdict {
            machine.judgeSegment(status: status, headers: fields(headers), range: range)
        }
        #expect(judge(206, ["ETag": strong, "Content-Range": "bytes 500-749/1000", "Content-Length": "250"]) == .accept(end: 750))
        // More than asked is cut at the segment's end; less leaves the rest to another connection.
        #expect(judge(206, ["ETag": strong, "Content-Range": "bytes 500-999/1000"]) == .accept(end: 750))
        #expect(judge(206, ["ETag": strong, "Content-Range": "bytes 500-599/1000"]) == .accept(end: 600))
        #expect(judge(206, ["ETag": strong, "Content-Range": "bytes 400-749/1000"]) == .refused(.invalidContentRange))
        #expect(judge(206, ["ETag": strong, "Content-Range": "bytes 500-749/1000", "Content-Length": "99"]) == .refused(.invalidContentRange))
        #expect(judge(206, ["ETag": strong, "Content-Range": "bytes 500-9223372036854775807/*"]) == .refused(.invalidContentRange))
        #expect(judge(206, ["ETag": strong, "Content-Range": "garbage"]) == .refused(.invalidContentRange))
        // Another file: another ETag, another length, none at all, or a range past its end.
        #expect(judge(206, ["ETag": "\"other\"", "Content-Range": "bytes 500-749/1000"]) == .changedFile)
        #expect(judge(206, ["Content-Range": "bytes 500-749/1000"]) == .changedFile)
        #expect(judge(206, ["ETag": strong, "Content-Range": "bytes 500-749/2000"]) == .changedFile)
        #expect(judge(200, ["ETag": "\"other\"", "Content-Length": "1000"]) == .changedFile)
        #expect(judge(200, ["ETag": strong, "Content-Length": "999"]) == .changedFile)
        #expect(judge(416, ["Content-Range": "bytes */400"]) == .changedFile)
        // The same file, whole: this server ignores ranges after all.
        #expect(judge(200, ["ETag": strong, "Content-Length": "1000"]) == .refused(.unexpectedStatus(200)))
        #expect(judge(503, ["Retry-After": "1"]) == .refused(.unexpectedStatus(503)))
        #expect(judge(302, ["Location": "http://elsewhere.example/"]) == .refused(.unexpectedStatus(302)))
    }

    @Test func checkpointsCountThePrefixAndKeepTheOtherRanges() {
        var machine = receiving(servable)
        _ = machine.beginSegments(acceptsRanges: true, now: .zero)
        #expect(machine.segmentsAdvanced(prefix: 50, ranges: [500..<540], now: .seconds(1)) == .none)
        guard case .checkpoint(let checkpoint) = machine.segmentsAdvanced(prefix: 50, ranges: [500..<560], now: .seconds(1)) else {
            Issue.record("no checkpoint after 110 bytes")
            return
        }
        #expect(checkpoint.bytesReceived == 50)
        #expect(checkpoint.finishedRanges == [500..<560])
        // Time alone makes one too, once there are new bytes.
        #expect(machine.segmentsAdvanced(prefix: 60, ranges: [500..<560], now: .seconds(2)) == .none)
        guard case .checkpoint = machine.segmentsAdvanced(prefix: 61, ranges: [500..<560], now: .seconds(4)) else {
            Issue.record("no checkpoint after 2 s")
            return
        }
        // A pause keeps both.
        guard case .pause(let paused) = machine.pause() else {
            Issue.record("no pause checkpoint")
            return
        }
        #expect(paused.bytesReceived == 61)
        #expect(paused.finishedRanges == [500..<560])
    }

    @Test func everySegmentWrittenFinishesAndAnotherFileStartsOver() {
        var machine = receiving(servable)
        _ = machine.beginSegments(acceptsRanges: true, now: .zero)
        var finished = machine
        guard case .finish(let length, let checkpoint) = finished.segmentsFinished() else {
            Issue.record("no finish")
            return
        }
        #expect(length == 1000)
        #expect(checkpoint.finishedRanges == [])
        _ = machine.segmentsAdvanced(prefix: 100, ranges: [500..<600], now: .zero)
        // The whole file again, without Range: its 200 clears everything before the first byte.
        #expect(machine.segmentsSawAnotherFile() == .sendRequest(.init(
            url: url, headers: fields(["Accept-Encoding": "identity"]), offset: 0)))
        guard case .receiveBody(0, 0, let restart?) = machine.receivedResponse(status: 200, headers: servable, now: .zero) else {
            Issue.record("no restart")
            return
        }
        #expect(restart.bytesReceived == 0)
        #expect(restart.finishedRanges == [])
    }

    @Test func failedSegmentsRetryFromTheCheckpointAndARefusingServerGetsOneStream() {
        var machine = receiving(servable)
        _ = machine.beginSegments(acceptsRanges: true, now: .zero)
        _ = machine.segmentsAdvanced(prefix: 100, ranges: [500..<600], now: .zero)
        machine.disableSegments()
        guard case .retry(_, let checkpoint) = machine.transportFailed(.connection(.other("reset"))) else {
            Issue.record("no retry")
            return
        }
        #expect(checkpoint.bytesReceived == 100)
        #expect(checkpoint.finishedRanges == [500..<600])
        guard case .sendRequest(let plan) = machine.retryTimerFired() else {
            Issue.record("no request")
            return
        }
        #expect(fields(["Range": "bytes=100-"]).allSatisfy(plan.headers.contains))
        _ = machine.receivedResponse(
            status: 206, headers: fields(["ETag": strong, "Content-Range": "bytes 100-999/1000"]), now: .zero)
        #expect(machine.beginSegments(acceptsRanges: true, now: .zero) == nil)
    }

    /// The blob of a segmented download is Apple resume data whose byte count is the prefix; the
    /// other ranges sit in our own key, read back exactly, and a malformed key is ignored.
    @Test func theBlobCountsThePrefixAndKeepsTheRangesInItsOwnKey() throws {
        var checkpoint = DownloadCheckpoint(originalURL: url, currentURL: url, bytesReceived: 100, entityTag: strong)
        checkpoint.finishedRanges = [200..<300, 500..<501]
        let blob = try ResumeCheckpoint.encode(checkpoint, partialPath: "/tmp/x/file.bin.part")
        let resume = try ResumeData(data: blob)
        #expect(resume.bytesReceived == 100)
        #expect(resume.entries[ResumeCheckpoint.finishedRangesKey]?.stringValue == "200-299,500-500")
        #expect(try resume.request(.current)?.headers.first { $0.name == "Range" }?.value == "bytes=100-")
        #expect(try ResumeCheckpoint.decode(blob).checkpoint == checkpoint)

        var hostile = resume
        hostile.entries[ResumeCheckpoint.finishedRangesKey] = .string("200-1,x")
        #expect(try ResumeCheckpoint.decode(hostile).checkpoint.finishedRanges == [])
        // Ranges inside the prefix add nothing.
        hostile.entries[ResumeCheckpoint.finishedRangesKey] = .string("0-50,90-99,150-159")
        #expect(try ResumeCheckpoint.decode(hostile).checkpoint.finishedRanges == [150..<160])
    }

    /// The origin a login belongs to is the engine's one rule: the original request's URL, else
    /// the URL the download goes on from (the current request's, before NSURLSessionDownloadURL).
    @Test func theStartURLIsTheEnginesOriginalURL() throws {
        let original = try HTTPURL(validating: "https://start.example/a")
        let current = try HTTPURL(validating: "https://cdn.example/b")
        let blob = try ResumeCheckpoint.encode(DownloadCheckpoint(originalURL: .checked(original), currentURL: current, bytesReceived: 10), partialPath: "/tmp/x/a.part")
        var resume = try ResumeData(data: blob)
        #expect(ResumeCheckpoint.startURL(of: resume) == original)
        try resume.setRequest(nil, .original)
        resume.entries[ResumeDataKey.downloadURL] = .string("https://elsewhere.example/c")
        #expect(ResumeCheckpoint.startURL(of: resume) == current)
        try resume.setRequest(nil, .current)
        #expect(ResumeCheckpoint.startURL(of: resume)?.string == "https://elsewhere.example/c")
        // A blob the engine cannot resume from names no origin.
        resume.entries[ResumeDataKey.bytesReceived] = nil
        #expect(ResumeCheckpoint.startURL(of: resume) == nil)
    }
}
