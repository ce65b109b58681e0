import ArgumentParser
import Foundation
import ResumeScan
import ResumeReports
import ResumeDataCodec
import ResumeSupport

/// `resumetool inspect BLOB...`
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what a resume blob holds, and what is wrong with it.",
        discussion: """
            Reads all four classic containers (XML, binary, keyed archive, keyed archive as XML) and Network-framework resume data (nwurlsession, and nwurlsession-webkit as WebKit wraps it), and shows the container, URL, bytes received, partial file, validators (from the archived response when the blob has no key for them), both requests with their headers, the response, every other key, and the findings of `validate`. A Safari NAME.download bundle shows what its Info.plist says (URL, bytes received and total, validator, dates) and its partial file's size and SHA-256 (a sparse partial file, or one above 4 GiB, is described with its apparent and allocated sizes, not hashed: `scan --hash-limit none` hashes it).

            Example:
              resumetool inspect Samples/ios12-keyed-archive.resumedata
              resumetool inspect --json *.resumedata | jq '.[].downloadURL'
              resumetool inspect --json ~/Library/Caches/MyApp/ > reports.json
              resumetool inspect ~/Downloads/Example.dmg.download

            \(ExitStatus.help(success: "every blob was read", failure: nil)) The blobs that could be read are shown either way.
            """
    )

    @Flag(name: .long, help: "Print JSON: an array with one object per blob, even for one.")
    var json = false

    @OptionGroup var reading: StrictReading

    @OptionGroup var blobs: BlobArguments

    func run() throws {
        let options = reading.options
        let list = try blobs.list()
        let json = self.json
        var output = StandardOutput()
        var failed = false
        var shownAny = false
        orderedParallelMap(list.names) { argument in
            Result<[UInt8], Diagnostic> { () throws(Diagnostic) in
                if SafariDownloadBundle.isBundle(argument) { return try Self.safariBundle(argument, json: json, indent: 1) }
                let value: JSONValue
                switch try BlobFile.read(argument, options: options) {
                case .download(let blob):
                    let findings = ResumeDataValidator(blobSize: blob.bytes.count).findings(for: blob.resume)
                    let report = InspectReport(name: blob.input.displayName, resume: blob.resume, findings: findings)
                    guard json else { return Array(report.text.utf8) }
                    value = report.json
                case .upload(let name, _, let upload):
                    let report = UploadInspectReport(name: name, upload: upload, findings: UploadResumeDataValidator().findings(for: upload))
                    guard json else { return Array(report.text.utf8) }
                    value = report.json
                }
                var bytes: [UInt8] = []
                // A report is a few KiB: one allocation instead of a doubling series.
                bytes.reserveCapacity(8192)
                value.write(to: &bytes, indent: 1)
                return bytes
            }
        } emit: { outcome in
            switch outcome {
            case .failure(let diagnostic):
                output.flush()
                diagnostic.emit()
                failed = true
            case .success(let bytes):
                if json {
                    // One shape for any number of blobs, so `jq '.[]'` works on one file too.
                    output.append(shownAny ? ",\n" : "[\n")
                    JSONValue.writeIndent(1, to: &output.bytes)
                } else if !json, shownAny {
                    // A blank line between reports, counting only the blobs actually shown.
                    output.append("\n")
                }
                output.bytes += bytes
                shownAny = true
                output.flushIfLarge()
            }
        }
        if json { output.append(shownAny ? "\n]\n" : "[]\n") }
        output.flush()
        // Every failure here is a blob that could not be read.
        if failed { throw ExitStatus.unreadableInput.code }
    }
}
