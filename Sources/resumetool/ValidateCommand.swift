import ArgumentParser
import Foundation
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

            Exit status: 0 no errors (warnings allowed), 1 a finding of severity error, 2 a blob could not be read, 64 usage error.
            """
    )

    @Option(name: .customLong("tmp-dir"), help: "The folder holding the partial files (the app's tmp folder).")
    var tmpDirectory: String?

    @Argument(help: "Resume blobs to check; - reads standard input.")
    var blobs: [String]

    func validate() throws {
        guard !blobs.isEmpty else { throw ValidationError("give at least one BLOB") }
        if let tmpDirectory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: tmpDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--tmp-dir \(tmpDirectory) is not a folder")
            }
        }
    }

    func run() throws {
        var status: Int32 = 0
        var out = ""
        let directory = tmpDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
        for argument in blobs {
            let blob: BlobFile
            do {
                blob = try BlobFile(argument)
            } catch {
                FileHandle.standardOutput.write(Data(out.utf8))
                out = ""
                error.emit()
                status = 2
                continue
            }
            let validator = ResumeDataValidator(blobSize: blob.bytes.count, partialFileDirectory: directory)
            let findings = validator.findings(for: blob.resume)
            if findings.isEmpty {
                out += "\(blob.input.displayName): ok\n"
            }
            for finding in findings {
                let key = finding.key.map { "\($0): " } ?? ""
                out += "\(blob.input.displayName): \(finding.severity.rawValue): \(key)\(InspectReport.visible(finding.message)) [\(finding.code)]\n"
                if finding.severity == .error, status == 0 { status = 1 }
            }
        }
        FileHandle.standardOutput.write(Data(out.utf8))
        if status != 0 { throw ExitCode(status) }
    }
}
