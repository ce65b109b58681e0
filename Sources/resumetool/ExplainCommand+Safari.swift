import Foundation
import ResumeDataCodec
import ResumeReports
import ResumeScan

extension ExplainCommand {
    /// Explains a Safari `NAME.download` bundle as `resume` would continue it: the resume data
    /// its `Info.plist` makes (URL, and the legacy layout's validators), the partial file in the
    /// bundle (or `--partial`). A bundle that names no URL or holds no partial file cannot be
    /// explained, as `resume` cannot continue it: an unreadable input, exit 2.
    func explainBundle() async throws {
        if tmpDirectory != nil {
            throw Diagnostic.usageError("--tmp-dir is for blobs; \(blob) holds its partial file", command: "explain")
        }
        if file != nil {
            throw Diagnostic.usageError("--file is for upload blobs; \(blob) is a Safari download bundle", command: "explain")
        }
        let made: (resume: ResumeData, bytes: Int, partialFile: String)
        do throws(Diagnostic) {
            let bundle = try InspectCommand.readBundle(blob)
            do {
                let (data, partialFile) = try bundle.resumeData()
                made = (try ResumeData(data: data), data.count, partialFile)
            } catch {
                throw Diagnostic(file: blob, message: "\(error)")
            }
        } catch {
            error.emit()
            throw ExitStatus.unreadableInput.code
        }
        let key = partial == nil ? "the bundle's partial file" : "--partial"
        let path = partial ?? made.partialFile
        let partialFile: ResumeExplanation.PartialFile = switch PartialFileResolution.entry(at: path) {
        case .regularFile(let size): .looked(.file(path: path, size: size, key: key))
        case .missing: .looked(.missing(expected: (path, key)))
        case .other(let kind): .looked(.refused(path: path, key: key, reason: "it is \(kind), not a regular file"))
        }
        try await explain(made.resume, blobSize: made.bytes, name: blob, partialFile: partialFile)
    }
}
