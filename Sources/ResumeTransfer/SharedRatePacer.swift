import Synchronization

/// One ``RatePacer`` for all the connections of a download, so `--limit-rate` bounds the
/// download, not each connection: every receiver reports its bytes here, from its own event loop.
final class SharedRatePacer: Sendable {
    private let pacer: Mutex<RatePacer>
    /// The limit.
    let bytesPerSecond: Int64

    init(bytesPerSecond: Int64) {
        self.bytesPerSecond = max(bytesPerSecond, 1)
        self.pacer = Mutex(RatePacer(bytesPerSecond: bytesPerSecond))
    }

    /// See ``RatePacer/delay(after:now:)``; `now` is a reading of one monotonic clock for all callers.
    func delay(after count: Int, now: Duration) -> Duration? {
        self.pacer.withLock { $0.delay(after: count, now: now) }
    }
}
