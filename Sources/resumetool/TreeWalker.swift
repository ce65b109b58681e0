import Foundation
import ResumeDataCodec
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Walks folder trees for `scan`: every regular file under each root, handed over in batches,
/// and what the folders say about app containers.
///
/// Never follows a symbolic link (a link's type comes from the directory entry, or from
/// `fstatat` with `AT_SYMLINK_NOFOLLOW`, and folders are opened with `O_NOFOLLOW`), and never
/// enters a folder twice (by device and inode), so neither a link loop nor a bind-mount loop can
/// make it go round. An explicit stack, not recursion: a hostile tree may be thousands deep.
/// Files within a folder come sorted; folders are visited in name order.
struct TreeWalker {
    /// A regular file to look at.
    struct File: Sendable {
        let path: String
        /// A `CFNetworkDownload_*.tmp` or a WebKit `.download` folder's data file.
        let isPartialFile: Bool
    }

    /// Folders holding a `Library/` or `tmp/` folder: the app containers.
    private(set) var containers: Set<String> = []
    /// Folders named like a container UUID, by that name in upper case.
    private(set) var uuidFolders: [String: [String]] = [:]
    /// Folders and files that could not be read, in the order met.
    private(set) var errors: [Diagnostic] = []
    /// Regular files seen, for the summary.
    private(set) var fileCount = 0

    private struct FolderIdentity: Hashable {
        let device: UInt64
        let inode: UInt64
    }
    private var visited: Set<FolderIdentity> = []

    /// Walks one root (followed if it is itself a link: the user named it), calling `visit` with
    /// at most `batchSize` files at a time.
    /// - Returns: false when the root itself could not be read (the error is in ``errors``).
    mutating func walk(root: String, batchSize: Int = 1024, visit: ([File]) -> Void) -> Bool {
        var pending: [File] = []
        var stack: [String] = [root]
        var isRoot = true
        while let folder = stack.popLast() {
            let listing: Listing
            switch list(folder, followLink: isRoot) {
            case .listed(let found): listing = found
            // A root inside another root, or given twice: its files were scanned already.
            case .seenBefore:
                isRoot = false
                continue
            case .failed:
                if isRoot { return false }
                continue
            }
            isRoot = false
            let parentName = Self.lastComponent(folder)
            for name in listing.files {
                pending.append(File(path: AppContainerLayout.join(folder, name),
                                    isPartialFile: AppContainerLayout.isPartialFile(name: name, parentName: parentName)))
                fileCount += 1
                if pending.count >= batchSize {
                    visit(pending)
                    pending.removeAll(keepingCapacity: true)
                }
            }
            for name in listing.folders.reversed() {
                let path = AppContainerLayout.join(folder, name)
                if AppContainerLayout.isContainerUUID(name) { uuidFolders[name.uppercased(), default: []].append(path) }
                stack.append(path)
            }
            if listing.folders.contains(where: AppContainerLayout.markerFolders.contains) { containers.insert(folder) }
        }
        if !pending.isEmpty { visit(pending) }
        return true
    }

    private struct Listing {
        var files: [String] = []
        var folders: [String] = []
    }

    private enum ListingOutcome {
        case listed(Listing)
        case seenBefore
        case failed
    }

    /// The regular files and folders directly in `folder`, sorted; links, devices, sockets and
    /// pipes left out. A folder that cannot be read gets an error recorded.
    private mutating func list(_ folder: String, followLink: Bool) -> ListingOutcome {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (followLink ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else {
            // ELOOP / ENOTDIR: it was replaced by a link or a file after it was listed.
            if !followLink, errno == ELOOP || errno == ENOTDIR { return .failed }
            errors.append(Diagnostic(file: folder, message: "cannot read the folder: \(Self.describe(errno))"))
            return .failed
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            errors.append(Diagnostic(file: folder, message: "cannot read the folder: \(Self.describe(errno))"))
            close(descriptor)
            return .failed
        }
        guard visited.insert(FolderIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))).inserted else {
            if !followLink {
                errors.append(Diagnostic(file: folder, message: "skipped: already scanned (as another DIR, or under another path through a bind mount)"))
            }
            close(descriptor)
            return .seenBefore
        }
        guard let directory = fdopendir(descriptor) else {
            errors.append(Diagnostic(file: folder, message: "cannot read the folder: \(Self.describe(errno))"))
            close(descriptor)
            return .failed
        }
        defer { closedir(directory) }
        var listing = Listing()
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 {
                    errors.append(Diagnostic(file: folder, message: "cannot read the whole folder: \(Self.describe(errno))"))
                }
                break
            }
            let type = entry.pointee.d_type
            let rawName = withUnsafePointer(to: &entry.pointee.d_name) {
                UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)
            }
            guard let name = String(validatingCString: rawName) else {
                errors.append(Diagnostic(file: folder, message: "skipped an entry whose name is not UTF-8"))
                continue
            }
            if name == "." || name == ".." { continue }
            var kind = Int32(type)
            if type == UInt8(DT_UNKNOWN) {
                // Some file systems leave the type out of directory entries.
                var entryStatus = stat()
                guard fstatat(dirfd(directory), rawName, &entryStatus, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                switch entryStatus.st_mode & S_IFMT {
                case S_IFREG: kind = Int32(DT_REG)
                case S_IFDIR: kind = Int32(DT_DIR)
                default: continue
                }
            }
            if kind == Int32(DT_REG) {
                listing.files.append(name)
            } else if kind == Int32(DT_DIR) {
                listing.folders.append(name)
            }
        }
        listing.files.sort(by: Self.byteOrder)
        listing.folders.sort(by: Self.byteOrder)
        return .listed(listing)
    }

    /// Size and modification time of the regular file at `path`, found without following any
    /// link below the root that holds it; `nil` when there is none, or `path` is under no root.
    static func regularFileStatus(atPath path: String, roots: [String]) -> FileStatus? {
        guard let root = roots.first(where: { AppContainerLayout.isInside(path, folder: $0) }), path != root else { return nil }
        let relative = path.utf8.dropFirst(root.utf8.count + (root.hasSuffix("/") ? 0 : 1))
        let components = relative.split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
        guard let last = components.last, !components.contains("..") else { return nil }
        var folder = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return nil }
        defer { close(folder) }
        for component in components.dropLast() {
            let next = openat(folder, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else { return nil }
            close(folder)
            folder = next
        }
        var status = stat()
        guard fstatat(folder, last, &status, AT_SYMLINK_NOFOLLOW) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileStatus(status)
    }

    static func byteOrder(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}
