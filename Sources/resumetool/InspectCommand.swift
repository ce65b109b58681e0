import ArgumentParser
import Foundation
import ResumeDataCodec

/// `resumetool inspect BLOB...`
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what a resume blob holds, and what is wrong with it.",
        discussion: """
            Reads all four containers (XML, binary, keyed archive, keyed archive as XML) and shows the container, URL, bytes received, partial file, validators, both requests with their headers, every other key, and the findings of `validate`.

            Example:
              resumetool inspect Samples/ios12-keyed-archive.resumedata
              resumetool inspect --json *.resumedata | jq '.[].downloadURL'

            Exit status: 0 every blob was read, 1 a blob could not be read (the others are still shown), 64 usage error.
            """
    )

    @Flag(name: .long, help: "Print JSON: one object per blob, or an array when more than one BLOB is given.")
    var json = false

    @Argument(help: "Resume blobs to read; - reads standard input.")
    var blobs: [String]

    func validate() throws {
        guard !blobs.isEmpty else { throw ValidationError("give at least one BLOB") }
    }

    func run() throws {
        var reports: [JSONValue] = []
        var failed = false
        var text = ""
        var shownAny = false
        for argument in blobs {
            let blob: BlobFile
            do {
                blob = try BlobFile(argument)
            } catch {
                error.emit()
                failed = true
                continue
            }
            let findings = ResumeDataValidator(blobSize: blob.bytes.count).findings(for: blob.resume)
            let report = InspectReport(name: blob.input.displayName, resume: blob.resume, findings: findings)
            if json {
                reports.append(report.json)
            } else {
                // A blank line between reports, counting only the blobs actually shown.
                if shownAny { text.append("\n") }
                text.append(report.text)
                shownAny = true
            }
            // Thousands of blobs: flush in chunks instead of holding everything.
            if !json, text.utf8.count > 1 << 16 {
                FileHandle.standardOutput.write(Data(text.utf8))
                text = ""
            }
        }
        if json {
            let document = blobs.count == 1 ? (reports.first ?? .null) : .array(reports)
            if blobs.count > 1 || !reports.isEmpty { text = document.rendered() }
        }
        FileHandle.standardOutput.write(Data(text.utf8))
        if failed { throw ExitCode.failure }
    }
}
