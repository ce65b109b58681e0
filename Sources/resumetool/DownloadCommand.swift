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

    @Flag(help: "Replace a file already at the output once its download is complete (by default such a file is left as it is and nothing is downloaded).")
    var force = false

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
        configuration.replacesExistingFiles = self.force
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
            let path = self.directory.map { name.hasPrefix("/") ? name : BytePath($0).appending(name).text } ?? name
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
