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

            Example:
              resumetool plist print resume.plist

            \(ExitStatus.help(success: "printed", failure: nil))
            """
    )

    @Argument(help: "The property list to read, or - for standard input.", completion: .file())
    var file: String

    @OptionGroup var reading: StrictReading

    func run() throws {
        try reportingDiagnostics {
            let value = try InputFile(file).readPropertyList(options: reading.options)
            StandardStream.write(PropertyListTree.render(value), to: STDOUT_FILENO)
        }
    }
}
