import ArgumentParser
import Foundation
import ResumeSystemCalls
import ResumeTransfer
import ResumeReports
import ResumeDataCodec

/// `resumetool plist print FILE`
struct PlistPrintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Print a property list as an indented tree.",
        discussion: """
            Shows every value with its type; data as its length and first bytes; UIDs as UID(n).

            With --json, the property list as JSON, spelled as `plist convert --to json` writes it (data as base64, dates as ISO 8601, UIDs as {"CF$UID": n}); a value JSON cannot spell exactly is said on standard error.

            Example:
              resumetool plist print resume.plist
              resumetool plist print --json resume.plist | jq .

            \(ExitStatus.help(success: "printed", failure: nil))
            """
    )

    @Argument(help: "The property list to read, or - for standard input.", completion: .file())
    var file: String

    @Flag(name: .long, help: "Print JSON, as plist convert --to json writes it.")
    var json = false

    @OptionGroup var reading: StrictReading

    func run() throws {
        try reportingDiagnostics {
            let value = try InputFile(file).readPropertyList(options: reading.options)
            guard json else { return StandardStream.write(PropertyListTree.render(value), to: STDOUT_FILENO) }
            let (text, notes) = PropertyListJSON.text(for: value)
            for note in notes { Diagnostic(file: file, severity: .warning, message: note).emit() }
            StandardStream.write(text.hasSuffix("\n") ? text : text + "\n", to: STDOUT_FILENO)
        }
    }
}
