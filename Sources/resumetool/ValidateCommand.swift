import ArgumentParser
import Foundation
import ResumeScan
import ResumeReports
import ResumeDataCodec

/// `resumetool validate BLOB... [--tmp-dir DIR]`
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check resume blobs for known corruptions and inconsistencies.",
        discussion: """
            Prints one line per finding, like a compiler:
              FILE: error: KEY: message [code]
            With --tmp-dir, also checks that the partial file exists there with the right size.

            Example:
              resumetool validate --tmp-dir ./tmp app-resume.plist
              find . -name '*.resumedata' | resumetool validate --files-from -

            Exit status: 0 no errors (warnings allowed), 1 a finding of severity error, 2 a blob could not be read, 64 usage error.
            """
    )

    @Option(name: .customLong("tmp-dir"), help: "The folder holding the partial files (the app's tmp folder).")
    var tmpDirectory: String?

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
        let list = try blobs.list(failureStatus: 2)
        var status: Int32 = 0
        var output = StandardOutput()
        let directory = tmpDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
        orderedParallelMap(list.names) { argument in
            Result<(lines: String, hasError: Bool), Diagnostic> { () throws(Diagnostic) in
                let blob = try BlobFile(argument, options: options)
                let validator = ResumeDataValidator(blobSize: blob.bytes.count, partialFileDirectory: directory)
                let findings = validator.findings(for: blob.resume)
                var lines = findings.isEmpty ? "\(blob.input.displayName): ok\n" : ""
                for finding in findings {
                    let key = finding.key.map { "\($0): " } ?? ""
                    lines += "\(blob.input.displayName): \(finding.severity.rawValue): \(key)\(VisibleText.escaping(finding.message)) [\(finding.code)]\n"
                }
                return (lines, findings.contains { $0.severity == .error })
            }
        } emit: { outcome in
            switch outcome {
            case .failure(let diagnostic):
                output.flush()
                diagnostic.emit()
                status = 2
            case .success(let result):
                output.append(result.lines)
                if result.hasError, status == 0 { status = 1 }
                output.flushIfLarge()
            }
        }
        output.flush()
        if status != 0 { throw ExitCode(status) }
    }
}
