import Foundation

/// Decides every step of one download without touching the network or the disk.
///
/// The I/O layer (``DownloadTask``) feeds it events (a response head arrived, bytes were written,
/// the body ended, the connection failed, a timer fired) and performs the ``Action`` it returns.
/// Keeping the decisions here lets the tests drive every transition with plain assertions.
struct DownloadStateMachine: Sendable {
    /// Knobs of the machine. (Stalls are detected by the HTTP client's read timeout and reported
    /// through ``transportFailed(_:)``.)
    struct Configuration: Sendable {
        /// Redirects followed in one chain (reset by any other answer).
        var maximumRedirects = 10
        /// Failed attempts in a row before giving up. An attempt that restarted from zero, or that
        /// ended without passing the furthest offset already reached, counts as failed even when it
        /// received bytes, so a server that cannot deliver the whole file cannot keep us forever.
        var maximumRetries = 5
        /// What to believe of redirects and unproven bytes.
        var policy = TrustPolicy()
        var initialBackoff: Duration = .milliseconds(250)
        var maximumBackoff: Duration = .seconds(30)
        /// Retry-After values above this are clamped, so a server cannot park us for a day.
        var maximumRetryAfter: Duration = .seconds(300)
        var checkpointBytes: Int64 = 4 << 20
        var checkpointInterval: Duration = .seconds(2)
        /// Returns a value in 0..<1 used to spread retries; tests make it constant.
        var jitter: @Sendable () -> Double = { Double.random(in: 0..<1) }
    }

    /// What the I/O layer must do next.
    enum Action: Equatable, Sendable {
        /// Send a GET with these headers; discard any response in flight first.
        case sendRequest(RequestPlan)
        /// The response body is the file's bytes from `offset - overlap`: truncate the partial file
        /// to `offset`; compare the body's first `overlap` bytes with the file's bytes before
        /// `offset` and call ``overlapMismatched()`` if they differ; write the rest from `offset`.
        /// When starting over, `restartCheckpoint` must be written before the first byte, so an old
        /// checkpoint never describes new bytes.
        case receiveBody(offset: Int64, overlap: Int64 = 0, restartCheckpoint: DownloadCheckpoint?)
        /// Nothing to do.
        case none
        /// fsync the partial file, then write this checkpoint next to it atomically (the bytes it
        /// counts are all written already, so receiving may continue meanwhile).
        case checkpoint(DownloadCheckpoint)
        /// Drop the connection, write the checkpoint, sleep, then call ``retryTimerFired()``.
        case retry(after: Duration, checkpoint: DownloadCheckpoint)
        /// The partial file holds the whole body: verify it, then move it into place.
        case finish(length: Int64, checkpoint: DownloadCheckpoint)
        /// Stop; the partial file and this checkpoint stay for a later resume.
        case fail(DownloadError, checkpoint: DownloadCheckpoint)
        /// Stop because the user asked; write the checkpoint.
        case pause(DownloadCheckpoint)
    }

    /// One HTTP request the machine wants sent.
    struct RequestPlan: Equatable, Sendable {
        var url: String
        var headers: [HTTPField]
        /// The byte offset asked for with `Range`, 0 for a plain request.
        var offset: Int64
    }

    fileprivate struct Progress: Sendable {
        /// The end of the bytes on disk that belong to the file.
        var written: Int64
        /// Where this response's new bytes began.
        var prefix: Int64
        var total: Int64?
        /// One past the last byte of a 206's range; nil for a 200.
        var rangeEnd: Int64?
        /// This attempt started over from zero after bytes had been received.
        var restarted: Bool
        var lastCheckpointBytes: Int64
        var lastCheckpointTime: Duration
    }

    fileprivate enum State: Sendable {
        case idle
        /// A request is in flight, for the bytes from `start`; the bytes before `prefix` are on
        /// disk and are kept (those from `start` to `prefix` only once the server's match them).
        case requesting(start: Int64, prefix: Int64)
        case receiving(Progress)
        /// Several connections fetch segments of a file of `total` bytes (see ``SegmentPlan``);
        /// the checkpoint holds the prefix and the other finished ranges.
        case segmented(total: Int64, best: Int64, lastCheckpointBytes: Int64, lastCheckpointTime: Duration)
        case waitingToRetry
        case finishing
        case paused
        case done
        case failed
    }

