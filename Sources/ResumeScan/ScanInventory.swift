import Foundation
import ResumeDataCodec
import ResumeSystemCalls
import ResumeSupport

/// What a ``ScanJob`` found, once the walk is over: every blob paired with its partial file, the
/// partial files no blob names, and what could not be read. Paths are spelled from the roots as given.
public struct ScanInventory: Sendable {
    /// A resume blob, in a file of its own or as a data value inside one.
    public struct Blob: Sendable {
        /// The file holding the blob.
        public let path: String
        /// Where in the file, `nil` when the file is the blob.
        public let keyPath: String?
        /// The app container of the file (the nearest folder above it holding `Library/` or `tmp/`), if any.
        public let appContainer: String?
        /// The blob as decoded.
        public let found: FoundResumeBlob
        /// The partial file, if one was found in the scanned tree.
        public let partialFile: (path: String, size: Int64)?
        /// The file's modification time.
        public let modified: Date
        /// The validator's findings, and the partial file's, most severe first.
        public let findings: [ResumeDataFinding]
        /// The file holding the blob: where it is, its SHA-256, size and times.
        public let file: EvidenceFile
        /// The app it belongs to: its container's `MCMMetadataIdentifier`, or its backup domain's
        /// bundle or group; nil when neither says.
        public let bundleID: String?
        /// The partial file as evidence (its hash and times when the scan read it).
        public let partialFileEvidence: EvidenceFile?
    }

    /// A partial download (`CFNetworkDownload_*.tmp`, or a WebKit `.download` folder's data) that
    /// no blob names; or a Safari bundle's data file, which its bundle names
    /// (``ScanInventory/safariPartialFiles``).
    public struct PartialFile: Sendable {
        /// Its path.
        public let path: String
        /// Its app container, if any.
        public let appContainer: String?
        /// Its size and modification time.
        public let status: FileStatus
        /// Where it is, its SHA-256, size and times.
        public let file: EvidenceFile
        /// The app it belongs to, as for a blob.
        public let bundleID: String?
        /// What the `Info.plist` beside it says, when it is the data file of a Safari
        /// `NAME.download` bundle: the URL, bytes so far and total, dates.
        public var safariDownload: SafariDownloadInfo? = nil
        /// The entry of Safari's list of downloads (`Downloads.plist`) that names its bundle,
        /// when the scan found that list and it does.
        public var safariHistoryEntry: SafariHistoryEntry? = nil
    }

    /// An entry of a `Downloads.plist` the scan found: which file, and where in it.
    public struct SafariHistoryEntry: Sendable, Hashable {
        /// The `Downloads.plist` file's path.
        public let path: String
        /// The entry's index in that file's ``SafariDownloadHistory/entries``.
        public let index: Int
        /// Where the entry is in the plist: `DownloadHistory[3]`.
        public let keyPath: String
    }

    /// Safari's list of downloads (`Safari/Downloads.plist`) as found.
    public struct SafariHistoryFile: Sendable {
        /// Its path.
        public let path: String
        /// Where it is, its SHA-256, size and times.
        public let file: EvidenceFile
        /// Its entries.
        public let history: SafariDownloadHistory
    }

    /// A zip or tar archive met among the files scanned (in a folder, a backup, or an archive),
    /// told by its first bytes: listed so that the examiner knows it is there, read only by
    /// `scan --open-archives` (a folder's) or `scan PATH`.
    public struct FoundArchive: Sendable, Hashable {
        /// Its path, as the scan spells paths.
        public let path: String
        /// `zip`, `tar`, `tar.gz`, `tar.bz2` or `tar.xz`.
        public let kind: String
        /// Where it is, its size and times (never hashed: it is not read past its first bytes).
        public let file: EvidenceFile
        /// The root of the archive scan among ``ScanInventory/archives`` that holds its findings:
        /// its own path when `--open-archives` opened it, the root as given when the same file
        /// was a root of the scan too (read once, as the root); nil when it was only listed.
        public let readAs: String?
    }

    /// The archives met, sorted by path within each evidence, in the order given.
    public private(set) var foundArchives: [FoundArchive] = []

    /// Safari's lists of downloads, sorted by path within each evidence, in the order given.
    public private(set) var safariHistories: [SafariHistoryFile] = []

