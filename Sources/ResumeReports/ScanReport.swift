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

    package var json: JSONValue {
        .object([
            ("blobs", .array(inventory.blobs.map(Self.json(for:)))),
            ("orphanPartialFiles", .array(inventory.orphanPartialFiles.map { file in
                .object([
                    ("path", .string(file.path)),
                    ("appContainer", .optionalString(file.appContainer)),
                    ("bundleID", .optionalString(file.bundleID)),
                ] + Self.evidenceMembers(file.file))
            })),
            ("errors", .array(inventory.errors.map { error in
                .object([("path", .string(error.path)), ("message", .string(error.message))])
            })),
        ] + backupMembers + archiveMembers)
    }

    /// `archives`, only when there were archives: a folder scan's document keeps its three members.
    private var archiveMembers: [(String, JSONValue)] {
        guard !inventory.archives.isEmpty else { return [] }
        return [("archives", .array(inventory.archives.map { archive in
            .object([
                ("root", .string(archive.root)),
                ("format", .string(archive.format)),
                ("members", .integer(archive.memberCount)),
                ("files", .integer(archive.fileCount)),
                ("complete", .bool(archive.isComplete)),
            ])
        }))]
    }

    /// `backups` (and `device` when exactly one backup was scanned), only when there were backups:
    /// a folder scan's document keeps its three members.
    private var backupMembers: [(String, JSONValue)] {
        guard !inventory.backups.isEmpty else { return [] }
        var members: [(String, JSONValue)] = [("backups", .array(inventory.backups.map { backup in
            .object([
                ("root", .string(backup.root)),
                ("encrypted", .bool(backup.isEncrypted)),
                ("device", Self.json(for: backup.device)),
                ("files", .integer(backup.fileCount)),
                ("unreadFiles", .integer(backup.unreadFileCount)),
            ])
        }))]
        if inventory.backups.count == 1, let only = inventory.backups.first { members.append(("device", Self.json(for: only.device))) }
        return members
    }

    package static func json(for device: BackupDevice) -> JSONValue {
        .object([
            ("name", .optionalString(device.name)),
            ("model", .optionalString(device.model)),
            ("iOSVersion", .optionalString(device.iOSVersion)),
            ("build", .optionalString(device.build)),
            ("serial", .optionalString(device.serial)),
            ("udid", .optionalString(device.udid)),
        ])
    }

    package static func json(for source: FindingSource) -> JSONValue {
        .object([("kind", .string(source.kind.rawValue)), ("root", .string(source.root)), ("inner", .string(source.inner))])
    }

    private static func date(_ date: Date?) -> JSONValue { date.map(DateText.json) ?? .null }

    /// `sha256`, `size`, `modified`, `changed`, `created`, `mode` (octal text) and `source` of an evidence file.
    private static func evidenceMembers(_ file: EvidenceFile, modified: Bool = true) -> [(String, JSONValue)] {
        [
            ("sha256", .optionalString(file.sha256)),
            ("size", .integer(file.size)),
        ] + (modified ? [("modified", date(file.modified))] : []) + [
            ("changed", date(file.changed)),
            ("created", date(file.created)),
            ("mode", .optionalString(file.mode.map { String($0, radix: 8) })),
            ("source", json(for: file.source)),
        ]
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
            ("partialFile", blob.partialFile.map { partial in
                .object([("path", .string(partial.path))]
                        + (blob.partialFileEvidence.map { Self.evidenceMembers($0) } ?? [("size", .integer(partial.size))]))
            } ?? .null),
            ("modified", DateText.json(blob.modified)),
            ("bundleID", .optionalString(blob.bundleID)),
        ] + Self.evidenceMembers(blob.file, modified: false) + [
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
        "bundleID", "sourceKind", "sourceRoot", "sourceInner", "sha256", "size", "changed", "created", "partialFileSHA256",
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
                blob.bundleID ?? "", blob.file.source.kind.rawValue, blob.file.source.root, blob.file.source.inner,
                blob.file.sha256 ?? "", String(blob.file.size), blob.file.changed.map(DateText.text) ?? "",
                blob.file.created.map(DateText.text) ?? "", blob.partialFileEvidence?.sha256 ?? "",
            ])
        }
        return out
    }

    // MARK: Text

    /// Blocks in the order of their container's path, files outside any container last; paths
    /// inside a block are relative to its container.
    package var text: String {
        var lines: [String] = []
        // The folders' blocks as before, then each backup's: its device, then its domains.
        appendBlocks(to: &lines, blobs: inventory.blobs.filter { $0.file.source.kind == .folder },
                     orphans: inventory.orphanPartialFiles.filter { $0.file.source.kind == .folder }, backupRoot: nil)
        for backup in inventory.backups {
            if !lines.isEmpty { lines.append("") }
            lines.append("backup \(Self.visible(backup.root)): " + Self.describe(backup))
            if backup.unreadFileCount > 0 {
                lines.append("  \(ByteCount.grouping(Int64(backup.unreadFileCount))) file\(backup.unreadFileCount == 1 ? "" : "s") left unread: "
                             + "the backup is encrypted; give its password with --password-file FILE")
            }
            appendBlocks(to: &lines, blobs: inventory.blobs.filter { $0.file.source.kind != .folder && $0.file.source.kind != .archive && $0.file.source.root == backup.root },
                         orphans: inventory.orphanPartialFiles.filter { $0.file.source.kind != .folder && $0.file.source.kind != .archive && $0.file.source.root == backup.root },
                         backupRoot: backup.root)
        }
        for archive in inventory.archives {
            if !lines.isEmpty { lines.append("") }
            lines.append("archive \(Self.visible(archive.root)): \(Self.visible(archive.format.isEmpty ? "unknown format" : archive.format)), "
                         + "\(ByteCount.grouping(Int64(archive.memberCount))) member\(archive.memberCount == 1 ? "" : "s")"
                         + (archive.isComplete ? "" : ", not read to its end"))
            appendBlocks(to: &lines, blobs: inventory.blobs.filter { $0.file.source.kind == .archive && $0.file.source.root == archive.root },
                         orphans: inventory.orphanPartialFiles.filter { $0.file.source.kind == .archive && $0.file.source.root == archive.root },
                         backupRoot: archive.root)
        }
        if !lines.isEmpty { lines.append("") }
        if !inventory.orphanPartialFiles.isEmpty {
            lines.append("No blob names the orphan partial files; `resumetool rebuild --from FILE --url URL` makes one.")
        }
        lines.append(summary)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `encrypted, Examiner's iPhone (iPhone17,1, iOS 18.2 22C152, serial F17ZX0EXAMPL)`.
    private static func describe(_ backup: BackupSummary) -> String {
        let device = backup.device
        var details: [String] = []
        if let model = device.model { details.append(model) }
        if let version = device.iOSVersion { details.append("iOS " + version + (device.build.map { " " + $0 } ?? "")) }
        if let serial = device.serial { details.append("serial " + serial) }
        let name = device.name ?? "unnamed device"
        return (backup.isEncrypted ? "encrypted, " : "") + visible(name) + (details.isEmpty ? "" : " (" + visible(details.joined(separator: ", ")) + ")")
    }

    /// Blocks in the order of their container's path, files outside any container last; paths
    /// inside a block are relative to its container. A backup's containers are its domains.
    private func appendBlocks(to lines: inout [String], blobs: [ScanInventory.Blob], orphans: [ScanInventory.PartialFile], backupRoot: String?) {
        var containers: [String?] = []
        for container in blobs.map(\.appContainer) + orphans.map(\.appContainer)
        where !containers.contains(container) {
            containers.append(container)
        }
        containers.sort { a, b in
            guard let a else { return false }
            guard let b else { return true }
            return TreeWalker.byteOrder(a, b)
        }
        for container in containers {
            if !lines.isEmpty { lines.append("") }
            lines.append(container.map { Self.visible($0) + ":" } ?? "outside any app container:")
            func shown(_ path: String) -> String { Self.visible(Self.relative(path, to: container)) }
            for blob in blobs where blob.appContainer == container {
                lines.append("  " + shown(blob.path) + (blob.keyPath.map { ", at " + Self.visible($0) } ?? ""))
                let resume = blob.found.resumeData
                func field(_ label: String, _ value: String?) {
                    lines.append("    " + (label + ":").padding(toLength: 18, withPad: " ", startingAt: 0) + (value.map(Self.visible) ?? "-"))
                }
                if let bundleID = blob.bundleID { field("bundle ID", bundleID) }
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
            for file in orphans where file.appContainer == container {
                lines.append("  orphan partial file: \(shown(file.path)), \(ByteCount.describe(file.status.size)), modified \(DateText.text(file.status.modified))")
            }
        }
    }

    /// `12 files scanned: 3 blobs, 1 orphan partial file, 1 error`.
    package var summary: String {
        func counted(_ count: Int, _ noun: String) -> String {
            "\(ByteCount.grouping(Int64(count))) \(noun)\(count == 1 ? "" : "s")"
        }
        return "\(counted(inventory.fileCount, "file")) scanned: \(counted(inventory.blobs.count, "blob")), "
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