    private var state: State = .idle
    private(set) var checkpoint: DownloadCheckpoint
    private let configuration: Configuration
    /// Why the last ``Action/retry(after:checkpoint:)`` was decided, for progress reports.
    private(set) var lastRetryReason: DownloadError?
    private var redirects = 0
    private var attempts = 0
    /// The furthest offset any attempt has reached on the current file.
    private var furthest: Int64
    /// How many bytes the newest checkpoint handed to the I/O layer (or the blob already on disk)
    /// claims: the partial file may never be cut below it unless a restart checkpoint comes first.
    private var claimed: Int64
    /// Set when a 206 could not be trusted, so the next request asks for the whole file.
    private var forceFullRequest = false
    /// The most bytes segments ever had written of this file: only going past it ends a run of
    /// failed attempts (an attempt that started over and wrote the same bytes again did not help).
    private var segmentsBest: Int64 = 0
    /// The server refused segments (it answered a range with the whole file): one stream from now on.
    private var segmentsDisabled = false

    /// `claimedOnDisk` is what a blob already on disk claims, when it claims more than `checkpoint`.
    init(checkpoint: DownloadCheckpoint, configuration: Configuration = .init(), claimedOnDisk: Int64 = 0) {
        self.checkpoint = checkpoint
        self.configuration = configuration
        self.furthest = checkpoint.bytesReceived
        self.claimed = max(checkpoint.bytesReceived, claimedOnDisk)
    }

    var isFinished: Bool {
        switch self.state {
        case .done, .failed, .paused: return true
        default: return false
        }
    }

    // MARK: events

    mutating func start() -> Action {
        guard case .idle = self.state else { return .none }
        return self.makeRequest()
    }

    mutating func retryTimerFired() -> Action {
        guard case .waitingToRetry = self.state else { return .none }
        return self.makeRequest()
    }

    /// A response head arrived for the request last planned.
    mutating func receivedResponse(status: Int, headers: [HTTPField], now: Duration, wallClock: Date = Date()) -> Action {
        guard case .requesting(let start, let prefix) = self.state else { return .none }
        let etag = headers.value(of: "etag")
        let lastModified = headers.value(of: "last-modified")
        if !(300...399).contains(status) { self.redirects = 0 }

        switch status {
        case 206:
            // Every number below comes from the server: each is checked before any arithmetic.
            guard let range = ContentRange(headers.value(of: "content-range") ?? ""),
                  range.start == start, let rangeEnd = range.exclusiveEnd, let length = range.length,
                  rangeEnd >= prefix
            else {
                return self.startOverFromScratch()
            }
            // A different validator or total means a different file: never splice it onto old bytes.
            if prefix > 0 {
                guard self.validatorsMatch(etag: etag, lastModified: lastModified) else {
                    return self.startOverFromScratch()
                }
                if let known = self.checkpoint.totalLength, let total = range.total, known != total {
                    return self.startOverFromScratch()
                }
            }
            if let stated = headers.value(of: "content-length") {
                guard let count = Int64(stated), count == length else { return self.startOverFromScratch() }
            }
            if let etag { self.checkpoint.entityTag = etag }
            if let lastModified { self.checkpoint.lastModified = lastModified }
            if let total = range.total { self.checkpoint.totalLength = total }
            self.forceFullRequest = false
            self.state = .receiving(.init(
                written: prefix, prefix: prefix, total: self.checkpoint.totalLength, rangeEnd: rangeEnd,
                restarted: false, lastCheckpointBytes: prefix, lastCheckpointTime: now))
            // The file is cut to `prefix`: from now on nothing may count more. When a blob on disk
            // counts more (this answers a request that started over), it is replaced first.
            self.checkpoint.bytesReceived = prefix
            let restart = prefix < self.claimed ? self.handOut(self.checkpoint) : nil
            return .receiveBody(offset: prefix, overlap: prefix - start, restartCheckpoint: restart)

        case 200:
            // Range ignored or If-Range failed: the body is the whole (possibly new) file.
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

        case 416:
            // Only a range that starts exactly at the end of proven bytes can be "past the end".
            let total = ContentRange(headers.value(of: "content-range") ?? "")?.total
            let sameFile = self.validatorsMatch(etag: etag, lastModified: lastModified)
            if prefix > 0, start == prefix, sameFile, let total, total == prefix {
                self.checkpoint.totalLength = total
                self.state = .finishing
                return .finish(length: prefix, checkpoint: self.checkpoint)
            }
            return self.startOverFromScratch()

        case 301, 302, 303, 307, 308:
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

        case 408, 429, 500...599:
            let retryAfter = headers.value(of: "retry-after").flatMap { RetryAfter.parse($0, now: wallClock) }
            return self.scheduleRetry(reason: .unexpectedStatus(status), retryAfter: retryAfter)

        default:
            return self.fail(.unexpectedStatus(status))
        }
    }

