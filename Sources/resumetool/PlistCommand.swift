import ArgumentParser

/// `resumetool plist`: plutil's reading and converting, for Linux.
struct PlistCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plist",
        abstract: "Print or convert any property list (XML or binary), like plutil.",
        subcommands: [PlistPrintCommand.self, PlistConvertCommand.self]
    )
}
