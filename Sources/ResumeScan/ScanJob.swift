import Foundation
import ResumeDataCodec
import ResumeSupport
import ResumeSystemCalls

/// One scan of folder trees: one thread walks the roots while the files already listed are
/// probed in batches on all cores; only the files worth reporting are kept, so memory follows
/// the number of blobs, not of files.
///
/// The walk never follows a symbolic link below a root, never enters a folder twice, and reads
/// every file read-only; a backup folder it meets is read as a backup root is, its files not
/// walked. See ``ScanInventory`` for what it reports.
public struct ScanJob: Sendable {
    /// The folders, backups and archives to scan (a root that is itself a link is followed: the
    /// caller named it), as the report names them: spelled as the scan spells every path, a path
    /// that is UTF-8 and holds no `\x{` as given, any other with its bytes escaped (`\x{e9}`).
    public let roots: [String]
    var probe = FileProbe()
    /// Which files are hashed: a sparse file, or one above the limit, is described, not read.
    public var hashLimit: HashLimit {
        get { probe.hashLimit }
        set { probe.hashLimit = newValue }
    }

    /// How far a running scan has got, for a progress line.
    public struct Progress: Sendable {
        /// Regular files listed so far.
        public let files: Int
        /// Blobs found so far.
        public let blobs: Int
        /// The last file probed.
        public let currentPath: String
    }

    /// Whether each zip or tar archive met in a walked folder is read as a root archive is
    /// (`scan --open-archives`), once the walk is over: opened read-only relative to its folder
    /// without following a link, within the same bounds, its findings' source naming it and the
    /// member. An archive met inside a backup or an archive is listed, never opened.
    public var opensArchives = false
    /// Members `--open-archives` reads in all: an archive is opened only while the ones opened
    /// before it hold fewer (each is bounded by ``ArchiveReader/Limits`` too), so a folder of a
    /// thousand archives costs at most what a root archive of twice the bound would.
    var openedArchiveMemberBudget = ArchiveReader.Limits().maximumMembers

    /// Called at most once, when the first encrypted backup is met: the backups' password, or
    /// nil to leave their files unread.
    public var password: @Sendable () -> Data? = { nil }

    /// Asked before each root and each folder: true stops the scan there (`scan` on Ctrl-C), and
    /// ``run(progress:)`` returns what was found so far. A backup being read is read to its end.
    public var shouldStop: @Sendable () -> Bool = { false }

    /// A scan of `roots`.
    public init(roots: [String]) {
        self.roots = roots.map { EvidenceName.text(ofPath: $0.utf8) }
    }

    /// A scan of `roots`, with the password of encrypted backups among them.
    public init(roots: [String], password: @escaping @Sendable () -> Data?) {
        self.init(roots: roots)
        self.password = Self.once(password)
    }

    /// A scan of roots given as the bytes the system names them by, which need not be UTF-8 (a
    /// command line's arguments), with the password of encrypted backups among them.
    public init(rootPaths: [[UInt8]], password: @escaping @Sendable () -> Data? = { nil }) {
        self.roots = rootPaths.map { EvidenceName.text(ofPath: $0) }
        self.password = Self.once(password)
    }

    /// The answer of `body`, asked the first time only.
    private static func once(_ body: @escaping @Sendable () -> Data?) -> @Sendable () -> Data? {
        let box = PasswordBox(body)
        return { box.value() }
    }

    private final class PasswordBox: @unchecked Sendable {
        // Read and written only under `lock`.
        private let lock = NSLock()
        private var asked = false
        private var answer: Data?
        private let body: @Sendable () -> Data?
        init(_ body: @escaping @Sendable () -> Data?) { self.body = body }
        func value() -> Data? {
            lock.lock()
            defer { lock.unlock() }
            if !asked {
                asked = true
                answer = body()
            }
            return answer
        }
    }

    private enum WalkEvent: Sendable {
        case files([TreeWalker.File])
        case backup(TreeWalker.FoundBackup)
        case finished(TreeWalker, allRootsRead: Bool)
    }

