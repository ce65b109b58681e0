import ArgumentParser
import ResumeDataCodec

/// `resumetool convert BLOB --to CONTAINER [-o OUT]`
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Rewrite a resume blob in another container.",
        discussion: """
            Containers: xml (iOS 7–11), binary, keyed-archive (iOS 12+), keyed-archive-xml, and the Network-framework format of iOS 17.4+ (nwurlsession, and nwurlsession-webkit as WebKit wraps it). Every key is kept; the request archives are copied unchanged. A Network-framework blob written in a classic container gets its inline requests and response archived stand-alone and the response's ETag and Last-Modified under their keys, so older devices and `resume` can use it.

            Example:
              resumetool convert old.plist --to keyed-archive -o new.resumedata

            \(ExitStatus.help(success: "written", failure: "the blob cannot be held in that container, or the output cannot be written")) Nothing is written unless the status is 0.
            """
    )

    @Argument(help: "The resume blob; - reads standard input.", completion: .file())
    var blob: String

    @Option(name: .long, help: "The container to write: xml, binary, keyed-archive, keyed-archive-xml, nwurlsession or nwurlsession-webkit.")
    var to: ResumeDataContainer

    @Option(name: .shortAndLong, help: "The output file (replaced atomically), or - for standard output (the default).")
    var output: String?

    @Option(help: ArgumentHelp(
        "For a segmented download's blob (download --connections): cut this partial file to the bytes the blob counts first, so a device cannot append after the other segments.",
        valueName: "FILE"))
    var trimPartial: String?

    @OptionGroup var reading: StrictReading

    func run() throws {
        try reportingDiagnostics {
            let input = try BlobFile(blob, options: reading.options, command: "convert")
            input.emitWarnings()
            let resume = try SegmentedBlob.forDevice(input.resume, file: input.input.displayName, trimming: self.trimPartial, command: "convert")
            try BlobFile.write(resume, as: to, to: OutputFile(output))
        }
    }
}
