import Foundation
import ResumeDataCodec
import ResumeTransfer

/// What `download` prints on standard error for one task's events: a redrawn bar on a terminal,
/// a plain line every few seconds otherwise, and a line for each retry, restart, warning and
/// (`-v`) head. Pure: the caller feeds events with the time they came and writes what it gets.
package struct DownloadConsoleText: Sendable {
    /// Whether to redraw one line in place (a terminal) or print plain lines.
    var interactive: Bool
    /// Time between plain progress lines.
    var lineInterval: Duration = .seconds(5)
    /// The label as given (a path or URL), for the retry line, which escapes it itself.
    private let label: String
    /// The label escaped once, for every other line: progress comes many times a second.
    private let visibleLabel: String
    private var lastLine: ContinuousClock.Instant?
    /// Whether the last thing written was a bar with no newline after it.
    private var drew = false

    package init(label: String, interactive: Bool) {
        self.label = label
        self.visibleLabel = VisibleText.escaping(label)
        self.interactive = interactive
    }

    /// The text for `event`, which came at `now`; nil when it shows nothing.
    package mutating func text(for event: DownloadEvent, at now: ContinuousClock.Instant) -> String? {
        let label = self.visibleLabel
        switch event {
        case .progress(let progress):
            if self.interactive {
                self.drew = true
                return "\r\u{1B}[2K" + Self.line(label: label, progress)
            }
            guard self.lastLine.map({ now - $0 >= self.lineInterval }) ?? true else { return nil }
            self.lastLine = now
            return Self.line(label: label, progress) + "\n"
        case .restarted(let reason):
            let why = switch reason {
            case .rangesIgnored: "the server ignores byte ranges (it sent the whole file)"
            case .fileChanged: "the server's file is not the partial one"
            }
            return self.afterBar("\(label): \(why); starting over\n")
        case .retrying(let attempt, let delay, let reason):
            return self.afterBar(TransferLineText.retrying(label: self.label, reason: "\(reason)", attempt: attempt, delay: delay))
        case .warning(let message):
            return self.afterBar("\(label): warning: \(VisibleText.escaping(message))\n")
        case .requestHead(let method, let url, let headers):
            return self.afterBar(HTTPHeadText.request(method: method, url: url, headers: headers))
        case .responseHead(let status, let headers):
            return self.afterBar(HTTPHeadText.response(status: status, headers: headers))
        case .state:
            return nil
        }
    }

    /// What ends the output once the events stop: the newline a bar still needs.
    package func end() -> String? {
        self.drew ? "\n" : nil
    }

    /// `text` on a line of its own: a bar still drawn is ended first.
    private mutating func afterBar(_ text: String) -> String {
        defer { self.drew = false }
        return (self.drew ? "\n" : "") + text
    }

    /// `label  45%  12.3 MiB / 27.0 MiB  85.2 MiB/s  ETA 0:03`; `label` is shown as it is.
    static func line(label: String, _ progress: DownloadProgress) -> String {
        var parts = [label]
        if let total = progress.totalBytes, total > 0 {
            // In Double: bytesWritten * 100 overflows Int64 for a server-stated total near 2^63.
            let percent = min(100, max(0, Double(progress.bytesWritten) / Double(total) * 100))
            parts.append(String(format: "%3d%%", Int(percent)))
            parts.append("\(ByteCount.short(progress.bytesWritten)) / \(ByteCount.short(total))")
        } else {
            parts.append(ByteCount.short(progress.bytesWritten))
        }
        // Checked: a rate is a Double, and Int64(_:) traps on NaN, infinity or 2^63.
        let rate = progress.bytesPerSecond
        parts.append("\(ByteCount.short(rate.isFinite && rate >= 0 && rate < 9e18 ? Int64(rate) : 0))/s")
        if let remaining = progress.secondsRemaining, remaining.isFinite, remaining >= 0, remaining < 360_000 {
            let seconds = Int(remaining.rounded(.up))
            parts.append(String(format: "ETA %d:%02d", seconds / 60, seconds % 60))
        }
        return parts.joined(separator: "  ")
    }
}
