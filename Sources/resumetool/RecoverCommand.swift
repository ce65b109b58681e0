import ArgumentParser
import ResumeSystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ResumeTransfer

/// `resumetool recover DIR`
struct RecoverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Continue every download whose resume blob (*.resume) an interrupted process left in DIR.",
        discussion: """
            The restart-after-crash command: after a reboot or a kill -9, it finds each FILE.resume with its FILE.part and finishes them all, a few at a time.

            Example:
              resumetool recover ~/Downloads
              resumetool recover --parallel 2 --limit-rate 5M --json ~/Downloads

            \(ExitStatus.help(success: "every download finished", failure: "one or more failed (their files are kept)", also: [.interrupted, .terminated])) A download stopped by a signal is paused: run again to continue.
            """
    )

    @Argument(help: "The directory to search.")
    var directory: String

    @Option(help: "Downloads at once (1-64).")
    var parallel = 4

    @OptionGroup var transfer: TransferOptions

    func validate() throws {
        guard (1...64).contains(self.parallel) else { throw ValidationError("--parallel must be 1 to 64") }
    }

    func run() async throws {
        let downloader = Downloader(configuration: try self.transfer.configuration(parallel: self.parallel))
        let tasks: [DownloadTask]
        for name in downloader.removeStaleTemporaryFiles(in: self.directory) where !self.transfer.quiet {
            TransferConsole.error("\(self.directory)/\(name): note: removed, a temporary file a killed run left")
        }
        do {
            tasks = try downloader.recover(in: self.directory)
        } catch {
            // Listing the folder is all that can fail here.
            TransferConsole.error("\(self.directory): error: \(error)")
            try? await downloader.shutdown()
            throw ExitStatus.unreadableInput.code
        }
        if tasks.isEmpty, !self.transfer.quiet, !self.transfer.json { StandardStream.write("\(self.directory): nothing to recover\n", to: STDOUT_FILENO) }
        let console = TransferConsole(quiet: self.transfer.quiet || self.transfer.json,
                                      continueHint: { _ in "run `resumetool recover` again to continue" })
        let status = await console.run(tasks.map { .init(task: $0, url: $0.url, label: $0.destination) },
                                       json: self.transfer.json, interactive: self.parallel == 1 && !self.transfer.quiet)
        try? await downloader.shutdown()
        if status != 0 { throw ExitCode(status) }
    }
}
