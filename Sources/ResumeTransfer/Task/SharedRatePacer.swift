import Synchronization

/// One ``RatePacer`` for all the connections of a download, so `--limit-rate` bounds the
/// download, not each connection: every receiver reports its bytes here, from its own event loop.
final class SharedRatePacer: Sendable {
    private let pacer: Mutex<RatePacer>
    /// The limit (at least 1, as the pacer keeps it).
    let bytesPerSecond: Int64

    init(bytesPerSecond: Int64) {
        let pacer = RatePacer(bytesPerSecond: bytesPerSecond)
        self.bytesPerSecond = pacer.bytesPerSecond
        self.pacer = Mutex(pacer)
    }

    /// See ``RatePacer/delay(after:now:)``; `now` is a reading of one monotonic clock for all callers.
    func delay(after count: Int, now: Duration) -> Duration? {
        self.pacer.withLock { $0.delay(after: count, now: now) }
    }
}
