import Foundation
import Testing

@testable import ResumeTransfer

private let url = "http://127.0.0.1:8080/file.bin"
private let etag = "\"abc-123\""
private let identity = fields(["Accept-Encoding": "identity"])

private let configuration = DownloadStateMachine.Configuration(
    maximumRedirects: 2,
    retry: RetryPolicy(
        maximumRetries: 3, initialBackoff: .seconds(1), maximumBackoff: .seconds(8), maximumRetryAfter: .seconds(60),
        jitter: { 1 }),
    policy: TrustPolicy(allowsInsecureRedirects: false),
    checkpointBytes: 100,
    checkpointInterval: .seconds(2))

/// The checkpoint of a fresh download.
private let fresh = DownloadCheckpoint(originalURL: url, currentURL: url)
/// After the 200 of ``MachineEvent/head``: a strong ETag and 1000 bytes, none written yet.
private let answered = DownloadCheckpoint(originalURL: url, currentURL: url, bytesReceived: 0, entityTag: etag, totalLength: 1000)
/// After all 1000 bytes.
private let complete = DownloadCheckpoint(originalURL: url, currentURL: url, bytesReceived: 1000, entityTag: etag, totalLength: 1000)
private let plainRequest = DownloadStateMachine.Action.sendRequest(RequestPlan(url: url, headers: identity, offset: 0))
private let receivingFresh = DownloadStateMachine.State.receiving(.init(
    written: 0, prefix: 0, total: 1000, rangeEnd: nil, restarted: false, lastCheckpointBytes: 0, lastCheckpointTime: .zero))
private let mismatch = TransferError.checksumMismatch(expected: "aa", actual: "bb")

/// Every state the machine can reach, each built by real events from a fresh download.
enum MachineFixture: String, CaseIterable, Codable, CustomTestStringConvertible {
    case idle, requesting, receiving, segmented, waitingToRetry, finishing, paused, done, failed

    var testDescription: String { self.rawValue }

    var machine: DownloadStateMachine {
        var machine = DownloadStateMachine(checkpoint: fresh, configuration: configuration)
        switch self {
        case .idle:
            break
        case .requesting:
            _ = machine.start()
        case .receiving:
            _ = machine.start()
            _ = MachineEvent.head.apply(to: &machine)
        case .segmented:
            _ = machine.start()
            _ = MachineEvent.head.apply(to: &machine)
            _ = machine.beginSegments(acceptsRanges: true, now: .zero)
        case .waitingToRetry:
            _ = machine.start()
            _ = machine.transportFailed(.stalled)
        case .finishing:
            _ = machine.start()
            _ = MachineEvent.head.apply(to: &machine)
            _ = machine.wroteBytes(1000, now: .zero)
            _ = machine.bodyEnded()
        case .paused:
            _ = machine.start()
            _ = machine.pause()
        case .done:
            machine = MachineFixture.finishing.machine
            _ = machine.finished(nil)
        case .failed:
            _ = machine.start()
            _ = machine.receivedResponse(status: 404, headers: [], now: .zero)
        }
        return machine
    }

    /// The state `machine` is in (checked first, so each row starts where it says).
    var state: DownloadStateMachine.State {
        switch self {
        case .idle: .idle
        case .requesting: .requesting(start: 0, prefix: 0)
        case .receiving: receivingFresh
        case .segmented: .segmented(total: 1000, best: 0, lastCheckpointBytes: 0, lastCheckpointTime: .zero)
        case .waitingToRetry: .waitingToRetry
        case .finishing: .finishing
        case .paused: .paused
        case .done: .done
        case .failed: .failed
        }
    }
}

/// Every event that answers with an ``DownloadStateMachine/Action``, with fixed arguments.
enum MachineEvent: String, CaseIterable, Codable, CustomTestStringConvertible {
    case start, retryTimerFired, head, overlapMismatched, wroteBytes, bodyEnded, transportFailed, finalFailure
    case diskFailed, finishedWell, finishedBadly, pause, segmentsAdvanced, segmentsFinished, segmentsSawAnotherFile

    var testDescription: String { self.rawValue }

    func apply(to machine: inout DownloadStateMachine) -> DownloadStateMachine.Action {
        switch self {
        case .start: machine.start()
        case .retryTimerFired: machine.retryTimerFired()
        case .head:
            machine.receivedResponse(
                status: 200, headers: fields(["ETag": etag, "Content-Length": "1000"]),
                now: .zero)
        case .overlapMismatched: machine.overlapMismatched()
        case .wroteBytes: machine.wroteBytes(10, now: .zero)
        case .bodyEnded: machine.bodyEnded()
        case .transportFailed: machine.transportFailed(.stalled)
        case .finalFailure: machine.transportFailed(.tls("untrusted"))
        case .diskFailed: machine.diskFailed("full")
        case .finishedWell: machine.finished(nil)
        case .finishedBadly: machine.finished(mismatch)
        case .pause: machine.pause()
        case .segmentsAdvanced: machine.segmentsAdvanced(prefix: 10, ranges: [], now: .zero)
        case .segmentsFinished: machine.segmentsFinished()
        case .segmentsSawAnotherFile: machine.segmentsSawAnotherFile()
        }
    }
}

