internal import CArchiveShim
import ResumeSystemCalls
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An archive's bytes as libarchive and the gzip inflater read them: through the system-call
/// seam (``FileSystemCalls/pread``, with its one EINTR retry), never by the C shim itself, so a
/// fault test reaches every read of an archive. Reads go on from where the last read or skip
/// ended; the position is kept here (`pread`), so the descriptor's own offset is never moved.
///
/// The shim calls it from one thread at a time: libarchive's (the scan's), or the inflater's.
final class ArchiveSource: Sendable {
    let calls: FileSystemCalls
    let descriptor: Int32
    private let position = Mutex<Int64>(0)
    private let failure = Mutex<FileSystemCalls.Failure?>(nil)

    /// The first read that failed, if one did.
    var readFailure: FileSystemCalls.Failure? { self.failure.withLock { $0 } }

    init(descriptor: Int32, calls: FileSystemCalls) {
        self.calls = calls
        self.descriptor = descriptor
    }

    /// Whether the file starts a gzip member (the shim's rule, on its first bytes).
    var startsGzip: Bool {
        var start: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &start) { bytes in
            guard case .success(let count) = self.calls.pread(self.descriptor, bytes, 0), count == bytes.count else { return false }
            return carchive_starts_gzip_member(bytes.baseAddress, count) != 0
        }
    }

    /// Up to `buffer.count` bytes from the position on; the count (0 at the end), or the errno.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, FileSystemCalls.Failure> {
        self.position.withLock { position in
            let result = self.calls.pread(self.descriptor, buffer, position)
            switch result {
            case .success(let count): position += Int64(count)
            case .failure(let error): self.failure.withLock { $0 = $0 ?? error }
            }
            return result
        }
    }

    /// Moves the position on by `request` bytes; a position past the end reads as the end,
    /// which libarchive reports as an archive cut short.
    func skip(_ request: Int64) -> Int64 {
        guard request > 0 else { return 0 }
        return self.position.withLock { position in
            let (moved, overflow) = position.addingReportingOverflow(request)
            guard !overflow else { return 0 }
            position = moved
            return request
        }
    }

    /// Moves the position as `lseek` would (`SEEK_SET`, `SEEK_CUR`, `SEEK_END` from the file's
    /// size); nil for a position before the start, one that overflows, or another `whence`.
    func seek(_ offset: Int64, whence: Int32) -> Int64? {
        let base: Int64
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = self.position.withLock { $0 }
        case SEEK_END:
            guard case .success(let status) = self.calls.fstat(self.descriptor) else { return nil }
            base = status.size
        default: return nil
        }
        let (target, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, target >= 0 else { return nil }
        self.position.withLock { $0 = target }
        return target
    }

    /// The shim's view of this source; valid while this object lives.
    var shimSource: carchive_source {
        carchive_source(
            read: archiveSourceRead, skip: archiveSourceSkip, seek: archiveSourceSeek, context: Unmanaged.passUnretained(self).toOpaque())
    }
}

/// `carchive_read_fn`: the shim's reads, into ``ArchiveSource/read(into:)``.
private func archiveSourceRead(_ context: UnsafeMutableRawPointer?, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    guard let context, let buffer else { return -1 }
    let source = Unmanaged<ArchiveSource>.fromOpaque(context).takeUnretainedValue()
    // A failure is kept by the source (``ArchiveSource/readFailure``), which ArchiveReader says.
    switch source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: count)) {
    case .success(let count): return count
    case .failure: return -1
    }
}

/// `carchive_skip_fn`: the shim's skips, into ``ArchiveSource/skip(_:)``.
private func archiveSourceSkip(_ context: UnsafeMutableRawPointer?, _ request: Int64) -> Int64 {
    guard let context else { return 0 }
    return Unmanaged<ArchiveSource>.fromOpaque(context).takeUnretainedValue().skip(request)
}

/// `carchive_seek_fn`: the shim's seeks, into ``ArchiveSource/seek(_:whence:)``.
private func archiveSourceSeek(_ context: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int64 {
    guard let context else { return -1 }
    return Unmanaged<ArchiveSource>.fromOpaque(context).takeUnretainedValue().seek(offset, whence: whence) ?? -1
}
