import Foundation
import ResumeDataCodec
import ResumeSystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `scan` makes of one file: its first bytes decide whether it is read further, and only a
/// property list within ``readLimit`` is read whole and searched for blobs.
struct FileProbe: Sendable {
    // The source and the probe every file is read with, kept whole rather than made for each
    // file: each was a copy of the system-call table's closures and of the search (about 40
    // retains and releases a file, 3 % of a 100,000-file scan's CPU).
    private var evidence = FolderEvidence(readLimit: 64 << 20, calls: .system)
    private var reading = EvidenceProbe()

    /// Property lists larger than this are not read: a resume blob is a few KiB, a preferences
    /// plist rarely over a MiB, and two workers each holding one at most bound the memory.
    var readLimit: Int {
        get { evidence.readLimit }
        set { evidence.readLimit = newValue }
    }
    var search: ResumeBlobSearch {
        get { reading.search }
        set { reading.search = newValue }
    }
    /// The system's calls; a failing wrapper in tests.
    var calls: FileSystemCalls {
        get { evidence.calls }
        set { evidence.calls = newValue }
    }
    /// The folders a scan walks, below which a file's path is spelled as the walk spells names.
    var walkRoots: [String] = []
    /// Which files are hashed (``HashLimit``).
    var hashLimit: HashLimit {
        get { reading.hashLimit }
        set { reading.hashLimit = newValue }
    }

    /// A file worth reporting: it holds blobs, or is a partial download, or both, or is
    /// nsurlsessiond's ledger.
    struct Finding: Sendable {
        let path: String
        let status: FileStatus
        let blobs: [FoundResumeBlob]
        let isPartialFile: Bool
        /// The SHA-256 of the whole content, lower-case hex; nil when it could not be read.
        var sha256: String? = nil
        /// Where it is, for a finding that is not in a walked folder (a backup's file).
        var source: FindingSource? = nil
        /// nsurlsessiond's task ledger, when the file is one (issue 26).
        var ledger: TaskLedger? = nil
        /// What the file says when it is a Safari `.download` bundle's `Info.plist`.
        var safariDownload: SafariDownloadInfo? = nil
        /// Safari's list of downloads, when the file is `Safari/Downloads.plist`.
        var safariHistory: SafariDownloadHistory? = nil
        /// Why ``sha256`` is nil when the file was not hashed (sparse, or above the limit).
        var hashSkipped: HashSkip? = nil
        /// `zip`, `tar`, `tar.gz`...: the file is an archive by its first bytes (``ArchiveSignature``).
        var archiveKind: String? = nil
        /// The root of the archive scan that read this archive: its own path when
        /// `--open-archives` opened it, the root's spelling when the same file is a root of the
        /// scan too; nil when it was only listed.
        var readAsArchive: String? = nil
    }

    enum Outcome: Sendable {
        /// Neither a blob nor a partial file: forgotten at once.
        case nothing
        // Boxed: most outcomes are `nothing`, and each is copied on its way out of the parallel
        // map; a finding inline made every copy and destruction walk its dozen fields.
        indirect case found(Finding)
        case failed(ScanProblem)
    }

    func probe(_ file: TreeWalker.File) -> Outcome {
        // O_NONBLOCK: a file replaced by a FIFO after the listing must not block the scan.
        let descriptor: Int32
        switch evidence.calls.openEvidence(in: file.folder.descriptor, file.name) {
        case .success(let opened): descriptor = opened
        case .failure(let failure):
            // ELOOP: replaced by a link after the listing; ENOENT: deleted meanwhile.
            if failure.code == ELOOP || failure.code == ENOENT { return .nothing }
            return .failed(ScanProblem(path: file.path, message: "cannot open: \(TreeWalker.describe(failure.code))"))
        }
        defer { _ = evidence.calls.close(descriptor) }
        if FolderTaskArchives.mayBeTaskArchive(file),
           let outcome = FolderTaskArchives(calls: calls, walkRoots: walkRoots).probe(file, descriptor: descriptor) { return outcome }
        var member = FolderEvidence.Member(file: file, descriptor: descriptor)
        switch reading.probe(&member, in: evidence) {
        case .nothing: return .nothing
        case .ledger:
            var ledgers = FolderLedgers(calls: calls, walkRoots: walkRoots)
            switch LedgerCollector.collect(FolderLedgers.Candidate(file: file, descriptor: descriptor), from: &ledgers) {
            case .notALedger: return .nothing
            case .found(let finding): return .found(finding)
            case .failed(let problem): return .failed(problem)
            }
        case .found(let finding, _): return .found(finding)
        case .failed(let problem): return .failed(problem)
        }
    }
}
