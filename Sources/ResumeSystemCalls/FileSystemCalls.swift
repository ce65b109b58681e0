import CSpliceShim
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Every system call the package makes, as one value: the system's by default, a fake or a
/// failing wrapper in tests. Sockets and pipes are ``sockets``, so that a file-system fake (whose
/// descriptors are its own numbers) never closes or reads a real socket.
///
/// This is swift-system's approach (one function per system call, so a test can fail or record
/// any single one) kept as plain closures, because the tests need more than errors: their fake
/// keeps what was fsynced apart from what was only written, to play power loss at every step.
/// Each call returns the errno on failure (retried on `EINTR` by ``retryingOnInterrupt(_:)``);
/// callers turn it into their own error naming the path. The members after ``spliceToFile``
/// (`stat` through ``sockets``) default to the system's calls and are not in the initializer, so
/// a fake replaces only what it models.
package struct FileSystemCalls: Sendable {
    /// What `fstat` / `lstat` / `fstatat` report that the package uses.
    package struct Status: Equatable, Sendable {
        package enum Kind: Equatable, Sendable { case regular, directory, symbolicLink, other }
        package var kind: Kind
        package var size: Int64
        /// `st_mode`, type bits included (0 in fakes that do not set it).
        package var mode: UInt32 = 0
        /// `st_dev` and `st_ino`: which file this is, for a walk that must not visit one twice.
        package var device: UInt64 = 0
        package var inode: UInt64 = 0
        /// `st_mtim`.
        package var modifiedSeconds: Int64 = 0
        package var modifiedNanoseconds: Int64 = 0
        /// `st_uid`; nil in fakes that do not set it.
        package var owner: UInt32?
        /// `st_gid`; nil in fakes that do not set it.
        package var group: UInt32?
        /// `st_ctim`: the inode's last change.
        package var changedSeconds: Int64 = 0
        package var changedNanoseconds: Int64 = 0
        /// The birth time where `stat` has one (`st_birthtimespec` on Darwin); nil on Linux.
        package var createdSeconds: Int64?
        package var createdNanoseconds: Int64 = 0
        /// The bytes the file system holds for it (`st_blocks` × 512): far below ``size`` for a
        /// sparse file, whose holes read as zeros; nil in fakes that do not set it.
        package var allocatedSize: Int64?

        package init(kind: Kind, size: Int64) {
            self.kind = kind
            self.size = size
        }
    }

    /// One name in a folder listing (``listFolder``).
    package struct FolderEntry: Equatable, Sendable {
        /// The name; nil when it is not UTF-8.
        package var name: String?
        /// The name's bytes when it is not UTF-8 (``name`` is nil): what opens it.
        package var rawName: [UInt8]?
        /// What the entry is, asked with `fstatat` when the directory entry does not say;
        /// nil when that failed (the entry vanished).
        package var kind: Status.Kind?

        /// The name as a path of one name, by its bytes; nil for an entry with no name at all.
        package var path: BytePath? {
            if let rawName { return BytePath(bytes: rawName) }
            return name.map { BytePath($0) }
        }

        init(name: String?, kind: Status.Kind?) {
            self.name = name
            self.kind = kind
        }
    }

    /// A folder's entries without `.` and `..`, and the error that cut the listing short, if any.
    package struct FolderListing: Equatable, Sendable {
        package var entries: [FolderEntry]
        package var failure: Failure?

        init(entries: [FolderEntry], failure: Failure?) {
            self.entries = entries
            self.failure = failure
        }
    }

    /// An errno value.
    package struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        package var code: Int32
        package init(_ code: Int32) { self.code = code }
        package var description: String { String(cString: strerror(self.code)) }
    }

    package var open: @Sendable (_ path: String, _ flags: Int32, _ mode: mode_t) -> Result<Int32, Failure>
    package var close: @Sendable (_ descriptor: Int32) -> Result<Void, Failure>
    package var fstat: @Sendable (_ descriptor: Int32) -> Result<Status, Failure>
    /// Does not follow a final symbolic link.
    package var lstat: @Sendable (_ path: String) -> Result<Status, Failure>
    package var flock: @Sendable (_ descriptor: Int32, _ operation: Int32) -> Result<Void, Failure>
    package var pread: @Sendable (_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer, _ offset: Int64) -> Result<Int, Failure>
    var pwrite: @Sendable (_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, _ offset: Int64) -> Result<Int, Failure>
    package var ftruncate: @Sendable (_ descriptor: Int32, _ length: Int64) -> Result<Void, Failure>
    package var fsync: @Sendable (_ descriptor: Int32) -> Result<Void, Failure>
    package var rename: @Sendable (_ from: String, _ to: String) -> Result<Void, Failure>
    package var unlink: @Sendable (_ path: String) -> Result<Void, Failure>
    /// The names in a folder, without `.` and `..`.
    package var listDirectory: @Sendable (_ path: String) -> Result<[String], Failure>
    /// Moves up to `count` bytes from a pipe into a file at `offset` (`splice`); nil where the
    /// system has no splice, and in fakes, whose writes then all go through ``pwrite``.
    package var spliceToFile: (@Sendable (_ pipe: Int32, _ descriptor: Int32, _ count: Int, _ offset: Int64) -> Result<Int, Failure>)?
    /// Copies up to `count` bytes of one file into another inside the kernel (`copy_file_range`,
    /// a reflink where the file system shares extents): the count copied, 0 at the source's end.
    /// nil where the system has no such call, and in fakes, whose copies then go through
    /// ``pread`` and ``pwrite``.
    package var copyRange: (@Sendable (_ source: Int32, _ sourceOffset: Int64, _ target: Int32, _ targetOffset: Int64, _ count: Int)
        -> Result<Int, Failure>)?
    /// Follows symbolic links.
    package var statFollowingLinks: @Sendable (_ path: String) -> Result<Status, Failure> = { path in
        var info = emptyStat()
        return retryingOnInterrupt { system_stat(path, &info) }.map { _ in status(info) }
    }
    /// `stat` of a path given as bytes (one that need not be UTF-8), following links.
    package var statFollowingLinksBytes: @Sendable (_ path: [UInt8]) -> Result<Status, Failure> = { path in
        var info = emptyStat()
        return FileSystemCalls.withCPath(path) { cPath in
            retryingOnInterrupt { system_stat(cPath, &info) }.map { _ in status(info) }
        }
    }
    /// `realpath(3)` of a path given as bytes: the path with every link, `.` and `..` resolved,
    /// as the bytes the system gave (not `String(cString:)`, which would make a name holding
    /// byte FF and one holding U+FFFD the same path).
    package var resolvedPathBytes: @Sendable (_ path: [UInt8]) -> Result<[UInt8], Failure> = { path in
        FileSystemCalls.withCPath(path) { cPath in
            guard let resolved = realpath(cPath, nil) else { return .failure(Failure(errno)) }
            defer { free(resolved) }
            return .success(Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved))))
        }
    }
    /// `mkdtemp(3)` of a template given as bytes (ending in `XXXXXX`): the folder made, mode
    /// 0700, under a name no one else holds.
    package var makeTemporaryFolder: @Sendable (_ template: [UInt8]) -> Result<[UInt8], Failure> = { template in
        guard !template.contains(0) else { return .failure(Failure(EINVAL)) }
        var buffer = template.map { CChar(bitPattern: $0) } + [0]
        let made = buffer.withUnsafeMutableBufferPointer { pointer -> Bool in
            guard let base = pointer.baseAddress else { return false }
            return mkdtemp(base) != nil
        }
        guard made else { return .failure(Failure(errno)) }
        return .success(buffer.dropLast().map { UInt8(bitPattern: $0) })
    }
    /// `access(path, W_OK)`: whether this user may create and replace files in the folder
    /// `path` (an upload keeps its checkpoint beside its file only where it may).
    package var mayWrite: @Sendable (_ path: String) -> Bool = { path in
        (try? retryingOnInterrupt { system_access(path, W_OK) }.get()) != nil
    }
    /// `mkdir(path, mode)`, the umask applied.
    package var makeFolder: @Sendable (_ path: String, _ mode: mode_t) -> Result<Void, Failure> = { path, mode in
        retryingOnInterrupt { system_mkdir(path, mode) }.map { _ in }
    }
    /// `openat(folder, name, flags)`, for files opened without a mode; `name` by its bytes (one
    /// that is not UTF-8 opens the file it names).
    package var openat: @Sendable (_ folder: Int32, _ name: BytePath, _ flags: Int32) -> Result<Int32, Failure> = { folder, name, flags in
        FileSystemCalls.withCPath(name.bytes) { path in retryingOnInterrupt { system_openat(folder, path, flags) } }
    }
    /// `fstatat` of a name in a folder, by its bytes; does not follow a final symbolic link.
    package var fstatat: @Sendable (_ folder: Int32, _ name: BytePath) -> Result<Status, Failure> = { folder, name in
        var info = emptyStat()
        return FileSystemCalls.withCPath(name.bytes) { path in
            retryingOnInterrupt { system_fstatat(folder, path, &info, AT_SYMLINK_NOFOLLOW) }.map { _ in status(info) }
        }
    }
    /// The entries of the open folder `descriptor`, which stays open.
    package var listFolder: @Sendable (_ descriptor: Int32) -> Result<FolderListing, Failure> = { descriptor in
        systemListFolder(descriptor)
    }
    /// `read` at the descriptor's position: the count read, 0 at the end.
    package var read: @Sendable (_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Failure> = { descriptor, buffer in
        guard let base = buffer.baseAddress else { return .success(0) }
        return retryingOnInterrupt { system_read(descriptor, base, buffer.count) }
    }
    /// `write` at the descriptor's position (standard output and error): the count written.
    var write: @Sendable (_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Failure> = { descriptor, bytes in
        guard let base = bytes.baseAddress else { return .success(0) }
        return retryingOnInterrupt { system_write(descriptor, base, bytes.count) }
    }
    /// `fchmod`: the mode as given, the umask not applied.
    package var fchmod: @Sendable (_ descriptor: Int32, _ mode: mode_t) -> Result<Void, Failure> = { descriptor, mode in
        retryingOnInterrupt { system_fchmod(descriptor, mode) }.map { _ in () }
    }
    /// `fchown`.
    package var fchown: @Sendable (_ descriptor: Int32, _ owner: UInt32, _ group: UInt32) -> Result<Void, Failure> = { descriptor, owner, group in
        retryingOnInterrupt { system_fchown(descriptor, uid_t(owner), gid_t(group)) }.map { _ in () }
    }
    /// `lseek(descriptor, offset, SEEK_SET)`.
    package var seek: @Sendable (_ descriptor: Int32, _ offset: Int64) -> Result<Int64, Failure> = { descriptor, offset in
        retryingOnInterrupt { system_lseek(descriptor, off_t(offset), SEEK_SET) }.map { Int64($0) }
    }
    /// Clears `O_NONBLOCK` on an open descriptor (`fcntl` `F_GETFL`, `F_SETFL`): a FIFO is opened
    /// without blocking, so that one with no writer cannot hang the open, then read as a pipe is.
    package var clearNonBlocking: @Sendable (_ descriptor: Int32) -> Result<Void, Failure> = { descriptor in
        retryingOnInterrupt { system_fcntl(descriptor, F_GETFL) }.flatMap { flags in
            retryingOnInterrupt { system_fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }.map { _ in () }
        }
    }
    /// Sockets, pipes and the wake pipes of the direct receiver.
    package var sockets: SocketCalls = .system
    /// Whether a process with this ID exists (`kill(pid, 0)`: it does unless ESRCH; EPERM means
    /// it exists under another user). Stale temporary files are those of ended processes.
    package var processExists: @Sendable (_ pid: Int32) -> Bool = { pid in
        system_kill(pid, 0) == 0 || errno != ESRCH
    }

    init(
        open: @escaping @Sendable (String, Int32, mode_t) -> Result<Int32, Failure>,
        close: @escaping @Sendable (Int32) -> Result<Void, Failure>,
        fstat: @escaping @Sendable (Int32) -> Result<Status, Failure>,
        lstat: @escaping @Sendable (String) -> Result<Status, Failure>,
        flock: @escaping @Sendable (Int32, Int32) -> Result<Void, Failure>,
        pread: @escaping @Sendable (Int32, UnsafeMutableRawBufferPointer, Int64) -> Result<Int, Failure>,
        pwrite: @escaping @Sendable (Int32, UnsafeRawBufferPointer, Int64) -> Result<Int, Failure>,
        ftruncate: @escaping @Sendable (Int32, Int64) -> Result<Void, Failure>,
        fsync: @escaping @Sendable (Int32) -> Result<Void, Failure>,
        rename: @escaping @Sendable (String, String) -> Result<Void, Failure>,
        unlink: @escaping @Sendable (String) -> Result<Void, Failure>,
        listDirectory: @escaping @Sendable (String) -> Result<[String], Failure>
    ) {
        self.open = open
        self.close = close
        self.fstat = fstat
        self.lstat = lstat
        self.flock = flock
        self.pread = pread
        self.pwrite = pwrite
        self.ftruncate = ftruncate
        self.fsync = fsync
        self.rename = rename
        self.unlink = unlink
        self.listDirectory = listDirectory
    }

    /// The operating system's calls, through ``retryingOnInterrupt(_:)``, with ``spliceToFile`` where the system
    /// has splice(2).
    package static let system: FileSystemCalls = {
        var calls = systemWithoutSplice
        if csplice_available() != 0 {
            calls.spliceToFile = { pipe, descriptor, count, offset in
                retryingOnInterrupt { csplice_to_file(pipe, descriptor, count, offset) }
            }
            calls.copyRange = { source, sourceOffset, target, targetOffset, count in
                retryingOnInterrupt { csplice_copy_range(source, sourceOffset, target, targetOffset, count) }
            }
        }
        return calls
    }()

    private static let systemWithoutSplice = FileSystemCalls(
        open: { path, flags, mode in
            retryingOnInterrupt { system_open(path, flags, mode) }
        },
        close: { descriptor in
            // Not retried (see retryingOnInterrupt): on Linux the descriptor is gone either way.
            system_close(descriptor) == 0 ? .success(()) : .failure(Failure(errno))
        },
        fstat: { descriptor in
            var info = emptyStat()
            return retryingOnInterrupt { system_fstat(descriptor, &info) }.map { _ in status(info) }
        },
        lstat: { path in
            var info = emptyStat()
            return retryingOnInterrupt { system_lstat(path, &info) }.map { _ in status(info) }
        },
        flock: { descriptor, operation in
            retryingOnInterrupt { system_flock(descriptor, operation) }.map { _ in }
        },
        pread: { descriptor, buffer, offset in
            guard let base = buffer.baseAddress else { return .success(0) }
            return retryingOnInterrupt { system_pread(descriptor, base, buffer.count, off_t(offset)) }
        },
        pwrite: { descriptor, bytes, offset in
            guard let base = bytes.baseAddress else { return .success(0) }
            return retryingOnInterrupt { system_pwrite(descriptor, base, bytes.count, off_t(offset)) }
        },
        ftruncate: { descriptor, length in
            retryingOnInterrupt { system_ftruncate(descriptor, off_t(length)) }.map { _ in }
        },
        fsync: { descriptor in
            retryingOnInterrupt { system_fsync(descriptor) }.map { _ in }
        },
        rename: { from, to in
            retryingOnInterrupt { system_rename(from, to) }.map { _ in }
        },
        unlink: { path in
            retryingOnInterrupt { system_unlink(path) }.map { _ in }
        },
        listDirectory: { path in
            guard let directory = opendir(path) else { return .failure(Failure(errno)) }
            defer { closedir(directory) }
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name != ".", name != ".." { names.append(name) }
            }
            return .success(names)
        }
    )

}

