import Foundation
import ResumeDataCodec

// The fuzzer's answers are read as a sequence of choices among these.
private let startURLs = ["http://127.0.0.1:8080/file.bin", "https://127.0.0.1:8443/file.bin", "http://localhost/a?b=c"]
    .compactMap(HTTPURL.init)
private let locations = [
    "/moved", "http://127.0.0.1:8080/file.bin", "http://evil.test/x", "https://127.0.0.1:8443/y", "http://127.0.0.1:8081/z",
    "ftp://x/y", "", "//evil.test/a", "http://[::1]:80/", "https://127.0.0.1:8080/file.bin", "http://LOCALHOST/a", "javascript:x",
]
private let numbers = FuzzChoices.numbers
private let validators = ["\"v1\"", "\"v2\"", "W/\"v1\"", "", "Sun, 01 Nov 2026 10:00:01 GMT", "Mon, 02 Nov 2026 10:00:01 GMT", "\u{0}"]
private let retryAfters = ["0", "1", "120", "99999999999999999999", "-1", "Sun, 06 Nov 999999999 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT", "x"]
private let credentials: Set<String> = ["authorization", "cookie", "proxy-authorization"]

/// The fuzzing entry point of the download state machine, for the FuzzHTTPAnswers harness
/// (FuzzTesting) and the tests that replay its FailCases: both call this one check.
///
/// The state machine and the trust policy are fed arbitrary answers: statuses, Content-Range,
/// Content-Length, ETag, Last-Modified, Location and Retry-After values, body lengths, close
/// points and overlap verdicts, chosen by the fuzzer's bytes. Properties checked at every step:
/// - credentials are sent only to the origin the download started at;
/// - the I/O layer is never told to truncate below what the last checkpoint claims without a
///   restart checkpoint first, and no checkpoint claims more bytes than were written;
/// - a download finishes only with a length a response stated (or the clean end of a 200 without one);
/// - retries stay within the configured count between attempts that made progress;
/// - every event the script sends is one the machine takes (never ``DownloadStateMachine/Action/ignored``).
/// With several connections (`--connections`, after a response that allows segments), also:
/// - segments begin only over a length an answer stated, each segment request carries credentials
///   only to the starting origin and asks exactly for its range, and a segment answer is accepted
///   only as a 206 that starts where asked and stays inside the range;
/// - no checkpoint counts a byte (prefix or finished range) the model did not write.
@_spi(Fuzzing) public enum HTTPAnswerCheck {
    /// Plays the answers `bytes` describe against a state machine; returns the property that
    /// broke, nil when every one held (or the bytes ran out first).
    public static func check(_ bytes: [UInt8]) -> String? {
        var input = FuzzChoices(bytes: bytes)
        guard let startURL = input.pick(startURLs), let held = input.pick(numbers + [0, 0, 5000]),
              let tag = input.pick(validators + ["-"]), let modified = input.pick(validators + ["-"]),
              let retries = input.byte(), let insecure = input.flag()
        else { return nil }
        var checkpoint = DownloadCheckpoint(url: startURL)
        checkpoint.bytesReceived = max(held, 0)
        checkpoint.entityTag = tag == "-" ? nil : tag
        checkpoint.lastModified = modified == "-" ? nil : modified
        checkpoint.extraHeaders = field("Authorization", "Bearer secret") + field("Cookie", "a=b") + field("User-Agent", "fuzz")
        let configuration = DownloadStateMachine.Configuration(
            maximumRedirects: 3,
            retry: RetryPolicy(
                maximumRetries: Int(retries % 6), initialBackoff: .milliseconds(500), maximumBackoff: .seconds(30),
                maximumRetryAfter: .seconds(300), jitter: { 0.5 }),
            policy: TrustPolicy(allowsInsecureRedirects: insecure),
            checkpointBytes: 1000, checkpointInterval: .seconds(2))
        var machine = DownloadStateMachine(checkpoint: checkpoint, configuration: configuration)

        // The harness's model of the world.
        var fileLength = checkpoint.bytesReceived      // bytes the I/O layer has on disk
        var claimed = checkpoint.bytesReceived         // what the last checkpoint handed out claims
        var stated: Int64?                             // the file length the answers stated
        var unlengthed200 = false                      // the answer being received is a 200 without a length
        var requested: Int64 = 0
        var retriesSeen = 0
        var progressEvents = 0                         // attempts that may legitimately reset the retry count
        var receivingFrom: Int64 = 0
        var extra: [Range<Int64>] = []                 // bytes segments wrote beyond the contiguous prefix

        /// Whether a checkpoint claims only bytes on the model's disk: the prefix and every finished range.
        func claimsOnlyWritten(_ point: DownloadCheckpoint) -> String? {
            let disk = SegmentPlan.merged([0..<fileLength] + extra)
            let prefix = disk.first.map { $0.lowerBound == 0 ? $0.upperBound : 0 } ?? 0
            guard point.bytesReceived <= prefix else { return "a checkpoint claims \(point.bytesReceived) bytes of a disk whose prefix is \(prefix)" }
            for range in point.finishedRanges where !disk.contains(where: { $0.lowerBound <= range.lowerBound && range.upperBound <= $0.upperBound }) {
                return "a checkpoint counts \(range) as finished, not on the disk (\(disk))"
            }
            return nil
        }

        var action = machine.start()
        for _ in 0..<400 {
            switch action {
            case .sendRequest(let plan):
                guard plan.offset >= 0 else { return "negative request offset \(plan.offset)" }
                let sameOrigin = plan.url.hasSameOrigin(as: startURL)
                if !sameOrigin, plan.headers.contains(where: { credentials.contains($0.name.lowercased()) }) {
                    return "credentials sent to \(plan.url) for a download started at \(startURL)"
                }
                requested = plan.offset
                guard let status = input.pick([200, 206, 206, 206, 416, 301, 302, 307, 308, 303, 408, 429, 500, 503, 404, 204, 0]) else { return nil }
                var headers: [HTTPHeaderField] = []
                if input.flag() == true, let value = input.pick(validators) { headers += field("ETag", value) }
                if input.flag() == true, let value = input.pick(validators) { headers += field("Last-Modified", value) }
                if input.flag() == true, let value = input.pick(retryAfters) { headers += field("Retry-After", value) }
                if (300...399).contains(status), input.flag() == true, let location = input.pick(locations) {
                    headers += field("Location", location)
                }
                var rangeTotal: Int64?
                if status == 206 || status == 416, let first = input.number(near: requested), let length = input.number(near: 1000),
                   let totalKind = input.byte() {
                    let last = first &+ max(length, 1) &- 1
                    let total: String
                    switch totalKind % 4 {
                    case 0: total = "*"
                    case 1: total = String(last &+ 1)
                    case 2: total = String(input.number(near: last) ?? 0)
                    default: total = String(fileLength &+ Int64(totalKind))
                    }
                    rangeTotal = Int64(total)
                    let value = status == 416 ? "bytes */\(total)" : (input.flag() == true ? "bytes \(first)-\(last)/\(total)" : "bytes=\(first)-")
                    headers += field("Content-Range", value)
                }
                var contentLength: Int64?
                if input.flag() == true, let value = input.number(near: 1000) {
                    contentLength = value
                    headers += field("Content-Length", String(value))
                }
                action = machine.receivedResponse(status: status, headers: headers, now: .zero)
                if case .receiveBody = action {
                    if status == 200 {
                        stated = contentLength.flatMap { $0 >= 0 ? $0 : nil }
                        unlengthed200 = contentLength == nil
                        if fileLength == 0 { progressEvents += 1 }
                    } else {
                        unlengthed200 = false
                        if let rangeTotal { stated = rangeTotal }
                    }
                } else if case .finish = action, status == 416 {
                    stated = rangeTotal
                }

            case .receiveBody(let offset, let overlap, let restart):
                guard offset >= 0, overlap >= 0, overlap <= offset else { return "receiveBody(\(offset), overlap \(overlap))" }
                if let restart {
                    guard restart.bytesReceived <= offset else { return "restart checkpoint claims \(restart.bytesReceived) beyond \(offset)" }
                    claimed = restart.bytesReceived
                } else if offset < claimed {
                    return "truncating to \(offset) while the last checkpoint claims \(claimed), without a restart checkpoint"
                }
                if overlap > 0 {
                    guard offset <= fileLength else { return "overlap check of bytes \(offset - overlap)..<\(offset) the file does not hold (\(fileLength))" }
                    if input.flag() == true {
                        fileLength = offset
                        action = machine.overlapMismatched()
                        continue
                    }
                }
                if overlap == 0, input.flag() == true, let total = machine.beginSegments(acceptsRanges: input.flag() ?? true, now: .zero) {
                    guard total == stated else {
                        return "segments over \(total) bytes, but the answers stated \(stated.map(String.init) ?? "no length")"
                    }
                    // The engine cuts the file only for a restart; segments keep what is beyond the prefix.
                    if restart != nil {
                        fileLength = offset
                        extra = []
                    }
                    var plan = SegmentPlan(total: total, done: [0..<machine.checkpoint.bytesReceived] + machine.checkpoint.finishedRanges, minimumSplit: 64)
                    let before = plan.bytesDone
                    var tag = 0
                    var ended: DownloadStateMachine.Action?
                    steps: for _ in 0..<200 {
                        if plan.isComplete {
                            ended = machine.segmentsFinished()
                            break
                        }
                        guard let step = input.byte() else { return nil }
                        switch step % 8 {
                        case 0:
                            ended = machine.transportFailed(.connection(.other("closed")))
                            break steps
                        case 1:
                            ended = machine.pause()
                            break steps
                        default:
                            guard let hole = plan.unassigned.first else {
                                return "segments: nothing unassigned, yet the plan is not complete (\(plan))"
                            }
                            // A hole may end at 2^63 - 1: its wanted end saturates there instead of wrapping.
                            let (wanted, overflow) = hole.lowerBound.addingReportingOverflow(Int64(step) * 97 + 1)
                            let range = hole.lowerBound..<(overflow ? hole.upperBound : min(hole.upperBound, wanted))
                            let request = machine.segmentRequest(range)
                            let sameOrigin = request.url.hasSameOrigin(as: startURL)
                            if !sameOrigin, request.headers.contains(where: { credentials.contains($0.name.lowercased()) }) {
                                return "credentials in a segment request to \(request.url) for a download started at \(startURL)"
                            }
                            guard request.headers.value(of: "range") == "bytes=\(range.lowerBound)-\(range.upperBound - 1)" else {
                                return "segment \(range) asked as \(request.headers.value(of: "range") ?? "no Range")"
                            }
                            guard let status = input.pick([206, 206, 206, 200, 416, 404, 503]),
                                  let start = input.number(near: range.lowerBound), let length = input.number(near: Int64(range.count)),
                                  let totalKind = input.byte()
                            else { return nil }
                            var headers: [HTTPHeaderField] = []
                            if let tag = input.flag() == true ? machine.checkpoint.entityTag : input.pick(validators) {
                                headers += field("ETag", tag)
                            }
                            let statedTotal = totalKind % 3 == 0 ? "*" : String(totalKind % 3 == 1 ? total : total &+ Int64(totalKind))
                            headers += field("Content-Range", "bytes \(start)-\(start &+ length &- 1)/\(statedTotal)")
                            if input.flag() == true, let value = input.number(near: length) {
                                headers += field("Content-Length", String(value))
                            }
                            switch machine.judgeSegment(status: status, headers: headers, range: range) {
                            case .accept(let end):
                                guard status == 206, start == range.lowerBound, end > range.lowerBound, end <= range.upperBound else {
                                    return "segment \(range) accepted up to \(end) from a \(status) starting at \(start)"
                                }
                                tag += 1
                                plan.assign(tag, range.lowerBound..<end)
                                let count = min(Int64(input.byte() ?? 0) * 53, end - range.lowerBound)
                                guard plan.wrote(tag, count: count) else { return "the plan refused \(count) bytes inside its segment" }
                                if count > 0 { extra = SegmentPlan.merged(extra + [range.lowerBound..<range.lowerBound + count]) }
                                plan.release(tag)
                                let next = machine.segmentsAdvanced(prefix: plan.prefix, ranges: plan.rangesBeyondPrefix, now: .seconds(Int64(step)))
                                if case .checkpoint(let point) = next {
                                    if let broken = claimsOnlyWritten(point) { return broken }
                                    claimed = point.bytesReceived
                                }
                            case .changedFile:
                                ended = machine.segmentsSawAnotherFile()
                                break steps
                            case .refused:
                                continue
                            }
                        }
                    }
                    let disk = SegmentPlan.merged([0..<fileLength] + extra)
                    fileLength = disk.first.map { $0.lowerBound == 0 ? $0.upperBound : 0 } ?? 0
                    extra = disk.filter { $0.lowerBound > fileLength }
                    if plan.bytesDone > before { progressEvents += 1 }
                    action = ended ?? machine.transportFailed(.connection(.other("the segments stopped")))
                    continue
                }
                if restart == nil, !machine.checkpoint.finishedRanges.isEmpty {
                    // As the engine does before it cuts the file for one stream from the prefix.
                    let point = machine.dropFinishedRanges()
                    guard point.finishedRanges.isEmpty, point.bytesReceived <= offset else { return "dropping the finished ranges gave \(point)" }
                    claimed = point.bytesReceived
                }
                fileLength = offset
                extra = []
                receivingFrom = offset
                var next: DownloadStateMachine.Action = .none
                while case .none = next {
                    guard let step = input.byte() else { return nil }
                    switch step % 8 {
                    case 0: next = machine.bodyEnded()
                    case 1: next = machine.transportFailed(.connection(.other("closed")))
                    case 2: next = machine.transportFailed(.stalled)
                    case 3: next = machine.pause()
                    default:
                        let chunk = Int(step) * 37
                        // A blob may start at 2^63 - 1: the machine must refuse more; the model must not trap.
                        let (grown, overflow) = fileLength.addingReportingOverflow(Int64(chunk))
                        next = machine.wroteBytes(chunk, now: .seconds(Int64(step)))
                        if overflow {
                            guard case .fail = next else { return "\(chunk) bytes past 2^63 - 1 were accepted: \(next)" }
                            return nil
                        }
                        fileLength = grown
                        if case .checkpoint(let point) = next {
                            guard point.bytesReceived <= fileLength else { return "checkpoint claims \(point.bytesReceived) of \(fileLength) written" }
                            if let broken = claimsOnlyWritten(point) { return broken }
                            claimed = point.bytesReceived
                            next = .none
                        }
                    }
                }
                if fileLength > receivingFrom, !unlengthed200 || receivingFrom == 0 { progressEvents += 1 }
                action = next

            case .retry(_, let point):
                guard point.bytesReceived <= fileLength else { return "retry checkpoint claims \(point.bytesReceived) of \(fileLength)" }
                if let broken = claimsOnlyWritten(point) { return broken }
                claimed = point.bytesReceived
                retriesSeen += 1
                if retriesSeen > (configuration.retry.maximumRetries + 1) * (progressEvents + 1) {
                    return "\(retriesSeen) retries with \(progressEvents) attempts that made progress (maximum \(configuration.retry.maximumRetries))"
                }
                action = machine.retryTimerFired()

            case .finish(let length, let point):
                guard length <= fileLength else { return "finished at \(length) with \(fileLength) bytes written" }
                guard length == stated || (unlengthed200 && length == fileLength) else {
                    return "finished at \(length) but the answers stated \(stated.map(String.init) ?? "no length")"
                }
                guard point.bytesReceived <= fileLength else { return "final checkpoint claims \(point.bytesReceived) of \(fileLength)" }
                _ = machine.finished(nil)
                return nil

            case .fail(_, let point), .pause(let point):
                guard point.bytesReceived <= fileLength else { return "last checkpoint claims \(point.bytesReceived) of \(fileLength)" }
                if let broken = claimsOnlyWritten(point) { return broken }
                return nil

            case .checkpoint, .none:
                return "unexpected \(action) outside a body"

            case .ignored:
                return "an event of the script was ignored: the machine was not in the state the script drove it to"
            }
        }
        return nil
    }
}

/// A response or request field for the harness; none when the value breaks the header rule, as
/// NIO's parser would not have passed it on.
private func field(_ name: String, _ value: String) -> [HTTPHeaderField] {
    HTTPHeaderField.engine(name, value).map { [$0] } ?? []
}
