#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import ResumeSystemCalls
import ResumeDataCodec
import NIOConcurrencyHelpers
import Synchronization
import ResumeSupport

/// An open file of the engine: the partial file, or a finished file read for its checksum. Each
/// failure becomes a ``TransferError/disk(_:)`` naming the path and the errno text.
final class PartialFile: Sendable {
    let path: String
    /// Not private: ``copyPrefix(of:count:)`` (PartialFileCopy.swift) copies into it too.
    let descriptor: Int32
    let calls: FileSystemCalls
    private let closed = Mutex(false)
    /// Held while bytes go into the file, so that the connections of `--connections N` write one
    /// at a time. The kernel lets one write into a file at a time anyway (the inode's lock), and
    /// its waiters spin while the writer runs: 4 connections into one tmpfs file spent about 7 %
    /// of their samples in `rwsem_spin_on_owner`. Waiters of this lock sleep instead; beside the
    /// low-water mark the CPU this saves is within the spread (Benchmarks/RESULTS.md, "Fewer
    /// wakes").
    private let writing = NIOLock()

    /// How a file is opened.
    enum Access {
        /// The partial file: read-write, created (``newFileMode``) when missing, locked against a second
        /// writer. A symbolic link or anything but a regular file is refused: a blob or a planted
        /// link must never make the engine truncate or rename a file elsewhere.
        case partial
        /// A finished file, only read (its checksum).
        case readOnly
    }

    /// The mode a new partial file is created with, less the umask: the download's payload is
    /// the user's file, `0666 & ~umask` as curl and wget make it (0644 under the usual umask).
    /// Blobs, which may hold credentials, are written 0600 by ``AtomicFile``.
    static let newFileMode: mode_t = 0o666

    /// Opens `path` for `access`. The system calls come before the object exists: Swift 6.3.1's
    /// optimizer crashed ("Found ownership error", CopyPropagation) on a designated initializer
    /// that threw after storing `calls` beside the noncopyable `Mutex`, in release builds only.
    convenience init(path: String, access: Access = .partial, calls: FileSystemCalls = .system) throws(TransferError) {
        let fd = try Self.open(path, access: access, calls: calls)
        self.init(path: path, descriptor: fd, calls: calls)
    }

    private init(path: String, descriptor: Int32, calls: FileSystemCalls) {
        self.path = path
        self.descriptor = descriptor
        self.calls = calls
    }

    /// `open`, `fstat` and (for the partial file) `flock`: the descriptor, or the error, with the
    /// descriptor closed again.
    private static func open(_ path: String, access: Access, calls: FileSystemCalls) throws(TransferError) -> Int32 {
        // O_NONBLOCK: a FIFO planted under the name must not hang the open (regular files ignore it).
        let flags = (access == .partial ? O_RDWR | O_CREAT | O_NOFOLLOW : O_RDONLY) | O_NONBLOCK | O_CLOEXEC
        let fd: Int32
        switch calls.open(path, flags, newFileMode) {
        case .success(let value): fd = value
        case .failure(let failure) where failure.code == ELOOP: throw .untrustedFile("\(path): it is a symbolic link")
        case .failure(let failure): throw FileSystem.error("open", path, failure)
        }
        let status: FileSystemCalls.Status
        switch calls.fstat(fd) {
        case .success(let value): status = value
        case .failure(let failure):
            _ = calls.close(fd)
            throw FileSystem.error("fstat", path, failure)
        }
        guard status.kind == .regular else {
            _ = calls.close(fd)
            throw .untrustedFile("\(path): it is not a regular file")
        }
        if access == .partial {
            // Two processes continuing the same download would interleave their writes and blobs.
            if case .failure(let failure) = calls.flock(fd, LOCK_EX | LOCK_NB) {
                _ = calls.close(fd)
                throw failure.code == EWOULDBLOCK ? .inUse(path) : FileSystem.error("flock", path, failure)
            }
        }
        return fd
    }

    deinit {
        if !self.closed.withLock({ $0 }) { _ = self.calls.close(self.descriptor) }
    }

    /// Closes the file, reporting the error `close` returns (on some file systems a failed
    /// write-back only shows here). Called before the file is renamed into place.
    func close() throws(TransferError) {
        let first = self.closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        if case .failure(let failure) = self.calls.close(self.descriptor) { throw FileSystem.error("close", self.path, failure) }
    }

    /// The current size (`fstat`).
    func size() throws(TransferError) -> Int64 {
        switch self.calls.fstat(self.descriptor) {
        case .success(let status): return status.size
        case .failure(let failure): throw FileSystem.error("fstat", self.path, failure)
        }
    }

    /// `ftruncate`.
    func truncate(to length: Int64) throws(TransferError) {
        if case .failure(let failure) = self.calls.ftruncate(self.descriptor, length) {
            throw FileSystem.error("ftruncate", self.path, failure)
        }
    }

    /// Writes all of `bytes` at `offset` (`pwrite`, repeated for short writes).
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(TransferError) {
        var done = 0
        try self.write(bytes, at: offset, progress: &done)
    }

