import Foundation

/// Renders download events as text: a redrawn bar on a terminal, a plain line every few seconds
/// otherwise.
public struct DownloadReporter: Sendable {
    /// Whether to redraw one line in place (a terminal) or print plain lines.
    public var interactive: Bool
    /// Seconds between plain lines.
    public var lineInterval: Duration = .seconds(5)

    /// Creates a reporter.
    public init(interactive: Bool) {
        self.interactive = interactive
    }

    /// Writes every event of `task` to standard error until the task stops.
    public func report(_ task: DownloadTask, label: String) async {
        let clock = ContinuousClock()
        var lastLine: ContinuousClock.Instant?
        var drew = false
        for await event in task.events {
            switch event {
            case .progress(let progress):
                if self.interactive {
                    Self.write("\r\u{1B}[2K" + Self.line(label: label, progress))
                    drew = true
                } else if lastLine.map({ clock.now - $0 >= self.lineInterval }) ?? true {
                    Self.write(Self.line(label: label, progress) + "\n")
                    lastLine = clock.now
                }
            case .restarted:
                Self.write((drew ? "\n" : "") + "\(label): the server's file is not the partial one; starting over\n")
                drew = false
            case .retrying(let attempt, let delay, let reason):
                Self.write((drew ? "\n" : "") + "\(label): \(reason); retry \(attempt) in \(Self.seconds(delay))\n")
                drew = false
            case .warning(let message):
                Self.write((drew ? "\n" : "") + "\(label): warning: \(message)\n")
                drew = false
            case .state:
                break
            }
        }
        if drew { Self.write("\n") }
    }

    /// `label  45%  12.3 MiB / 27.0 MiB  85.2 MiB/s  ETA 0:03`
    public static func line(label: String, _ progress: DownloadProgress) -> String {
        var parts = [label]
        if let total = progress.totalBytes, total > 0 {
            parts.append(String(format: "%3d%%", Int(progress.bytesWritten * 100 / total)))
            parts.append("\(bytes(progress.bytesWritten)) / \(bytes(total))")
        } else {
            parts.append(bytes(progress.bytesWritten))
        }
        parts.append("\(bytes(Int64(progress.bytesPerSecond)))/s")
        if let remaining = progress.secondsRemaining, remaining.isFinite, remaining < 360_000 {
            let seconds = Int(remaining.rounded(.up))
            parts.append(String(format: "ETA %d:%02d", seconds / 60, seconds % 60))
        }
        return parts.joined(separator: "  ")
    }

    /// Binary units with one decimal: `512 B`, `1.5 KiB`, `12.3 MiB`.
    public static func bytes(_ count: Int64) -> String {
        if count < 1024 { return "\(count) B" }
        var value = Double(count) / 1024
        for unit in ["KiB", "MiB", "GiB"] {
            if value < 1024 { return String(format: "%.1f", value) + " " + unit }
            value /= 1024
        }
        return String(format: "%.1f TiB", value)
    }

    private static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.1fs", Double(seconds) + Double(attoseconds) / 1e18)
    }

    private static func write(_ text: String) {
        StandardStream.write(text)
    }
}
