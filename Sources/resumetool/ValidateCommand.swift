import ArgumentParser
import Foundation
import ResumeScan
import ResumeReports
import ResumeDataCodec
import ResumeSupport

/// `resumetool validate BLOB... [--tmp-dir DIR]`
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check resume blobs for known corruptions and inconsistencies.",
        discussion: """
            Prints one line per finding, like a compiler:
              FILE: error: KEY: message [code]
            With --tmp-dir, also checks that the partial file exists there with the right size.

            A Safari NAME.download bundle is checked as inspect reads it: its Info.plist's URL and bytes received against the partial file in the bundle.

            Example:
              resumetool validate --tmp-dir ./tmp app-resume.plist
              find . -name '*.resumedata' | resumetool validate --files-from -

            With --json, an array with one object per blob, in the order given: {"file", "ok", "findings": [{"severity", "code", "message", "key"}]}, or {"file", "error"} for a blob that could not be read (also said on standard error).

            \(ExitStatus.help(success: "no errors (warnings allowed)", failure: "a finding of severity error"))
            """
    )

    @Option(name: .customLong("tmp-dir"), help: "The folder holding the partial files (the app's tmp folder).")
    var tmpDirectory: String?

    @Flag(name: .long, help: "Print JSON: an array with one object per blob.")
    var json = false

    @OptionGroup var reading: StrictReading

    @OptionGroup var blobs: BlobArguments

    func validate() throws {
        if let tmpDirectory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: tmpDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--tmp-dir \(tmpDirectory) is not a folder")
            }
        }
    }

    func run() throws {
        let options = reading.options
        let list = try blobs.list()
        var status = ExitStatus.success
        var output = StandardOutput()
        let directory = tmpDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
        let json = self.json
        var shownAny = false
        // One shape for any number of blobs: an array, each element as the blob's turn comes.
        func appendJSON(_ value: JSONValue) {
            output.append(shownAny ? ",\n" : "[\n")
            JSONValue.writeIndent(1, to: &output.bytes)
            value.write(to: &output.bytes, indent: 1)
            shownAny = true
        }
        orderedParallelMap(list.names) { argument in
            Result<ValidateReport, Diagnostic> { () throws(Diagnostic) in
                if SafariDownloadBundle.isBundle(argument) {
                    return ValidateReport(name: argument, findings: SafariDownloadValidator.findings(for: try InspectCommand.readBundle(argument)))
                }
                switch try BlobFile.read(argument, options: options) {
                case .download(let blob):
                    let validator = ResumeDataValidator(blobSize: blob.bytes.count, partialFileDirectory: directory)
                    return ValidateReport(name: blob.input.displayName, findings: validator.findings(for: blob.resume))
                case .upload(let name, _, let upload):
                    return ValidateReport(name: name, findings: UploadResumeDataValidator().findings(for: upload))
                }
            }
        } emit: { outcome in
            switch outcome {
            case .failure(let diagnostic):
                output.flush()
                diagnostic.emit()
                if json { appendJSON(ValidateReport.json(unreadable: diagnostic.file, error: diagnostic.message)) }
                status = .unreadableInput
            case .success(let report):
                if json { appendJSON(report.json) } else { output.append(report.text) }
                if report.hasError, status == .success { status = .failure }
                output.flushIfLarge()
            }
        }
        if json { output.append(shownAny ? "\n]\n" : "[]\n") }
        output.flush()
        if status != .success { throw status.code }
    }
}