    /// The blobs, sorted by path.
    public private(set) var blobs: [Blob] = []
    /// The partial files no blob and no ledger task names, sorted by path.
    public private(set) var orphanPartialFiles: [PartialFile] = []
    /// The data files of Safari `NAME.download` bundles, each tied to its bundle's `Info.plist`
    /// (``PartialFile/safariDownload``) and the `Downloads.plist` entry that names the bundle
    /// (``PartialFile/safariHistoryEntry``), when the scan found them: not orphans, as their
    /// bundle names them. Sorted by path.
    public private(set) var safariPartialFiles: [PartialFile] = []
    /// nsurlsessiond's ledgers (`tasks.sqlite`) found by content, sorted by path.
    public private(set) var ledgers: [TaskLedger] = []
    /// What could not be read or was skipped, sorted by path.
    public private(set) var errors: [ScanProblem]
    /// Regular files seen.
    public private(set) var fileCount: Int
    /// The backups scanned, in the order given.
    public private(set) var backups: [BackupSummary] = []

    /// These findings as they are, unpaired and unsorted: for the renderers' tests, which need
    /// fixed times that no file on disk has (its status change time is when it was written).
    init(blobs: [Blob], orphanPartialFiles: [PartialFile], errors: [ScanProblem], fileCount: Int, backups: [BackupSummary]) {
        self.blobs = blobs
        self.orphanPartialFiles = orphanPartialFiles
        self.errors = errors
        self.fileCount = fileCount
        self.backups = backups
    }

    /// Pairs what the walk found.
    /// - Parameters:
    ///   - roots: the scanned folders, as the walk spelled them.
    ///   - found: the files holding blobs or being partial files, in any order.
    init(roots: [String], found: [FileProbe.Finding], walker: TreeWalker, errors: [ScanProblem], hashLimit: HashLimit = .standard) {
        self.errors = errors
        fileCount = walker.fileCount
        var space = FolderPairing(roots: roots, walker: walker)
        space.hashLimit = hashLimit
        collect(found, space: &space)
    }

    /// The zip and tar extractions scanned, in the order given.
    public private(set) var archives: [ArchiveSummary] = []

    /// The folders' inventory, then each backup's after it, then each archive's, in the order given.
    init(folders: ScanInventory?, backups: [BackupScan.Outcome], archives: [ArchiveScan.Outcome] = []) {
        var errors = folders?.errors ?? []
        for backup in backups {
            if let failure = backup.failure { errors.append(ScanProblem(path: backup.summary.root, message: failure.message)) }
            errors += backup.errors
        }
        self.errors = errors
        fileCount = folders?.fileCount ?? 0
        blobs = folders?.blobs ?? []
        orphanPartialFiles = folders?.orphanPartialFiles ?? []
        safariPartialFiles = folders?.safariPartialFiles ?? []
        ledgers = folders?.ledgers ?? []
        safariHistories = folders?.safariHistories ?? []
        foundArchives = folders?.foundArchives ?? []
        for backup in backups {
            // A listed file whose stored copy is absent was not scanned.
            fileCount += backup.summary.fileCount - backup.summary.unreadFileCount - backup.summary.missingFileCount
            self.backups.append(backup.summary)
            var space = backup
            collect(backup.findings, space: &space)
        }
        for archive in archives {
            self.errors += archive.errors
            fileCount += archive.summary.fileCount
            self.archives.append(archive.summary)
            var space = archive
            collect(archive.findings, space: &space)
        }
    }

