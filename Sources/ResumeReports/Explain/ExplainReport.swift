import Foundation
import ResumeDataCodec

/// What `explain` prints for a ``ResumeExplanation`` or an ``UploadExplanation``: text for people, JSON for programs. The
/// fixes are spelled as commands here (``RemedyText``), not in the explanation.
package enum ExplainReport {
    /// `blob` names the blob in the fixing commands.
    package static func text(_ explanation: ResumeExplanation, blob: String) -> String {
        text(summary: explanation.summary, checks: explanation.checks, reasons: explanation.reasons, blob: blob)
    }

    /// The same as one JSON object: `verdict`, `offset`, `reasons` (each with its `fix`),
    /// `checks`.
    package static func json(_ explanation: ResumeExplanation, blob: String) -> String {
        JSONValue.object([
            ("verdict", .string(explanation.verdict.rawValue)),
            ("offset", explanation.offset.map(JSONValue.integer) ?? .null),
        ] + members(checks: explanation.checks, reasons: explanation.reasons, blob: blob)).rendered()
    }

    /// An upload blob's explanation, in the download's layout: the verdict line, the checks,
    /// the reasons with their fixes.
    package static func text(_ explanation: UploadExplanation, blob: String) -> String {
        text(summary: explanation.summary, checks: explanation.checks, reasons: explanation.reasons, blob: blob)
    }

    /// An upload blob's explanation as one JSON object: `kind` (`upload`), `verdict`, `offset`
    /// (the server's), `complete`, `server` (the offset request's status and the upload fields
    /// of its answer, or null), `reasons`, `checks`.
    package static func json(_ explanation: UploadExplanation, blob: String) -> String {
        let server = explanation.answer.map { answer in
            JSONValue.object([
                ("status", .integer(answer.status)),
                ("fields", .object(answer.fields.map { ($0.name, .string($0.value)) })),
            ])
        }
        return JSONValue.object([
            ("kind", .string("upload")),
            ("verdict", .string(explanation.verdict.rawValue)),
            ("offset", explanation.offset.map(JSONValue.integer) ?? .null),
            ("complete", .bool(explanation.complete)),
            ("server", server ?? .null),
        ] + members(checks: explanation.checks, reasons: explanation.reasons, blob: blob)).rendered()
    }

    private static func text(summary: String, checks: [ResumeExplanation.Check], reasons: [ResumeExplanation.Reason], blob: String) -> String {
        // Messages quote the blob's URLs and the server's headers: control characters are shown escaped.
        let visible: (String) -> String = VisibleText.escaping
        var out = visible(summary) + "\n"
        out += "checks:\n"
        for check in checks {
            let outcome = check.outcome.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
            out += "  \(outcome)\(check.code.rawValue): \(visible(check.message))\n"
        }
        if !reasons.isEmpty {
            out += "reasons:\n"
            for reason in reasons {
                out += "  [\(reason.code)] \(visible(reason.message))\n"
                if let remedy = reason.remedy { out += "    fix: \(visible(RemedyText.command(remedy, blob: blob)))\n" }
            }
        }
        return out
    }

    /// `reasons` (each with its `fix`) and `checks`, as JSON members.
    private static func members(checks: [ResumeExplanation.Check], reasons: [ResumeExplanation.Reason], blob: String) -> [(String, JSONValue)] {
        [
            ("reasons", .array(reasons.map { reason in
                .object([("code", .string(reason.code)), ("message", .string(reason.message)),
                         ("fix", reason.remedy.map { .string(RemedyText.command($0, blob: blob)) } ?? .null)])
            })),
            ("checks", .array(checks.map { check in
                .object([("code", .string(check.code.rawValue)), ("outcome", .string(check.outcome.rawValue)),
                         ("message", .string(check.message))])
            })),
        ]
    }
}
