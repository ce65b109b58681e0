import Foundation
import ResumeDataCodec

/// Decides every step of one download without touching the network or the disk.
///
/// The I/O layer (``DownloadTask``'s run loop) feeds it events (a response head arrived, bytes
/// were written, the body ended, the connection failed, a timer fired) and performs the
/// ``Action`` it returns. Keeping the decisions here lets the tests drive every transition with
/// plain assertions.
///
/// The machine is total: every event switches over every state. An event that the network can
/// deliver late (a byte after a pause, a timer after a failure, a failure after the end) is
/// answered with ``Action/ignored``, which differs from ``Action/none`` ("nothing to do"). A
/// pair that the run loop's order rules out stops the process with `preconditionFailure`, each
/// with its reason.
struct DownloadStateMachine: Sendable {
    private(set) var state: State = .idle
    private(set) var checkpoint: DownloadCheckpoint
    private let configuration: Configuration
    /// Why the last ``Action/retry(after:checkpoint:)`` was decided, for progress reports.
    private(set) var lastRetryReason: TransferError?
    private var redirects = 0
    /// Failed attempts in a row (see ``RetryPolicy``).
    private var attempts = 0
    /// The furthest offset any attempt has reached on the current file.
    private var furthest: Int64
    /// How many bytes the newest checkpoint handed to the I/O layer (or the blob already on disk)
    /// claims: the partial file may never be cut below it unless a restart checkpoint comes first.
    private var claimed: Int64
    /// Set when a 206 could not be trusted, so the next request asks for the whole file.
    private var forceFullRequest = false
    /// Why the last whole-file answer replaced the bytes on disk, for the restart's report.
    private(set) var lastRestartReason: RestartReason = .fileChanged
    /// Which validator last proved the server's file another, and how (for the restart's
    /// message); taken once by ``takeValidatorChange()``.
    private(set) var lastValidatorChange: String?
    /// The most bytes segments ever had written of this file: only going past it ends a run of
    /// failed attempts (an attempt that started over and wrote the same bytes again did not help).
    private var segmentsBest: Int64 = 0
    /// The server refused segments (it answered a range with the whole file): one stream from now on.
    private var segmentsDisabled = false

    /// `claimedOnDisk` is what a blob already on disk claims, when it claims more than `checkpoint`.
    init(checkpoint: DownloadCheckpoint, configuration: Configuration, claimedOnDisk: Int64 = 0) {
        self.checkpoint = checkpoint
        self.configuration = configuration
        self.furthest = checkpoint.bytesReceived
        self.claimed = max(checkpoint.bytesReceived, claimedOnDisk)
    }

    /// The retry rules, which the segments' connections follow too.
    var retryPolicy: RetryPolicy { self.configuration.retry }

    var isFinished: Bool {
        switch self.state {
        case .done, .failed, .paused: true
        case .idle, .requesting, .receiving, .segmented, .waitingToRetry, .finishing: false
        }
    }

    // MARK: events

    /// The first event: plan the first request.
    mutating func start() -> Action {
        switch self.state {
        case .idle:
            return self.makeRequest()
        case .requesting, .receiving, .segmented, .waitingToRetry, .finishing, .paused, .done, .failed:
            preconditionFailure("start() in \(self.state): the run loop starts a machine once, before any other event")
        }
    }

    /// The delay of the last ``Action/retry(after:checkpoint:)`` is over.
    mutating func retryTimerFired() -> Action {
        switch self.state {
        case .waitingToRetry:
            return self.makeRequest()
        case .paused, .done, .failed:
            // A timer that outlived the download (paused or failed while it ran).
            return .ignored
        case .idle, .requesting, .receiving, .segmented, .finishing:
            preconditionFailure("retryTimerFired() in \(self.state): only a retry arms the timer, and it fires once, while waiting")
        }
    }

    /// A response head arrived for the request last planned.
    mutating func receivedResponse(status: Int, headers: [HTTPHeaderField], now: Duration, wallClock: Date = Date()) -> Action {
        switch self.state {
        case .requesting(let start, let prefix):
            return self.judgeResponse(status: status, headers: headers, start: start, prefix: prefix, now: now, wallClock: wallClock)
        case .waitingToRetry, .finishing, .paused, .done, .failed:
            // A head that lost a race: the attempt was already given up, stopped or ended.
            return .ignored
        case .idle:
            preconditionFailure("receivedResponse in idle: no request was sent before start()")
        case .receiving, .segmented:
            preconditionFailure("receivedResponse in \(self.state): a response has one head; a new request enters requesting first")
        }
    }

