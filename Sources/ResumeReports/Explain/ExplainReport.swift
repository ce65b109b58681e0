import Foundation
import ResumeDataCodec

/// What `explain` prints for a ``ResumeExplanation``: text for people, JSON for programs. The
/// fixes are spelled as commands here (``RemedyText``), not in the explanation.
package enum ExplainReport {
    /// `blob` names the blob in the fixing commands.
    package static func text(_ explanation: ResumeExplanation, blob: String) -> String {
        // Messages quote the blob's URLs and the server's headers: control characters are shown escaped.
        let visible: (String) -> String = VisibleText.escaping
        var out = visible(explanation.summary) + "\n"
        out += "checks:\n"
        for check in explanation.checks {
            let outcome = check.outcome.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
            out += "  \(outcome)\(check.code.rawValue): \(visible(check.message))\n"
        }
        if !explanation.reasons.isEmpty {
            out += "reasons:\n"
            for reason in explanation.reasons {
                out += "  [\(reason.code)] \(visible(reason.message))\n"
                if let remedy = reason.remedy { out += "    fix: \(visible(RemedyText.command(remedy, blob: blob)))\n" }
            }
        }
        return out
    }

    /// The same as one JSON object: `verdict`, `offset`, `reasons` (each with its `fix`),
    /// `checks`.
    package static func json(_ explanation: ResumeExplanation, blob: String) -> String {
        let object = JSONValue.object([
            ("verdict", .string(explanation.verdict.rawValue)),
            ("offset", explanation.offset.map(JSONValue.integer) ?? .null),
            ("reasons", .array(explanation.reasons.map { reason in
                .object([("code", .string(reason.code)), ("message", .string(reason.message)),
                         ("fix", reason.remedy.map { .string(RemedyText.command($0, blob: blob)) } ?? .null)])
            })),
            ("checks", .array(explanation.checks.map { check in
                .object([("code", .string(check.code.rawValue)), ("outcome", .string(check.outcome.rawValue)),
                         ("message", .string(check.message))])
            })),
        ])
        return object.rendered()
    }
}