    /// Walks every root and pairs what it found; `progress` is called on the calling thread after
    /// each batch of files.
    /// - Returns: the inventory, and whether every root could be read.
    public func run(progress: (Progress) -> Void = { _ in }) -> (inventory: ScanInventory, allRootsRead: Bool) {
        // Each root is decided by content: a backup folder holds Manifest.db. A folder below a
        // root is decided alike by the walk (``TreeWalker/FoundBackup``).
        var folderRoots: [String] = []
        var backups: [BackupScan.Outcome] = []
        var archives: [ArchiveScan.Outcome] = []
        for root in self.roots.map({ BytePath($0).trimmingTrailingSlashes.text }) where !shouldStop() {
            // A file is read as a zip or tar extraction when its first bytes say it is one (the
            // test a file met in a folder passes to be listed) and libarchive reads it.
            if ArchiveScan.isRegularFile(root), ArchiveScan.mayBeArchive(root, calls: probe.calls) {
                var scan = ArchiveScan(root: root)
                scan.probe = probe
                if let outcome = scan.run(progress: { progress(Progress(files: $0, blobs: $1, currentPath: $2)) }) {
                    archives.append(outcome)
                    continue
                }
            }
            let kind = BackupScan.kind(of: root, calls: probe.calls)
            switch kind {
            case .folder: folderRoots.append(root)
            case .backup, .mbdbBackup:
                var scan = BackupScan(root: root, password: password)
                scan.probe = probe
                scan.isMBDB = kind == .mbdbBackup
                backups.append(scan.run())
            }
        }
        var allRootsRead = backups.allSatisfy { $0.failure == nil } && archives.allSatisfy(\.summary.isComplete)
        var folders: ScanInventory?
        if !folderRoots.isEmpty {
            // A root archive that is also below a folder root is read once, as the root.
            var rootArchives: [FileIdentity: String] = [:]
            for archive in archives {
                if let identity = FileIdentity.of(rootAt: archive.summary.root, calls: probe.calls) { rootArchives[identity] = archive.summary.root }
            }
            let walked = walk(folderRoots, backupRoots: backups.map(\.summary.root), rootArchives: rootArchives, progress: progress)
            folders = walked.inventory
            archives += walked.archives
            // A backup below a root that cannot be read is an error of that root's scan, as an
            // unreadable folder below it is, not an unread root.
            backups += walked.backups
            if !walked.allRootsRead { allRootsRead = false }
        }
        return (ScanInventory(folders: folders, backups: backups, archives: archives), allRootsRead)
    }

