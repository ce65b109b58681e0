import ArgumentParser
import Foundation
import ResumeSystemCalls
import ResumeTransfer
import ResumeReports

/// `resumetool archive FILE [--json]`
struct ArchiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "archive",
        abstract: "Print any NSKeyedArchiver archive as a resolved object tree.",
        discussion: """
            Reads a keyed archive (binary or XML) and shows its object graph from $top: each object as #UID and its class, its keys and values, UIDs followed, dictionaries as key and value pairs. An object met again is marked "shared: shown above", or "cycle" when it contains the reference. Objects nested deeper than 128 are an error naming the key path.

            Example:
              resumetool archive Samples/ios12-keyed-archive.resumedata
              resumetool archive --json response.bplist | jq '.root.class'

            \(ExitStatus.help(success: "printed", failure: nil))
            """
    )

    @Argument(help: "The archive to read, or - for standard input.", completion: .file())
    var file: String

    @Flag(name: .long, help: "Print JSON instead of the indented tree.")
    var json = false

    func run() throws {
        try reportingDiagnostics {
            let report = try ArchiveTreeReport(file)
            StandardStream.write(json ? report.json.rendered() : report.text, to: STDOUT_FILENO)
        }
    }
}
