import ArgumentParser
import Foundation
import ResumeSystemCalls
import ResumeDataCodec
import ResumeTransfer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `resumetool download URL... [-i LIST] [-P DIR] [-o FILE] [-H 'K: V']... [--parallel N] [--json] ...`
struct DownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download URLs crash-safely; running the same command again continues.",
        discussion: """
            The partial data goes to FILE.part and an Apple-format resume blob to FILE.resume, checkpointed every few MiB or seconds. A changed file on the server (new ETag or Last-Modified) is downloaded again from the start, never spliced onto old bytes. Ctrl-C or SIGTERM pauses. Authorization, Cookie and Proxy-Authorization headers go only to the origin of the URL they were given with, never to another one a redirect names, and so does a login given with -u or found in ~/.netrc (--netrc). With -o - the finished file is copied to standard output (it is staged in a private folder first, so nothing is left to continue after a failure).

            Example:
              resumetool download https://example.com/big.iso -o big.iso \\
                  --sha256 9f86d081…
              resumetool download https://example.com/big.iso -o big.iso  # continues
              resumetool download -H 'Authorization: Bearer TOKEN' \\
                  https://example.com/private.bin
              resumetool download --netrc https://example.com/private.bin -o - | sha256sum
              resumetool download -i urls.txt -P downloads --parallel 3 --json
              resumetool download --proxy http://proxy.lan:3128 \\
                  --noproxy localhost,.lan https://example.com/big.iso

            \(ExitStatus.help(success: "every download finished (or its file already existed: it is left as it is, and called complete only when --sha256 or this tool's own checkpoint vouches for it)", failure: "one or more failed (partial files and blobs are kept when they are valid)", also: [.interrupted, .terminated])) A download stopped by a signal is paused: run again to continue.
            """
    )

    @Argument(help: "http or https URLs.")
    var urls: [String] = []

    @Option(name: [.customShort("i"), .customLong("input-file")], help: "Read URLs from LIST, one per line ('-': standard input; '#' starts a comment).")
    var inputFile: String?

    @Option(name: [.customShort("P"), .customLong("directory")], help: "Save into DIR, made when missing (default: the current directory).")
    var directory: String?

    @Option(name: .shortAndLong, help: "Where to save (one URL only; default: the server's file name); - for standard output.")
    var output: String?

    @OptionGroup var request: RequestOptions

    @Option(help: "Downloads at once (1-64).")
    var parallel = 1

    @Option(help: "Connections per download (1-16): a server that serves ranges with a strong ETag is fetched in that many segments at once.")
    var connections = 1

    @Option(help: "Expected SHA-256 of the file, in hex (one URL only); a mismatch fails and nothing is kept.")
    var sha256: String?

    @OptionGroup var transfer: TransferOptions

    func validate() throws {
        guard !self.urls.isEmpty || self.inputFile != nil else { throw ValidationError("give a URL or --input-file LIST") }
        for url in self.urls {
            if let message = HTTPURL.problemMessage(for: url) { throw ValidationError(message) }
        }
        if let sha256, SHA256Hex(sha256) == nil {
            throw ValidationError("--sha256 needs 64 hex digits")
        }
        guard (1...64).contains(self.parallel) else { throw ValidationError("--parallel must be 1 to 64") }
        guard (1...16).contains(self.connections) else { throw ValidationError("--connections must be 1 to 16") }
        if self.urls.count > 1, self.output != nil || self.sha256 != nil {
            throw ValidationError("-o and --sha256 take one URL; use -P DIR for several")
        }
        if self.output == "-" {
            if self.transfer.json { throw ValidationError("-o - and --json cannot be used together: both print on standard output") }
            if self.directory != nil { throw ValidationError("-o - and -P cannot be used together") }
        }
    }

    func run() async throws {
        // validate() refused every argument the rule refuses; from here the checked URL is carried.
        var list = self.urls.compactMap(HTTPURL.init)
        if let inputFile {
            let text: String
            do {
                text = String(decoding: try InputFile(inputFile).read(), as: UTF8.self)
            } catch {
                error.emit()
                throw error.status.code
            }
            for (line, url) in URLList.parse(text) {
                do {
                    list.append(try HTTPURL(validating: url))
                } catch {
                    throw Diagnostic.usageError("\(inputFile):\(line): \(HTTPURL.message(for: url, error))", command: "download")
                }
            }
        }
        guard !list.isEmpty else { throw Diagnostic.usageError("no URL to download", command: "download") }
        if list.count > 1, self.output != nil || self.sha256 != nil {
            throw Diagnostic.usageError("-o and --sha256 take one URL; use -P DIR for several", command: "download")
        }
        if let directory {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                Diagnostic(file: directory, message: "cannot create the folder: \(error.localizedDescription)").emit()
                throw ExitCode(1)
            }
        }

        var configuration = try self.transfer.configuration(parallel: self.parallel)
        configuration.connections = self.connections
        let downloader = Downloader(configuration: configuration)
        var staged: StagedOutput?
        if self.output == "-" {
            do {
                staged = try StagedOutput.make()
            } catch {
                try? await downloader.shutdown()
                error.emit()
                throw error.status.code
            }
        }
        defer { staged?.remove() }
        var names = DownloadNames()
        var transfers: [TransferConsole.Transfer] = []
        for url in list {
            let fields: [HTTPHeaderField]
            do {
                fields = try self.request.fields(for: url)
            } catch {
                try? await downloader.shutdown()
                throw error
            }
            let name: String
            if let staged {
                name = staged.destination
            } else if let output {
                name = output
            } else {
                name = await downloader.suggestedFileName(for: url)
            }
            let path = self.directory.map { name.hasPrefix("/") ? name : ($0.hasSuffix("/") ? $0 : $0 + "/") + name } ?? name
            let label = staged == nil ? names.claim(path) : path
            let task = downloader.download(from: url, to: label, expectedSHA256: self.sha256, headers: fields)
            transfers.append(.init(task: task, url: url, label: staged == nil ? label : "<stdout>"))
        }
        var console = TransferConsole(quiet: self.transfer.quiet || self.transfer.json)
        console.staged = staged != nil
        let status = await console.run(transfers, json: self.transfer.json, interactive: self.parallel == 1 && !self.transfer.quiet)
        try? await downloader.shutdown()
        if status != 0 { throw ExitCode(status) }
        if let staged { try reportingDiagnostics { try staged.send() } }
    }
}

