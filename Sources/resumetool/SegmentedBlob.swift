import ResumeDataCodec
import ResumeTransfer

/// A blob of a segmented download (`download --connections`) on its way to a device: `convert`
/// and `repair` refuse it, naming the option that makes it safe (`--trim-partial FILE`), and
/// carry out ``SegmentedResume``'s rule when it is given.
enum SegmentedBlob {
    /// `resume` ready for a device: unchanged without the key; with it, the partial file trimmed
    /// and the key removed, or a diagnostic saying how to do that.
    static func forDevice(_ resume: ResumeData, file: String, trimming partial: String?, command: String) throws(Diagnostic) -> ResumeData {
        guard SegmentedResume.isSegmented(resume) else { return resume }
        let count = SegmentedResume.countedBytes(resume)
        guard let partial else {
            throw Diagnostic(
                file: file,
                message: "a segmented download (\(ResumeCheckpoint.finishedRangesKey)): its partial file holds bytes past the \(count) "
                    + "the blob counts, which a device could append after; cut it first with "
                    + "`resumetool \(command) \(file) --trim-partial PARTIAL-FILE …` (or finish it with `resumetool resume \(file)`)")
        }
        do {
            return try SegmentedResume.trimmed(resume, partialFile: partial)
        } catch {
            switch error {
            case .cannotOpen(let failure): throw Diagnostic(file: partial, message: "cannot open: \(failure)")
            case .notRegularFile: throw Diagnostic(file: partial, message: "not a regular file")
            case .tooShort(let size): throw Diagnostic(file: partial, message: "holds \(size) bytes, fewer than the \(count) the blob counts")
            case .cannotCut(let failure): throw Diagnostic(file: partial, message: "cannot cut to \(count) bytes: \(failure)")
            }
        }
    }
}
