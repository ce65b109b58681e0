#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ResumeDataCodec
import ResumeSystemCalls

/// The engine's rule for a blob of a segmented download (``ResumeCheckpoint/finishedRangesKey``)
/// that leaves the engine for a device.
///
/// Its `NSURLSessionResumeBytesReceived` counts the partial file's first bytes only; the file
/// also holds segments further on, so it is longer than the count. Nothing promises what a device
/// does with such a file (append at its end, or write from the count), and appending would give a
/// corrupt download. So the blob is made safe by cutting the partial file to the count (fsynced)
/// and dropping the key.
package enum SegmentedResume {
    /// Why the partial file could not be cut.
    package enum TrimFailure: Error, Equatable, Sendable {
        case cannotOpen(FileSystemCalls.Failure)
        /// Not a regular file, or its status could not be read.
        case notRegularFile
        /// The file holds `size` bytes, fewer than the blob counts.
        case tooShort(size: Int64)
        case cannotCut(FileSystemCalls.Failure)
    }

    /// Whether `resume` names segments past its count.
    package static func isSegmented(_ resume: ResumeData) -> Bool {
        resume.entries[ResumeCheckpoint.finishedRangesKey] != nil
    }

    /// The bytes the blob counts (0 without a count): what the partial file is cut to.
    package static func countedBytes(_ resume: ResumeData) -> Int64 {
        resume.bytesReceived ?? 0
    }

    /// `resume` without the key, once the partial file at `path` is cut to ``countedBytes(_:)``
    /// and fsynced. A file shorter than that is refused (the blob would count bytes it does not
    /// hold); a symbolic link is not followed.
    package static func trimmed(_ resume: ResumeData, partialFile path: String, calls: FileSystemCalls = .system) throws(TrimFailure) -> ResumeData {
        let length = countedBytes(resume)
        let descriptor: Int32
        switch calls.open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0) {
        case .success(let opened): descriptor = opened
        case .failure(let failure): throw .cannotOpen(failure)
        }
        defer { _ = calls.close(descriptor) }
        guard case .success(let status) = calls.fstat(descriptor), status.kind == .regular else { throw .notRegularFile }
        guard status.size >= length else { throw .tooShort(size: status.size) }
        if case .failure(let failure) = calls.ftruncate(descriptor, length) { throw .cannotCut(failure) }
        if case .failure(let failure) = calls.fsync(descriptor) { throw .cannotCut(failure) }
        var trimmed = resume
        trimmed.entries[ResumeCheckpoint.finishedRangesKey] = nil
        return trimmed
    }
}