    /// The body's first bytes differ from the partial file's bytes they should repeat: the server's
    /// file is another one, so start over from zero.
    mutating func overlapMismatched() -> Action {
        switch self.state {
        case .receiving:
            self.checkpoint.bytesReceived = 0
            return self.startOverFromScratch()
        case .waitingToRetry, .finishing, .paused, .done, .failed:
            // The comparison finished after the machine had moved on.
            return .ignored
        case .idle, .requesting:
            preconditionFailure("overlapMismatched() in \(self.state): bytes are compared only after receiveBody accepted a head")
        case .segmented:
            preconditionFailure("overlapMismatched() in segmented: segments begin only from a response without overlap")
        }
    }

    /// `count` bytes of the body were written at the current end of the partial file.
    mutating func wroteBytes(_ count: Int, now: Duration) -> Action {
        switch self.state {
        case .receiving(let progress):
            return self.received(count, progress: progress, now: now)
        case .waitingToRetry, .finishing, .paused, .done, .failed:
            // Bytes of a response the machine no longer follows (written before it was stopped).
            return .ignored
        case .idle, .requesting:
            preconditionFailure("wroteBytes in \(self.state): bytes are written only after receiveBody accepted a head")
        case .segmented:
            preconditionFailure("wroteBytes in segmented: segments report their bytes through segmentsAdvanced")
        }
    }

    /// The response body ended cleanly.
    mutating func bodyEnded() -> Action {
        switch self.state {
        case .receiving(let progress):
            return self.ended(progress)
        case .waitingToRetry, .finishing, .paused, .done, .failed:
            // The end of a response the machine no longer follows.
            return .ignored
        case .idle, .requesting:
            preconditionFailure("bodyEnded() in \(self.state): a body ends only after receiveBody accepted its head")
        case .segmented:
            preconditionFailure("bodyEnded() in segmented: segments end through segmentsFinished or transportFailed")
        }
    }

    /// The request or the body failed: a transport error (``TransferError/connection(_:)``,
    /// ``TransferError/timedOut``, ``TransferError/stalled``, retried), a final one (TLS, proxy)
    /// or a write (``TransferError/disk(_:)``); ``RetryPolicy/handling(of:)`` tells them apart.
    mutating func transportFailed(_ failure: TransferError) -> Action {
        let retryable = RetryPolicy.handling(of: failure) == .retryable
        switch self.state {
        case .requesting, .segmented:
            // Segments: every connection stopped, and the checkpoint holds what they wrote.
            break
        case .receiving(let progress):
            // A final error keeps the last checkpoint's count; a retry counts every byte written.
            if retryable { self.checkpoint.bytesReceived = progress.written }
        case .waitingToRetry, .finishing, .paused, .done, .failed:
            // A failure after the machine stopped following the response (it decided first).
            return .ignored
        case .idle:
            preconditionFailure("transportFailed in idle: no request was sent before start()")
        }
        guard retryable else { return self.fail(failure) }
        return self.scheduleRetry(reason: failure, retryAfter: nil)
    }

    /// Writing to the partial file or the blob failed (disk full, permissions): not worth retrying.
    /// The checkpoint keeps the last flushed count, which the partial file still holds.
    mutating func diskFailed(_ message: String) -> Action {
        switch self.state {
        case .idle, .requesting, .receiving, .segmented, .waitingToRetry, .finishing:
            return self.fail(.disk(message))
        case .paused, .done, .failed:
            // Stopped already; the caller reports the error itself.
            return .ignored
        }
    }

    /// Verification after ``Action/finish(length:checkpoint:)`` passed or failed.
    mutating func finished(_ error: TransferError?) -> Action {
        switch self.state {
        case .finishing:
            if let error { return self.fail(error) }
            self.state = .done
            return .none
        case .idle, .requesting, .receiving, .segmented, .waitingToRetry, .paused, .done, .failed:
            preconditionFailure("finished(_:) in \(self.state): it answers a finish action, once")
        }
    }

    /// The user asked to stop.
    mutating func pause() -> Action {
        switch self.state {
        case .receiving(let progress):
            self.checkpoint.bytesReceived = progress.written
        case .idle, .requesting, .waitingToRetry, .segmented:
            break
        case .finishing, .paused, .done, .failed:
            // Too late to pause: the download is complete or stopped already.
            return .ignored
        }
        self.state = .paused
        return .pause(self.handOut(self.checkpoint))
    }

