import Foundation
import ResumeDataCodec
import ResumeSystemCalls
import ResumeReports
import ResumeTransfer

/// `download --json`: each task's events as JSON objects, one per line on standard output:
/// `start`, `progress` (at most every 0.5 s: `bytes`, `total`, `rate`), `warning`, `retry`,
/// `restart`, then `done`, `failed` (with `reason`) or `paused`. Every line carries `url` and `file`.
struct TransferJSON: Sendable {
    /// The URL asked for; nil for one that was refused (the `failed` line's `reason` names it):
    /// `url` is then empty.
    let url: HTTPURL?
    let file: String

    func report(_ task: DownloadTask) async {
        let clock = ContinuousClock()
        var lastProgress: ContinuousClock.Instant?
        var latest: DownloadProgress?
        self.emit("start", [])
        for await event in task.events {
            switch event {
            case .progress(let progress):
                latest = progress
                if let last = lastProgress, clock.now - last < .milliseconds(500) { continue }
                lastProgress = clock.now
                self.emit("progress", Self.fields(progress))
            case .warning(let message):
                self.emit("warning", [("message", .string(message))])
            case .retrying(let attempt, let delay, let reason):
                let (seconds, attoseconds) = delay.components
                self.emit("retry", [
                    ("attempt", .integer(attempt)), ("delay", .real(Double(seconds) + Double(attoseconds) / 1e18)),
                    ("reason", .string(reason.description)),
                ])
            case .restarted(let reason):
                self.emit("restart", [("reason", .string(reason.rawValue))])
            case .requestHead, .responseHead:
                // -v is for people; the JSON lines stay one shape.
                break
            case .state(let state):
                switch state {
                case .completed:
                    self.emit("done", latest.map { [("bytes", .integer($0.bytesWritten))] } ?? [])
                case .failed(let error):
                    self.emit("failed", [("reason", .string(error.description))])
                case .paused, .cancelled:
                    self.emit("paused", [])
                case .queued, .running:
                    break
                }
            }
        }
    }

    private static func fields(_ progress: DownloadProgress) -> [(String, JSONValue)] {
        [
            ("bytes", .integer(progress.bytesWritten)),
            ("total", progress.totalBytes.map(JSONValue.integer) ?? .null),
            ("rate", .real(progress.bytesPerSecond.rounded())),
        ]
    }

    private func emit(_ event: String, _ fields: [(String, JSONValue)]) {
        let object = JSONValue.object([("event", .string(event)), ("url", .string(self.url?.string ?? "")), ("file", .string(self.file))] + fields)
        var bytes: [UInt8] = []
        object.writeCompact(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        bytes.withUnsafeBufferPointer { StandardStream.write($0, to: STDOUT_FILENO) }
    }
}