/// What an event does in a state: an action and the next state, or a `preconditionFailure`
/// (driven in a child process, which must stop: the reason is in the machine, next to the failure).
private enum Outcome {
    case answer(DownloadStateMachine.Action, DownloadStateMachine.State)
    case impossible

    static func ignored(in state: DownloadStateMachine.State) -> Outcome { .answer(.ignored, state) }
}

/// The whole table: every reachable state, every event.
private func expected(_ fixture: MachineFixture, _ event: MachineEvent) -> Outcome {
    let here = fixture.state
    switch (fixture, event) {
    // idle: only the first request, a pause or a disk failure.
    case (.idle, .start): return .answer(plainRequest, .requesting(start: 0, prefix: 0))
    case (.idle, .diskFailed): return .answer(.fail(.disk("full"), checkpoint: fresh), .failed)
    case (.idle, .pause): return .answer(.pause(fresh), .paused)
    case (.idle, _): return .impossible

    // requesting: the head, a failure or a pause.
    case (.requesting, .head): return .answer(.receiveBody(offset: 0, restartCheckpoint: answered), receivingFresh)
    case (.requesting, .transportFailed): return .answer(.retry(after: .seconds(1), checkpoint: fresh), .waitingToRetry)
    case (.requesting, .finalFailure): return .answer(.fail(.tls("untrusted"), checkpoint: fresh), .failed)
    case (.requesting, .diskFailed): return .answer(.fail(.disk("full"), checkpoint: fresh), .failed)
    case (.requesting, .pause): return .answer(.pause(fresh), .paused)
    case (.requesting, _): return .impossible

    // receiving: the body's events.
    case (.receiving, .overlapMismatched): return .answer(plainRequest, .requesting(start: 0, prefix: 0))
    case (.receiving, .wroteBytes):
        return .answer(.none, .receiving(.init(
            written: 10, prefix: 0, total: 1000, rangeEnd: nil, restarted: false, lastCheckpointBytes: 0, lastCheckpointTime: .zero)))
    case (.receiving, .bodyEnded): return .answer(.retry(after: .seconds(1), checkpoint: answered), .waitingToRetry)
    case (.receiving, .transportFailed): return .answer(.retry(after: .seconds(1), checkpoint: answered), .waitingToRetry)
    case (.receiving, .finalFailure): return .answer(.fail(.tls("untrusted"), checkpoint: answered), .failed)
    case (.receiving, .diskFailed): return .answer(.fail(.disk("full"), checkpoint: answered), .failed)
    case (.receiving, .pause): return .answer(.pause(answered), .paused)
    case (.receiving, _): return .impossible

    // segmented: the segments' events, failures and a pause.
    case (.segmented, .transportFailed): return .answer(.retry(after: .seconds(1), checkpoint: answered), .waitingToRetry)
    case (.segmented, .finalFailure): return .answer(.fail(.tls("untrusted"), checkpoint: answered), .failed)
    case (.segmented, .diskFailed): return .answer(.fail(.disk("full"), checkpoint: answered), .failed)
    case (.segmented, .pause): return .answer(.pause(answered), .paused)
    case (.segmented, .segmentsAdvanced):
        return .answer(.none, .segmented(total: 1000, best: 10, lastCheckpointBytes: 0, lastCheckpointTime: .zero))
    case (.segmented, .segmentsFinished): return .answer(.finish(length: 1000, checkpoint: complete), .finishing)
    case (.segmented, .segmentsSawAnotherFile): return .answer(plainRequest, .requesting(start: 0, prefix: 0))
    case (.segmented, _): return .impossible

    // waitingToRetry: the timer; a response's late events are ignored.
    case (.waitingToRetry, .retryTimerFired): return .answer(plainRequest, .requesting(start: 0, prefix: 0))
    case (.waitingToRetry, .diskFailed): return .answer(.fail(.disk("full"), checkpoint: fresh), .failed)
    case (.waitingToRetry, .pause): return .answer(.pause(fresh), .paused)
    case (.waitingToRetry, .start), (.waitingToRetry, .finishedWell), (.waitingToRetry, .finishedBadly): return .impossible
    case (.waitingToRetry, _): return .ignored(in: here)

    // finishing: the verdict; a late response event or a pause changes nothing.
    case (.finishing, .finishedWell): return .answer(.none, .done)
    case (.finishing, .finishedBadly): return .answer(.fail(mismatch, checkpoint: complete), .failed)
    case (.finishing, .diskFailed): return .answer(.fail(.disk("full"), checkpoint: complete), .failed)
    case (.finishing, .start), (.finishing, .retryTimerFired): return .impossible
    case (.finishing, _): return .ignored(in: here)

    // paused, done, failed: stopped; everything late is ignored.
    case (.paused, .start), (.paused, .finishedWell), (.paused, .finishedBadly),
         (.done, .start), (.done, .finishedWell), (.done, .finishedBadly),
         (.failed, .start), (.failed, .finishedWell), (.failed, .finishedBadly):
        return .impossible
    case (.paused, _), (.done, _), (.failed, _): return .ignored(in: here)
    }
}

