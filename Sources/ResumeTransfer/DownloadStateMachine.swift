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
        var maximumRedirects = 10
        /// Failed attempts in a row (no byte received in between) before giving up.
        var maximumRetries = 5
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
        /// The response body is the file's bytes from `offset`: truncate the partial file to
        /// `offset`, then write each chunk in order. When starting over, `restartCheckpoint` must be
        /// written before the first byte, so an old checkpoint never describes new bytes.
        case receiveBody(offset: Int64, restartCheckpoint: DownloadCheckpoint?)
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
        var written: Int64
        var total: Int64?
        var lastCheckpointBytes: Int64
        var lastCheckpointTime: Duration
    }

    fileprivate enum State: Sendable {
        case idle
        /// A request for `offset` is in flight.
        case requesting(offset: Int64)
        case receiving(Progress)
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
    /// Set when a 206 could not be trusted, so the next request asks for the whole file.
    private var forceFullRequest = false

    init(checkpoint: DownloadCheckpoint, configuration: Configuration = .init()) {
        self.checkpoint = checkpoint
        self.configuration = configuration
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
        guard case .requesting(let offset) = self.state else { return .none }
        let etag = headers.value(of: "etag")
        let lastModified = headers.value(of: "last-modified")

        switch status {
        case 206:
            guard let range = ContentRange(headers.value(of: "content-range") ?? ""),
                  let start = range.start, let end = range.end, start == offset
            else {
                return self.startOverFromScratch()
            }
            // A different validator or total means a different file: never splice it onto old bytes.
            if offset > 0 {
                guard self.validatorsMatch(etag: etag, lastModified: lastModified) else {
                    return self.startOverFromScratch()
                }
                if let known = self.checkpoint.totalLength, let total = range.total, known != total {
                    return self.startOverFromScratch()
                }
            }
            if let length = headers.value(of: "content-length").flatMap(Int64.init), length != end - start + 1 {
                return self.startOverFromScratch()
            }
            if let etag { self.checkpoint.entityTag = etag }
            if let lastModified { self.checkpoint.lastModified = lastModified }
            if let total = range.total { self.checkpoint.totalLength = total }
            self.forceFullRequest = false
            self.state = .receiving(.init(written: offset, total: self.checkpoint.totalLength, lastCheckpointBytes: offset, lastCheckpointTime: now))
            return .receiveBody(offset: offset, restartCheckpoint: nil)

        case 200:
            // Range ignored or If-Range failed: the body is the whole (possibly new) file.
            self.checkpoint.entityTag = etag
            self.checkpoint.lastModified = lastModified
            self.checkpoint.totalLength = headers.value(of: "content-length").flatMap(Int64.init)
            self.checkpoint.bytesReceived = 0
            self.forceFullRequest = false
            self.state = .receiving(.init(written: 0, total: self.checkpoint.totalLength, lastCheckpointBytes: 0, lastCheckpointTime: now))
            return .receiveBody(offset: 0, restartCheckpoint: self.checkpoint)

        case 416:
            let total = ContentRange(headers.value(of: "content-range") ?? "")?.total
            let sameFile = self.validatorsMatch(etag: etag, lastModified: lastModified)
            if offset > 0, sameFile, let total, total == offset {
                self.checkpoint.totalLength = total
                self.state = .finishing
                return .finish(length: offset, checkpoint: self.checkpoint)
            }
            return self.startOverFromScratch()

        case 301, 302, 303, 307, 308:
            guard let location = headers.value(of: "location"),
                  let base = URL(string: self.checkpoint.currentURL),
                  let target = URL(string: location, relativeTo: base)?.absoluteURL,
                  let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https"
            else {
                return self.fail(.unexpectedStatus(status))
            }
            self.redirects += 1
            guard self.redirects <= self.configuration.maximumRedirects else {
                return self.fail(.tooManyRedirects(self.configuration.maximumRedirects))
            }
            self.checkpoint.currentURL = target.absoluteString
            return self.makeRequest()

        case 408, 429, 500...599:
            let retryAfter = headers.value(of: "retry-after").flatMap { RetryAfter.parse($0, now: wallClock) }
            return self.scheduleRetry(reason: .unexpectedStatus(status), retryAfter: retryAfter)

        default:
            return self.fail(.unexpectedStatus(status))
        }
    }

    /// `count` bytes of the body were written at the current end of the partial file.
    mutating func wroteBytes(_ count: Int, now: Duration) -> Action {
        guard case .receiving(var progress) = self.state else { return .none }
        progress.written += Int64(count)
        if count > 0 { self.attempts = 0 }
        if let total = progress.total, progress.written > total {
            self.state = .failed
            return .fail(.lengthMismatch(expected: total, received: progress.written), checkpoint: self.checkpoint)
        }
        let dueBySize = progress.written - progress.lastCheckpointBytes >= self.configuration.checkpointBytes
        let dueByTime = now - progress.lastCheckpointTime >= self.configuration.checkpointInterval
            && progress.written > progress.lastCheckpointBytes
        if dueBySize || dueByTime {
            progress.lastCheckpointBytes = progress.written
            progress.lastCheckpointTime = now
            self.checkpoint.bytesReceived = progress.written
            self.state = .receiving(progress)
            return .checkpoint(self.checkpoint)
        }
        self.state = .receiving(progress)
        return .none
    }

    /// The response body ended cleanly.
    mutating func bodyEnded() -> Action {
        guard case .receiving(let progress) = self.state else { return .none }
        self.checkpoint.bytesReceived = progress.written
        guard let total = progress.total else {
            // No length announced (chunked 200): the clean end is the only completion signal.
            self.checkpoint.totalLength = progress.written
            self.state = .finishing
            return .finish(length: progress.written, checkpoint: self.checkpoint)
        }
        if progress.written == total {
            self.state = .finishing
            return .finish(length: total, checkpoint: self.checkpoint)
        }
        return self.scheduleRetry(reason: .lengthMismatch(expected: total, received: progress.written), retryAfter: nil)
    }

    /// The request or the body failed at the transport level.
    /// `failure` is ``DownloadError/connection(_:)``, ``DownloadError/timedOut`` or ``DownloadError/stalled``.
    mutating func transportFailed(_ failure: DownloadError) -> Action {
        switch self.state {
        case .requesting:
            break
        case .receiving(let progress):
            self.checkpoint.bytesReceived = progress.written
        default:
            return .none
        }
        return self.scheduleRetry(reason: failure, retryAfter: nil)
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

    mutating func pause() -> Action {
        switch self.state {
        case .receiving(let progress):
            self.checkpoint.bytesReceived = progress.written
        case .idle, .requesting, .waitingToRetry:
            break
        case .finishing, .paused, .done, .failed:
            return .none
        }
        self.state = .paused
        return .pause(self.checkpoint)
    }

    // MARK: helpers

    private mutating func makeRequest() -> Action {
        var headers = self.checkpoint.extraHeaders.filter { field in
            !["range", "if-range", "accept-encoding"].contains(field.name.lowercased())
        }
        headers.append(HTTPField(name: "Accept-Encoding", value: "identity"))
        var offset = self.forceFullRequest ? 0 : self.checkpoint.bytesReceived
        if offset > 0 {
            if let validator = self.checkpoint.ifRangeValidator {
                headers.append(HTTPField(name: "Range", value: "bytes=\(offset)-"))
                headers.append(HTTPField(name: "If-Range", value: validator))
            } else {
                // Nothing proves the server's file is the one we have part of: start over.
                offset = 0
            }
        }
        self.state = .requesting(offset: offset)
        return .sendRequest(RequestPlan(url: self.checkpoint.currentURL, headers: headers, offset: offset))
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
        return .retry(after: self.backoff(retryAfter: retryAfter), checkpoint: self.checkpoint)
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
        return .fail(error, checkpoint: self.checkpoint)
    }

    /// True when the response's validators do not contradict the ones recorded.
    private func validatorsMatch(etag: String?, lastModified: String?) -> Bool {
        if let known = self.checkpoint.entityTag, let etag, known != etag { return false }
        if let known = self.checkpoint.lastModified, let lastModified, known != lastModified { return false }
        return true
    }
}
