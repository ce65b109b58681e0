#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ResumeSystemCalls

/// A device's partial file is an input: `resume` copies its bytes to a partial file of its own
/// beside the output and never writes to, renames or removes the one it was given (evidence, a
/// read-only mount, another user's file, another file system).
extension FileSystem {
    /// Copies the first `count` bytes of `source` (fewer when it is shorter) to `target`, a new
    /// file (`O_EXCL`: an earlier run's partial file is never overwritten), fsynced before it
    /// returns; `target` is removed again when the copy fails. The source is opened as evidence
    /// is (read-only, not through a link, without a new access time).
    ///
    /// The kernel copies (`copy_file_range`: a reflink on file systems that share extents, so it
    /// costs nothing on the same disk); where it cannot (another file system on older kernels,
    /// no such call), the bytes go through `pread`/`pwrite` in 1 MiB steps.
    /// - Returns: the bytes copied.
    func copyPrefix(of source: String, count: Int64, to target: String) throws(DownloadError) -> Int64 {
        let input: Int32
        switch self.calls.openEvidence(atPath: source) {
        case .success(let value): input = value
        case .failure(let failure) where failure.code == ELOOP: throw .untrustedFile("\(source): it is a symbolic link")
        case .failure(let failure): throw Self.error("open", source, failure)
        }
        defer { _ = self.calls.close(input) }
        let size: Int64
        switch self.calls.fstat(input) {
        case .success(let status) where status.kind == .regular: size = status.size
        case .success: throw .untrustedFile("\(source): it is not a regular file")
        case .failure(let failure): throw Self.error("fstat", source, failure)
        }
        let output: Int32
        switch self.calls.open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, PartialFile.newFileMode) {
        case .success(let value): output = value
        case .failure(let failure) where failure.code == EEXIST:
            throw .disk("\(target) exists (left by an earlier run?): continue it with its blob, \(target.dropLast(".part".count)).resume, or remove it")
        case .failure(let failure): throw Self.error("open", target, failure)
        }
        let wanted = max(0, min(count, size))
        var failure: DownloadError?
        var copied: Int64 = 0
        var kernel = self.calls.copyRange
        while copied < wanted, failure == nil {
            let step = Int(min(wanted - copied, 1 << 30))
            if let copy = kernel {
                switch copy(input, copied, output, copied, step) {
                case .success(let count) where count > 0: copied += Int64(count)
                case .success: failure = .disk("read \(source): it ended at byte \(copied) while being copied")
                case .failure(let error) where copied == 0 && [EXDEV, ENOSYS, EINVAL, EOPNOTSUPP, EBADF].contains(error.code):
                    // Not across these file systems, or not on this kernel: copy in user space.
                    kernel = nil
                case .failure(let error): failure = Self.error("copy_file_range", target, error)
                }
            } else {
                switch self.copyThroughBuffer(input, output, from: copied, upTo: wanted, source: source, target: target) {
                case .success(let count): copied = count
                case .failure(let error): failure = error
                }
            }
        }
        if failure == nil, case .failure(let error) = self.calls.fsync(output) { failure = Self.error("fsync", target, error) }
        if case .failure(let error) = self.calls.close(output), failure == nil { failure = Self.error("close", target, error) }
        if let failure {
            _ = self.calls.unlink(target)
            throw failure
        }
        return copied
    }

    /// Whether `target` begins with the first bytes of `source` (its first `count`, or all of a
    /// shorter one): what a ``copyPrefix(of:count:to:)`` leaves when its run stopped before its
    /// first checkpoint (a kill, a full disk, a checkpoint that could not be written), the bytes
    /// that run fetched after them unproven. Such a file may be copied again; any other `target`
    /// is someone's and is left. Both are opened read-only, not through a link.
    func isPrefixCopy(_ target: String, of source: String, count: Int64) -> Bool {
        guard case .success(let copy) = self.calls.openEvidence(atPath: target) else { return false }
        defer { _ = self.calls.close(copy) }
        guard case .success(let original) = self.calls.openEvidence(atPath: source) else { return false }
        defer { _ = self.calls.close(original) }
        guard case .success(let copied) = self.calls.fstat(copy), copied.kind == .regular,
              case .success(let given) = self.calls.fstat(original), given.kind == .regular else { return false }
        // Up to the prefix: a copy cut short is its beginning; one the run appended to begins with
        // it. An empty prefix proves nothing of a file that is not empty.
        let prefix = min(copied.size, count, given.size)
        guard prefix > 0 || copied.size == 0 else { return false }
        let left = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        let right = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { left.deallocate(); right.deallocate() }
        guard let leftBytes = left.baseAddress, let rightBytes = right.baseAddress else { return false }
        var offset: Int64 = 0
        while offset < prefix {
            let step = Int(min(prefix - offset, Int64(left.count)))
            guard case .success(let a) = self.calls.pread(copy, UnsafeMutableRawBufferPointer(rebasing: left[..<step]), offset), a > 0,
                  case .success(let b) = self.calls.pread(original, UnsafeMutableRawBufferPointer(rebasing: right[..<a]), offset), b == a,
                  memcmp(leftBytes, rightBytes, a) == 0 else { return false }
            offset += Int64(a)
        }
        return true
    }

    /// `pread`/`pwrite` from `start` to `end`: the offset reached.
    private func copyThroughBuffer(
        _ input: Int32, _ output: Int32, from start: Int64, upTo end: Int64, source: String, target: String
    ) -> Result<Int64, DownloadError> {
        let outcome = self.calls.copyThroughBuffer(from: input, to: output, start: start, end: end)
        switch outcome.failure {
        case nil where outcome.reached < end: return .failure(.disk("read \(source): it ended at byte \(outcome.reached) while being copied"))
        case nil: return .success(outcome.reached)
        case (.read, let error)?: return .failure(Self.error("read", source, error))
        case (.write, let error)?: return .failure(Self.error("write", target, error))
        }
    }
}
