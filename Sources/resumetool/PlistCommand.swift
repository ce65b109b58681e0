import ArgumentParser

/// `resumetool plist`: plutil's reading and converting, for Linux.
struct PlistCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plist",
        abstract: "Print or convert any property list (XML or binary), like plutil.",
        discussion: """
            Example:
              resumetool plist print Samples/ios12-keyed-archive.resumedata
              resumetool plist convert --to json Samples/ios9-xml.plist

            \(ExitStatus.table)
            """,
        subcommands: [PlistPrintCommand.self, PlistConvertCommand.self]
    )
}
