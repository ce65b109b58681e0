import ArgumentParser
import Foundation
import ResumeTransfer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `resumetool download URL [-o FILE] [--sha256 HEX] [--quiet]`
struct DownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download a URL crash-safely; running the same command again continues.",
        discussion: """
            The partial data goes to FILE.part and an Apple-format resume blob to FILE.resume, checkpointed every few MiB or seconds. A changed file on the server (new ETag or Last-Modified) is downloaded again from the start, never spliced onto old bytes. Ctrl-C or SIGTERM pauses.

            Example:
              resumetool download https://example.com/big.iso -o big.iso --sha256 9f86d081…
              resumetool download https://example.com/big.iso -o big.iso    # again: continues

            Exit status: 0 downloaded (or already complete), 1 failed (the partial file and blob are kept when they are valid), 64 usage error, 130 / 143 paused by Ctrl-C / SIGTERM.
            """
    )

    @Argument(help: "The http or https URL.")
    var url: String

    @Option(name: .shortAndLong, help: "Where to save (default: the server's file name in the current directory).")
    var output: String?

    @Option(help: "Expected SHA-256 of the file, in hex; a mismatch fails and nothing is kept.")
    var sha256: String?

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @Option(help: .hidden)
    var checkpointBytes: Int64?

    func validate() throws {
        guard let parsed = URL(string: self.url), let scheme = parsed.scheme?.lowercased(),
              scheme == "http" || scheme == "https", parsed.host != nil
        else {
            throw ValidationError("'\(self.url)' is not an http or https URL")
        }
        if let sha256, sha256.count != 64 || !sha256.allSatisfy(\.isHexDigit) {
            throw ValidationError("--sha256 needs 64 hex digits")
        }
    }

    func run() async throws {
        var configuration = DownloadConfiguration()
        if let checkpointBytes { configuration.checkpointBytes = max(checkpointBytes, 1) }
        let downloader = Downloader(configuration: configuration)
        let destination: String
        if let output {
            destination = output
        } else {
            destination = await downloader.suggestedFileName(for: self.url)
        }
        let task = downloader.download(from: self.url, to: destination, expectedSHA256: self.sha256)
        let status = await TransferConsole(quiet: self.quiet).run(task, label: destination)
        try? await downloader.shutdown()
        if status != 0 { throw ExitCode(status) }
    }
}

/// Drives tasks for the commands: progress output, Ctrl-C / SIGTERM as pause, final message,
/// exit status (0 completed, 1 failed, 130 / 143 paused by a signal).
struct TransferConsole {
    var quiet: Bool
    /// How to continue after a pause or failure; nil: "run the same command again".
    var continueHint: ((DownloadTask) -> String)? = nil

    func run(_ task: DownloadTask, label: String) async -> Int32 {
        let signals = SignalPause(tasks: [task])
        defer { signals.stop() }
        if !self.quiet {
            await DownloadReporter(interactive: isatty(STDERR_FILENO) == 1).report(task, label: label)
        }
        let state = await task.result()
        return self.finish(task, state: state, label: label, signal: signals.received)
    }

    func finish(_ task: DownloadTask, state: DownloadState, label: String, signal: Int32?) -> Int32 {
        switch state {
        case .completed:
            if task.foundComplete {
                self.say("\(label) is already complete; nothing to do")
            } else {
                self.say("\(label): done")
            }
            return 0
        case .paused, .cancelled:
            Self.error("\(label): paused; \(self.hint(task)) (resume data in \(task.resumeDataPath))")
            return signal.map { 128 + $0 } ?? 1
        case .failed(let error):
            var message = "\(label): error: \(error)"
            if FileManager.default.fileExists(atPath: task.resumeDataPath) {
                message += "\n\(label): the partial download is kept; \(self.hint(task))"
            }
            Self.error(message)
            return 1
        case .queued, .running:
            return 1
        }
    }

    private func hint(_ task: DownloadTask) -> String {
        self.continueHint?(task) ?? "run the same command again to continue"
    }

    private func say(_ text: String) {
        if !self.quiet { print(text) }
    }

    static func error(_ text: String) {
        StandardStream.write(text + "\n")
    }
}

/// Turns SIGINT and SIGTERM into `pause()` of every task while transfers run.
final class SignalPause {
    private let sources: [any DispatchSourceSignal]
    private let receivedSignal = ReceivedSignal()

    init(tasks: [DownloadTask]) {
        var sources: [any DispatchSourceSignal] = []
        let received = self.receivedSignal
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler {
                received.set(number)
                for task in tasks { Task { _ = await task.pause() } }
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    var received: Int32? { self.receivedSignal.value }

    func stop() {
        for source in self.sources { source.cancel() }
    }
}

private final class ReceivedSignal: @unchecked Sendable {
    // Written once from the signal queue, read after the task stopped.
    private let lock = NSLock()
    private var number: Int32?

    func set(_ value: Int32) { self.lock.withLock { if self.number == nil { self.number = value } } }
    var value: Int32? { self.lock.withLock { self.number } }
}
