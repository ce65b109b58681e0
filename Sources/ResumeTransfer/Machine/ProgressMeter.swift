/// Turns byte counts into throttled progress events with a smoothed speed.
struct ProgressMeter {
    private let clock = ContinuousClock()
    private var windowStart: ContinuousClock.Instant?
    private var windowBytes: Int64 = 0
    private var lastEmit: ContinuousClock.Instant?
    private var rate: Double = 0

    mutating func begin(at offset: Int64) {
        self.windowStart = self.clock.now
        self.windowBytes = offset
    }

    mutating func update(bytes: Int64, total: Int64?, continuation: AsyncStream<DownloadEvent>.Continuation) {
        let now = self.clock.now
        if let last = self.lastEmit, now - last < .milliseconds(100) { return }
        if let start = self.windowStart {
            let elapsed = Self.seconds(now - start)
            if elapsed > 0 {
                let current = Double(bytes - self.windowBytes) / elapsed
                // Smooth so the ETA does not jump with every chunk.
                self.rate = self.rate == 0 ? current : 0.7 * self.rate + 0.3 * current
            }
        }
        self.windowStart = now
        self.windowBytes = bytes
        self.lastEmit = now
        continuation.yield(.progress(self.snapshot(bytes: bytes, total: total)))
    }

    mutating func finish(bytes: Int64, total: Int64?, continuation: AsyncStream<DownloadEvent>.Continuation) {
        continuation.yield(.progress(self.snapshot(bytes: bytes, total: total)))
    }

    private func snapshot(bytes: Int64, total: Int64?) -> DownloadProgress {
        var remaining: Double?
        if let total, self.rate > 0 { remaining = Double(max(total - bytes, 0)) / self.rate }
        return DownloadProgress(bytesWritten: bytes, totalBytes: total, bytesPerSecond: self.rate, secondsRemaining: remaining)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
