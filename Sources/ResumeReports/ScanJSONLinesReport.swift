import Foundation
import ResumeDataCodec
import ResumeScan

/// `scan --jsonl`: one JSON object per line and per finding (blob, embedded blob, partial file,
/// orphan partial file, Safari bundle's partial file, entry of Safari's list of downloads, archive
/// met among the files), each self-contained so that a line can be ingested alone (a SIEM, `jq
/// -c`, Timesketch's JSONL importer): it says what it is, where it was read, the app, hashes,
/// sizes and times, and for a blob its URL, bytes and findings. What could not be read follows,
/// one `error` line each (path and message), so that a file of these lines holds the examiner's
/// whole account of the scan; standard error says them too, as for every format but `--json`.
package struct ScanJSONLinesReport {
    let inventory: ScanInventory

    package init(inventory: ScanInventory) {
        self.inventory = inventory
    }

    /// The lines, each ending with a newline; nothing at all when nothing was found and all was read.
    package var bytes: [UInt8] {
        var out: [UInt8] = []
        for finding in ScanFinding.all(in: inventory) {
            line(for: finding).writeCompact(to: &out)
            out.append(UInt8(ascii: "\n"))
        }
        for problem in inventory.errors {
            JSONValue.object([("finding", .string("error")), ("path", .string(problem.path)), ("message", .string(problem.message))])
                .writeCompact(to: &out)
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

    /// A blob as `scan --json` has it; a partial file as an orphan has it plus `size` and the blob
    /// naming it; an orphan or a Safari bundle's partial file as `scan --json` has it; an entry of
    /// Safari's list of downloads as the list's file (path, hashes, times), `keyPath` and the
    /// entry as `scan --json` has it. `finding` first, `device` last for a backup.
    func line(for finding: ScanFinding) -> JSONValue {
        var members: [(String, JSONValue)] = [("finding", .string(finding.kind.rawValue))]
        switch finding.kind {
        case .blob, .embeddedBlob:
            if let blob = finding.blob, case .object(let blobMembers) = ScanReport.json(for: blob) { members += blobMembers }
        case .partialFile:
            members += [
                ("path", .string(finding.path)),
                ("appContainer", .optionalString(finding.appContainer)),
                ("bundleID", .optionalString(finding.bundleID)),
            ] + ScanReport.evidenceMembers(finding.file)
            if let blob = finding.blob {
                members.append(("blob", .object([
                    ("path", .string(blob.path)),
                    ("keyPath", .optionalString(blob.keyPath)),
                    ("source", ScanReport.json(for: blob.file.source)),
                    ("sha256", .optionalString(blob.file.sha256)),
                    ("downloadURL", .optionalString(blob.found.resumeData?.downloadURL)),
                    ("bytesReceived", blob.found.resumeData?.bytesReceived.map(JSONValue.integer) ?? .null),
                ])))
            }
        case .safariHistoryEntry:
            members += [("path", .string(finding.path))] + ScanReport.evidenceMembers(finding.file)
            if let entry = finding.historyEntry {
                members += [("keyPath", .string(entry.history.history.keyPaths[entry.index])),
                            ("safariDownload", SafariDownloadReport.json(for: entry.history.history.entries[entry.index]))]
            }
        case .archive:
            if let archive = finding.archive, case .object(let archiveMembers) = ScanReport.json(for: archive) {
                members += archiveMembers
            }
        case .orphanPartialFile, .safariPartialFile:
            if let orphan = finding.orphan, case .object(let orphanMembers) = ScanReport.json(for: orphan) {
                members += orphanMembers
            }
        }
        if let backup = ScanFinding.backup(of: finding.file, in: inventory) {
            members.append(("device", ScanReport.json(for: backup.device)))
        }
        return .object(members)
    }
}
