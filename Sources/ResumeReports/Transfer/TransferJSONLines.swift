import ResumeDataCodec
import ResumeTransfer

/// `download --json`'s lines for one task: JSON objects, one per line, `start`, `progress` (at
/// most every 0.5 s: `bytes`, `total`, `rate`), `warning`, `retry`, `restart`, then `done`,
/// `failed` (with `reason`) or `paused`. Every line carries `url` (a password in it shown as
/// `***`, ``HTTPURL/shown``; empty for a URL that was
/// refused; the `failed` line's `reason` names it) and `file`. Pure: the caller feeds events
/// with the time they came and writes what it gets.
package struct TransferJSONLines: Sendable {
    private let url: HTTPURL?
    private let file: String
    private var lastProgress: ContinuousClock.Instant?
    private var latest: DownloadProgress?

    package init(url: HTTPURL?, file: String) {
        self.url = url
        self.file = file
    }

    /// The first line, before any event.
    package func start() -> [UInt8] {
        self.line("start", [])
    }

    /// The line for `event`, which came at `now`; nil when it shows nothing (progress within
    /// 0.5 s of the last shown, heads, states before the end).
    package mutating func line(for event: DownloadEvent, at now: ContinuousClock.Instant) -> [UInt8]? {
        switch event {
        case .progress(let progress):
            self.latest = progress
            if let last = self.lastProgress, now - last < .milliseconds(500) { return nil }
            self.lastProgress = now
            return self.line("progress", [
                ("bytes", .integer(progress.bytesWritten)),
                ("total", progress.totalBytes.map(JSONValue.integer) ?? .null),
                ("rate", .real(progress.bytesPerSecond.rounded())),
            ])
        case .warning(let message):
            return self.line("warning", [("message", .string(message))])
        case .retrying(let attempt, let delay, let reason):
            let (seconds, attoseconds) = delay.components
            return self.line("retry", [
                ("attempt", .integer(attempt)), ("delay", .real(Double(seconds) + Double(attoseconds) / 1e18)),
                ("reason", .string(reason.description)),
            ])
        case .restarted(let reason):
            return self.line("restart", [("reason", .string(reason.rawValue))])
        case .requestHead, .responseHead:
            // -v is for people; the JSON lines stay one shape.
            return nil
        case .state(let state):
            switch state {
            case .completed:
                return self.line("done", self.latest.map { [("bytes", .integer($0.bytesWritten))] } ?? [])
            case .failed(let error):
                return self.line("failed", [("reason", .string(error.description))])
            case .paused, .cancelled:
                return self.line("paused", [])
            case .queued, .running:
                return nil
            }
        }
    }

    private func line(_ event: String, _ fields: [(String, JSONValue)]) -> [UInt8] {
        let object = JSONValue.object([("event", .string(event)), ("url", .string(self.url?.shown ?? "")), ("file", .string(self.file))] + fields)
        var bytes: [UInt8] = []
        object.writeCompact(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
