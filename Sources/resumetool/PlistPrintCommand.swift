import ArgumentParser
import Foundation
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

            Exit status: 0 printed, 1 the input is not a readable property list, 64 usage error.
            """
    )

    @Argument(help: "The property list to read, or - for standard input.")
    var file: String

    func run() throws {
        let input = InputFile(file)
        do {
            let data = try input.read()
            let (value, _) = try PropertyListReader().read(data)
            print(PropertyListTree.render(value), terminator: "")
        } catch let diagnostic as Diagnostic {
            diagnostic.emit()
            throw ExitCode.failure
        } catch let error as PropertyListError {
            Diagnostic(file: input.displayName, error).emit()
            throw ExitCode.failure
        }
    }
}