    // MARK: segments (--connections)

    /// What a segment's response head means.
    enum SegmentVerdict: Equatable, Sendable {
        /// Write it; the server sends the bytes up to `end` (exclusive), maybe fewer than asked.
        case accept(end: Int64)
        /// The file changed on the server (another validator or length): start over from zero.
        case changedFile
        /// Not usable (a redirect, an error, a range ignored); the segment goes to another connection.
        case refused(TransferError)
    }

    /// The response head just accepted (``Action/receiveBody(offset:overlap:restartCheckpoint:)``)
    /// allows segments: the length is known, the validator is a strong ETag (only that proves,
    /// through If-Range, that bytes fetched apart belong to one file), and the server serves
    /// ranges (it answered 206, or said `Accept-Ranges: bytes`). Then the download continues in
    /// segments of a file of the returned length, reported through ``segmentsAdvanced(prefix:ranges:now:)``.
    mutating func beginSegments(acceptsRanges: Bool, now: Duration) -> Int64? {
        switch self.state {
        case .receiving(let progress):
            guard acceptsRanges, !self.segmentsDisabled, progress.prefix == self.checkpoint.bytesReceived,
                  let total = progress.total, total > 0, self.checkpoint.provingEntityTag != nil
            else { return nil }
            self.state = .segmented(total: total, best: progress.prefix, lastCheckpointBytes: progress.prefix, lastCheckpointTime: now)
            return total
        case .idle, .requesting, .segmented, .waitingToRetry, .finishing, .paused, .done, .failed:
            preconditionFailure("beginSegments in \(self.state): asked once per response, right after receiveBody")
        }
    }

    /// The request for bytes `range` of the file, on the current URL with the caller's headers
    /// as ``TrustPolicy`` allows them there, and `If-Range` with the strong ETag.
    func segmentRequest(_ range: Range<Int64>) -> RequestPlan {
        RequestPlan(checkpoint: self.checkpoint, range: (range.lowerBound, range.upperBound), ifRange: self.checkpoint.entityTag)
    }

    /// Judges the head of a response to ``segmentRequest(_:)`` for `range`. Every number in it
    /// is the server's, checked before use.
    func judgeSegment(status: Int, headers: [HTTPHeaderField], range: Range<Int64>) -> SegmentVerdict {
        switch self.state {
        case .segmented(let total, _, _, _):
            return self.judgeSegment(status: status, headers: headers, range: range, total: total)
        case .idle, .requesting, .receiving, .waitingToRetry, .finishing, .paused, .done, .failed:
            preconditionFailure("judgeSegment in \(self.state): segment requests are sent only while segments run")
        }
    }

    /// The segments wrote more: the checkpoint holds `prefix` and `ranges` (beyond it). Returns
    /// ``Action/checkpoint(_:)`` when one is due, else ``Action/none``.
    mutating func segmentsAdvanced(prefix: Int64, ranges: [Range<Int64>], now: Duration) -> Action {
        switch self.state {
        case .segmented(let total, let best, let lastBytes, let lastTime):
            return self.advanced(prefix: prefix, ranges: ranges, now: now, total: total, best: best, lastBytes: lastBytes, lastTime: lastTime)
        case .waitingToRetry, .finishing, .paused, .done, .failed:
            // Bytes a segment wrote before the machine stopped following the segments.
            return .ignored
        case .idle, .requesting, .receiving:
            preconditionFailure("segmentsAdvanced in \(self.state): segments have not begun")
        }
    }

    /// Every segment is written: verify and move into place.
    mutating func segmentsFinished() -> Action {
        switch self.state {
        case .segmented(let total, _, _, _):
            self.checkpoint.bytesReceived = total
            self.checkpoint.finishedRanges = []
            self.checkpoint.totalLength = total
            self.state = .finishing
            return .finish(length: total, checkpoint: self.checkpoint)
        case .waitingToRetry, .finishing, .paused, .done, .failed:
            // The segments' end, after the machine stopped following them.
            return .ignored
        case .idle, .requesting, .receiving:
            preconditionFailure("segmentsFinished() in \(self.state): segments have not begun")
        }
    }

    /// A segment's answer showed another file: nothing written can be kept.
    mutating func segmentsSawAnotherFile() -> Action {
        switch self.state {
        case .segmented:
            self.checkpoint.bytesReceived = 0
            self.checkpoint.finishedRanges = []
            self.segmentsBest = 0
            return self.startOverFromScratch()
        case .waitingToRetry, .finishing, .paused, .done, .failed:
            // A segment's answer, after the machine stopped following the segments.
            return .ignored
        case .idle, .requesting, .receiving:
            preconditionFailure("segmentsSawAnotherFile() in \(self.state): segments have not begun")
        }
    }

