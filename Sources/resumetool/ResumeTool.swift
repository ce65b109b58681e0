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

    /// Parses the command line as ``RawArguments`` gives it, without the blob names of `inspect`
    /// and `validate`, which the parser would take in quadratic time (``PositionalNames``); they
    /// are handed to the parsed command. Then runs it, as ArgumentParser's own `main` does.
    static func main() async {
        await run(commandLine: RawArguments.current())
    }

    /// Off the main actor, as ArgumentParser's own `main` runs a command: the command is not
    /// `Sendable`, and is made and run here alone.
    private nonisolated static func run(commandLine raw: [[UInt8]]) async {
        let arguments: [String]
        switch RawArguments.forParser(raw) {
        case .success(let texts): arguments = texts
        case .failure(let refusal): refuse(refusal.message)
        }
        let split = PositionalNames(splitting: arguments)
        do {
            var command = try await asyncParseAsRoot(split.parserArguments)
            if var blobCommand = command as? any TakesBlobNames & ParsableCommand {
                blobCommand.blobs.taken = TakenNames(split.taken)
                command = blobCommand
            }
            // A scan argument that is not UTF-8 was spelled for the parser: only as a DIR is it read.
            if let scan = command as? ScanCommand, let refused = RawArguments.notUTF8(in: raw, outside: scan.folders.map(\.path.bytes)) {
                refuse(refused.message)
            }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    /// Says why the command line is refused, and exits with the usage status.
    private static func refuse(_ message: String) -> Never {
        StandardStream.write("Error: \(VisibleText.escaping(message))\n")
        Self.exit(withError: ExitStatus.usage.code)
    }

    /// What `resumetool --version` prints.
    static let version = "resumetool 0.4.0"
}
