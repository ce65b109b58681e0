#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The package's one way to replace a file: a crash or a full disk leaves either the old file or
/// the whole new one, never a mix, and never a file another user can read.
///
/// The bytes go to a new temporary file beside the destination (`O_EXCL | O_NOFOLLOW`, a random
/// name, so a planted file or link is never written through), which is fsynced and closed with
/// both errors checked, renamed over the destination, and the folder fsynced so the new name is
/// durable. Resume blobs may hold `Authorization` and `Cookie` headers, hence mode 0600.
package enum AtomicFile {
    /// A failed step: the system call and its errno.
    package struct Failure: Error, CustomStringConvertible {
        package var operation: String
        package var code: Int32
        package var description: String { "\(operation): \(String(cString: strerror(code)))" }
    }

    /// Replaces `path` with `data`; `permissions` apply to a new file (less the umask).
    package static func write(_ data: Data, to path: String, permissions: mode_t = 0o600) throws(Failure) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let temporary = directory + "/." + url.lastPathComponent + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw Failure(operation: "open", code: errno) }
        var failure: Failure?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, failure == nil, let base = buffer.baseAddress {
                let written = Foundation.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno != EINTR { failure = Failure(operation: "write", code: errno) }
                } else {
                    offset += written
                }
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = Failure(operation: "fsync", code: errno) }
        if close(descriptor) != 0, failure == nil { failure = Failure(operation: "close", code: errno) }
        if failure == nil, rename(temporary, path) != 0 { failure = Failure(operation: "rename", code: errno) }
        if let failure {
            unlink(temporary)
            throw failure
        }
        syncFolder(of: path)
    }

    /// fsync of the folder holding `path`, so a rename or a new name in it survives power loss.
    /// Best effort: some file systems refuse to fsync a folder, and the data itself is synced.
    package static func syncFolder(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
