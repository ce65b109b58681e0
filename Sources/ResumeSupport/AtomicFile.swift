#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import ResumeSystemCalls

/// The package's one way to replace a file: a crash or a full disk leaves either the old file or
/// the whole new one, never a mix, and never a file another user can read.
///
/// The bytes go to a new temporary file beside the destination (`O_EXCL | O_NOFOLLOW`, a random
/// name, so a planted file or link is never written through), which is fsynced and closed with
/// both errors checked, renamed over the destination, and the folder fsynced so the new name is
/// durable. Resume blobs may hold `Authorization` and `Cookie` headers, hence mode 0600.
package enum AtomicFile {
    /// A failed step: the system call and its errno.
    package struct Failure: Error, Equatable, CustomStringConvertible {
        package var operation: String
        package var code: Int32
        /// The new file is in place and whole; only the folder's fsync after the rename failed,
        /// so a power loss might still bring the old one back.
        package var afterRename = false
        package var description: String { "\(operation): \(String(cString: strerror(code)))" }
    }

    /// How a destination is written, from what `lstat` found at its path.
    package enum Route: Equatable, Sendable {
        /// Nothing there, a regular file or a link (the link itself is replaced, never followed):
        /// a new file renamed over it.
        case replace
        /// A character device or a FIFO (`/dev/null`, `/dev/stdout`, a `mkfifo` pipe): written
        /// through, as curl and plutil do. Renaming over it would replace the device node itself
        /// (for root, `/dev/null` would become a plain file).
        case writeThrough
        /// A folder, a block device or a socket: nothing is written.
        case refuse(Failure)
    }

    /// The route for a destination whose `lstat` gave `status` (nil: nothing there, or nothing
    /// that could be asked, which the new file's `open` then reports). No I/O.
    package static func route(for status: FileSystemCalls.Status?) -> Route {
        guard let status else { return .replace }
        switch status.kind {
        case .regular, .symbolicLink:
            return .replace
        case .directory:
            return .refuse(Failure(operation: "open", code: EISDIR))
        case .other:
            switch mode_t(status.mode) & S_IFMT {
            case S_IFCHR, S_IFIFO: return .writeThrough
            case S_IFBLK: return .refuse(Failure(operation: "refusing to write over a block device", code: EPERM))
            default: return .refuse(Failure(operation: "refusing to write over a socket", code: EPERM))
            }
        }
    }

    /// Replaces `path` with `data`. A new file gets `permissions` less the umask (0600 by
    /// default: a blob may hold credentials, a report evidence); a regular file replaced keeps
    /// its mode, owner and group, as an editor's save does. A character device or FIFO at
    /// `path` is written through instead (``Route``).
    package static func write(
        _ data: Data, to path: String, permissions: mode_t = 0o600, calls: FileSystemCalls = .system
    ) throws(Failure) {
        let existing = try? calls.lstat(path).get()
        switch route(for: existing) {
        case .replace: break
        case .writeThrough: return try writeThrough(data, to: path, calls: calls)
        case .refuse(let failure): throw failure
        }
        // Only a status with its type bits (the system's, not a fake's) has a mode to keep.
        let kept = existing.flatMap { mode_t($0.mode) & S_IFMT == S_IFREG ? $0 : nil }
        let name = TemporaryFileName(target: BytePath(path).lastName.text, pid: getpid(), random: UInt32.random(in: 0...UInt32.max))
        let temporary = BytePath(path).folder.appending(name.text).text
        let descriptor: Int32
        switch calls.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions) {
        case .success(let value): descriptor = value
        case .failure(let failure): throw Failure(operation: "open", code: failure.code)
        }
        var failure: Failure?
        if let kept {
            if case .failure(let error) = calls.fchmod(descriptor, mode_t(kept.mode) & 0o7777) {
                failure = Failure(operation: "fchmod", code: error.code)
            }
            // Another user's file stays theirs where we may say so (root); elsewhere it becomes
            // ours, as with any editor's save, and only its mode is kept.
            if failure == nil, let owner = kept.owner, let group = kept.group, owner != geteuid() || group != getegid(),
               case .failure(let error) = calls.fchown(descriptor, owner, group), error.code != EPERM {
                failure = Failure(operation: "fchown", code: error.code)
            }
        }
        if failure == nil, let error = data.withUnsafeBytes({ calls.writeAll(descriptor, $0, at: 0) }).failure {
            failure = Failure(operation: "write", code: error.code)
        }
        if failure == nil, case .failure(let error) = calls.fsync(descriptor) { failure = Failure(operation: "fsync", code: error.code) }
        if case .failure(let error) = calls.close(descriptor), failure == nil { failure = Failure(operation: "close", code: error.code) }
        if failure == nil, case .failure(let error) = calls.rename(temporary, path) { failure = Failure(operation: "rename", code: error.code) }
        if let failure {
            _ = calls.unlink(temporary)
            throw failure
        }
        do {
            try syncFolder(of: path, calls: calls)
        } catch {
            var late = error
            late.afterRename = true
            throw late
        }
    }

    /// `data` written at the position of a device or FIFO opened without creating, truncating or
    /// following anything; a device that cannot fsync (EINVAL, ENOTSUP, as `/dev/null`) is
    /// accepted, as for a folder.
    private static func writeThrough(_ data: Data, to path: String, calls: FileSystemCalls) throws(Failure) {
        let descriptor: Int32
        switch calls.open(path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0) {
        case .success(let value): descriptor = value
        case .failure(let failure): throw Failure(operation: "open", code: failure.code)
        }
        var failure = data.withUnsafeBytes { calls.writeAll(descriptor, $0) }.failure.map { Failure(operation: "write", code: $0.code) }
        if failure == nil, case .failure(let error) = calls.fsync(descriptor), error.code != EINVAL, error.code != ENOTSUP {
            failure = Failure(operation: "fsync", code: error.code)
        }
        if case .failure(let error) = calls.close(descriptor), failure == nil { failure = Failure(operation: "close", code: error.code) }
        if let failure { throw failure }
    }

    /// Removes the temporary files a crashed writer left in `folder` (``TemporaryFileName``),
    /// those for `target` only when it is given: regular files (a link or anything else of the
    /// same shape is left alone) owned by this user, whose process has ended. A running
    /// writer's file, our own process's included, is never touched.
    /// - Returns: the names removed.
    @discardableResult
    package static func removeStaleTemporaries(in folder: String, for target: String? = nil, calls: FileSystemCalls = .system) -> [String] {
        guard case .success(let names) = calls.listDirectory(folder.isEmpty ? "." : folder) else { return [] }
        var removed: [String] = []
        for name in names.sorted() {
            guard let temporary = TemporaryFileName(parsing: name), target == nil || temporary.target == target,
                  !calls.processExists(temporary.pid)
            else { continue }
            let path = BytePath(folder.isEmpty ? "." : folder).appending(name).text
            guard case .success(let status) = calls.lstat(path), status.kind == .regular,
                  status.owner.map({ $0 == getuid() }) ?? true
            else { continue }
            if case .success = calls.unlink(path) { removed.append(name) }
        }
        return removed
    }

    /// fsync of the folder holding `path`, so a rename or a new name in it survives power loss.
    /// A file system that cannot fsync a folder (EINVAL, ENOTSUP) is accepted, as every
    /// durable-write tool does; an I/O error is not.
    package static func syncFolder(of path: String, calls: FileSystemCalls = .system) throws(Failure) {
        let fd: Int32
        switch calls.open(BytePath(path).folder.text, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0) {
        case .success(let value): fd = value
        case .failure(let failure): throw Failure(operation: "open folder", code: failure.code)
        }
        defer { _ = calls.close(fd) }
        if case .failure(let failure) = calls.fsync(fd), failure.code != EINVAL, failure.code != ENOTSUP {
            throw Failure(operation: "fsync folder", code: failure.code)
        }
    }
}
