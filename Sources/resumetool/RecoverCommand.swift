import ArgumentParser
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

            Exit status: 0 every download finished, 1 one or more failed (their files are kept), 64 usage error, 130 / 143 paused by Ctrl-C / SIGTERM.
            """
    )

    @Argument(help: "The directory to search.")
    var directory: String

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    func run() async throws {
        let downloader = Downloader()
        let tasks: [DownloadTask]
        do {
            tasks = try downloader.recover(in: self.directory)
        } catch {
            TransferConsole.error("\(self.directory): error: \(error)")
            try? await downloader.shutdown()
            throw ExitCode(1)
        }
        if tasks.isEmpty, !self.quiet { print("\(self.directory): nothing to recover") }
        let console = TransferConsole(quiet: self.quiet, continueHint: { _ in "run `resumetool recover` again to continue" })
        let signals = SignalPause(tasks: tasks)
        var states: [DownloadState] = []
        for task in tasks { states.append(await task.result()) }
        signals.stop()
        var status: Int32 = 0
        for (task, state) in zip(tasks, states) {
            let code = console.finish(task, state: state, label: task.destination, signal: signals.received)
            if code != 0 { status = code }
        }
        try? await downloader.shutdown()
        if status != 0 { throw ExitCode(status) }
    }
}
