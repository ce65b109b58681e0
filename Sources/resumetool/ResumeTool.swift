import ArgumentParser

/// The `resumetool` command: reads, writes, repairs and rebuilds NSURLSession resume data.
@main
struct ResumeTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resumetool",
        abstract: "Read, write, repair and rebuild NSURLSession resume data.",
        subcommands: [DownloadCommand.self, ResumeCommand.self, RecoverCommand.self]
    )
}
