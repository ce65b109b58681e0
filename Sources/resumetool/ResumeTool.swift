import ArgumentParser
import ResumeDataCodec
import ResumeSystemCalls

/// The `resumetool` command: reads, writes, repairs and rebuilds NSURLSession resume data.
@main
struct ResumeTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resumetool",
        abstract: "Read, write, repair and rebuild NSURLSession resume data.",
        discussion: """
            Example:
              resumetool inspect Samples/ios12-keyed-archive.resumedata

            \(ExitStatus.table)
            """,
        version: ResumeTool.version,
        subcommands: [
            InspectCommand.self, ValidateCommand.self, ExplainCommand.self, ConvertCommand.self, RepairCommand.self,
            RebuildCommand.self, RelocateCommand.self, EditCommand.self, DiscardCommand.self, PlistCommand.self,
            ArchiveCommand.self, DownloadCommand.self, ResumeCommand.self, RecoverCommand.self, ScanCommand.self,
            TasksCommand.self, UploadCommand.self,
        ]
    )

    /// Parses without the blob names of `inspect` and `validate`, which the parser would take in
    /// quadratic time (see ``PositionalNames``).
    static func main() async {
        switch RawArguments.forParser(RawArguments.current()) {
        case .success(let arguments):
            await self.main(PositionalNames.split(arguments))
        case .failure(let refusal):
            StandardStream.write("Error: \(VisibleText.escaping(refusal.message))\n")
            Self.exit(withError: ExitStatus.usage.code)
        }
    }

    /// What `resumetool --version` prints.
    static let version = "resumetool 0.4.0"
}