    /// The server answered a segment's range with the whole file: later attempts use one stream.
    mutating func disableSegments() {
        self.segmentsDisabled = true
    }

    /// The checkpoint without the extra ranges, for a response that continues in one stream
    /// from the prefix and cuts the file there: it must be written before the cut.
    mutating func dropFinishedRanges() -> DownloadCheckpoint {
        switch self.state {
        case .receiving:
            self.checkpoint.finishedRanges = []
            return self.handOut(self.checkpoint)
        case .idle, .requesting, .segmented, .waitingToRetry, .finishing, .paused, .done, .failed:
            preconditionFailure("dropFinishedRanges() in \(self.state): asked only right after receiveBody, before the cut")
        }
    }

    // MARK: decisions

    /// The answer to the request for the bytes from `start`, keeping those before `prefix`.
    private mutating func judgeResponse(
        status: Int, headers: [HTTPHeaderField], start: Int64, prefix: Int64, now: Duration, wallClock: Date
    ) -> Action {
        let etag = headers.value(of: "etag")
        let lastModified = headers.value(of: "last-modified")
        if !(300...399).contains(status) { self.redirects = 0 }

        let known = ResumeJudgement.Known(
            entityTag: self.checkpoint.entityTag, lastModified: self.checkpoint.lastModified,
            totalLength: self.checkpoint.totalLength, requestStart: start, prefix: prefix)
        let answer = ResumeJudgement.Answer(
            status: status, entityTag: etag, lastModified: lastModified,
            contentRange: headers.value(of: "content-range"), contentLength: headers.value(of: "content-length"))
        switch ResumeJudgement.judge(known, answer) {
        case .continueAt:
            // `judge` read the same Content-Range; a 206 it accepts always has one.
            guard let range = PartialContent(headers: headers) else { return self.startOverFromScratch() }
            if let etag { self.checkpoint.entityTag = etag }
            if let lastModified { self.checkpoint.lastModified = lastModified }
            if let total = range.total { self.checkpoint.totalLength = total }
            self.forceFullRequest = false
            self.state = .receiving(.init(
                written: prefix, prefix: prefix, total: self.checkpoint.totalLength, rangeEnd: range.end,
                restarted: false, lastCheckpointBytes: prefix, lastCheckpointTime: now))
            // The file is cut to `prefix`: from now on nothing may count more. When a blob on disk
            // counts more (this answers a request that started over), it is replaced first.
            self.checkpoint.bytesReceived = prefix
            let restart = prefix < self.claimed ? self.handOut(self.checkpoint) : nil
            return .receiveBody(offset: prefix, overlap: prefix - start, restartCheckpoint: restart)

        case .restart(let why) where status == 200:
            // Range ignored or If-Range failed: the body is the whole (possibly new) file. The
            // same validators and length mean the server ignored the range; a whole file asked
            // for because the last answer could not be trusted is another file.
            let sameFile = !self.forceFullRequest && why == .wholeFile(sameEntity: true)
            self.lastRestartReason = sameFile ? .rangesIgnored : .fileChanged
            self.noteChange(why, etag: etag, lastModified: lastModified)
            let restarted = self.furthest > 0
            self.furthest = 0
            self.checkpoint.entityTag = etag
            self.checkpoint.lastModified = lastModified
            self.checkpoint.totalLength = headers.value(of: "content-length").flatMap(Int64.init)
            self.checkpoint.bytesReceived = 0
            self.checkpoint.finishedRanges = []
            self.forceFullRequest = false
            self.state = .receiving(.init(
                written: 0, prefix: 0, total: self.checkpoint.totalLength, rangeEnd: nil,
                restarted: restarted, lastCheckpointBytes: 0, lastCheckpointTime: now))
            return .receiveBody(offset: 0, restartCheckpoint: self.handOut(self.checkpoint))

        case .complete(let total):
            self.checkpoint.totalLength = total
            self.state = .finishing
            return .finish(length: prefix, checkpoint: self.checkpoint)

        case .restart(let why):
            // A different validator or total means a different file: never splice it onto old bytes.
            self.noteChange(why, etag: etag, lastModified: lastModified)
            return self.startOverFromScratch()

        case .notARangeAnswer:
            break
        }

        switch status {
        case _ where TrustPolicy.isRedirect(status):
            switch self.configuration.policy.redirect(from: self.checkpoint.currentURL, location: headers.value(of: "location")) {
            case .failure(let error):
                return self.fail(error)
            case .success(let target):
                self.redirects += 1
                guard self.redirects <= self.configuration.maximumRedirects else {
                    return self.fail(.tooManyRedirects(self.configuration.maximumRedirects))
                }
                self.checkpoint.currentURL = target
                return self.makeRequest()
            }

        case _ where RetryPolicy.retries(status: status):
            let retryAfter = headers.value(of: "retry-after").flatMap { RetryAfter.parse($0, now: wallClock) }
            return self.scheduleRetry(reason: .unexpectedStatus(status), retryAfter: retryAfter)

        default:
            return self.fail(.unexpectedStatus(status))
        }
    }

