import ResumeDataCodec

/// What `validate` prints for one blob: a line per finding, as a compiler prints them
/// (`FILE: error: KEY: message [code]`), or `FILE: ok`; and the same as JSON.
package struct ValidateReport: Sendable {
    /// The blob's name as given.
    let name: String
    /// The validator's findings.
    let findings: [ResumeDataFinding]

    /// The report on the blob `name` with the validator's `findings`.
    package init(name: String, findings: [ResumeDataFinding]) {
        self.name = name
        self.findings = findings
    }

    /// Whether a finding is of severity error (`validate` then exits 1).
    package var hasError: Bool { findings.contains { $0.severity == .error } }

    /// The lines, each ending in a newline; text from the blob through ``VisibleText``.
    package var text: String {
        guard !findings.isEmpty else { return "\(VisibleText.escaping(name)): ok\n" }
        var lines = ""
        for finding in findings {
            let key = finding.key.map { "\(VisibleText.escaping($0)): " } ?? ""
            lines += "\(VisibleText.escaping(name)): \(finding.severity.rawValue): \(key)\(VisibleText.escaping(RemedyText.message(of: finding))) [\(finding.code)]\n"
        }
        return lines
    }

    /// `{"file", "ok", "findings": [{severity, code, message, key}]}`, the findings as `inspect
    /// --json` gives them.
    package var json: JSONValue {
        .object([
            ("file", .string(name)),
            ("ok", .bool(!hasError)),
            ("findings", Self.json(for: findings)),
        ])
    }

    /// `{"file", "error"}`: a blob that could not be read.
    package static func json(unreadable name: String, error: String) -> JSONValue {
        .object([("file", .string(name)), ("error", .string(error))])
    }

    /// Findings as JSON, for `validate --json` and `inspect --json` alike.
    package static func json(for findings: [ResumeDataFinding]) -> JSONValue {
        .array(findings.map { finding in
            .object([
                ("severity", .string(finding.severity.rawValue)),
                ("code", .string(finding.code.name)),
                ("message", .string(RemedyText.message(of: finding))),
                ("key", .optionalString(finding.key)),
            ])
        })
    }
}
