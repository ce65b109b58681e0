import Foundation
import ResumeDataCodec
import ResumeSystemCalls
import ResumeReports
import ResumeTransfer

/// Renders download events as text: a redrawn bar on a terminal, a plain line every few seconds
/// otherwise. The CLI's: the library only emits ``DownloadEvent``s.
struct DownloadReporter: Sendable {
    /// Whether to redraw one line in place (a terminal) or print plain lines.
    var interactive: Bool
    /// Seconds between plain lines.
    var lineInterval: Duration = .seconds(5)

    /// Creates a reporter.
    init(interactive: Bool) {
        self.interactive = interactive
    }

    /// Writes every event of `task` to standard error until the task stops.
    func report(_ task: DownloadTask, label: String) async {
        // The label and the messages quote the URL and the server's answer.
        let rawLabel = label
        let label = VisibleText.escaping(label)
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
            case .restarted(let reason):
                let why = switch reason {
                case .rangesIgnored: "the server ignores byte ranges (it sent the whole file)"
                case .fileChanged: "the server's file is not the partial one"
                }
                Self.write((drew ? "\n" : "") + "\(label): \(why); starting over\n")
                drew = false
            case .retrying(let attempt, let delay, let reason):
                Self.write((drew ? "\n" : "") + TransferLineText.retrying(label: rawLabel, reason: "\(reason)", attempt: attempt, delay: delay))
                drew = false
            case .warning(let message):
                Self.write((drew ? "\n" : "") + "\(label): warning: \(VisibleText.escaping(message))\n")
                drew = false
            case .requestHead(let method, let url, let headers):
                Self.write((drew ? "\n" : "") + HTTPHeadText.request(method: method, url: url, headers: headers))
                drew = false
            case .responseHead(let status, let headers):
                Self.write((drew ? "\n" : "") + HTTPHeadText.response(status: status, headers: headers))
                drew = false
            case .state:
                break
            }
        }
        if drew { Self.write("\n") }
    }

    /// `label  45%  12.3 MiB / 27.0 MiB  85.2 MiB/s  ETA 0:03`
    static func line(label: String, _ progress: DownloadProgress) -> String {
        var parts = [label]
        if let total = progress.totalBytes, total > 0 {
            // In Double: bytesWritten * 100 overflows Int64 for a server-stated total near 2^63.
            let percent = min(100, max(0, Double(progress.bytesWritten) / Double(total) * 100))
            parts.append(String(format: "%3d%%", Int(percent)))
            parts.append("\(bytes(progress.bytesWritten)) / \(bytes(total))")
        } else {
            parts.append(bytes(progress.bytesWritten))
        }
        // Checked: a rate is a Double, and Int64(_:) traps on NaN, infinity or 2^63.
        let rate = progress.bytesPerSecond
        parts.append("\(bytes(rate.isFinite && rate >= 0 && rate < 9e18 ? Int64(rate) : 0))/s")
        if let remaining = progress.secondsRemaining, remaining.isFinite, remaining >= 0, remaining < 360_000 {
            let seconds = Int(remaining.rounded(.up))
            parts.append(String(format: "ETA %d:%02d", seconds / 60, seconds % 60))
        }
        return parts.joined(separator: "  ")
    }

    static func bytes(_ count: Int64) -> String {
        ByteCount.short(count)
    }

    private static func write(_ text: String) {
        StandardStream.write(text)
    }
}
