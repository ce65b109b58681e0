#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ResumeSystemCalls

/// A device's partial file is an input: `resume` copies its bytes to a partial file of its own
/// beside the output and never writes to, renames or removes the one it was given (evidence, a
/// read-only mount, another user's file, another file system). The copy waits for the server:
/// ``Downloader`` makes the empty file of its own first (``FileSystem/startCopy(of:to:)``), and the
/// task fills it (``PartialFile/copyPrefix(of:count:)``) only once a response continues after
/// those bytes. A server that answers with the whole file, another file, or 416 costs no copy.
extension FileSystem {
    /// Checks that `source` can be copied, and makes `target`, the empty partial file the copy
    /// goes into: a new file (`O_EXCL`: an earlier run's partial file is never overwritten). The
    /// source is opened as evidence is (read-only, not through a link, without a new access
    /// time) and must be a regular file.
    /// - Returns: the size of `source`: at most what the copy can bring.
    func startCopy(of source: String, to target: String) throws(TransferError) -> Int64 {
        let input = try Self.openCopySource(source, calls: self.calls)
        defer { _ = self.calls.close(input.descriptor) }
        switch self.calls.open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, PartialFile.newFileMode) {
        case .success(let output):
            if case .failure(let failure) = self.calls.close(output) {
                _ = self.calls.unlink(target)
                throw Self.error("close", target, failure)
            }
            return input.size
        case .failure(let failure) where failure.code == EEXIST:
            throw .disk("\(target) exists (left by an earlier run?): continue it with its blob, \(target.dropLast(".part".count)).resume, or remove it")
        case .failure(let failure):
            throw Self.error("open", target, failure)
        }
    }

    /// `source` opened as evidence, a regular file, with its size.
    static func openCopySource(_ source: String, calls: FileSystemCalls) throws(TransferError) -> (descriptor: Int32, size: Int64) {
        let input: Int32
        switch calls.openEvidence(atPath: source) {
        case .success(let value): input = value
        case .failure(let failure) where failure.code == ELOOP: throw .untrustedFile("\(source): it is a symbolic link")
        case .failure(let failure): throw Self.error("open", source, failure)
        }
        switch calls.fstat(input) {
        case .success(let status) where status.kind == .regular:
            return (input, status.size)
        case .success:
            _ = calls.close(input)
            throw .untrustedFile("\(source): it is not a regular file")
        case .failure(let failure):
            _ = calls.close(input)
            throw Self.error("fstat", source, failure)
        }
    }

    /// Whether `target` begins with the first bytes of `source` (its first `count`, or all of a
    /// shorter one): what a ``PartialFile/copyPrefix(of:count:)`` leaves when its run stopped before its
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
}

extension PartialFile {
    /// Copies the first `count` bytes of `source` into this file from its start, as the server
    /// has agreed to continue after them; the next checkpoint's `fsync` makes them durable. The
    /// source is opened as ``FileSystem/startCopy(of:to:)`` opens it.
    ///
    /// The kernel copies (`copy_file_range`: a reflink on file systems that share extents, so it
    /// costs nothing on the same disk); where it cannot (another file system on older kernels,
    /// no such call), the bytes go through `pread`/`pwrite` in 1 MiB steps.
    /// - Throws: also when `source` holds fewer than `count` bytes now.
    func copyPrefix(of source: String, count: Int64) throws(TransferError) {
        let input = try FileSystem.openCopySource(source, calls: self.calls)
        defer { _ = self.calls.close(input.descriptor) }
        let wanted = max(0, count)
        var copied: Int64 = 0
        var kernel = self.calls.copyRange
        while copied < wanted {
            let step = Int(min(wanted - copied, 1 << 30))
            if let copy = kernel {
                switch copy(input.descriptor, copied, self.descriptor, copied, step) {
                case .success(let count) where count > 0: copied += Int64(count)
                case .success: throw .disk("read \(source): it ended at byte \(copied) of \(wanted) while being copied")
                case .failure(let error) where copied == 0 && [EXDEV, ENOSYS, EINVAL, EOPNOTSUPP, EBADF].contains(error.code):
                    // Not across these file systems, or not on this kernel: copy in user space.
                    kernel = nil
                case .failure(let error): throw FileSystem.error("copy_file_range", self.path, error)
                }
            } else {
                let outcome = self.calls.copyThroughBuffer(from: input.descriptor, to: self.descriptor, start: copied, end: wanted)
                switch outcome.failure {
                case nil where outcome.reached < wanted:
                    throw .disk("read \(source): it ended at byte \(outcome.reached) of \(wanted) while being copied")
                case nil: copied = outcome.reached
                case (.read, let error)?: throw FileSystem.error("read", source, error)
                case (.write, let error)?: throw FileSystem.error("write", self.path, error)
                }
            }
        }
    }
}