/// Each event driven in each state the machine can reach, against the table above.
@Suite struct DownloadStateMachineTotalityTests {
    @Test(arguments: MachineFixture.allCases)
    func eachFixtureIsInItsState(_ fixture: MachineFixture) {
        #expect(fixture.machine.state == fixture.state)
    }

    /// Every pair is driven against the machine: an answer is compared with the table, and an
    /// impossible pair runs in a child process (an exit test), which the machine must stop.
    @Test(arguments: MachineFixture.allCases, MachineEvent.allCases)
    func eachEventInEachState(_ fixture: MachineFixture, _ event: MachineEvent) async {
        switch expected(fixture, event) {
        case .answer(let action, let next):
            var machine = fixture.machine
            #expect(event.apply(to: &machine) == action)
            #expect(machine.state == next)
        case .impossible:
            await #expect(processExitsWith: .failure, "\(fixture.rawValue).\(event.rawValue) did not stop the machine") { [fixture, event] in
                var machine = fixture.machine
                _ = event.apply(to: &machine)
            }
        }
    }

    /// The pairs that stop the process (`preconditionFailure`), listed so that a change to the
    /// table shows here: 52 of the 135.
    @Test func theImpossiblePairs() {
        let impossible = MachineFixture.allCases.flatMap { fixture in
            MachineEvent.allCases.compactMap { event -> String? in
                guard case .impossible = expected(fixture, event) else { return nil }
                return "\(fixture.rawValue).\(event.rawValue)"
            }
        }
        #expect(impossible == [
            "idle.retryTimerFired", "idle.head", "idle.overlapMismatched", "idle.wroteBytes", "idle.bodyEnded",
            "idle.transportFailed", "idle.finalFailure", "idle.finishedWell", "idle.finishedBadly",
            "idle.segmentsAdvanced", "idle.segmentsFinished", "idle.segmentsSawAnotherFile",
            "requesting.start", "requesting.retryTimerFired", "requesting.overlapMismatched", "requesting.wroteBytes",
            "requesting.bodyEnded", "requesting.finishedWell", "requesting.finishedBadly",
            "requesting.segmentsAdvanced", "requesting.segmentsFinished", "requesting.segmentsSawAnotherFile",
            "receiving.start", "receiving.retryTimerFired", "receiving.head", "receiving.finishedWell",
            "receiving.finishedBadly", "receiving.segmentsAdvanced", "receiving.segmentsFinished",
            "receiving.segmentsSawAnotherFile",
            "segmented.start", "segmented.retryTimerFired", "segmented.head", "segmented.overlapMismatched",
            "segmented.wroteBytes", "segmented.bodyEnded", "segmented.finishedWell", "segmented.finishedBadly",
            "waitingToRetry.start", "waitingToRetry.finishedWell", "waitingToRetry.finishedBadly",
            "finishing.start", "finishing.retryTimerFired",
            "paused.start", "paused.finishedWell", "paused.finishedBadly",
            "done.start", "done.finishedWell", "done.finishedBadly",
            "failed.start", "failed.finishedWell", "failed.finishedBadly",
        ])
    }

    /// The events that answer with something else than an action, in the one state each is for;
    /// in every other state they are `preconditionFailure`s (asked only right after
    /// receiveBody, or only while segments run).
    @Test func theQuestionsAnswerInTheirState() {
        var receiving = MachineFixture.receiving.machine
        #expect(receiving.dropFinishedRanges() == answered)
        #expect(receiving.state == receivingFresh)
        #expect(receiving.beginSegments(acceptsRanges: false, now: .zero) == nil)
        #expect(receiving.state == receivingFresh)
        let segmented = MachineFixture.segmented.machine
        #expect(segmented.judgeSegment(status: 404, headers: [], range: 0..<10) == .refused(.unexpectedStatus(404)))
    }

    /// `ignored` leaves everything as it was: the next real event still gets its answer.
    @Test func anIgnoredEventChangesNothing() {
        var machine = MachineFixture.waitingToRetry.machine
        #expect(machine.bodyEnded() == .ignored)
        #expect(machine.wroteBytes(10, now: .zero) == .ignored)
        #expect(machine.checkpoint == fresh)
        #expect(machine.retryTimerFired() == plainRequest)
    }
}
