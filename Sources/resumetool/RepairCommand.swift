import ArgumentParser
import Foundation
import ResumeSystemCalls
import ResumeTransfer
import ResumeDataCodec

/// `resumetool repair BLOB [--target ios10|ios11|modern] [-o OUT]`
struct RepairCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Mend the known corruptions of a resume blob.",
        discussion: """
            Without --target, mends what `validate` finds (the iOS 10.0/10.1 request archives, the iOS 11 byte range) and otherwise keeps the blob as it is. With a target:
              ios10   request archives in the legacy layout, XML container
              ios11   NSURLSessionResumeByteRange removed, XML container
              modern  request archives in the secure layout, keyed archive
            Each change is listed (on standard error when the blob goes to standard output).

            Example:
              resumetool repair broken.plist --target ios10 -o fixed.plist

            \(ExitStatus.help(success: "written", failure: "the blob cannot be repaired for that system, or the output cannot be written")) Nothing is written unless the status is 0.
            """
    )

    @Argument(help: "The resume blob; - reads standard input.", completion: .file())
    var blob: String

    @Option(name: .long, help: "The system to repair for: ios10, ios11 or modern.")
    var target: RepairTarget?

    @OptionGroup var destination: DeviceBlobOutput

    @OptionGroup var reading: StrictReading

    func run() throws {
        try reportingDiagnostics {
            let input = try BlobFile(blob, options: reading.options, command: "repair")
            input.emitWarnings()
            let resume = try SegmentedBlob.forDevice(input.resume, file: input.input.displayName, trimming: self.destination.trimPartial, command: "repair")
            let repaired: (resume: ResumeData, changes: [String])
            do {
                repaired = try target.map { try resume.repaired(for: $0) } ?? resume.repairedInPlace()
            } catch {
                throw Diagnostic(file: input.input.displayName, message: "\(error)")
            }
            let destination = OutputFile(destination.output)
            try BlobFile.write(repaired.resume, as: repaired.resume.container, to: destination)
            let report = repaired.changes.isEmpty
                ? "\(input.input.displayName): nothing to repair\n"
                : repaired.changes.map { "\(input.input.displayName): \($0)\n" }.joined()
            // A failed write of this report (a full disk, a closed pipe) must not undo or hide
            // the repaired blob already written: it is dropped, never a trap.
            StandardStream.write(report, to: destination.path == nil ? STDERR_FILENO : STDOUT_FILENO)
        }
    }
}