/// Drives tasks for the commands: progress output, Ctrl-C / SIGTERM as pause, final message,
/// exit status (0 completed, 1 failed, 130 / 143 paused by a signal).
struct TransferConsole {
    var quiet: Bool
    /// How to continue after a pause or failure; nil: "run the same command again".
    var continueHint: ((DownloadTask) -> String)? = nil
    /// `-o -`: the payload has standard output, so the final line goes to standard error, and
    /// nothing is kept to continue (``StagedOutput``).
    var staged = false

    /// One download of a run.
    struct Transfer: Sendable {
        var task: DownloadTask
        var url: HTTPURL?
        var label: String
    }

    func run(_ task: DownloadTask, label: String) async -> Int32 {
        await self.run([Transfer(task: task, url: task.url, label: label)], json: false, interactive: true)
    }

    /// Reports every transfer (JSON lines, or text: a redrawn bar on a terminal only when one
    /// download runs at a time), waits for all, and returns the worst exit status.
    func run(_ transfers: [Transfer], json: Bool, interactive: Bool) async -> Int32 {
        let signals = SignalPause(tasks: transfers.map(\.task))
        defer { signals.stop() }
        let terminal = interactive && isatty(STDERR_FILENO) == 1
        let quiet = self.quiet
        await withTaskGroup(of: Void.self) { group in
            for transfer in transfers {
                if json {
                    group.addTask { await TransferJSON(url: transfer.url, file: transfer.label).report(transfer.task) }
                } else if !quiet {
                    group.addTask { await DownloadReporter(interactive: terminal).report(transfer.task, label: transfer.label) }
                }
            }
        }
        var status: Int32 = 0
        for transfer in transfers {
            let state = await transfer.task.result()
            let code = self.finish(transfer.task, state: state, label: transfer.label, signal: signals.received)
            if code > status { status = code }
        }
        return status
    }

    func finish(_ task: DownloadTask, state: DownloadState, label: String, signal: Int32?) -> Int32 {
        // The label is a URL or a name taken from one; the error may quote the server's answer.
        let label = VisibleText.escaping(label)
        switch state {
        case .completed:
            switch task.existingFile {
            case nil: self.say("\(label): done")
            case .matchesChecksum: self.say("\(label) is already complete (its SHA-256 matches); nothing to do")
            case .finishedEarlier: self.say("\(label) is already complete (an earlier run finished it); nothing to do")
            case .unchecked: self.say("\(label) exists and was left as it is, unchecked; nothing downloaded")
            }
            return 0
        case .paused, .cancelled:
            Self.error("\(label): paused; " + (self.staged ? Self.nothingKept
                : "\(self.hint(task)) (resume data in \(VisibleText.escaping(task.resumeDataPath)))"))
            return signal.map { 128 + $0 } ?? 1
        case .failed(let error):
            var message = "\(label): error: \(VisibleText.escaping("\(error)"))"
            if self.staged {
                message += "\n\(label): \(Self.nothingKept)"
            } else if FileManager.default.fileExists(atPath: task.resumeDataPath) {
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

    private static let nothingKept = "nothing is kept with -o - (-o FILE makes a download that can be continued)"

    private func say(_ text: String) {
        if !self.quiet { StandardStream.write(text + "\n", to: self.staged ? STDERR_FILENO : STDOUT_FILENO) }
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