    /// `count` more bytes written by the response being received.
    private mutating func received(_ count: Int, progress before: Progress, now: Duration) -> Action {
        var progress = before
        let (written, overflow) = progress.written.addingReportingOverflow(Int64(count))
        if overflow {
            return self.fail(.lengthMismatch(expected: progress.total ?? Int64.max, received: Int64.max))
        }
        progress.written = written
        if let total = progress.total, progress.written > total {
            return self.fail(.lengthMismatch(expected: total, received: progress.written))
        }
        if let end = progress.rangeEnd, progress.written > end {
            // More than the range it announced: keep what the range covered, ask again from there.
            self.checkpoint.bytesReceived = end
            return self.scheduleRetry(reason: .lengthMismatch(expected: end, received: progress.written), retryAfter: nil)
        }
        if count > 0, !progress.restarted, progress.written > self.furthest { self.attempts = 0 }
        self.furthest = max(self.furthest, progress.written)
        let dueBySize = progress.written - progress.lastCheckpointBytes >= self.configuration.checkpointBytes
        let dueByTime = now - progress.lastCheckpointTime >= self.configuration.checkpointInterval
            && progress.written > progress.lastCheckpointBytes
        if dueBySize || dueByTime {
            progress.lastCheckpointBytes = progress.written
            progress.lastCheckpointTime = now
            self.checkpoint.bytesReceived = progress.written
            self.state = .receiving(progress)
            return .checkpoint(self.handOut(self.checkpoint))
        }
        self.state = .receiving(progress)
        return .none
    }

    /// The clean end of the response being received.
    private mutating func ended(_ progress: Progress) -> Action {
        self.checkpoint.bytesReceived = progress.written
        let advanced = progress.written > progress.prefix && !progress.restarted
        if let total = progress.total, progress.written == total {
            self.state = .finishing
            return .finish(length: total, checkpoint: self.checkpoint)
        }
        guard let rangeEnd = progress.rangeEnd else {
            if let total = progress.total {
                return self.scheduleRetry(reason: .lengthMismatch(expected: total, received: progress.written), retryAfter: nil)
            }
            // A 200 without a length (chunked): its clean end is the end of the whole file.
            self.checkpoint.totalLength = progress.written
            self.state = .finishing
            return .finish(length: progress.written, checkpoint: self.checkpoint)
        }
        if progress.written == rangeEnd, advanced {
            // A shorter range than asked for (or one of unknown total) ended as announced:
            // ask for the rest at once; only a stated length can end the download.
            return self.makeRequest()
        }
        if progress.total == nil, progress.written == rangeEnd {
            return self.scheduleRetry(reason: .lengthUnproven(received: progress.written), retryAfter: nil)
        }
        return self.scheduleRetry(reason: .lengthMismatch(expected: progress.total ?? rangeEnd, received: progress.written), retryAfter: nil)
    }

    /// A segment's answer for `range` of a file of `total` bytes.
    private func judgeSegment(status: Int, headers: [HTTPHeaderField], range: Range<Int64>, total: Int64) -> SegmentVerdict {
        let etag = headers.value(of: "etag")
        switch status {
        case 206:
            guard let known = self.checkpoint.entityTag, etag == known else { return .changedFile }
            guard let answer = PartialContent(headers: headers) else { return .refused(.invalidContentRange) }
            if let stated = answer.total, stated != total { return .changedFile }
            guard answer.start == range.lowerBound, answer.end > range.lowerBound, answer.lengthAgrees else {
                return .refused(.invalidContentRange)
            }
            return .accept(end: min(answer.end, range.upperBound))
        case 200:
            // If-Range failed (another file), or this server ignores Range after all.
            if let known = self.checkpoint.entityTag, etag != known { return .changedFile }
            if let stated = headers.value(of: "content-length"), Int64(stated) != total { return .changedFile }
            return .refused(.unexpectedStatus(200))
        case 416:
            return .changedFile
        default:
            return .refused(.unexpectedStatus(status))
        }
    }

