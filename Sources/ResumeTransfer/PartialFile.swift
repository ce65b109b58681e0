#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// Every system call the transfer engine makes on local files goes through here, so that each
/// failure becomes a ``DownloadError/disk(_:)`` naming the path and the errno text.
final class PartialFile: Sendable {
    let path: String
    private let descriptor: Int32
    private let closed = Mutex(false)

    /// How a file is opened.
    enum Access {
        /// The partial file: read-write, created (mode 0600) when missing, locked against a second
        /// writer. A symbolic link or anything but a regular file is refused: a blob or a planted
        /// link must never make the engine truncate or rename a file elsewhere.
        case partial
        /// A finished file, only read (its checksum).
        case readOnly
    }

    init(path: String, access: Access = .partial) throws(DownloadError) {
        let flags = access == .partial ? O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC : O_RDONLY | O_CLOEXEC
        let fd = open(path, flags, 0o600)
        guard fd >= 0 else {
            if errno == ELOOP { throw .untrustedFile("\(path): it is a symbolic link") }
            throw FileSystem.error("open", path)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = FileSystem.error("fstat", path)
            systemClose(fd)
            throw error
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            systemClose(fd)
            throw .untrustedFile("\(path): it is not a regular file")
        }
        if access == .partial {
            // Two processes continuing the same download would interleave their writes and blobs.
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                let busy = errno == EWOULDBLOCK
                let error = FileSystem.error("flock", path)
                systemClose(fd)
                throw busy ? .inUse(path) : error
            }
        }
        self.path = path
        self.descriptor = fd
    }

    /// Closes the file, reporting the error `close` returns (on some file systems a failed
    /// write-back only shows here). Called before the file is renamed into place.
    func close() throws(DownloadError) {
        let first = self.closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        guard systemClose(self.descriptor) == 0 else { throw FileSystem.error("close", self.path) }
    }

    deinit {
        if !self.closed.withLock({ $0 }) { systemClose(self.descriptor) }
    }

    /// The current size (`fstat`).
    func size() throws(DownloadError) -> Int64 {
        var info = stat()
        guard fstat(self.descriptor, &info) == 0 else { throw FileSystem.error("fstat", self.path) }
        return Int64(info.st_size)
    }

    /// `ftruncate`.
    func truncate(to length: Int64) throws(DownloadError) {
        guard ftruncate(self.descriptor, off_t(length)) == 0 else { throw FileSystem.error("ftruncate", self.path) }
    }

    /// Writes all of `bytes` at `offset` (`pwrite`, repeated for short writes and EINTR).
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(DownloadError) {
        var done = 0
        while done < bytes.count {
            guard let base = bytes.baseAddress else { return }
            let result = pwrite(self.descriptor, base + done, bytes.count - done, off_t(offset + Int64(done)))
            if result < 0 {
                if errno == EINTR { continue }
                throw FileSystem.error("write", self.path)
            }
            done += result
        }
    }

    /// Reads up to `count` bytes at `offset` (`pread`).
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(DownloadError) -> Int {
        while true {
            guard let base = buffer.baseAddress else { return 0 }
            let result = pread(self.descriptor, base, buffer.count, off_t(offset))
            if result < 0 {
                if errno == EINTR { continue }
                throw FileSystem.error("read", self.path)
            }
            return result
        }
    }

    /// True when the file holds exactly `bytes` at `offset` (a short file does not).
    func holds(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(DownloadError) -> Bool {
        guard !bytes.isEmpty else { return true }
        let local = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
        defer { local.deallocate() }
        var filled = 0
        while filled < bytes.count {
            let count = try self.read(into: UnsafeMutableRawBufferPointer(rebasing: local[filled...]), at: offset + Int64(filled))
            if count == 0 { return false }
            filled += count
        }
        guard let mine = local.baseAddress, let theirs = bytes.baseAddress else { return false }
        return memcmp(mine, theirs, bytes.count) == 0
    }

    /// `fsync`: after it returns, the bytes written so far survive a crash.
    func sync() throws(DownloadError) {
        guard fsync(self.descriptor) == 0 else { throw FileSystem.error("fsync", self.path) }
    }
}

/// Path-level system calls.
enum FileSystem {
    static func error(_ call: String, _ path: String) -> DownloadError {
        let code = errno
        return .disk("\(call) \(path): \(String(cString: strerror(code)))")
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// True when something (a file, a folder, a link, even a dangling one) has this name.
    static func entryExists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    static func size(of path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// Replaces `path` with `data` atomically (see ``AtomicFile``), readable by the owner only.
    static func writeAtomically(_ data: Data, to path: String) throws(DownloadError) {
        do {
            try AtomicFile.write(data, to: path)
        } catch {
            throw .disk("\(error.operation) \(path): \(String(cString: strerror(error.code)))")
        }
    }

    /// `rename` then fsync of the directory, so the new name is durable.
    static func move(_ source: String, to destination: String) throws(DownloadError) {
        guard rename(source, destination) == 0 else { throw error("rename", source) }
        syncDirectory(of: destination)
    }

    static func remove(_ path: String) {
        unlink(path)
    }

    private static func syncDirectory(of path: String) {
        AtomicFile.syncFolder(of: path)
    }
}

/// The C library's `close`, which the method ``PartialFile/close()`` would shadow inside the class.
private func systemClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