    /// ``write(_:at:)`` that leaves in `done` how many bytes were written, also when it throws
    /// (a short write followed by a failure, as a full disk gives).
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64, progress done: inout Int) throws(TransferError) {
        let outcome = self.writing.withLock { self.calls.writeAll(self.descriptor, bytes, at: offset) }
        done = outcome.written
        if let failure = outcome.failure { throw FileSystem.error("write", self.path, failure) }
    }

    /// Whether ``splice(from:count:at:progress:)`` can be used.
    var canSplice: Bool { self.calls.spliceToFile != nil }

    /// Moves `count` bytes that wait in `pipe` into the file at `offset` (splice(2), repeated for
    /// short moves), leaving in `done` how many moved, also when it throws.
    func splice(from pipe: Int32, count: Int, at offset: Int64, progress done: inout Int) throws(TransferError) {
        done = 0
        guard let spliceToFile = self.calls.spliceToFile else { throw .disk("write \(self.path): splice is not available") }
        while done < count {
            let moved = self.writing.withLock { spliceToFile(pipe, self.descriptor, count - done, offset + Int64(done)) }
            switch moved {
            case .success(let moved) where moved > 0: done += moved
            case .success: throw .disk("write \(self.path): no progress")
            case .failure(let failure): throw FileSystem.error("write", self.path, failure)
            }
        }
    }

    /// Reads up to `count` bytes at `offset` (`pread`).
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(TransferError) -> Int {
        switch self.calls.pread(self.descriptor, buffer, offset) {
        case .success(let count): return count
        case .failure(let failure): throw FileSystem.error("read", self.path, failure)
        }
    }

    /// True when the file holds exactly `bytes` at `offset` (a short file does not).
    func holds(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(TransferError) -> Bool {
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
    func sync() throws(TransferError) {
        if case .failure(let failure) = self.calls.fsync(self.descriptor) { throw FileSystem.error("fsync", self.path, failure) }
    }
}

/// Path-level calls of the engine, through one ``FileSystemCalls``.
struct FileSystem: Sendable {
    let calls: FileSystemCalls

    static func error(_ call: String, _ path: String, _ failure: FileSystemCalls.Failure) -> TransferError {
        .disk("\(call) \(path): \(failure)")
    }

    /// True when something (a file, a folder, a link, even a dangling one) has this name.
    func exists(_ path: String) -> Bool {
        if case .success = self.calls.lstat(path) { return true }
        return false
    }

    /// What is at `path`, by `lstat`, for `PartialFileResolution/resolve(_:)`.
    func entry(at path: String) -> PartialFileResolution.Entry {
        guard case .success(let status) = self.calls.lstat(path) else { return .missing }
        return PartialFileResolution.entry(status)
    }

    /// The size of the regular file at `path`, not through a link.
    func size(of path: String) -> Int64? {
        guard case .success(let status) = self.calls.lstat(path), status.kind == .regular else { return nil }
        return status.size
    }

    /// The whole content of a regular file, at most `limit` bytes (a blob is small; a huge file
    /// under a blob's name is refused rather than read into memory). Nil when unreadable.
    func contents(of path: String, limit: Int64 = 64 << 20) -> Data? {
        guard let file = try? PartialFile(path: path, access: .readOnly, calls: self.calls),
              let size = try? file.size(), size <= limit
        else { return nil }
        var data = Data(count: Int(size))
        var filled = 0
        let complete = data.withUnsafeMutableBytes { buffer -> Bool in
            while filled < buffer.count {
                guard let count = try? file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]), at: Int64(filled)),
                      count > 0
                else { return false }
                filled += count
            }
            return true
        }
        return complete ? data : nil
    }

    /// Replaces `path` with `data` atomically (see ``AtomicFile``), readable by the owner only.
    func writeAtomically(_ data: Data, to path: String) throws(TransferError) {
        do {
            try AtomicFile.write(data, to: path, calls: self.calls)
        } catch {
            throw .disk("\(error.operation) \(path): \(String(cString: strerror(error.code)))")
        }
    }

    /// `rename`; durable only after ``syncFolder(of:)``.
    func rename(_ source: String, to destination: String) throws(TransferError) {
        if case .failure(let failure) = self.calls.rename(source, destination) { throw Self.error("rename", source, failure) }
    }

    /// fsync of the folder holding `path`: the names created, renamed or removed in it survive a crash.
    func syncFolder(of path: String) throws(TransferError) {
        do {
            try AtomicFile.syncFolder(of: path, calls: self.calls)
        } catch {
            throw .disk("\(error.operation) of \(path): \(String(cString: strerror(error.code)))")
        }
    }

    func remove(_ path: String) {
        _ = self.calls.unlink(path)
    }

    /// `unlink`: the failure, unless there was nothing to remove.
    func removeIfPresent(_ path: String) -> FileSystemCalls.Failure? {
        if case .failure(let failure) = self.calls.unlink(path), failure.code != ENOENT { return failure }
        return nil
    }

    /// Removes what a crashed writer of `path` left beside it (``AtomicFile/removeStaleTemporaries(in:for:calls:)``).
    func removeStaleTemporaries(of path: String) {
        AtomicFile.removeStaleTemporaries(in: BytePath(path).folder.text, for: BytePath(path).lastName.text, calls: self.calls)
    }

    func list(_ directory: String) throws(TransferError) -> [String] {
        switch self.calls.listDirectory(directory) {
        case .success(let names): return names
        case .failure(let failure): throw .disk("cannot list \(directory): \(failure)")
        }
    }
}