    /// Walks the folder roots, and reads each backup met below them as a backup root is read.
    /// - Parameters:
    ///   - backupRoots: the roots read as backups already: not read again when met below
    ///     another root.
    ///   - rootArchives: the archives read as roots already, by identity to their root's
    ///     spelling: listed when met, never opened again.
    private func walk(_ roots: [String], backupRoots: [String], rootArchives: [FileIdentity: String], progress: (Progress) -> Void)
        -> (inventory: ScanInventory, backups: [BackupScan.Outcome], archives: [ArchiveScan.Outcome], allRootsRead: Bool) {
        let queue = BatchQueue<WalkEvent>(capacity: 4)
        let shouldStop = self.shouldStop
        let walkThread = Thread {
            var walker = TreeWalker()
            for root in backupRoots { walker.markScanned(folderAt: root) }
            var allRootsRead = true
            for root in roots where !shouldStop() {
                let read = walker.walk(root: root, shouldStop: shouldStop, visit: { queue.put(.files($0)) },
                                       backup: { queue.put(.backup($0)) })
                if !read { allRootsRead = false }
            }
            queue.put(.finished(walker, allRootsRead: allRootsRead))
            queue.close()
        }
        walkThread.start()

        var found: [FileProbe.Finding] = []
        var backups: [BackupScan.Outcome] = []
        var probeErrors: [ScanProblem] = []
        var blobCount = 0
        var fileCount = 0
        var result: (walker: TreeWalker, allRootsRead: Bool)?
        let probe = { var probe = self.probe; probe.walkRoots = roots; return probe }()
        while let event = queue.take() {
            switch event {
            case .files(let batch):
                fileCount += batch.count
                // The walker's whole batch (up to 1,024 files) at once: one wait for the slowest
                // probe per batch instead of one per 256 files, which on many cores leaves
                // fewer of them idle at each wait.
                orderedParallelMap(batch, batchSize: max(1, batch.count)) { file in probe.probe(file) } emit: { outcome in
                    switch outcome {
                    case .nothing: break
                    case .found(let finding):
                        found.append(finding)
                        blobCount += finding.blobs.count
                    case .failed(let problem): probeErrors.append(problem)
                    }
                }
                progress(Progress(files: fileCount, blobs: blobCount, currentPath: batch.last?.path ?? ""))
            case .backup(let nested):
                // The same reading as a backup given as a root, through the folder the walk opened.
                var scan = BackupScan(root: nested.path, password: password)
                scan.probe = self.probe
                scan.isMBDB = nested.kind == .mbdbBackup
                scan.openFolder = nested.folder
                let outcome = scan.run()
                backups.append(outcome)
                fileCount += outcome.summary.fileCount
                blobCount += outcome.findings.reduce(0) { $0 + $1.blobs.count }
                progress(Progress(files: fileCount, blobs: blobCount, currentPath: nested.path))
            case .finished(let walker, let allRootsRead):
                result = (walker, allRootsRead)
            }
        }
        guard let (walker, allRootsRead) = result else { preconditionFailure("the walk thread always ends with .finished") }
        var archives: [ArchiveScan.Outcome] = []
        // The archives met: each that is also a root is marked read as that root; with
        // --open-archives the others are read, within one member bound together.
        let met = found.indices.filter { found[$0].archiveKind != nil && found[$0].source == nil }
            .sorted { TreeWalker.byteOrder(found[$0].path, found[$1].path) }
        var membersRead = 0
        for index in met where !shouldStop() && (opensArchives || !rootArchives.isEmpty) {
            let path = found[index].path
            let descriptor: Int32, status: FileSystemCalls.Status
            switch openMetArchive(path, roots: roots) {
            case .success(let opened): (descriptor, status) = opened
            case .failure(let problem):
                if opensArchives { probeErrors.append(problem) }
                continue
            }
            if let root = rootArchives[FileIdentity(status)] {
                _ = probe.calls.close(descriptor)
                found[index].readAsArchive = root
                continue
            }
            guard opensArchives else {
                _ = probe.calls.close(descriptor)
                continue
            }
            guard membersRead < openedArchiveMemberBudget else {
                _ = probe.calls.close(descriptor)
                probeErrors.append(ScanProblem(path: path, message: "not read as an archive: the archives opened before it hold "
                    + "\(membersRead) members, at least the \(openedArchiveMemberBudget) that --open-archives reads in all; scan it by itself"))
                continue
            }
            var scan = ArchiveScan(root: path)
            scan.probe = probe
            scan.descriptor = descriptor
            let outcome = scan.run(progress: { files, blobs, current in
                progress(Progress(files: fileCount + files, blobs: blobCount + blobs, currentPath: current))
            })
            guard let read = outcome else {
                probeErrors.append(ScanProblem(path: path, message: "not read as an archive: libarchive recognises no zip or tar in it"))
                continue
            }
            found[index].readAsArchive = read.summary.root
            archives.append(read)
            membersRead += read.summary.memberCount
            fileCount += read.summary.fileCount
            blobCount += read.findings.reduce(0) { $0 + $1.blobs.count }
        }
        let errors = (walker.errors + probeErrors).sorted { TreeWalker.byteOrder($0.path, $1.path) }
        return (ScanInventory(roots: roots, found: found, walker: walker, errors: errors, hashLimit: probe.hashLimit), backups, archives, allRootsRead)
    }

    /// An archive met in the walk, opened read-only from the walk root that holds it one folder
    /// at a time, never following a link, and still a regular file.
    private func openMetArchive(_ path: String, roots: [String]) -> Result<(Int32, FileSystemCalls.Status), ScanProblem> {
        guard let descriptor = TreeWalker.openFile(atPath: path, roots: roots, calls: probe.calls) else {
            return .failure(ScanProblem(path: path, message: "not read as an archive: it cannot be opened (gone, or replaced by a link)"))
        }
        // Replaced by a FIFO or a device since it was probed: never handed to libarchive.
        guard case .success(let status) = probe.calls.fstat(descriptor), status.kind == .regular else {
            _ = probe.calls.close(descriptor)
            return .failure(ScanProblem(path: path, message: "not read as an archive: no longer a regular file"))
        }
        return .success((descriptor, status))
    }
}
