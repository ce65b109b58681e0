import ArgumentParser
import Foundation
import ResumeSystemCalls
import ResumeTransfer
import ResumeDataCodec
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `resumetool discard BLOB [--tmp-dir DIR]`
struct DiscardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discard",
        abstract: "Delete a resume blob and the partial file it names.",
        discussion: """
            Removes the partial file, then the blob, and says what it removed: the file `resume` would continue, that is the first of TempFileName and LocalPath's file name that exists directly inside DIR. DIR defaults to the blob's folder. A name with a folder part is ignored with a warning; when it is all the blob names, or when the file found is a folder, a symbolic link or anything but a regular file, nothing is deleted.

            Example:
              resumetool discard app.resumedata --tmp-dir ./tmp

            \(ExitStatus.help(success: "removed", failure: "refused, or a file cannot be removed")) Nothing is deleted when the blob cannot be read or the deletion is refused.
            """
    )

    @Argument(help: "The resume blob file.", completion: .file())
    var blob: String

    @Option(name: .customLong("tmp-dir"), help: "The folder the partial file must be in (default: the blob's folder).")
    var tmpDirectory: String?

    func validate() throws {
        guard blob != "-" else { throw ValidationError("discard needs a blob file, not standard input") }
    }

    @OptionGroup var reading: StrictReading

    func run() throws {
        try reportingDiagnostics {
            let input = try BlobFile(blob, options: reading.options, command: "discard")
            input.emitWarnings()
            let folder = BytePath(PartialFileResolution.lookupFolder(given: tmpDirectory, besideBlobAt: blob)).absolute.text
            // The rule every command carries out: the first candidate that exists, a regular file
            // directly inside the folder. Removed with unlink(2), which never removes a folder and
            // removes a link swapped in meanwhile rather than what it points to.
            let resolution = PartialFileResolution(resume: input.resume, folder: folder)
            var removed: [String] = []
            switch resolution.resolve(PartialFileResolution.entry(at:)) {
            case .refused(let path, _, let reason):
                throw Diagnostic(file: blob, message: "refusing to delete \(path): \(reason); nothing was deleted")
            case .missing(nil):
                if let reason = resolution.rejected.first {
                    throw Diagnostic(file: blob, message: "refusing to delete: \(reason); nothing was deleted")
                }
            case .missing(let expected?):
                removed.append("partial file \(expected.path) was already gone")
            case .file(let path, _, _):
                if case .failure(let failure) = FileSystemCalls.system.unlink(path), failure.code != ENOENT {
                    throw Diagnostic(file: path, message: "cannot remove: \(failure)")
                }
                removed.append("removed partial file \(path)")
            }
            for reason in resolution.rejected {
                Diagnostic(file: blob, severity: .warning, message: "\(reason); ignored").emit()
            }
            if case .failure(let failure) = FileSystemCalls.system.unlink(blob) {
                throw Diagnostic(file: blob, message: "cannot remove: \(failure)")
            }
            removed.append("removed blob \(blob)")
            StandardStream.write(removed.joined(separator: "\n") + "\n", to: STDOUT_FILENO)
        }
    }
}
