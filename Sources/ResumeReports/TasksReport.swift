import Foundation
import ResumeDataCodec
import ResumeScan

/// What `resumetool tasks` prints: nsurlsessiond's tasks by app, for people, or as JSON, JSON
/// Lines or CSV.
package struct TasksReport {
    let ledger: TaskLedger

    package init(ledger: TaskLedger) {
        self.ledger = ledger
    }

    // MARK: JSON

    /// `{database, schemaVersion, root, warnings, tasks, skippedRows}`; the older layout's has
    /// `schemaVersion` null and `layout` `"keyed archives"` after it.
    package var json: JSONValue {
        .object(head + [
            ("tasks", .array(ledger.tasks.map(Self.json(for:)))),
            ("skippedRows", .array(ledger.skippedRows.map(Self.json(for:)))),
        ])
    }

    private var head: [(String, JSONValue)] {
        [
            ("database", .string(ledger.path)),
            ("schemaVersion", ledger.layout == .sqlite ? .integer(ledger.schemaVersion) : .null),
        ] + (ledger.layout == .keyedArchives ? [("layout", .string("keyed archives"))] : []) + [
            ("root", .optionalString(ledger.root)),
            ("warnings", .array(ledger.warnings.map(JSONValue.string))),
        ] + (ledger.sessions.map { [("sessions", .array($0.map(Self.json(for:))))] } ?? [])
    }

    /// A row of `sessions` (schema version 3): what the spec names decoded, the configuration as archived.
    package static func json(for session: LedgerSession) -> JSONValue {
        func pairs(_ list: [(key: String, value: String)]) -> JSONValue { .object(list.map { ($0.key, JSONValue.string($0.value)) }) }
        return .object([
            ("bundleID", .optionalString(session.bundleID)),
            ("sessionID", .optionalString(session.sessionID)),
            ("lastDisconnectDate", session.lastDisconnectDate.map(DateText.json) ?? .null),
            ("sessionUUID", .optionalString(session.sessionUUID)),
            ("delegateImplements", pairs(session.delegateImplements)),
            ("otherOptionKeys", .array(session.otherOptionKeys.map(JSONValue.string))),
            ("configurationClass", .optionalString(session.configurationClass)),
            ("configurationFields", pairs(session.configurationFields)),
            ("notes", .array(session.notes.map(JSONValue.string))),
            ("rowID", .integer(session.rowID)),
        ])
    }

    /// ``json`` as `write(to:indent: 0)` prints it, byte for byte, but built one task at a time
    /// and handed to `flush` as it grows, so that the report of a large ledger is never whole
    /// in memory.
    package func writeJSON(to out: inout [UInt8], flush: (inout [UInt8]) -> Void) {
        out.append(contentsOf: "{\n".utf8)
        func key(_ name: String) {
            JSONValue.writeIndent(1, to: &out)
            JSONValue.string(name).write(to: &out, indent: 0)
            out.append(contentsOf: ": ".utf8)
        }
        for (name, value) in head {
            key(name)
            value.write(to: &out, indent: 1)
            out.append(contentsOf: ",\n".utf8)
        }
        key("tasks")
        if ledger.tasks.isEmpty {
            out.append(contentsOf: "[]".utf8)
        } else {
            out.append(contentsOf: "[\n".utf8)
            for (index, task) in ledger.tasks.enumerated() {
                JSONValue.writeIndent(2, to: &out)
                Self.json(for: task).write(to: &out, indent: 2)
                out.append(contentsOf: (index == ledger.tasks.count - 1 ? "\n" : ",\n").utf8)
                flush(&out)
            }
            JSONValue.writeIndent(1, to: &out)
            out.append(UInt8(ascii: "]"))
        }
        out.append(contentsOf: ",\n".utf8)
        key("skippedRows")
        JSONValue.array(ledger.skippedRows.map(Self.json(for:))).write(to: &out, indent: 1)
        out.append(contentsOf: "\n}".utf8)
    }

    package static func json(for skipped: TaskLedger.SkippedRow) -> JSONValue {
        .object([
            ("rowID", .integer(skipped.rowID)),
            ("sessionID", .optionalString(skipped.sessionID)),
            ("identifier", skipped.identifier.map(JSONValue.integer) ?? .null),
            ("column", .string(skipped.column)),
            ("message", .string(skipped.message)),
        ])
    }

    package static func json(for error: ArchivedError) -> JSONValue {
        .object([
            ("domain", .string(error.domain)),
            ("code", .integer(error.code)),
            ("description", .optionalString(error.localizedDescription)),
            ("userInfo", .object(error.userInfoStrings.map { ($0.key, JSONValue.string($0.value)) })),
            ("underlying", error.underlying.map(json(for:)) ?? .null),
        ])
    }

    package static func json(for task: LedgerTask) -> JSONValue {
        func integer(_ value: Int64?) -> JSONValue { value.map(JSONValue.integer) ?? .null }
        func date(_ value: Date?) -> JSONValue { value.map(DateText.json) ?? .null }
        let partial: JSONValue = task.partialFile.map { file in
            .object([
                ("column", .string(file.column)),
                ("recorded", .string(file.recorded)),
                ("devicePath", .optionalString(file.devicePath)),
                ("path", .optionalString(file.path)),
                ("size", integer(file.size)),
                ("comparison", .optionalString(file.comparison(bytesReceived: task.bytesReceived))),
                ("problem", .optionalString(file.problem)),
            ])
        } ?? .null
        return .object([
            ("bundleID", .optionalString(task.bundleID)),
            ("sessionID", .string(task.sessionID)),
            ("identifier", .integer(task.identifier)),
            ("uniqueIdentifier", .optionalString(task.uniqueIdentifier)),
            ("kind", .optionalString(task.kind?.name)),
            ("state", .optionalString(task.state?.name)),
            ("description", .optionalString(task.taskDescription)),
            ("creationTime", date(task.creationTime)),
            ("earliestBeginDate", date(task.earliestBeginDate)),
            ("request", .optionalString(task.requestColumn)),
            ("url", .optionalString(task.url)),
            ("originalURL", .optionalString(task.originalURL)),
            ("method", .optionalString(task.method)),
            ("requestHeaders", .array(task.requestHeaders.map { .array([.string($0.name), .string(shownValue($0))]) })),
            ("requestBodySize", task.requestBodySize.map(JSONValue.integer) ?? .null),
            ("statusCode", integer(task.statusCode)),
            ("entityTag", .optionalString(task.entityTag)),
            ("lastModified", .optionalString(task.lastModified)),
            ("expectedContentLength", integer(task.expectedContentLength)),
            ("error", task.error.map(json(for:)) ?? .null),
            ("bytesReceived", integer(task.bytesReceived)),
            ("bytesExpected", integer(task.bytesExpected)),
            ("partialFile", partial),
            ("upload", task.upload.map { UploadInspectReport(name: "", upload: $0, findings: UploadResumeDataValidator().findings(for: $0)).json } ?? .null),
            ("notes", .array(task.notes.map(JSONValue.string))),
            ("rowID", .integer(task.rowID)),
        ])
    }

    // MARK: CSV

    static let csvColumns = [
        "bundleID", "sessionID", "identifier", "uniqueIdentifier", "kind", "state", "description", "creationTime",
        "earliestBeginDate", "method", "url", "requestBodySize", "statusCode", "entityTag", "lastModified",
        "expectedContentLength", "errorDomain", "errorCode", "errorDescription", "bytesReceived", "bytesExpected",
        "partialFileRecorded", "partialFilePath", "partialFileSize", "partialFileProblem", "notes",
    ]

    /// A header row, then one row per task; an absent value is an empty field.
    var csv: String {
        var out = ""
        writeCSV { out += $0 }
        return out
    }

    /// ``csv`` a row at a time.
    package func writeCSV(_ emit: (String) -> Void) {
        emit(CSVRow.line(Self.csvColumns))
        for task in ledger.tasks { emit(Self.csvLine(for: task)) }
    }

    static func csvLine(for task: LedgerTask) -> String {
        func number(_ value: Int64?) -> String { value.map(String.init) ?? "" }
        return CSVRow.line([
            task.bundleID ?? "", task.sessionID, String(task.identifier), task.uniqueIdentifier ?? "",
            task.kind?.name ?? "", task.state?.name ?? "", task.taskDescription ?? "",
            task.creationTime.map(DateText.text) ?? "", task.earliestBeginDate.map(DateText.text) ?? "",
            task.method ?? "", task.url ?? "", task.requestBodySize.map(String.init) ?? "", number(task.statusCode),
            task.entityTag ?? "", task.lastModified ?? "", number(task.expectedContentLength),
            task.error?.domain ?? "", number(task.error?.code), task.error?.localizedDescription ?? "",
            number(task.bytesReceived), number(task.bytesExpected),
            task.partialFile?.recorded ?? "", task.partialFile?.path ?? "", number(task.partialFile?.size),
            task.partialFile?.problem ?? "", task.notes.joined(separator: "; "),
        ])
    }

    // MARK: Text

    /// One block per app (bundle ID), one entry per task, then ``summary``.
    var text: String {
        var out = ""
        writeText { out += $0 }
        return out
    }

    /// ``text`` a task at a time.
    package func writeText(_ emit: (String) -> Void) {
        var currentApp: String??
        for task in ledger.tasks {
            var lines: [String] = []
            if currentApp != .some(task.bundleID) {
                if currentApp != nil { lines.append("") }
                lines.append((task.bundleID.map(VisibleText.escaping) ?? "no bundle ID") + ":")
                currentApp = .some(task.bundleID)
            }
            lines.append("  session \(VisibleText.escaping(task.sessionID)), task \(task.identifier)"
                + " (\(task.kind?.name ?? "kind unknown"), \(task.state?.name ?? "state unknown"))")
            func field(_ label: String, _ value: String?) {
                lines.append("    " + (label + ":").padding(toLength: 18, withPad: " ", startingAt: 0) + (value.map(VisibleText.escaping) ?? "-"))
            }
            field("description", task.taskDescription)
            field("created", task.creationTime.map(DateText.text))
            if let begins = task.earliestBeginDate { field("begins", DateText.text(begins)) }
            field("request", task.url.map { (task.method ?? "GET") + " " + $0 })
            if let original = task.originalURL { field("original URL", original) }
            for header in task.requestHeaders { field("  header", "\(header.name): \(Self.shownValue(header))") }
            if let body = task.requestBodySize { field("  body", ByteCount.describe(Int64(body))) }
            field("response", Self.response(task))
            if let error = task.error { field("error", error.description) }
            field("bytes", Self.bytes(task))
            field("partial file", task.partialFile.map { Self.partial($0, received: task.bytesReceived) })
            if let upload = task.upload {
                field("upload", "draft \(upload.draftVersion ?? "unknown"), continues at \(upload.resumeURL?.absoluteString ?? "(no resume URL)")")
                field("  body", UploadInspectReport.text(for: upload.body))
            }
            for note in task.notes { field("note", note) }
            emit(lines.joined(separator: "\n") + "\n")
        }
        // Warnings and skipped rows go to standard error as diagnostics; the count is here.
        emit((ledger.tasks.isEmpty ? "" : "\n") + summary + "\n")
    }

    /// `3 tasks in 2 apps (schema version 3), 1 row skipped`.
    var summary: String {
        let apps = Set(ledger.tasks.map { $0.bundleID ?? "" }).count
        func counted(_ count: Int, _ noun: String) -> String { "\(ByteCount.grouping(Int64(count))) \(noun)\(count == 1 ? "" : "s")" }
        return "\(counted(ledger.tasks.count, "task")) in \(counted(apps, "app")) (\(ledger.layoutDescription)), "
            + "\(counted(ledger.skippedRows.count, "row")) skipped"
    }

    /// A request header's value as the report shows it: a credential's (`Authorization`,
    /// `Cookie`, ``HTTPHeaderField/isCredential(_:)``) is withheld, its length told, for a
    /// ledger is someone's device and its report is passed on; `rebuild --from-task` still
    /// carries the header into the blob it is asked to make.
    package static func shownValue(_ header: (name: String, value: String)) -> String {
        HTTPHeaderField.isCredential(header.name) ? "(withheld: \(header.value.utf8.count) bytes)" : header.value
    }

    private static func response(_ task: LedgerTask) -> String? {
        var parts: [String] = []
        if let status = task.statusCode { parts.append("HTTP \(status)") }
        if let tag = task.entityTag { parts.append("ETag \(tag)") }
        if let date = task.lastModified { parts.append("Last-Modified \(date)") }
        if let length = task.expectedContentLength { parts.append("\(ByteCount.grouping(length)) bytes expected") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    private static func bytes(_ task: LedgerTask) -> String? {
        guard let received = task.bytesReceived else { return nil }
        guard let expected = task.bytesExpected, expected >= 0 else { return "\(ByteCount.grouping(received)) received, total unknown" }
        return "\(ByteCount.grouping(received)) of \(ByteCount.grouping(expected)) received"
    }

    private static func partial(_ file: LedgerPartialFile, received: Int64?) -> String {
        let shown = file.path ?? file.devicePath ?? file.recorded
        if let problem = file.problem { return "\(shown): \(problem)" }
        var text = shown
        if let size = file.size { text += ", " + ByteCount.describe(size) }
        if let comparison = file.comparison(bytesReceived: received) { text += ", " + comparison }
        return text
    }

}
