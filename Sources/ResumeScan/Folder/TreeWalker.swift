import Foundation
import ResumeDataCodec
import ResumeSystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Walks folder trees for `scan`: every regular file under each root, handed over in batches,
/// and what the folders say about app containers. A backup folder is handed over whole, open
/// (``FoundBackup``), and nothing in it is walked.
///
/// Never follows a symbolic link: every folder and file below a root is opened relative to its
/// open parent (`openat` with `O_NOFOLLOW`), so not even a link swapped in during the walk is
/// followed, and a link's type comes from the directory entry (or `fstatat` with
/// `AT_SYMLINK_NOFOLLOW`). Never enters a folder twice (by device and inode), so neither a link
/// loop nor a bind-mount loop can make it go round. An explicit stack, not recursion, and a depth
/// limit: a hostile tree may be thousands deep. Files within a folder come sorted; folders are
/// visited in name order.
package struct TreeWalker {
    /// A regular file to look at.
    struct File: Sendable {
        /// As reports show it (``EvidenceName``).
        let path: String
        /// The open folder holding it.
        let folder: FolderHandle
        /// Its name there as reports show it (the last name of ``path``).
        let shownName: String
        /// The name's bytes where ``shownName`` is not them (a name that is not UTF-8, or holds
        /// `\x{`); nil for the usual name. A file is copied into every batch and probe: a path
        /// value held here for every file cost a retain and a release at each copy (5 % of a
        /// 100,000-file scan), where the usual name is text already.
        var rawName: [UInt8]? = nil

        /// The name in ``folder``, which opens it.
        var name: BytePath { rawName.map { BytePath(bytes: $0) } ?? BytePath(shownName) }

        init(path: String, folder: FolderHandle, shownName: String, rawName: [UInt8]? = nil, isPartialFile: Bool) {
            self.path = path
            self.folder = folder
            self.shownName = shownName
            self.rawName = rawName
            self.isPartialFile = isPartialFile
        }
        /// A `CFNetworkDownload_*.tmp` or a WebKit `.download` folder's data file.
        let isPartialFile: Bool
    }

    /// A backup folder met in the walk (``BackupScan/kind(holdingRegularFile:)`` says so of
    /// the names listed): read as `scan BACKUP` reads it, none of its files or folders walked.
    struct FoundBackup: Sendable {
        /// The backup folder, below the root as the walk spells paths.
        let path: String
        /// The folder, open: the backup is read through it, not by its path.
        let folder: FolderHandle
        /// `.backup` or `.mbdbBackup`.
        let kind: BackupScan.RootKind
    }

    /// Folders below a root deeper than this are skipped and reported: each level keeps its
    /// folder open while its subfolders wait to be listed.
    static let maximumDepth = 256
    /// A batch also ends once its files come from this many folders, which bounds the folders held
    /// open by batches in flight.
    static let maximumFoldersPerBatch = 32

    /// Folders holding a `Library/` or `tmp/` folder: the app containers.
    private(set) var containers: Set<BytePath> = []
    /// Folders named like a container UUID, by that name in upper case.
    private(set) var uuidFolders: [String: [String]] = [:]
    /// Folders and files that could not be read, in the order met.
    private(set) var errors: [ScanProblem] = []
    /// Regular files seen, for the summary.
    private(set) var fileCount = 0
    /// The system's calls; a failing wrapper in tests.
    var calls: FileSystemCalls = .system

    private var visited: Set<FileIdentity> = []

    /// A folder waiting to be listed.
    private struct PendingFolder {
        let path: String
        /// The open parent and the name in it; `nil` for a root, opened by its path.
        let parent: (handle: FolderHandle, name: BytePath)?
        let depth: Int
    }

    /// Walks one root (followed if it is itself a link: the user named it), calling `visit` with
    /// at most `batchSize` files at a time, until `shouldStop` says so (asked before each folder),
    /// and `backup` with each backup folder met, whose files are left to ``BackupScan``.
    /// - Returns: false when the root itself could not be read (the error is in ``errors``).
    mutating func walk(root: String, batchSize: Int = 1024, shouldStop: () -> Bool = { false }, visit: ([File]) -> Void,
                       backup: (FoundBackup) -> Void = { _ in }) -> Bool {
        var pending: [File] = []
        var foldersInBatch = 0
        var stack = [PendingFolder(path: root, parent: nil, depth: 0)]
        while !shouldStop(), let folder = stack.popLast() {
            let listing: Listing
            switch list(folder) {
            case .listed(let found): listing = found
            // A root inside another root, or given twice: its files were scanned already.
            case .seenBefore: continue
            case .failed:
                if folder.parent == nil { return false }
                continue
            }
            // Decided from the names just listed, without a system call: a plain folder costs a
            // binary search or two. A backup's stored files are not walked, so a backup inside
            // them is never met.
            let kind = BackupScan.kind(holdingRegularFile: listing.holdsFile(named:))
            if kind != .folder {
                backup(FoundBackup(path: folder.path, folder: listing.handle, kind: kind))
                continue
            }
            let parentName = BytePath(folder.path).lastName.text
            if !listing.files.isEmpty { foldersInBatch += 1 }
            for entry in listing.files {
                pending.append(File(path: BytePath.appending(entry.text, toFolder: folder.path), folder: listing.handle, shownName: entry.text, rawName: entry.raw,
                                    isPartialFile: AppContainerLayout.isPartialFile(name: entry.text, parentName: parentName)))
                fileCount += 1
                if pending.count >= batchSize {
                    visit(pending)
                    pending.removeAll(keepingCapacity: true)
                    foldersInBatch = 1
                }
            }
            if foldersInBatch >= Self.maximumFoldersPerBatch, !pending.isEmpty {
                visit(pending)
                pending.removeAll(keepingCapacity: true)
                foldersInBatch = 0
            }
            if !listing.folders.isEmpty, folder.depth >= Self.maximumDepth {
                errors.append(ScanProblem(path: folder.path, message: "skipped its folders: more than \(Self.maximumDepth) levels below \(root)"))
                continue
            }
            for entry in listing.folders.reversed() {
                let path = BytePath.appending(entry.text, toFolder: folder.path)
                if AppContainerLayout.isContainerUUID(entry.text) { uuidFolders[entry.text.uppercased(), default: []].append(path) }
                stack.append(PendingFolder(path: path, parent: (listing.handle, entry.name), depth: folder.depth + 1))
            }
            if listing.folders.contains(where: { AppContainerLayout.markerFolders.contains($0.text) }) { containers.insert(BytePath(spelled: folder.path)) }
        }
        if !pending.isEmpty { visit(pending) }
        return true
    }

    /// Counts the folder at `path` (a root read as a backup) as walked: met again below another
    /// root, it is skipped and said to be, not read twice.
    mutating func markScanned(folderAt path: String) {
        guard case .success(let folder) = calls.open(BytePath(spelled: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC) else { return }
        defer { _ = calls.close(folder) }
        if case .success(let status) = calls.fstat(folder) { visited.insert(FileIdentity(status)) }
    }

    private struct Listing {
        let handle: FolderHandle
        var files: [Entry] = []
        var folders: [Entry] = []

        /// A listed name: the text reports show for it (``BytePath/spelled``), which the walk
        /// sorts by and tests names with, and its bytes where they are not that text.
        struct Entry {
            let text: String
            let raw: [UInt8]?

            /// The name, which opens it.
            var name: BytePath { raw.map { BytePath(bytes: $0) } ?? BytePath(text) }

            /// A listed entry; nil for one with no name at all.
            init?(_ entry: FileSystemCalls.FolderEntry) {
                // The usual name is UTF-8 without `\x{`: the listing's text is its spelling already.
                if let text = entry.name, !EvidenceName.containsEscapeOpener(text.utf8) {
                    self.text = text
                    self.raw = nil
                } else if let name = entry.path {
                    self.text = name.spelled
                    self.raw = name.bytes
                } else {
                    return nil
                }
            }
        }

        /// Whether a regular file of this UTF-8 name is listed: ``files`` are sorted by bytes.
        func holdsFile(named name: String) -> Bool {
            var low = 0
            var high = files.count
            while low < high {
                let middle = (low + high) / 2
                if TreeWalker.byteOrder(files[middle].text, name) { low = middle + 1 } else { high = middle }
            }
            return low < files.count && files[low].raw == nil && files[low].text.utf8.elementsEqual(name.utf8)
        }
    }

    private enum ListingOutcome {
        case listed(Listing)
        case seenBefore
        case failed
    }

    /// The regular files and folders directly in `folder`, sorted; links, devices, sockets and
    /// pipes left out. A folder that cannot be read gets an error recorded.
    private mutating func list(_ folder: PendingFolder) -> ListingOutcome {
        let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC
        let opened = folder.parent.map { calls.openat($0.handle.descriptor, $0.name, flags | O_NOFOLLOW) }
            ?? calls.open(BytePath(spelled: folder.path), flags)
        let descriptor: Int32
        switch opened {
        case .success(let found): descriptor = found
        case .failure(let failure):
            // ELOOP / ENOTDIR: it was replaced by a link or a file after it was listed.
            if folder.parent != nil, failure.code == ELOOP || failure.code == ENOTDIR { return .failed }
            errors.append(ScanProblem(path: folder.path, message: "cannot read the folder: \(Self.describe(failure.code))"))
            return .failed
        }
        let handle = FolderHandle(descriptor, calls: calls)
        let status: FileSystemCalls.Status
        switch calls.fstat(descriptor) {
        case .success(let found): status = found
        case .failure(let failure):
            errors.append(ScanProblem(path: folder.path, message: "cannot read the folder: \(Self.describe(failure.code))"))
            return .failed
        }
        guard visited.insert(FileIdentity(status)).inserted else {
            if folder.parent != nil {
                errors.append(ScanProblem(path: folder.path, message: "skipped: already scanned (as another DIR, or under another path through a bind mount)"))
            }
            return .seenBefore
        }
        let entries: FileSystemCalls.FolderListing
        switch calls.listFolder(descriptor) {
        case .success(let found): entries = found
        case .failure(let failure):
            errors.append(ScanProblem(path: folder.path, message: "cannot read the folder: \(Self.describe(failure.code))"))
            return .failed
        }
        var listing = Listing(handle: handle)
        var linksInPlaceOfBackup: [(name: String, kind: BackupScan.LinkInPlaceOfBackup)] = []
        var unreadByName: [(name: String, reason: String)] = []
        for entry in entries.entries {
            guard let name = Listing.Entry(entry) else { continue }
            switch entry.kind {
            case .regular: listing.files.append(name)
            case .directory: listing.folders.append(name)
            case .symbolicLink:
                if let kind = BackupScan.linkInPlaceOfBackup(name: name.text, folder: folder.path) {
                    linksInPlaceOfBackup.append((name.text, kind))
                } else if UnreadableEntry.isReadByName(name.text, parentName: BytePath(folder.path).lastName.text) {
                    unreadByName.append((name.text, UnreadableEntry.symbolicLink))
                }
            // Devices, sockets, pipes, and entries gone before their type was asked, are never
            // opened; one in the place of a file read by its name is said.
            case .other:
                if UnreadableEntry.isReadByName(name.text, parentName: BytePath(folder.path).lastName.text) {
                    unreadByName.append((name.text, UnreadableEntry.notRegularFile))
                }
            case nil: continue
            }
        }
        for (name, kind) in linksInPlaceOfBackup.sorted(by: { Self.byteOrder($0.name, $1.name) }) {
            let why = switch kind {
            case .list: "the folder is not read as a backup (its \(name) must be a regular file)"
            case .backupsFolder: "the backups behind it are not scanned (scan the folder it points to)"
            case .backupFolder: "the backup behind it is not scanned (scan the folder it points to)"
            }
            errors.append(ScanProblem(path: BytePath(folder.path).appending(name).text, message: "skipped: a symbolic link, not followed: " + why))
        }
        for (name, reason) in unreadByName.sorted(by: { Self.byteOrder($0.name, $1.name) }) {
            errors.append(ScanProblem(path: BytePath(folder.path).appending(name).text, message: "not read: it \(reason)"))
        }
        if let failure = entries.failure {
            errors.append(ScanProblem(path: folder.path, message: "cannot read the whole folder: \(Self.describe(failure.code))"))
        }
        listing.files.sort { Self.byteOrder($0.text, $1.text) }
        listing.folders.sort { Self.byteOrder($0.text, $1.text) }
        return .listed(listing)
    }

    /// What is at `path`, for `PartialFileResolution/resolve(_:)`: found without following
    /// any link below the root that holds it (a folder, a link or a FIFO is reported as what it
    /// is); `.missing` when there is nothing, or `path` is under no root.
    static func entry(atPath path: String, roots: [String]) -> PartialFileResolution.Entry {
        guard let status = status(atPath: path, roots: roots) else { return .missing }
        return PartialFileResolution.entry(status)
    }

    /// `fstatat` of `path`'s last component, each folder above it opened relative to the one
    /// before with `O_NOFOLLOW` (``parentFolder(of:roots:calls:)``).
    private static func status(atPath path: String, roots: [String], calls: FileSystemCalls = .system) -> FileSystemCalls.Status? {
        guard let (folder, last) = parentFolder(of: path, roots: roots, calls: calls) else { return nil }
        defer { _ = calls.close(folder) }
        guard case .success(let status) = calls.fstatat(folder, last) else { return nil }
        return status
    }

    /// The folder holding `path`, opened from the root that holds it one component at a time
    /// with `O_NOFOLLOW`, and the bytes of `path`'s last component: the one way scan reaches a
    /// file by path without following a link out of the tree. Below the root, `path` is spelled
    /// as the walk spells it (``EvidenceName``), so each component is opened by the bytes its
    /// spelling stands for. The caller closes the folder; nil when anything on the way is missing
    /// or a link, `path` has `..` or a component that is no name's spelling, or it is under no root.
    private static func parentFolder(of path: String, roots: [String], calls: FileSystemCalls) -> (folder: Int32, name: BytePath)? {
        guard let (root, components) = spelled(path, roots: roots), let last = components.last,
              let folder = calls.openFolder(components.dropLast(), below: root) else {
            return nil
        }
        return (folder, last)
    }

    /// The folder at `path` (one of `roots` or inside one), opened as ``parentFolder(of:roots:calls:)``
    /// opens a file's; nil as it gives nil.
    static func openFolder(atPath path: String, roots: [String], calls: FileSystemCalls) -> Int32? {
        guard let (root, components) = spelled(path, roots: roots) else { return nil }
        return calls.openFolder(components, below: root)
    }

    /// The first of `roots` that holds `path`, and the path the root's spelling stands for and
    /// each name below it (every path, roots too, is spelled as the walk spells names).
    private static func spelled(_ path: String, roots: [String]) -> (root: BytePath, components: [BytePath])? {
        let target = BytePath(path)
        guard let root = roots.first(where: { target.isInside(BytePath($0)) }),
              let rootBytes = EvidenceName.bytes(ofPath: root),
              let components = relativeComponents(of: path, below: root) else { return nil }
        return (BytePath(bytes: rootBytes), components)
    }

    /// Each name of `path` below `root` (a folder `path` is inside), read back from the walk's
    /// spelling; nil when one is no name's spelling, or is `..`.
    static func relativeComponents(of path: String, below root: String) -> [BytePath]? {
        var components: [BytePath] = []
        for spelled in BytePath(path).relative(to: BytePath(root))?.names() ?? [] {
            guard !spelled.isParentName, let bytes = EvidenceName.bytes(of: spelled.text) else { return nil }
            components.append(BytePath(bytes: bytes))
        }
        return components
    }

    /// The container's `MCMMetadataIdentifier`, read without following a link; nil when there is
    /// no such plist (or it is over 1 MiB, or has no string there).
    static func containerBundleID(_ container: String, roots: [String], calls: FileSystemCalls = .system) -> String? {
        let path = BytePath(container).appending(AppContainerLayout.metadataName).text
        guard let descriptor = openFile(atPath: path, roots: roots, calls: calls) else { return nil }
        defer { _ = calls.close(descriptor) }
        guard case .success(let status) = calls.fstat(descriptor), status.kind == .regular,
              status.size <= Int64(AppContainerLayout.metadataMaximumSize) else { return nil }
        var data = Data(count: Int(status.size))
        var filled = 0
        data.withUnsafeMutableBytes { buffer in
            while filled < buffer.count, case .success(let got) = calls.read(descriptor, UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])), got > 0 {
                filled += got
            }
        }
        data.count = filled
        return AppContainerLayout.bundleID(inMetadata: data)
    }

    /// The status and SHA-256 of the regular file at `path` (a partial file a blob names that the
    /// walk did not report itself), opened as ``openFile(atPath:roots:calls:)`` opens it; not
    /// hashed, and why, when `hashLimit` spares it.
    static func evidence(atPath path: String, roots: [String], hashLimit: HashLimit = .standard, calls: FileSystemCalls = .system)
        -> (status: FileStatus, sha256: String?, hashSkipped: HashSkip?)? {
        guard let descriptor = openFile(atPath: path, roots: roots, calls: calls) else { return nil }
        defer { _ = calls.close(descriptor) }
        guard case .success(let status) = calls.fstat(descriptor), status.kind == .regular else { return nil }
        if let skipped = hashLimit.skip(size: status.size, allocatedSize: status.allocatedSize) { return (FileStatus(status), nil, skipped) }
        return (FileStatus(status), EvidenceHash.hex(ofDescriptor: descriptor, calls: calls), nil)
    }

    /// `path` opened read-only, each folder below the root that holds it opened relative to the
    /// one before with `O_NOFOLLOW`, the file too (`O_NONBLOCK`: a FIFO must not block); nil when
    /// anything on the way is missing, a link, or `path` is under no root.
    static func openFile(atPath path: String, roots: [String], calls: FileSystemCalls) -> Int32? {
        guard let (folder, last) = parentFolder(of: path, roots: roots, calls: calls) else { return nil }
        defer { _ = calls.close(folder) }
        guard case .success(let descriptor) = calls.openEvidence(in: folder, last) else { return nil }
        return descriptor
    }

    package static func byteOrder(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}