extension FileSystemCalls {
    /// `body` given a path or name held as bytes (which need not be UTF-8) as a C string; EINVAL,
    /// without calling it, when the bytes hold a NUL, which would end the string early and name
    /// another file. The one way bytes become a path for the kernel.
    package static func withCPath<T>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> Result<T, Failure>) -> Result<T, Failure> {
        guard !bytes.contains(0) else { return .failure(Failure(EINVAL)) }
        // On the stack where the path is short (the walk opens every file by its name's bytes):
        // a heap copy per call cost an allocation per file.
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer in
            guard let base = buffer.baseAddress else { return .failure(Failure(EINVAL)) }
            bytes.withUnsafeBytes { UnsafeMutableRawBufferPointer(buffer).copyMemory(from: $0) }
            buffer[bytes.count] = 0
            return body(base)
        }
    }
}

private func status(_ info: stat) -> FileSystemCalls.Status {
    var status = FileSystemCalls.Status(kind: kind(mode: info.st_mode), size: Int64(info.st_size))
    status.mode = UInt32(info.st_mode)
    status.device = UInt64(info.st_dev)
    status.inode = UInt64(info.st_ino)
    status.modifiedSeconds = Int64(info.st_mtim.tv_sec)
    status.modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
    status.owner = UInt32(info.st_uid)
    status.group = UInt32(info.st_gid)
    status.changedSeconds = Int64(info.st_ctim.tv_sec)
    status.changedNanoseconds = Int64(info.st_ctim.tv_nsec)
    // POSIX counts st_blocks in 512-byte units whatever the file system's block size.
    status.allocatedSize = Int64(info.st_blocks).multipliedReportingOverflow(by: 512).partialValue
    #if canImport(Darwin)
    status.createdSeconds = Int64(info.st_birthtimespec.tv_sec)
    status.createdNanoseconds = Int64(info.st_birthtimespec.tv_nsec)
    #endif
    return status
}

