/// Keeps a download at or under a byte rate: after each chunk, how long to wait so that the
/// bytes so far took at least `bytes / rate` seconds. Waiting in the receive loop stops reading
/// the body, and the HTTP client's back-pressure then slows the server down as well.
///
/// Pure arithmetic on the times it is given, so the tests drive it with plain values.
struct RatePacer: Sendable {
    let bytesPerSecond: Int64
    private var bytes: Int64 = 0
    private var start: Duration?

    init(bytesPerSecond: Int64) {
        self.bytesPerSecond = max(bytesPerSecond, 1)
    }

    /// `count` more bytes arrived at `now` (any monotonic clock's reading); the wait before
    /// reading more, or nil when none is needed.
    mutating func delay(after count: Int, now: Duration) -> Duration? {
        guard let start else {
            // The clock starts with the first chunk, so a slow response head costs nothing.
            self.start = now
            self.bytes = Int64(count)
            return nil
        }
        self.bytes = self.bytes.addingReportingOverflow(Int64(count)).overflow ? Int64.max : self.bytes + Int64(count)
        let due = Duration.seconds(Double(self.bytes) / Double(self.bytesPerSecond))
        let elapsed = now - start
        return due > elapsed ? due - elapsed : nil
    }
}