    /// The body's first bytes differ from the partial file's bytes they should repeat: the server's
    /// file is another one, so start over from zero.
    mutating func overlapMismatched() -> Action {
        guard case .receiving = self.state else { return .none }
        self.checkpoint.bytesReceived = 0
        return self.startOverFromScratch()
    }

    /// `count` bytes of the body were written at the current end of the partial file.
    mutating func wroteBytes(_ count: Int, now: Duration) -> Action {
        guard case .receiving(var progress) = self.state else { return .none }
        let (written, overflow) = progress.written.addingReportingOverflow(Int64(count))
        if overflow {
            return self.fail(.lengthMismatch(expected: progress.total ?? Int64.max, received: Int64.max))
        }
        progress.written = written
        if let total = progress.total, progress.written > total {
            self.state = .failed
            return .fail(.lengthMismatch(expected: total, received: progress.written), checkpoint: self.handOut(self.checkpoint))
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

    /// The response body ended cleanly.
    mutating func bodyEnded() -> Action {
        guard case .receiving(let progress) = self.state else { return .none }
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

    /// The request or the body failed at the transport level.
    /// `failure` is ``DownloadError/connection(_:)``, ``DownloadError/timedOut`` or ``DownloadError/stalled``.
    mutating func transportFailed(_ failure: DownloadError) -> Action {
        switch self.state {
        case .requesting:
            break
        case .receiving(let progress):
            self.checkpoint.bytesReceived = progress.written
        case .segmented:
            // Every connection stopped: the checkpoint holds what they wrote.
            break
        default:
            return .none
        }
        return self.scheduleRetry(reason: failure, retryAfter: nil)
    }

    /// A failure that no retry can mend (an untrusted certificate): stop.
    mutating func failedForGood(_ error: DownloadError) -> Action {
        switch self.state {
        case .done, .failed, .paused: return .none
        default: return self.fail(error)
        }
    }

    /// Writing to the partial file failed (disk full, permissions): not worth retrying.
    /// The checkpoint keeps the last flushed count, which the partial file still holds.
    mutating func diskFailed(_ message: String) -> Action {
        switch self.state {
        case .done, .failed, .paused: return .none
        default: return self.fail(.disk(message))
        }
    }

    /// Verification after ``Action/finish(length:checkpoint:)`` passed or failed.
    mutating func finished(_ error: DownloadError?) -> Action {
        guard case .finishing = self.state else { return .none }
        if let error {
            return self.fail(error)
        }
        self.state = .done
        return .none
    }

    // MARK: segments (--connections)

    /// What a segment's response head means.
    enum SegmentVerdict: Equatable, Sendable {
        /// Write it; the server sends the bytes up to `end` (exclusive), maybe fewer than asked.
        case accept(end: Int64)
        /// The file changed on the server (another validator or length): start over from zero.
        case changedFile
        /// Not usable (a redirect, an error, a range ignored); the segment goes to another connection.
        case refused(DownloadError)
    }

    /// The response head just accepted (``Action/receiveBody(offset:overlap:restartCheckpoint:)``)
    /// allows segments: the length is known, the validator is a strong ETag (only that proves,
    /// through If-Range, that bytes fetched apart belong to one file), and the server serves
    /// ranges (it answered 206, or said `Accept-Ranges: bytes`). Then the download continues in
    /// segments of a file of the returned length, reported through ``segmentsAdvanced(prefix:ranges:now:)``.
    mutating func beginSegments(acceptsRanges: Bool, now: Duration) -> Int64? {
        guard case .receiving(let progress) = self.state, acceptsRanges, !self.segmentsDisabled,
              progress.prefix == self.checkpoint.bytesReceived,
              let total = progress.total, total > 0, TrustPolicy.isStrong(entityTag: self.checkpoint.entityTag)
        else { return nil }
        self.state = .segmented(total: total, best: progress.prefix, lastCheckpointBytes: progress.prefix, lastCheckpointTime: now)
        return total
    }

    /// The request for bytes `range` of the file, on the current URL with the caller's headers
    /// as ``TrustPolicy`` allows them there, and `If-Range` with the strong ETag.
    func segmentRequest(_ range: Range<Int64>) -> RequestPlan {
        let own: Set<String> = ["range", "if-range", "accept-encoding"]
        let caller = self.checkpoint.extraHeaders.filter { !own.contains($0.name.lowercased()) }
        var headers = TrustPolicy.headers(caller, to: self.checkpoint.currentURL, startedAt: self.checkpoint.originalURL)
        headers.append(HTTPField(name: "Accept-Encoding", value: "identity"))
        headers.append(HTTPField(name: "Range", value: "bytes=\(range.lowerBound)-\(range.upperBound - 1)"))
        if let tag = self.checkpoint.entityTag { headers.append(HTTPField(name: "If-Range", value: tag)) }
        return RequestPlan(url: self.checkpoint.currentURL, headers: headers, offset: range.lowerBound)
    }

    /// Judges the head of a response to ``segmentRequest(_:)`` for `range`. Every number in it
    /// is the server's, checked before use.
    func judgeSegment(status: Int, headers: [HTTPField], range: Range<Int64>) -> SegmentVerdict {
        guard case .segmented(let total, _, _, _) = self.state else { return .refused(.cancelled) }
        let etag = headers.value(of: "etag")
        switch status {
        case 206:
            guard let known = self.checkpoint.entityTag, etag == known else { return .changedFile }
            guard let answer = ContentRange(headers.value(of: "content-range") ?? ""), let end = answer.exclusiveEnd,
                  let length = answer.length
            else { return .refused(.invalidContentRange) }
            if let stated = answer.total, stated != total { return .changedFile }
            guard answer.start == range.lowerBound, end > range.lowerBound else { return .refused(.invalidContentRange) }
            if let stated = headers.value(of: "content-length") {
                guard let count = Int64(stated), count == length else { return .refused(.invalidContentRange) }
            }
            return .accept(end: min(end, range.upperBound))
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

    /// The segments wrote more: the checkpoint holds `prefix` and `ranges` (beyond it). Returns
    /// ``Action/checkpoint(_:)`` when one is due, else ``Action/none``.
    mutating func segmentsAdvanced(prefix: Int64, ranges: [Range<Int64>], now: Duration) -> Action {
        guard case .segmented(let total, let best, let lastBytes, let lastTime) = self.state else { return .none }
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

    /// Every segment is written: verify and move into place.
    mutating func segmentsFinished() -> Action {
        guard case .segmented(let total, _, _, _) = self.state else { return .none }
        self.checkpoint.bytesReceived = total
        self.checkpoint.finishedRanges = []
        self.checkpoint.totalLength = total
        self.state = .finishing
        return .finish(length: total, checkpoint: self.checkpoint)
    }

    /// A segment's answer showed another file: nothing written can be kept.
    mutating func segmentsSawAnotherFile() -> Action {
        guard case .segmented = self.state else { return .none }
        self.checkpoint.bytesReceived = 0
        self.checkpoint.finishedRanges = []
        self.segmentsBest = 0
        return self.startOverFromScratch()
    }

    /// The server answered a segment's range with the whole file: later attempts use one stream.
    mutating func disableSegments() {
        self.segmentsDisabled = true
    }

    /// The checkpoint without the extra ranges, for a response that continues in one stream
    /// from the prefix and cuts the file there: it must be written before the cut.
    mutating func dropFinishedRanges() -> DownloadCheckpoint {
        self.checkpoint.finishedRanges = []
        return self.handOut(self.checkpoint)
    }

    mutating func pause() -> Action {
        switch self.state {
        case .receiving(let progress):
            self.checkpoint.bytesReceived = progress.written
        case .idle, .requesting, .waitingToRetry, .segmented:
            break
        case .finishing, .paused, .done, .failed:
            return .none
        }
        self.state = .paused
        return .pause(self.handOut(self.checkpoint))
    }

    // MARK: helpers

    private mutating func makeRequest() -> Action {
        let own: Set<String> = ["range", "if-range", "accept-encoding"]
        let caller = self.checkpoint.extraHeaders.filter { !own.contains($0.name.lowercased()) }
        var headers = TrustPolicy.headers(caller, to: self.checkpoint.currentURL, startedAt: self.checkpoint.originalURL)
        headers.append(HTTPField(name: "Accept-Encoding", value: "identity"))
        let prefix = self.forceFullRequest ? 0 : max(self.checkpoint.bytesReceived, 0)
        var start: Int64 = 0
        if prefix > 0 {
            // A strong ETag in If-Range proves the bytes on disk are the server's. Anything weaker
            // (a Last-Modified, a weak tag, nothing) is checked by asking again for the last
            // bytes already held and comparing them before appending.
            start = TrustPolicy.isStrong(entityTag: self.checkpoint.entityTag)
                ? prefix : max(prefix - TrustPolicy.overlapLength, 0)
            headers.append(HTTPField(name: "Range", value: "bytes=\(start)-"))
            if let validator = self.checkpoint.ifRangeValidator {
                headers.append(HTTPField(name: "If-Range", value: validator))
            }
        }
        self.state = .requesting(start: start, prefix: prefix)
        return .sendRequest(RequestPlan(url: self.checkpoint.currentURL, headers: headers, offset: start))
    }

    private mutating func startOverFromScratch() -> Action {
        if self.forceFullRequest {
            // A plain request answered with a bad 206 as well: the server is broken.
            return self.fail(.invalidContentRange)
        }
        self.forceFullRequest = true
        return self.makeRequest()
    }

    private mutating func scheduleRetry(reason: DownloadError, retryAfter: Duration?) -> Action {
        self.attempts += 1
        self.lastRetryReason = reason
        guard self.attempts <= self.configuration.maximumRetries else {
            return self.fail(.retriesExhausted(last: reason, attempts: self.attempts - 1))
        }
        self.state = .waitingToRetry
        return .retry(after: self.backoff(retryAfter: retryAfter), checkpoint: self.handOut(self.checkpoint))
    }

    /// Exponential backoff with jitter, or the server's Retry-After when it asked for longer.
    func backoff(retryAfter: Duration?) -> Duration {
        let exponent = min(self.attempts - 1, 30)
        var delay = self.configuration.initialBackoff * (1 << exponent)
        if delay > self.configuration.maximumBackoff { delay = self.configuration.maximumBackoff }
        let jitter = min(max(self.configuration.jitter(), 0), 1)
        delay = delay * (0.5 + 0.5 * jitter)
        if let retryAfter {
            let clamped = min(retryAfter, self.configuration.maximumRetryAfter)
            if clamped > delay { delay = clamped }
        }
        return delay
    }

    private mutating func fail(_ error: DownloadError) -> Action {
        self.state = .failed
        return .fail(error, checkpoint: self.handOut(self.checkpoint))
    }

    /// Records what a checkpoint given to the I/O layer claims, and returns it.
    private mutating func handOut(_ checkpoint: DownloadCheckpoint) -> DownloadCheckpoint {
        self.claimed = checkpoint.bytesReceived
        return checkpoint
    }

    /// True when the response's validators do not contradict the ones recorded.
    private func validatorsMatch(etag: String?, lastModified: String?) -> Bool {
        if let known = self.checkpoint.entityTag, let etag, known != etag { return false }
        if let known = self.checkpoint.lastModified, let lastModified, known != lastModified { return false }
        return true
    }
}