/// A zeroed `stat`, made where no member named `stat` hides the type.
private func emptyStat() -> stat { stat() }

private func kind(mode: mode_t) -> FileSystemCalls.Status.Kind {
    switch mode & S_IFMT {
    case S_IFREG: .regular
    case S_IFDIR: .directory
    case S_IFLNK: .symbolicLink
    default: .other
    }
}

/// readdir on a duplicate of `descriptor`: closedir closes the descriptor it was given, and the
/// caller's stays open for the files and subfolders.
private func systemListFolder(_ descriptor: Int32) -> Result<FileSystemCalls.FolderListing, FileSystemCalls.Failure> {
    let listingDescriptor: Int32
    switch retryingOnInterrupt({ dup(descriptor) }) {
    case .success(let duplicate): listingDescriptor = duplicate
    case .failure(let failure): return .failure(failure)
    }
    guard let directory = fdopendir(listingDescriptor) else {
        let failure = FileSystemCalls.Failure(errno)
        _ = system_close(listingDescriptor)
        return .failure(failure)
    }
    defer { closedir(directory) }
    var listing = FileSystemCalls.FolderListing(entries: [], failure: nil)
    while true {
        errno = 0
        guard let entry = readdir(directory) else {
            if errno != 0 { listing.failure = FileSystemCalls.Failure(errno) }
            return .success(listing)
        }
        let type = entry.pointee.d_type
        let rawName = withUnsafePointer(to: &entry.pointee.d_name) {
            UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)
        }
        guard let name = String(validatingCString: rawName) else {
            var entry = FileSystemCalls.FolderEntry(name: nil, kind: nil)
            let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(rawName).assumingMemoryBound(to: UInt8.self), count: strlen(rawName)))
            entry.rawName = bytes
            var info = stat()
            switch type {
            case UInt8(DT_REG): entry.kind = .regular
            case UInt8(DT_DIR): entry.kind = .directory
            case UInt8(DT_LNK): entry.kind = .symbolicLink
            case UInt8(DT_UNKNOWN):
                entry.kind = (try? retryingOnInterrupt { fstatat(descriptor, rawName, &info, AT_SYMLINK_NOFOLLOW) }.get())
                    .map { _ in ResumeSystemCalls.kind(mode: info.st_mode) }
            default: entry.kind = .other
            }
            listing.entries.append(entry)
            continue
        }
        if name == "." || name == ".." { continue }
        let kind: FileSystemCalls.Status.Kind?
        switch type {
        case UInt8(DT_REG): kind = .regular
        case UInt8(DT_DIR): kind = .directory
        case UInt8(DT_LNK): kind = .symbolicLink
        case UInt8(DT_UNKNOWN):
            // Some file systems leave the type out of directory entries.
            var info = stat()
            kind = (try? retryingOnInterrupt { system_fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) }.get())
                .map { _ in ResumeSystemCalls.kind(mode: info.st_mode) }
        default: kind = .other
        }
        listing.entries.append(FileSystemCalls.FolderEntry(name: name, kind: kind))
    }
}

