/// Every retry rule of the engine, in one place and without I/O: which failures are worth
/// another attempt, how long to wait before it, and when the attempts run out, for one stream
/// and for the connections of a segmented download alike.
///
/// What counts as progress (and so ends a run of failed attempts) is the state machine's to
/// see; it reports the run's length here and follows the verdict.
struct RetryPolicy: Sendable {
    /// Failed attempts in a row allowed to be retried; the next failure gives up.
    var maximumRetries: Int
    /// The delay before the first retry; it doubles with each failed attempt in a row.
    var initialBackoff: Duration
    /// The longest delay the doubling reaches.
    var maximumBackoff: Duration
    /// `Retry-After` values above this are cut to it, so a server cannot park us for a day.
    var maximumRetryAfter: Duration
    /// Returns a value in 0..<1 that spreads retries; tests make it constant.
    var jitter: @Sendable () -> Double

    /// What to do after a failed attempt.
    enum Verdict: Equatable, Sendable {
        /// Wait this long, then try again.
        case retry(after: Duration)
        /// Stop with this error.
        case giveUp(TransferError)
    }

    /// How a failure is handled, whatever failed.
    enum Handling: Equatable, Sendable {
        /// A local file could not be written: retrying cannot help and the blob on disk stays the last good one.
        case disk
        /// No retry can change it: an untrusted certificate, a proxy that wants credentials or cannot be used.
        case final
        /// The connection, a timeout, a stall: another attempt may succeed.
        case retryable
    }

    /// How `error` is handled.
    static func handling(of error: TransferError) -> Handling {
        switch error {
        case .disk: .disk
        case .tls, .invalidProxy, .cannotResolve: .final
        default: .retryable
        }
    }

    /// Whether a response with this status is retried (the server is busy or failed for now)
    /// rather than ending the download.
    static func retries(status: Int) -> Bool {
        status == 408 || status == 429 || (500...599).contains(status)
    }

    /// The verdict after the `failures`-th failed attempt in a row, caused by `reason`, with the
    /// server's `Retry-After` when it sent one.
    func afterFailure(_ failures: Int, reason: TransferError, retryAfter: Duration?) -> Verdict {
        guard failures <= self.maximumRetries else {
            return .giveUp(.retriesExhausted(last: reason, attempts: failures - 1))
        }
        return .retry(after: self.delay(afterFailures: failures, retryAfter: retryAfter))
    }

    /// Exponential backoff with jitter (between half and all of the doubled delay), or the
    /// server's `Retry-After` (cut to ``maximumRetryAfter``) when it asks for longer.
    func delay(afterFailures failures: Int, retryAfter: Duration?) -> Duration {
        let exponent = min(max(failures - 1, 0), 30)
        var delay = self.initialBackoff * (1 << exponent)
        if delay > self.maximumBackoff { delay = self.maximumBackoff }
        let jitter = min(max(self.jitter(), 0), 1)
        delay = delay * (0.5 + 0.5 * jitter)
        if let retryAfter {
            let clamped = min(retryAfter, self.maximumRetryAfter)
            if clamped > delay { delay = clamped }
        }
        return delay
    }

    /// Whether a segmented download may open another connection after `failures` connections
    /// in a row failed or were refused without writing a byte. The same budget as attempts: once
    /// it is spent, the remaining connections finish and the attempt as a whole fails.
    func opensConnection(afterFailures failures: Int) -> Bool {
        failures <= max(self.maximumRetries, 0)
    }
}
