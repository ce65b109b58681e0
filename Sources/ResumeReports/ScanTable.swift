import Foundation
import ResumeDataCodec
import ResumeScan

/// `scan --csv` and `scan --tsv`: a header row, then one row per blob (its partial file in the
/// same row), one per orphan partial file, one per Safari bundle's partial file (its URL and
/// bytes received from the bundle's `Info.plist`) and one per entry of Safari's list of
/// downloads (the list's file, the entry's key path, URL and bytes), one per archive met among
/// the files (finding `archive`), with every field of a
/// finding: the source, the app, SHA-256, size and times of the file and of its partial file.
package struct ScanTable {
    let inventory: ScanInventory

    package init(inventory: ScanInventory) {
        self.inventory = inventory
    }

    /// The first 21 are the columns of the first `--csv`, in their order, so that a reader
    /// indexing them still works; the partial file's times, `finding` and `hashSkipped` (why the
    /// row's partial file has no SHA-256, empty when it has one) came after.
    static let columns = [
        "path", "keyPath", "appContainer", "container", "downloadURL", "bytesReceived", "tempFileName", "localPath",
        "partialFilePath", "partialFileSize", "modified", "findings",
        "bundleID", "sourceKind", "sourceRoot", "sourceInner", "sha256", "size", "changed", "created", "partialFileSHA256",
        "partialFileModified", "partialFileChanged", "partialFileCreated", "finding", "hashSkipped",
    ]

    /// The rows below the header; an absent value is an empty field, and the findings are
    /// `severity[code]` separated by `; `.
    var rows: [[String]] {
        func time(_ date: Date?) -> String { date.map(DateText.text) ?? "" }
        var rows: [[String]] = []
        for blob in inventory.blobs {
            let resume = blob.found.resumeData
            let partial = blob.partialFileEvidence
            rows.append([
                blob.path, blob.keyPath ?? "", blob.appContainer ?? "", blob.found.containerName,
                resume?.downloadURL ?? "", resume?.bytesReceived.map(String.init) ?? "", resume?.tempFileName ?? "",
                blob.found.localPath ?? "", blob.partialFile?.path ?? "", blob.partialFile.map { String($0.size) } ?? "",
                DateText.text(blob.modified),
                blob.findings.map { "\($0.severity.rawValue)[\($0.code.name)]" }.joined(separator: "; "),
                blob.bundleID ?? "", blob.file.source.kind.rawValue, blob.file.source.root, blob.file.source.inner,
                blob.file.sha256 ?? "", String(blob.file.size), time(blob.file.changed), time(blob.file.created),
                partial?.sha256 ?? "", time(partial?.modified), time(partial?.changed), time(partial?.created),
                (blob.keyPath == nil ? ScanFinding.Kind.blob : .embeddedBlob).rawValue,
                HashSkipText.field(partial?.hashSkipped),
            ])
        }
        // A partial file no blob names: an orphan, or a Safari bundle's with its Info.plist's URL
        // and bytes.
        func partialFileRow(_ partial: ScanInventory.PartialFile, _ kind: ScanFinding.Kind) -> [String] {
            let file = partial.file, info = partial.safariDownload
            return [
                partial.path, "", partial.appContainer ?? "", "", info?.url ?? "", info?.bytesReceived.map(String.init) ?? "", "", "", "", "",
                DateText.text(partial.status.modified), "",
                partial.bundleID ?? "", file.source.kind.rawValue, file.source.root, file.source.inner,
                file.sha256 ?? "", String(file.size), time(file.changed), time(file.created),
                "", "", "", "", kind.rawValue,
                HashSkipText.field(file.hashSkipped),
            ]
        }
        rows += inventory.orphanPartialFiles.map { partialFileRow($0, .orphanPartialFile) }
        rows += inventory.safariPartialFiles.map { partialFileRow($0, .safariPartialFile) }
        for history in inventory.safariHistories {
            let file = history.file
            for (entry, keyPath) in zip(history.history.entries, history.history.keyPaths) {
                rows.append([
                    history.path, keyPath, "", "", entry.url ?? "", entry.bytesReceived.map(String.init) ?? "", "", "", "", "",
                    time(file.modified), "",
                    "", file.source.kind.rawValue, file.source.root, file.source.inner,
                    file.sha256 ?? "", String(file.size), time(file.changed), time(file.created),
                    "", "", "", "", ScanFinding.Kind.safariHistoryEntry.rawValue,
                    HashSkipText.field(file.hashSkipped),
                ])
            }
        }
        // The archive's kind has no column: its path, size, times and `archive` say what it is.
        for archive in inventory.foundArchives {
            let file = archive.file
            rows.append([
                archive.path, "", "", "", "", "", "", "", "", "",
                time(file.modified), "",
                "", file.source.kind.rawValue, file.source.root, file.source.inner,
                "", String(file.size), time(file.changed), time(file.created),
                "", "", "", "", ScanFinding.Kind.archive.rawValue, "",
            ])
        }
        return rows
    }

    /// RFC 4180: CRLF line ends, a field quoted when it holds a comma, quote or line break.
    var csv: String {
        ([Self.columns] + rows).map(CSVRow.line).joined()
    }

    /// IANA `text/tab-separated-values`, which allows no tab or line break in a field: a tab, LF,
    /// CR and backslash are written `\t`, `\n`, `\r` and `\\` (as PostgreSQL's and MySQL's text
    /// formats do); LF line ends.
    package var tsv: String {
        ([Self.columns] + rows).map { fields in fields.map(Self.tsvField).joined(separator: "\t") + "\n" }.joined()
    }

    static func tsvField(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == UInt8(ascii: "\\") }) else { return field }
        var out = ""
        for scalar in field.unicodeScalars {
            switch scalar {
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\\": out += "\\\\"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
