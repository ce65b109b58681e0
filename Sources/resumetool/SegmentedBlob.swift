#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import ResumeDataCodec
import ResumeTransfer

/// A blob of a segmented download (`download --connections`) on its way to a device.
///
/// Its `NSURLSessionResumeBytesReceived` counts the partial file's first bytes only; the file
/// also holds segments further on (listed under `ResumeToolFinishedRanges`), so it is longer
/// than the count. Nothing promises what a device does with such a file (append at its end,
/// or write from the count), and appending would give a corrupt download. So `convert` and
/// `repair` refuse such a blob, naming the option that makes it safe: `--trim-partial FILE`
/// cuts the partial file to the count (fsynced) and drops the key from the blob written.
enum SegmentedBlob {
    /// `resume` ready for a device: unchanged without the key; with it, the partial file trimmed
    /// and the key removed, or a diagnostic saying how to do that.
    static func forDevice(_ resume: ResumeData, file: String, trimming partial: String?, command: String) throws(Diagnostic) -> ResumeData {
        guard resume.entries[ResumeCheckpoint.finishedRangesKey] != nil else { return resume }
        let count = resume.bytesReceived ?? 0
        guard let partial else {
            throw Diagnostic(
                file: file,
                message: "a segmented download (\(ResumeCheckpoint.finishedRangesKey)): its partial file holds bytes past the \(count) "
                    + "the blob counts, which a device could append after; cut it first with "
                    + "`resumetool \(command) \(file) --trim-partial PARTIAL-FILE …` (or finish it with `resumetool resume \(file)`)")
        }
        try trim(partial, to: count)
        var trimmed = resume
        trimmed.entries[ResumeCheckpoint.finishedRangesKey] = nil
        return trimmed
    }

    /// Cuts `path` to `length` bytes and fsyncs it; a file shorter than that is refused (the
    /// blob would count bytes it does not hold). A symbolic link is not followed.
    private static func trim(_ path: String, to length: Int64) throws(Diagnostic) {
        let descriptor = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw Diagnostic(file: path, message: "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw Diagnostic(file: path, message: "not a regular file")
        }
        guard Int64(info.st_size) >= length else {
            throw Diagnostic(file: path, message: "holds \(info.st_size) bytes, fewer than the \(length) the blob counts")
        }
        guard ftruncate(descriptor, off_t(length)) == 0, fsync(descriptor) == 0 else {
            throw Diagnostic(file: path, message: "cannot cut to \(length) bytes: \(String(cString: strerror(errno)))")
        }
    }
}
