#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Every system call the transfer engine makes on local files goes through here, so that each
/// failure becomes a ``DownloadError/disk(_:)`` naming the path and the errno text.
final class PartialFile: Sendable {
    let path: String
    private let descriptor: Int32

    /// Opens (creating when needed) the partial file for reading and writing, without truncating.
    init(path: String) throws(DownloadError) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileSystem.error("open", path) }
        // Two processes continuing the same download would interleave their writes and blobs.
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            let error = FileSystem.error("flock", path)
            close(fd)
            throw busy ? .inUse(path) : error
        }
        self.path = path
        self.descriptor = fd
    }

    deinit {
        close(self.descriptor)
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

    static func size(of path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// Replaces `path` with `data` so that a crash leaves either the old or the new content:
    /// write a temporary file beside it, fsync, rename over, fsync the directory.
    static func writeAtomically(_ data: Data, to path: String) throws(DownloadError) {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw error("open", temporary) }
        var failure: DownloadError?
        data.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count, let base = bytes.baseAddress {
                let result = write(fd, base + done, bytes.count - done)
                if result < 0 {
                    if errno == EINTR { continue }
                    failure = error("write", temporary)
                    return
                }
                done += result
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = error("fsync", temporary) }
        close(fd)
        if let failure {
            unlink(temporary)
            throw failure
        }
        try move(temporary, to: path)
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
        let directory = (path as NSString).deletingLastPathComponent
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