    /// Pairs the findings of one kind of evidence and appends them, sorted by path.
    private mutating func collect(_ found: [FileProbe.Finding], space: inout some PairingSpace) {
        let sorted = found.sorted { TreeWalker.byteOrder($0.path, $1.path) }
        var knownFiles: [BytePath: FileProbe.Finding] = [:]
        for file in sorted { knownFiles[BytePath(spelled: file.path)] = file }
        // Names are looked up in the walk's own findings first; the rest (a TempFileName not
        // named like CFNetwork's) costs a few system calls each, and blobs are few.
        func entry(at path: String) -> PartialFileResolution.Entry {
            if let known = knownFiles[BytePath(spelled: path)] { return .regularFile(size: known.status.size) }
            return space.entry(at: path)
        }
        func evidence(_ file: FileProbe.Finding) -> EvidenceFile {
            var evidence = EvidenceFile(source: file.source ?? space.source(of: file.path), sha256: file.sha256, size: file.status.size,
                                        modified: file.status.modified, changed: file.status.changed, created: file.status.created,
                                        mode: file.status.mode)
            evidence.allocatedSize = file.status.allocatedSize
            evidence.hashSkipped = file.hashSkipped
            return evidence
        }
        // Files by name: a partial file not where scan looked may sit elsewhere.
        var byName: [BytePath: [String]] = [:]
        for file in sorted { byName[BytePath(spelled: file.path).lastName, default: []].append(file.path) }
        // What the validator says of a blob depends on the blob alone: worked out on every core
        // first, as in the pairing loop below it was the largest serial part of a folder scan.
        var ownFindings: [[ResumeDataFinding]] = []
        orderedParallelMap(sorted.flatMap(\.blobs), transform: Self.ownFindings(of:), emit: { ownFindings.append($0) })
        var nextOwnFindings = ownFindings.makeIterator()
        var paired: Set<BytePath> = []
        for file in sorted {
            let container = space.container(of: file.path)
            let bundleID = space.bundleID(of: container)
            func missing(_ pairing: Pairing, _ path: String, _ key: String) -> ResumeDataFinding {
                MissingPartialFile(expectedPath: path, key: key, search: pairing.search, expectedAbsence: space.expectedAbsence(of: path),
                                   sameName: byName[BytePath(spelled: path).lastName] ?? []).finding
            }
            for found in file.blobs {
                let pairing = Self.pair(found, container: container, entry: entry, candidates: { space.localPathCandidates($0, container: $1) })
                var partialEvidence: EvidenceFile?
                if let partial = pairing.partial {
                    paired.insert(BytePath(spelled: partial.path))
                    if let known = knownFiles[BytePath(spelled: partial.path)] {
                        partialEvidence = evidence(known)
                    } else if let found = space.evidence(at: partial.path) {
                        partialEvidence = EvidenceFile(source: space.source(of: partial.path), sha256: found.sha256, size: found.status.size,
                                                       modified: found.status.modified, changed: found.status.changed,
                                                       created: found.status.created, mode: found.status.mode)
                        partialEvidence?.allocatedSize = found.status.allocatedSize
                        partialEvidence?.hashSkipped = found.hashSkipped
                    } else {
                        partialEvidence = EvidenceFile(source: space.source(of: partial.path), sha256: nil, size: partial.size,
                                                       modified: nil, changed: nil, created: nil, mode: nil)
                    }
                }
                blobs.append(Blob(path: file.path, keyPath: found.keyPath, appContainer: container, found: found,
                                  partialFile: pairing.partial, modified: file.status.modified,
                                  findings: Self.findings(for: found, own: nextOwnFindings.next() ?? [], pairing: pairing, missing: missing),
                                  file: evidence(file), bundleID: bundleID,
                                  partialFileEvidence: partialEvidence))
            }
        }
        for file in sorted {
            guard var ledger = file.ledger else { continue }
            if ledger.source == nil { ledger.source = file.source ?? space.source(of: file.path) }
            ledgers.append(ledger)
            // The partial files its tasks name, mapped into the extraction the ledger lies in.
            for task in ledger.tasks {
                if let partial = task.partialFile, let path = partial.path, partial.size != nil { paired.insert(BytePath(spelled: path)) }
            }
        }
        for file in sorted { if let kind = file.archiveKind { foundArchives.append(FoundArchive(path: file.path, kind: kind, file: evidence(file), readAs: file.readAsArchive)) } }
        for file in sorted { if let history = file.safariHistory { safariHistories.append(SafariHistoryFile(path: file.path, file: evidence(file), history: history)) } }
        let unpaired = sorted.filter { $0.isPartialFile && !paired.contains(BytePath(spelled: $0.path)) }
        let bundles = SafariBundleTies(found: sorted, partialFiles: unpaired, histories: safariHistories)
        for file in unpaired {
            let container = space.container(of: file.path)
            var partial = PartialFile(path: file.path, appContainer: container, status: file.status,
                                      file: evidence(file), bundleID: space.bundleID(of: container))
            if let tie = bundles.tie(of: file.path) {
                partial.safariDownload = tie.info
                partial.safariHistoryEntry = tie.historyEntry
                safariPartialFiles.append(partial)
            } else {
                orphanPartialFiles.append(partial)
            }
        }
    }

