import Foundation
import ResumeDataCodec
import ResumeScan
import ResumeSystemCalls

/// What `resumetool scan` prints: one block per app container for people, or JSON, or CSV.
package struct ScanReport {
    let inventory: ScanInventory

    package init(inventory: ScanInventory) {
        self.inventory = inventory
    }

    // MARK: JSON

    /// `ledgers` (nsurlsessiond's, as `tasks --json` prints each) only when the scan found one,
    /// so that the report of a tree without a ledger is what it always was.
    package var json: JSONValue {
        guard !inventory.ledgers.isEmpty, case .object(var members) = jsonWithoutLedgers else { return jsonWithoutLedgers }
        members.insert(("ledgers", .array(inventory.ledgers.map(Self.json(for:)))), at: 1)
        return .object(members)
    }

    private var jsonWithoutLedgers: JSONValue {
        .object([
            ("blobs", .array(inventory.blobs.map(Self.json(for:)))),
            ("orphanPartialFiles", .array(inventory.orphanPartialFiles.map(Self.json(for:)))),
            ("errors", .array(inventory.errors.map { error in
                .object([("path", .string(error.path)), ("message", .string(error.message))])
            })),
        ] + backupMembers + archiveMembers + safariMembers + foundArchiveMembers)
    }

    /// `foundArchives`, only when the scan met an archive among the files: a folder scan's
    /// document without one keeps its members.
    private var foundArchiveMembers: [(String, JSONValue)] {
        guard !inventory.foundArchives.isEmpty else { return [] }
        return [("foundArchives", .array(inventory.foundArchives.map { Self.json(for: $0) }))]
    }

    /// An archive met among the files: `path`, `kind` (`zip`, `tar`, `tar.gz`...), `size`,
    /// `modified`, `source`, `opened` (read: its findings are among the others) and `readAs` (the
    /// `root` of the archive summary holding them: the path itself, or the same file given as a root).
    static func json(for archive: ScanInventory.FoundArchive) -> JSONValue {
        .object([
            ("path", .string(archive.path)),
            ("kind", .string(archive.kind)),
            ("size", .integer(archive.file.size)),
            ("modified", date(archive.file.modified)),
            ("source", json(for: archive.file.source)),
            ("opened", .bool(archive.readAs != nil)),
            ("readAs", archive.readAs.map { .string($0) } ?? .null),
        ])
    }

    /// The text report's lines for the archives met: each with its kind and size, and how to
    /// read the ones not read.
    private var foundArchiveLines: [String] {
        guard !inventory.foundArchives.isEmpty else { return [] }
        var lines = ["archives found among the files:"]
        var unread = false
        for archive in inventory.foundArchives {
            var line = "  \(VisibleText.escaping(archive.path)): \(archive.kind), \(ByteCount.describe(archive.file.size))"
            let source = archive.file.source
            if source.kind != .folder {
                line += " (in \(source.kind == .encryptedBackup ? "encrypted backup" : source.kind.rawValue) \(VisibleText.escaping(source.root)): not opened)"
            } else if let root = archive.readAs {
                line += ", read (see archive \(VisibleText.escaping(root)) above)"
            } else {
                unread = true
            }
            lines.append(line)
        }
        if unread {
            lines.append("Read an archive with `resumetool scan PATH`, or scan again with --open-archives to read every one found in a folder.")
        }
        return lines
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
                ("warnings", .array(archive.warnings.map(JSONValue.string))),
            ])
        }))]
    }

    /// `safariPartialFiles` (Safari bundles' data files, tied to their bundle), only when there
    /// are some, and `safariDownloadHistory`, only when a `Safari/Downloads.plist` was found.
    private var safariMembers: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        if !inventory.safariPartialFiles.isEmpty {
            members.append(("safariPartialFiles", .array(inventory.safariPartialFiles.map(Self.json(for:)))))
        }
        guard !inventory.safariHistories.isEmpty else { return members }
        return members + [("safariDownloadHistory", .array(inventory.safariHistories.map { history in
            .object([("path", .string(history.path))] + Self.evidenceMembers(history.file) + [
                ("entries", .array(history.history.entries.map(SafariDownloadReport.json(for:)))),
                ("problems", .array(history.history.problems.map(JSONValue.string))),
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
                ("missingFiles", .integer(backup.missingFileCount)),
                ("warnings", .array(backup.warnings.map(JSONValue.string))),
            ])
        }))]
        if inventory.backups.count == 1, let only = inventory.backups.first { members.append(("device", Self.json(for: only.device))) }
        return members
    }

    package static func json(for file: ScanInventory.PartialFile) -> JSONValue {
        .object([
            ("path", .string(file.path)),
            ("appContainer", .optionalString(file.appContainer)),
            ("bundleID", .optionalString(file.bundleID)),
        ] + Self.evidenceMembers(file.file)
            // Only for a Safari bundle's data file: every other partial file keeps its shape.
            + (file.safariDownload.map { [("safariDownload", SafariDownloadReport.json(for: $0))] } ?? [])
            + (file.safariHistoryEntry.map { [("safariHistoryEntry", SafariDownloadReport.json(for: $0))] } ?? []))
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

    /// A ledger as `tasks --json` prints it, with where the scan found it after `database`.
    private static func json(for ledger: TaskLedger) -> JSONValue {
        let report = TasksReport(ledger: ledger).json
        guard let source = ledger.source, case .object(var members) = report else { return report }
        members.insert(("source", json(for: source)), at: 1)
        return .object(members)
    }

    package static func json(for source: FindingSource) -> JSONValue {
        .object([("kind", .string(source.kind.rawValue)), ("root", .string(source.root)), ("inner", .string(source.inner))])
    }

    private static func date(_ date: Date?) -> JSONValue { date.map(DateText.json) ?? .null }

    /// `sha256`, `size`, `modified`, `changed`, `created`, `mode` (octal text), `source` and
    /// `hashSkipped` (null, or why `sha256` is null: ``HashSkipText/json(_:)``) of an evidence file.
    static func evidenceMembers(_ file: EvidenceFile, modified: Bool = true) -> [(String, JSONValue)] {
        [
            ("sha256", .optionalString(file.sha256)),
            ("size", .integer(file.size)),
        ] + (modified ? [("modified", date(file.modified))] : []) + [
            ("changed", date(file.changed)),
            ("created", date(file.created)),
            ("mode", .optionalString(file.mode.map { String($0, radix: 8) })),
            ("source", json(for: file.source)),
            ("hashSkipped", HashSkipText.json(file.hashSkipped)),
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
        ] + (blob.found.upload.map { [("upload", .object(UploadInspectReport.members(of: $0)))] } ?? [])
            + Self.evidenceMembers(blob.file, modified: false) + [
            ("findings", ValidateReport.json(for: blob.findings)),
        ])
    }

    // MARK: CSV

    /// The CSV of ``ScanTable``: a header row, then one row per blob and per orphan partial file.
    package var csv: String { ScanTable(inventory: inventory).csv }

    // MARK: Text

    /// Blocks in the order of their container's path, files outside any container last; paths
    /// inside a block are relative to its container.
    package var text: String {
        var lines: [String] = []
        // The folders' blocks as before, then each backup's: its device, then its domains.
        appendBlocks(to: &lines, blobs: inventory.blobs.filter { $0.file.source.kind == .folder },
                     orphans: inventory.orphanPartialFiles.filter { $0.file.source.kind == .folder },
                     safari: inventory.safariPartialFiles.filter { $0.file.source.kind == .folder }, backupRoot: nil)
        for backup in inventory.backups {
            if !lines.isEmpty { lines.append("") }
            lines.append("backup \(VisibleText.escaping(backup.root)): " + Self.describe(backup))
            if backup.unreadFileCount > 0 {
                lines.append("  \(ByteCount.grouping(Int64(backup.unreadFileCount))) file\(backup.unreadFileCount == 1 ? "" : "s") left unread: "
                             + "the backup is encrypted; give its password with --password-file FILE")
            }
            for warning in backup.warnings { lines.append("  warning: " + VisibleText.escaping(warning)) }
            lines += Self.missingFiles(backup)
            appendBlocks(to: &lines, blobs: inventory.blobs.filter { $0.file.source.kind != .folder && $0.file.source.kind != .archive && $0.file.source.root == backup.root },
                         orphans: inventory.orphanPartialFiles.filter { $0.file.source.kind != .folder && $0.file.source.kind != .archive && $0.file.source.root == backup.root },
                         safari: inventory.safariPartialFiles.filter { $0.file.source.kind != .folder && $0.file.source.kind != .archive && $0.file.source.root == backup.root },
                         backupRoot: backup.root)
        }
        for archive in inventory.archives {
            if !lines.isEmpty { lines.append("") }
            lines.append("archive \(VisibleText.escaping(archive.root)): \(VisibleText.escaping(archive.format.isEmpty ? "unknown format" : archive.format)), "
                         + "\(ByteCount.grouping(Int64(archive.memberCount))) member\(archive.memberCount == 1 ? "" : "s")"
                         + (archive.isComplete ? "" : ", not read to its end"))
            for warning in archive.warnings { lines.append("  warning: " + VisibleText.escaping(warning)) }
            appendBlocks(to: &lines, blobs: inventory.blobs.filter { $0.file.source.kind == .archive && $0.file.source.root == archive.root },
                         orphans: inventory.orphanPartialFiles.filter { $0.file.source.kind == .archive && $0.file.source.root == archive.root },
                         safari: inventory.safariPartialFiles.filter { $0.file.source.kind == .archive && $0.file.source.root == archive.root },
                         backupRoot: archive.root)
        }
        for ledger in inventory.ledgers {
            if !lines.isEmpty { lines.append("") }
            var place = ""
            if let source = ledger.source, source.kind != .folder {
                let kind = switch source.kind {
                case .encryptedBackup: "encrypted backup"
                default: source.kind.rawValue
                }
                place = " in \(kind) \(VisibleText.escaping(source.root))"
            }
            lines.append("nsurlsessiond ledger \(VisibleText.escaping(ledger.path))\(place) (\(ledger.layoutDescription)):")
            for task in ledger.tasks {
                var line = "  \(task.bundleID.map(VisibleText.escaping) ?? "no bundle ID"), session \(VisibleText.escaping(task.sessionID)), task \(task.identifier)"
                line += " (\(task.kind?.name ?? "kind unknown"), \(task.state?.name ?? "state unknown")): \(task.url.map(VisibleText.escaping) ?? "no URL")"
                lines.append(line)
                if let partial = task.partialFile {
                    let shown = VisibleText.escaping(partial.path ?? partial.devicePath ?? partial.recorded)
                    if let problem = partial.problem {
                        lines.append("    partial file: \(shown): \(problem)")
                    } else if let size = partial.size {
                        lines.append("    partial file: \(shown), \(ByteCount.describe(size))"
                            + Self.comparison(size, task.bytesReceived))
                    }
                }
            }
            for warning in ledger.warnings { lines.append("  warning: " + VisibleText.escaping(warning)) }
            for skipped in ledger.skippedRows { lines.append("  skipped " + VisibleText.escaping(skipped.description)) }
        }
        for history in inventory.safariHistories {
            if !lines.isEmpty { lines.append("") }
            lines += SafariDownloadReport.lines(for: history)
        }
        let archiveLines = foundArchiveLines
        if !archiveLines.isEmpty {
            if !lines.isEmpty { lines.append("") }
            lines += archiveLines
        }
        if !lines.isEmpty { lines.append("") }
        if !inventory.orphanPartialFiles.isEmpty {
            lines.append("No blob names the orphan partial files; `resumetool rebuild --partial FILE --url URL` makes one.")
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
        return (backup.isEncrypted ? "encrypted, " : "") + VisibleText.escaping(name) + (details.isEmpty ? "" : " (" + VisibleText.escaping(details.joined(separator: ", ")) + ")")
    }

    /// The rows of a backup whose stored file is absent, counted in one line with the first few
    /// named: an incomplete copy has thousands, and `--json` lists every one among the errors.
    static func missingFiles(_ backup: BackupSummary) -> [String] {
        let count = backup.missingFileCount
        guard let listed = missingFilesHeadline(backup) else { return [] }
        let examples = backup.missingFileExamples.prefix(count)
        var lines = ["  " + listed + (examples.count < count ? " The first \(examples.count):" : "")]
        lines += examples.map { "    " + VisibleText.escaping($0) }
        if examples.count < count {
            lines.append("    and \(ByteCount.grouping(Int64(count - examples.count))) more (scan --json lists every one)")
        }
        return lines
    }

    /// `1,078 of 1,090 files listed in Manifest.db are not in this folder: an incomplete copy?`,
    /// nil when every listed file is there: what every report says of an incomplete copy.
    static func missingFilesHeadline(_ backup: BackupSummary) -> String? {
        let count = backup.missingFileCount
        guard count > 0 else { return nil }
        return "\(ByteCount.grouping(Int64(count))) of \(ByteCount.grouping(Int64(backup.fileCount))) "
            + "file\(backup.fileCount == 1 ? "" : "s") listed in \(backup.listName) \(count == 1 ? "is" : "are") not in this folder: "
            + "an incomplete copy?"
    }

    /// Blocks in the order of their container's path, files outside any container last; paths
    /// inside a block are relative to its container. A backup's containers are its domains.
    private func appendBlocks(to lines: inout [String], blobs: [ScanInventory.Blob], orphans: [ScanInventory.PartialFile],
                              safari: [ScanInventory.PartialFile], backupRoot: String?) {
        var containers: [String?] = []
        for container in blobs.map(\.appContainer) + orphans.map(\.appContainer) + safari.map(\.appContainer)
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
            lines.append(container.map { VisibleText.escaping($0) + ":" } ?? "outside any app container:")
            func shown(_ path: String) -> String { VisibleText.escaping(Self.relative(path, to: container)) }
            for blob in blobs where blob.appContainer == container {
                lines.append("  " + shown(blob.path) + (blob.keyPath.map { ", at " + VisibleText.escaping($0) } ?? ""))
                let resume = blob.found.resumeData
                func field(_ label: String, _ value: String?) {
                    lines.append("    " + (label + ":").padding(toLength: 18, withPad: " ", startingAt: 0) + (value.map(VisibleText.escaping) ?? "-"))
                }
                if let bundleID = blob.bundleID { field("bundle ID", bundleID) }
                field("container", blob.found.containerName)
                if let upload = blob.found.upload {
                    field("draft version", upload.draftVersion)
                    field("resume URL", upload.resumeURL?.absoluteString)
                    field("body", UploadInspectReport.text(for: upload.body))
                } else {
                    field("download URL", resume?.downloadURL)
                    field("bytes received", resume?.bytesReceived.map(ByteCount.describe))
                    field("temp file", resume?.tempFileName)
                    field("local path", blob.found.localPath)
                }
                field("partial file", blob.partialFile.map { partial in
                    shown(partial.path) + ", " + ByteCount.describe(partial.size) + Self.comparison(partial.size, resume?.bytesReceived)
                })
                if let skipped = blob.partialFileEvidence?.hashSkipped { field("partial SHA-256", HashSkipText.sentence(skipped)) }
                field("modified", DateText.text(blob.modified))
                if blob.findings.isEmpty {
                    field("findings", "none")
                } else {
                    lines.append("    findings:")
                    for finding in blob.findings { lines.append("      " + VisibleText.escaping(RemedyText.line(of: finding))) }
                }
            }
            for file in orphans where file.appContainer == container {
                lines.append("  orphan partial file: \(shown(file.path)), \(ByteCount.describe(file.status.size)), modified \(DateText.text(file.status.modified))")
                if let skipped = file.file.hashSkipped { lines.append("    SHA-256: " + HashSkipText.sentence(skipped)) }
                if let info = file.safariDownload { lines += SafariDownloadReport.lines(for: info, indent: "    ") }
            }
            for file in safari where file.appContainer == container {
                lines.append("  Safari bundle's partial file: \(shown(file.path)), \(ByteCount.describe(file.status.size)), modified \(DateText.text(file.status.modified))"
                             + (file.safariDownload?.bytesReceived.map { Self.comparison(file.status.size, $0) } ?? ""))
                if let skipped = file.file.hashSkipped { lines.append("    SHA-256: " + HashSkipText.sentence(skipped)) }
                if let info = file.safariDownload { lines += SafariDownloadReport.lines(for: info, indent: "    ") }
                if let entry = file.safariHistoryEntry {
                    lines.append("    " + "in history:".padding(toLength: 18, withPad: " ", startingAt: 0)
                                 + VisibleText.escaping(entry.path) + ", " + VisibleText.escaping(entry.keyPath))
                }
            }
        }
    }

    /// `12 files scanned: 3 blobs, 1 orphan partial file, 1 error`, with `, 4 ledger tasks` after
    /// the blobs when a ledger was found and `, 2 Safari bundle partial files` after them when
    /// Safari bundles were.
    var summary: String {
        func counted(_ count: Int, _ noun: String) -> String {
            "\(ByteCount.grouping(Int64(count))) \(noun)\(count == 1 ? "" : "s")"
        }
        let ledgerTasks = inventory.ledgers.isEmpty
            ? "" : ", \(counted(inventory.ledgers.reduce(0) { $0 + $1.tasks.count }, "ledger task"))"
        let safari = inventory.safariPartialFiles.isEmpty
            ? "" : ", \(counted(inventory.safariPartialFiles.count, "Safari bundle partial file"))"
        return "\(counted(inventory.fileCount, "file")) scanned: \(counted(inventory.blobs.count, "blob"))\(ledgerTasks)\(safari), "
            + "\(counted(inventory.orphanPartialFiles.count, "orphan partial file")), "
            + (inventory.foundArchives.isEmpty ? "" : "\(counted(inventory.foundArchives.count, "archive")) found, ")
            + "\(counted(inventory.errors.count, "error"))"
    }

    /// `, as received`, `, 96 fewer than received`, `, 5 more than received`.
    package static func comparison(_ size: Int64, _ received: Int64?) -> String {
        guard let received else { return "" }
        if size == received { return ", as received" }
        let difference = ByteCount.grouping(size < received ? received - size : size - received)
        return size < received ? ", \(difference) fewer than received" : ", \(difference) more than received"
    }

    private static func relative(_ path: String, to container: String?) -> String {
        guard let container, let rest = BytePath(path).relative(to: BytePath(container)), !rest.isEmpty else { return path }
        return rest.text
    }

}
