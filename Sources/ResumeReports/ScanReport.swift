import Foundation
import ResumeDataCodec
import ResumeScan

/// What `resumetool scan` prints: one block per app container for people, or JSON, or CSV.
package struct ScanReport {
    package let inventory: ScanInventory

    package init(inventory: ScanInventory) {
        self.inventory = inventory
    }

    // MARK: JSON

    /// `ledgers` (nsurlsessiond's, as `tasks --json` prints each) only when the scan found one,
    /// so that the report of a tree without a ledger is what it always was.
    package var json: JSONValue {
        guard !inventory.ledgers.isEmpty, case .object(var members) = jsonWithoutLedgers else { return jsonWithoutLedgers }
        members.insert(("ledgers", .array(inventory.ledgers.map { TasksReport(ledger: $0).json })), at: 1)
        return .object(members)
    }

    private var jsonWithoutLedgers: JSONValue {
        .object([
            ("blobs", .array(inventory.blobs.map(Self.json(for:)))),
            ("orphanPartialFiles", .array(inventory.orphanPartialFiles.map { file in
                .object([
                    ("path", .string(file.path)),
                    ("appContainer", .optionalString(file.appContainer)),
                    ("size", .integer(file.status.size)),
                    ("modified", DateText.json(file.status.modified)),
                ])
            })),
            ("errors", .array(inventory.errors.map { error in
                .object([("path", .string(error.path)), ("message", .string(error.message))])
            })),
        ])
    }

    package static func json(for blob: ScanInventory.Blob) -> JSONValue {
        let resume = blob.found.resumeData
        return .object([
            ("path", .string(blob.path)),
            ("keyPath", .optionalString(blob.keyPath)),
            ("appContainer", .optionalString(blob.appContainer)),
            ("container", .string(blob.found.containerName)),
            ("downloadURL", .optionalString(resume?.downloadURL)),
            ("bytesReceived", resume?.bytesReceived.map(JSONValue.integer) ?? .null),
            ("tempFileName", .optionalString(resume?.tempFileName)),
            ("localPath", .optionalString(blob.found.localPath)),
            ("partialFile", blob.partialFile.map { .object([("path", .string($0.path)), ("size", .integer($0.size))]) } ?? .null),
            ("modified", DateText.json(blob.modified)),
            ("findings", .array(blob.findings.map { finding in
                .object([
                    ("severity", .string(finding.severity.rawValue)),
                    ("code", .string(finding.code.name)),
                    ("message", .string(finding.message)),
                    ("key", .optionalString(finding.key)),
                ])
            })),
        ])
    }

    // MARK: CSV

    package static let csvColumns = [
        "path", "keyPath", "appContainer", "container", "downloadURL", "bytesReceived", "tempFileName", "localPath",
        "partialFilePath", "partialFileSize", "modified", "findings",
    ]

    /// A header row, then one row per blob; an absent value is an empty field, and the findings
    /// are `severity[code]` separated by `; `.
    package var csv: String {
        var out = CSVRow.line(Self.csvColumns)
        for blob in inventory.blobs {
            let resume = blob.found.resumeData
            out += CSVRow.line([
                blob.path, blob.keyPath ?? "", blob.appContainer ?? "", blob.found.containerName,
                resume?.downloadURL ?? "", resume?.bytesReceived.map(String.init) ?? "", resume?.tempFileName ?? "",
                blob.found.localPath ?? "", blob.partialFile?.path ?? "", blob.partialFile.map { String($0.size) } ?? "",
                DateText.text(blob.modified),
                blob.findings.map { "\($0.severity.rawValue)[\($0.code.name)]" }.joined(separator: "; "),
            ])
        }
        return out
    }

    // MARK: Text

    /// Blocks in the order of their container's path, files outside any container last; paths
    /// inside a block are relative to its container.
    package var text: String {
        var containers: [String?] = []
        for container in inventory.blobs.map(\.appContainer) + inventory.orphanPartialFiles.map(\.appContainer)
        where !containers.contains(container) {
            containers.append(container)
        }
        containers.sort { a, b in
            guard let a else { return false }
            guard let b else { return true }
            return TreeWalker.byteOrder(a, b)
        }
        var lines: [String] = []
        for container in containers {
            if !lines.isEmpty { lines.append("") }
            lines.append(container.map { Self.visible($0) + ":" } ?? "outside any app container:")
            func shown(_ path: String) -> String { Self.visible(Self.relative(path, to: container)) }
            for blob in inventory.blobs where blob.appContainer == container {
                lines.append("  " + shown(blob.path) + (blob.keyPath.map { ", at " + Self.visible($0) } ?? ""))
                let resume = blob.found.resumeData
                func field(_ label: String, _ value: String?) {
                    lines.append("    " + (label + ":").padding(toLength: 18, withPad: " ", startingAt: 0) + (value.map(Self.visible) ?? "-"))
                }
                field("container", blob.found.containerName)
                field("download URL", resume?.downloadURL)
                field("bytes received", resume?.bytesReceived.map(ByteCount.describe))
                field("temp file", resume?.tempFileName)
                field("local path", blob.found.localPath)
                field("partial file", blob.partialFile.map { partial in
                    shown(partial.path) + ", " + ByteCount.describe(partial.size) + Self.comparison(partial.size, resume?.bytesReceived)
                })
                field("modified", DateText.text(blob.modified))
                if blob.findings.isEmpty {
                    field("findings", "none")
                } else {
                    lines.append("    findings:")
                    for finding in blob.findings { lines.append("      " + Self.visible(finding.description)) }
                }
            }
            for file in inventory.orphanPartialFiles where file.appContainer == container {
                lines.append("  orphan partial file: \(shown(file.path)), \(ByteCount.describe(file.status.size)), modified \(DateText.text(file.status.modified))")
            }
        }
        for ledger in inventory.ledgers {
            if !lines.isEmpty { lines.append("") }
            lines.append("nsurlsessiond ledger \(Self.visible(ledger.path)) (schema version \(ledger.schemaVersion)):")
            for task in ledger.tasks {
                var line = "  \(task.bundleID.map(Self.visible) ?? "no bundle ID"), session \(Self.visible(task.sessionID)), task \(task.identifier)"
                line += " (\(task.kind?.name ?? "kind unknown"), \(task.state?.name ?? "state unknown")): \(task.url.map(Self.visible) ?? "no URL")"
                lines.append(line)
                if let partial = task.partialFile {
                    let shown = Self.visible(partial.path ?? partial.devicePath ?? partial.recorded)
                    if let problem = partial.problem {
                        lines.append("    partial file: \(shown): \(problem)")
                    } else if let size = partial.size {
                        lines.append("    partial file: \(shown), \(ByteCount.describe(size))"
                            + Self.comparison(size, task.bytesReceived))
                    }
                }
            }
            for skipped in ledger.skippedRows { lines.append("  skipped " + Self.visible(skipped.description)) }
        }
        if !lines.isEmpty { lines.append("") }
        if !inventory.orphanPartialFiles.isEmpty {
            lines.append("No blob names the orphan partial files; `resumetool rebuild --from FILE --url URL` makes one.")
        }
        lines.append(summary)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `12 files scanned: 3 blobs, 1 orphan partial file, 1 error`, with `, 4 ledger tasks` after the blobs when a ledger was found.
    package var summary: String {
        func counted(_ count: Int, _ noun: String) -> String {
            "\(ByteCount.grouping(Int64(count))) \(noun)\(count == 1 ? "" : "s")"
        }
        let ledgerTasks = inventory.ledgers.isEmpty
            ? "" : ", \(counted(inventory.ledgers.reduce(0) { $0 + $1.tasks.count }, "ledger task"))"
        return "\(counted(inventory.fileCount, "file")) scanned: \(counted(inventory.blobs.count, "blob"))\(ledgerTasks), "
            + "\(counted(inventory.orphanPartialFiles.count, "orphan partial file")), \(counted(inventory.errors.count, "error"))"
    }

    /// `, as received`, `, 96 fewer than received`, `, 5 more than received`.
    private static func comparison(_ size: Int64, _ received: Int64?) -> String {
        guard let received else { return "" }
        if size == received { return ", as received" }
        let difference = ByteCount.grouping(size < received ? received - size : size - received)
        return size < received ? ", \(difference) fewer than received" : ", \(difference) more than received"
    }

    private static func relative(_ path: String, to container: String?) -> String {
        guard let container, AppContainerLayout.isInside(path, folder: container), path != container else { return path }
        return String(decoding: path.utf8.dropFirst(container.utf8.count + (container.hasSuffix("/") ? 0 : 1)), as: UTF8.self)
    }

    private static func visible(_ text: String) -> String { InspectReport.visible(text) }
}
