import Foundation
import ResumeDataCodec

/// The words `download`, `resume` and `upload` print on standard error for a transfer's steps,
/// in one place so the two transfers say the same thing the same way. Every text from outside
/// (the label is a path or URL the user gave; reasons quote servers) goes through
/// ``VisibleText``.
enum TransferLineText {
    /// `LABEL: REASON; retry N in 1.5s`: attempt `attempt` starts after `delay`.
    static func retrying(label: String, reason: String, attempt: Int, delay: Duration) -> String {
        "\(VisibleText.escaping(label)): \(VisibleText.escaping(reason)); retry \(attempt) in \(seconds(delay))\n"
    }

    /// A delay in seconds with one decimal (`0.5s`, `30.0s`), as curl's retry notes give them.
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.1fs", Double(seconds) + Double(attoseconds) / 1e18)
    }
}