    private struct Pairing {
        var partial: (path: String, size: Int64)?
        /// The resume key that named the partial file (or would have), and where it was looked for.
        var key: String?
        var expectedPath: String?
        /// Why the file `PartialFileResolution` found in the container's `tmp/` may not be used.
        var refusal: PartialFileResolution.Verdict?
        /// Where the partial file named by ``key`` was looked for.
        var search = MissingPartialFile.Search.looked
    }

    /// First `PartialFileResolution` with the container's `tmp/` as the folder (what `resume
    /// --tmp-dir CONTAINER/tmp` would use; devices since iOS 9 keep partial files there), then
    /// `LocalPath` wherever the scanned tree now holds the device's path.
    private static func pair(_ found: FoundResumeBlob, container: String?, entry: (String) -> PartialFileResolution.Entry,
                             candidates: (String, String?) -> [String]) -> Pairing {
        var pairing = Pairing()
        // The blob's names spelled as the evidence's paths are (`EvidenceName`): a name that
        // spells `\x{ff}` must not find the file whose name has byte FF there.
        let tempFileName = found.resumeData?.tempFileName.map(EvidenceName.text(ofBlobPath:))
        let localPath = found.localPath.map(EvidenceName.text(ofBlobPath:))
        if let name = tempFileName {
            pairing.key = ResumeDataKey.tempFileName
            pairing.expectedPath = AppContainerLayout.tempFilePath(name: name, containerRoot: container) ?? name
            if container == nil { pairing.search = .noContainer }
        }
        if let container, found.resumeData != nil {
            let resolution = PartialFileResolution(tempFileName: tempFileName, localPath: localPath, folder: BytePath(container).appending("tmp").text)
            let verdict = resolution.resolve(entry)
            switch verdict {
            case .file(let path, let size, let key):
                pairing.partial = (path, size)
                pairing.key = key
                return pairing
            case .refused:
                pairing.refusal = verdict
                return pairing
            case .missing:
                break
            }
        }
        if let localPath {
            let places = candidates(localPath, container)
            if pairing.key == nil {
                pairing.key = ResumeDataKey.localPath
                pairing.expectedPath = localPath
                if places.isEmpty { pairing.search = .outsideScannedTree }
            }
            for path in places {
                if case .regularFile(let size) = entry(path) {
                    pairing.key = ResumeDataKey.localPath
                    pairing.partial = (path, size)
                    return pairing
                }
            }
        }
        return pairing
    }

    /// The last component of a path (the whole of a bare name).
    /// What the blob's own validator says, without its partial file (``findings(for:own:pairing:missing:)``
    /// adds those).
    private static func ownFindings(of found: FoundResumeBlob) -> [ResumeDataFinding] {
        switch found.content {
        case .resumeData(let decoded): ResumeDataValidator(blobSize: found.size).findings(for: decoded)
        case .undecodedNetworkFramework(_, let reason): [FoundResumeBlob.undecodedNote(reason: reason)]
        case .upload(let upload): UploadResumeDataValidator().findings(for: upload)
        }
    }

    /// The validator's findings, and the partial file's against the bytes received, most severe
    /// first; `missing` says what a partial file not found means (``MissingPartialFile``).
    private static func findings(for found: FoundResumeBlob, own: [ResumeDataFinding], pairing: Pairing,
                                 missing: (_ pairing: Pairing, _ path: String, _ key: String) -> ResumeDataFinding) -> [ResumeDataFinding] {
        guard case .resumeData(let resume) = found.content else { return own }
        var findings = own
        if let refusal = pairing.refusal {
            findings += ResumeDataValidator.partialFileFindings(refusal, bytesReceived: resume.bytesReceived)
        } else if let key = pairing.key, let partial = pairing.partial {
            findings += ResumeDataValidator.partialFileFindings(path: partial.path, size: partial.size,
                                                                 bytesReceived: resume.bytesReceived, key: key)
        } else if let key = pairing.key, let expected = pairing.expectedPath {
            findings.append(missing(pairing, expected, key))
        }
        return findings.enumerated()
            .sorted { ($0.element.severity, -$0.offset) > ($1.element.severity, -$1.offset) }
            .map(\.element)
    }
}
