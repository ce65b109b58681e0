import Crypto
import Foundation
import NIOCore
import ResumeDataCodec
import ResumeSystemCalls

#if canImport(Glibc)
import Glibc
#endif

/// The file an upload sends, open for reading through the ``FileSystemCalls`` seam: its bytes a
/// chunk at a time, and its identity (``UploadFileIdentity``) to compare with the checkpoint's
/// and to check again before each request, so that a file changed in the middle of an upload
/// stops it rather than mixing two files on the server.
final class UploadSource: Sendable {
    let path: String
    let size: Int64
    private let descriptor: Int32
    private let calls: FileSystemCalls
    private let status: FileSystemCalls.Status

    /// Opens `path`: a regular file (a link is followed, as `curl -T` does). Opened with
    /// `O_NONBLOCK`, so that a FIFO with no writer is refused at once instead of blocking the
    /// open; a regular file's reads ignore the flag.
    /// - Throws: ``UploadError/unreadableFile(_:)``.
    init(path: String, calls: FileSystemCalls = .system) throws(UploadError) {
        let descriptor: Int32
        switch calls.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0) {
        case .success(let value): descriptor = value
        case .failure(let failure): throw .unreadableFile("\(path): \(failure)")
        }
        let status: FileSystemCalls.Status
        switch calls.fstat(descriptor) {
        case .success(let value): status = value
        case .failure(let failure):
            _ = calls.close(descriptor)
            throw .unreadableFile("\(path): \(failure)")
        }
        if case .other(let kind) = PartialFileResolution.entry(status) {
            _ = calls.close(descriptor)
            // Said as `explain --file` says it of the same file.
            throw .unreadableFile("\(path): it is \(kind), not a regular file")
        }
        self.path = path
        self.size = max(status.size, 0)
        self.descriptor = descriptor
        self.calls = calls
        self.status = status
    }

    deinit {
        _ = self.calls.close(self.descriptor)
    }

    /// The file's identity as opened, for `url` and `draftVersion`.
    /// - Throws: ``UploadError/unreadableFile(_:)`` when its ends cannot be read.
    func identity(url: HTTPURL, draftVersion: UploadDraftVersion) throws(UploadError) -> UploadFileIdentity {
        let span = Int64(UploadFileIdentity.hashedSpan)
        let head = try self.digest(from: 0, count: min(span, self.size))
        let tailStart = max(self.size - span, 0)
        let tail = try self.digest(from: tailStart, count: self.size - tailStart)
        return UploadFileIdentity(
            format: UploadFileIdentity.formatVersion, size: self.size, modifiedSeconds: self.status.modifiedSeconds,
            modifiedNanoseconds: self.status.modifiedNanoseconds, device: self.status.device, inode: self.status.inode,
            headSHA256: head, tailSHA256: tail, url: url.string, draftVersion: draftVersion.number)
    }

    /// Throws unless the open file still has the size and modification time it was opened with.
    func checkUnchanged() throws(UploadError) {
        switch self.calls.fstat(self.descriptor) {
        case .success(let now):
            if now.size != self.status.size { throw .fileChanged("\(self.path) is now \(now.size) bytes, it was \(self.status.size) when the upload started") }
            if now.modifiedSeconds != self.status.modifiedSeconds || now.modifiedNanoseconds != self.status.modifiedNanoseconds {
                throw .fileChanged("\(self.path) was modified while it was being uploaded")
            }
        case .failure(let failure): throw .unreadableFile("\(self.path): \(failure)")
        }
    }

    /// `count` bytes from `offset`, read whole.
    /// - Throws: ``UploadError/fileChanged(_:)`` when the file ends early, ``UploadError/unreadableFile(_:)``.
    func read(from offset: Int64, count: Int, allocator: ByteBufferAllocator = ByteBufferAllocator()) throws(UploadError) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: count)
        var done = 0
        while done < count {
            let position = offset + Int64(done)
            var failure: FileSystemCalls.Failure?
            let read = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count - done) { raw in
                switch self.calls.pread(self.descriptor, UnsafeMutableRawBufferPointer(rebasing: raw.prefix(count - done)), position) {
                case .success(let read): return read
                case .failure(let error):
                    failure = error
                    return 0
                }
            }
            if let failure { throw .unreadableFile("\(self.path) at byte \(position): \(failure)") }
            if read == 0 { throw .fileChanged("\(self.path) ends at byte \(position), it had \(self.size) bytes when the upload started") }
            done += read
        }
        return buffer
    }

    private func digest(from offset: Int64, count: Int64) throws(UploadError) -> String {
        var hasher = SHA256()
        if count > 0 {
            let buffer = try self.read(from: offset, count: Int(count))
            buffer.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