    /// The segments' new totals; a checkpoint when one is due.
    private mutating func advanced(
        prefix: Int64, ranges: [Range<Int64>], now: Duration, total: Int64, best: Int64, lastBytes: Int64, lastTime: Duration
    ) -> Action {
        self.checkpoint.bytesReceived = prefix
        self.checkpoint.finishedRanges = ranges
        let done = ranges.reduce(prefix) { $0 + Int64($1.count) }
        // Progress past the best so far ends a run of failed attempts.
        if done > self.segmentsBest {
            self.attempts = 0
            self.segmentsBest = done
        }
        self.furthest = max(self.furthest, prefix)
        let dueBySize = done - lastBytes >= self.configuration.checkpointBytes
        let dueByTime = now - lastTime >= self.configuration.checkpointInterval && done > lastBytes
        if dueBySize || dueByTime {
            self.state = .segmented(total: total, best: max(best, done), lastCheckpointBytes: done, lastCheckpointTime: now)
            return .checkpoint(self.handOut(self.checkpoint))
        }
        self.state = .segmented(total: total, best: max(best, done), lastCheckpointBytes: lastBytes, lastCheckpointTime: lastTime)
        return .none
    }

    // MARK: helpers

    private mutating func makeRequest() -> Action {
        let prefix = self.forceFullRequest ? 0 : max(self.checkpoint.bytesReceived, 0)
        var start: Int64 = 0
        var plan: RequestPlan
        if prefix > 0 {
            // A strong ETag in If-Range proves the bytes on disk are the server's. Anything weaker
            // (a Last-Modified, a weak tag, nothing) is checked by asking again for the last
            // bytes already held and comparing them before appending.
            start = self.checkpoint.provingEntityTag != nil
                ? prefix : max(prefix - TrustPolicy.overlapLength, 0)
            plan = RequestPlan(checkpoint: self.checkpoint, range: (start, nil), ifRange: self.checkpoint.ifRangeValidator)
        } else {
            plan = RequestPlan(checkpoint: self.checkpoint, range: nil, ifRange: nil)
        }
        self.state = .requesting(start: start, prefix: prefix)
        return .sendRequest(plan)
    }

    /// Keeps which validator proved the server's file another, in words.
    private mutating func noteChange(_ why: ResumeJudgement.Restart, etag: String?, lastModified: String?) {
        guard case .changed(let validator) = why else { return }
        let (was, now) = validator == .entityTag ? (self.checkpoint.entityTag, etag) : (self.checkpoint.lastModified, lastModified)
        self.lastValidatorChange = "the server's \(validator.rawValue) is \(now ?? "(none)"), the partial file's was \(was ?? "(none)")"
    }

    /// The last validator change noted, once.
    mutating func takeValidatorChange() -> String? {
        defer { self.lastValidatorChange = nil }
        return self.lastValidatorChange
    }

    private mutating func startOverFromScratch() -> Action {
        if self.forceFullRequest {
            // A plain request answered with a bad 206 as well: the server is broken.
            return self.fail(.invalidContentRange)
        }
        self.forceFullRequest = true
        return self.makeRequest()
    }

    private mutating func scheduleRetry(reason: TransferError, retryAfter: Duration?) -> Action {
        self.attempts += 1
        self.lastRetryReason = reason
        switch self.configuration.retry.afterFailure(self.attempts, reason: reason, retryAfter: retryAfter) {
        case .giveUp(let error):
            return self.fail(error)
        case .retry(let delay):
            self.state = .waitingToRetry
            return .retry(after: delay, checkpoint: self.handOut(self.checkpoint))
        }
    }

    private mutating func fail(_ error: TransferError) -> Action {
        self.state = .failed
        return .fail(error, checkpoint: self.handOut(self.checkpoint))
    }

    /// Records what a checkpoint given to the I/O layer claims, and returns it.
    private mutating func handOut(_ checkpoint: DownloadCheckpoint) -> DownloadCheckpoint {
        self.claimed = checkpoint.bytesReceived
        return checkpoint
    }

    /// True when the response's validators do not contradict the ones recorded.
}
