import ArgumentParser
import ResumeDataCodec

/// `resumetool convert BLOB --to CONTAINER [-o OUT]`
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Rewrite a resume blob in another container.",
        discussion: """
            Containers: xml (iOS 7–11), binary, keyed-archive (iOS 12+), keyed-archive-xml. Every key is kept; the request archives are copied unchanged.

            Example:
              resumetool convert old.plist --to keyed-archive -o new.resumedata

            Exit status: 0 written, 1 unreadable input or unwritable output (nothing is written), 64 usage error.
            """
    )

    @Argument(help: "The resume blob; - reads standard input.")
    var blob: String

    @Option(name: .long, help: "The container to write: xml, binary, keyed-archive or keyed-archive-xml.")
    var to: ResumeDataContainer

    @Option(name: .shortAndLong, help: "The output file (replaced atomically), or - for standard output (the default).")
    var output: String?

    func run() throws {
        try reportingDiagnostics {
            let input = try BlobFile(blob)
            try BlobFile.write(input.resume, as: to, to: OutputFile(output))
        }
    }
}
