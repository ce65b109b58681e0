import ArgumentParser
import Foundation
import ResumeDataCodec
import ResumeTransfer

/// `resumetool discard BLOB [--tmp-dir DIR]`
struct DiscardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discard",
        abstract: "Delete a resume blob and the partial file it names.",
        discussion: """
            Removes the partial file (TempFileName inside DIR, or LocalPath, which must lie inside DIR), then the blob, and says what it removed. DIR defaults to the blob's folder. Paths outside DIR are refused and nothing is deleted.

            Example:
              resumetool discard app.resumedata --tmp-dir ./tmp

            Exit status: 0 removed, 1 refused or unreadable (nothing is deleted), 64 usage error.
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
            let input = try BlobFile(blob, options: reading.options)
            input.emitWarnings()
            let folderPath = tmpDirectory ?? URL(fileURLWithPath: blob).deletingLastPathComponent().path
            let folder = URL(fileURLWithPath: folderPath, isDirectory: true).standardizedFileURL.path
            let resume = input.resume
            if let name = resume.tempFileName, !ResumeData.isBareFileName(name) {
                throw Diagnostic(file: blob, message: "refusing to delete \"\(name)\": a temp file name must be a bare file name")
            }
            // The same rule as the download engine's: only a file directly inside the folder.
            let choice = TrustPolicy.partialFile(tempFileName: resume.tempFileName, localPath: resume.localPath, folder: folder)
            if choice.names.isEmpty, let reason = choice.rejected.first {
                throw Diagnostic(file: blob, message: "refusing to delete: \(reason) (use --tmp-dir)")
            }
            let partial = choice.names.first.map { URL(fileURLWithPath: folder).appendingPathComponent($0) }
            var removed: [String] = []
            if let partial {
                if FileManager.default.fileExists(atPath: partial.path) {
                    do {
                        try FileManager.default.removeItem(at: partial)
                    } catch {
                        throw Diagnostic(file: partial.path, message: "cannot remove: \(error.localizedDescription)")
                    }
                    removed.append("removed partial file \(partial.path)")
                } else {
                    removed.append("partial file \(partial.path) was already gone")
                }
            }
            do {
                try FileManager.default.removeItem(atPath: blob)
            } catch {
                throw Diagnostic(file: blob, message: "cannot remove: \(error.localizedDescription)")
            }
            removed.append("removed blob \(blob)")
            print(removed.joined(separator: "\n"))
        }
    }
}
