import Foundation
import ResumeDataCodec
import ResumeScan

/// One finding of a scan, as the reports that give each its own line or row see it: a blob (in a
/// file of its own, or embedded as data in another), the partial file a blob names, a partial
/// file no blob names, a Safari bundle's partial file, an entry of Safari's list of downloads,
/// or an archive met among the files.
struct ScanFinding {
    /// What the finding is; the raw value is its name in JSON Lines, CSV and the timeline.
    enum Kind: String, Sendable {
        case blob
        case embeddedBlob = "embedded-blob"
        case partialFile = "partial-file"
        case orphanPartialFile = "orphan-partial-file"
        case safariPartialFile = "safari-partial-file"
        case safariHistoryEntry = "safari-history-entry"
        /// A zip or tar archive met among the files (``ScanInventory/foundArchives``).
        case archive
    }

    let kind: Kind
    /// The finding's own path, as the scan spells it.
    let path: String
    /// Where it is, its hash, size and times.
    let file: EvidenceFile
    let appContainer: String?
    let bundleID: String?
    /// The blob itself, or for a partial file the blob that names it; nil for an orphan.
    let blob: ScanInventory.Blob?
    /// The partial file itself, for an orphan or a Safari bundle's; nil for the other kinds.
    var orphan: ScanInventory.PartialFile?
    /// For an entry of Safari's list of downloads: the list (``path`` and ``file`` are its) and
    /// the entry's index in it.
    var historyEntry: (history: ScanInventory.SafariHistoryFile, index: Int)?
    /// The archive, for ``Kind/archive``.
    var archive: ScanInventory.FoundArchive?

    /// The entry of Safari's list of downloads, for ``Kind/safariHistoryEntry``.
    var safariEntry: SafariDownloadInfo? {
        historyEntry.map { $0.history.history.entries[$0.index] }
    }

    /// Every finding in the inventory's order: each blob followed by its partial file, then the
    /// orphan partial files, the Safari bundles' partial files and the entries of each of
    /// Safari's lists of downloads, then the archives met. A partial file two blobs name is listed after each (each line is
    /// self-contained, so it names its blob).
    static func all(in inventory: ScanInventory) -> [ScanFinding] {
        var findings: [ScanFinding] = []
        for blob in inventory.blobs {
            findings.append(ScanFinding(kind: blob.keyPath == nil ? .blob : .embeddedBlob, path: blob.path, file: blob.file,
                                        appContainer: blob.appContainer, bundleID: blob.bundleID, blob: blob))
            if let partial = blob.partialFile {
                // The pairing always records the partial file's evidence; its path and size alone are the fallback.
                let source = FindingSource(kind: blob.file.source.kind, root: blob.file.source.root, inner: partial.path)
                let file = blob.partialFileEvidence
                    ?? EvidenceFile(source: source, sha256: nil, size: partial.size, modified: nil, changed: nil, created: nil, mode: nil)
                findings.append(ScanFinding(kind: .partialFile, path: partial.path, file: file,
                                            appContainer: blob.appContainer, bundleID: blob.bundleID, blob: blob))
            }
        }
        for orphan in inventory.orphanPartialFiles {
            findings.append(ScanFinding(kind: .orphanPartialFile, path: orphan.path, file: orphan.file,
                                        appContainer: orphan.appContainer, bundleID: orphan.bundleID, blob: nil, orphan: orphan))
        }
        for partial in inventory.safariPartialFiles {
            findings.append(ScanFinding(kind: .safariPartialFile, path: partial.path, file: partial.file,
                                        appContainer: partial.appContainer, bundleID: partial.bundleID, blob: nil, orphan: partial))
        }
        for history in inventory.safariHistories {
            for index in history.history.entries.indices {
                findings.append(ScanFinding(kind: .safariHistoryEntry, path: history.path, file: history.file,
                                            appContainer: nil, bundleID: nil, blob: nil, historyEntry: (history, index)))
            }
        }
        for archive in inventory.foundArchives {
            findings.append(ScanFinding(kind: .archive, path: archive.path, file: archive.file,
                                        appContainer: nil, bundleID: nil, blob: nil, archive: archive))
        }
        return findings
    }

    /// The backup a finding was read from, for its device; nil for folders and archives.
    static func backup(of file: EvidenceFile, in inventory: ScanInventory) -> BackupSummary? {
        guard file.source.kind == .backup || file.source.kind == .encryptedBackup else { return nil }
        return inventory.backups.first { $0.root == file.source.root }
    }
}