// The C library's calls under names the struct's own members cannot shadow.
private func system_open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func system_close(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func system_fstat(_ descriptor: Int32, _ info: inout stat) -> Int32 { fstat(descriptor, &info) }
private func system_lstat(_ path: String, _ info: inout stat) -> Int32 { lstat(path, &info) }
private func system_kill(_ pid: Int32, _ signal: Int32) -> Int32 { kill(pid_t(pid), signal) }
private func system_flock(_ descriptor: Int32, _ operation: Int32) -> Int32 { flock(descriptor, operation) }
private func system_pread(_ descriptor: Int32, _ base: UnsafeMutableRawPointer, _ count: Int, _ offset: off_t) -> Int {
    pread(descriptor, base, count, offset)
}
private func system_pwrite(_ descriptor: Int32, _ base: UnsafeRawPointer, _ count: Int, _ offset: off_t) -> Int {
    pwrite(descriptor, base, count, offset)
}
private func system_ftruncate(_ descriptor: Int32, _ length: off_t) -> Int32 { ftruncate(descriptor, length) }
private func system_fsync(_ descriptor: Int32) -> Int32 { fsync(descriptor) }
private func system_rename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
private func system_unlink(_ path: String) -> Int32 { unlink(path) }
private func system_stat(_ path: String, _ info: inout stat) -> Int32 { stat(path, &info) }
private func system_stat(_ path: UnsafePointer<CChar>, _ info: inout stat) -> Int32 { stat(path, &info) }
private func system_access(_ path: String, _ mode: Int32) -> Int32 { access(path, mode) }
private func system_mkdir(_ path: String, _ mode: mode_t) -> Int32 { mkdir(path, mode) }
private func system_openat(_ folder: Int32, _ name: String, _ flags: Int32) -> Int32 { openat(folder, name, flags) }
private func system_openat(_ folder: Int32, _ name: UnsafePointer<CChar>, _ flags: Int32) -> Int32 { openat(folder, name, flags) }
private func system_fstatat(_ folder: Int32, _ name: String, _ info: inout stat, _ flags: Int32) -> Int32 {
    fstatat(folder, name, &info, flags)
}
private func system_fstatat(_ folder: Int32, _ name: UnsafePointer<CChar>, _ info: inout stat, _ flags: Int32) -> Int32 {
    fstatat(folder, name, &info, flags)
}
private func system_read(_ descriptor: Int32, _ base: UnsafeMutableRawPointer, _ count: Int) -> Int { read(descriptor, base, count) }
private func system_write(_ descriptor: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int { write(descriptor, base, count) }
private func system_fchmod(_ descriptor: Int32, _ mode: mode_t) -> Int32 { fchmod(descriptor, mode) }
private func system_fchown(_ descriptor: Int32, _ owner: uid_t, _ group: gid_t) -> Int32 { fchown(descriptor, owner, group) }
private func system_fcntl(_ descriptor: Int32, _ command: Int32) -> Int32 { fcntl(descriptor, command) }
private func system_fcntl(_ descriptor: Int32, _ command: Int32, _ value: Int32) -> Int32 { fcntl(descriptor, command, value) }
private func system_lseek(_ descriptor: Int32, _ offset: off_t, _ whence: Int32) -> off_t { lseek(descriptor, offset, whence) }
