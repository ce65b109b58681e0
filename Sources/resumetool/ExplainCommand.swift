import ArgumentParser
import Foundation
import ResumeDataCodec
import ResumeReports
import ResumeSystemCalls
import ResumeTransfer

/// `resumetool explain BLOB [--partial FILE | --tmp-dir DIR] [--probe] [--json]`
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Say whether a resume blob would continue, restart from zero or fail, and why.",
        discussion: """
            The verdict comes first, in one line: continue at byte N, restart from zero (why) or fail (why). Then each of Apple's conditions as a check: the request is a GET; the server sent an ETag or Last-Modified; the server supports byte ranges (from the stored response, or the server with --probe); the resource has not changed (--probe only); the temp file exists and is as long as the blob says (--partial, else the file the blob names in --tmp-dir, by default the blob's folder, as `resume` looks for it; not looked for when the blob comes from standard input). Then each reason, with the command that fixes it.

            With --probe the server is asked as `resume` would ask it (credentials only to the blob's origin, redirects bounded): a HEAD, then a one-byte range at the blob's offset with If-Range and the blob's headers.

            Example:
              resumetool explain app.resumedata --tmp-dir tmp --probe

            \(ExitStatus.help(success: "continue", failure: "restart or fail", also: [.serverUnreachable]))  With 3 (--probe only) the verdict is the blob's alone.
            """
    )

    @Argument(help: "The resume blob; - reads standard input.", completion: .file())
    var blob: String

    @Option(help: "The partial file (default: the one the blob names, inside --tmp-dir).")
    var partial: String?

    @Option(name: .customLong("tmp-dir"), help: "The folder holding the blob's partial file (default: the blob's folder).")
    var tmpDirectory: String?

    @Flag(help: "Ask the server: a HEAD, then a one-byte range with If-Range.")
    var probe = false

    @Flag(help: "Print the explanation as one JSON object.")
    var json = false

    @Option(help: ArgumentHelp("With --probe: trust the certificate authorities in this PEM file instead of the system's.", valueName: "FILE"))
    var cacert: String?

    @Flag(help: "With --probe: accept any server certificate.")
    var insecure = false

    @OptionGroup var reading: StrictReading

    func validate() throws {
        if partial != nil, tmpDirectory != nil {
            throw ValidationError("give at most one of --partial and --tmp-dir")
        }
        if let tmpDirectory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: tmpDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--tmp-dir \(tmpDirectory) is not a folder")
            }
        }
        if !probe, cacert != nil || insecure {
            throw ValidationError("--cacert and --insecure only go with --probe")
        }
    }

    func run() async throws {
        let input: BlobFile
        do {
            input = try BlobFile(blob, options: reading.options, command: "explain")
        } catch {
            error.emit()
            throw error.status.code
        }
        input.emitWarnings()
        let resume = input.resume
        let partialFile: ResumeExplanation.PartialFile
        if let partial {
            let path = partial
            switch PartialFileResolution.entry(at: path) {
            case .regularFile(let size): partialFile = .looked(.file(path: path, size: size, key: "--partial"))
            case .missing: partialFile = .looked(.missing(expected: (path, "--partial")))
            case .other(let kind): partialFile = .looked(.refused(path: path, key: "--partial", reason: "it is \(kind), not a regular file"))
            }
        } else if tmpDirectory != nil || blob != "-" {
            // Where `resume` would look: --tmp-dir, else beside the blob.
            let folder = PartialFileResolution.lookupFolder(given: tmpDirectory, besideBlobAt: blob)
            partialFile = .looked(PartialFileResolution(resume: resume, folder: folder).resolve(PartialFileResolution.entry(at:)))
        } else {
            partialFile = .notLooked
        }

        var probed: Result<ResumeProbe, DownloadError>?
        if probe {
            var offset = resume.container.isNetworkFramework ? nil : resume.bytesReceived
            if case .looked(.file(_, let size, _)) = partialFile, offset == nil { offset = size }
            let downloader = Downloader(configuration: try self.transferOptions().configuration(parallel: 1))
            do {
                probed = .success(try await downloader.probe(resume, offset: offset ?? 0))
            } catch {
                probed = .failure(error)
            }
            try? await downloader.shutdown()
        }

        let explanation = ResumeExplanation(resume, blobSize: input.bytes.count, partialFile: partialFile, probe: probed)
        let blob = input.input.displayName
        let text = json ? ExplainReport.json(explanation, blob: blob) : ExplainReport.text(explanation, blob: blob)
        StandardStream.write(text, to: STDOUT_FILENO)
        if explanation.verdict != .continue { throw ExitStatus.failure.code }
        if explanation.serverUnreachable { throw ExitStatus.serverUnreachable.code }
    }

    /// The engine's options for the probe, parsed as `resume` parses them, so `--cacert` and
    /// `--insecure` are checked and warned about the same way.
    private func transferOptions() throws -> TransferOptions {
        var arguments: [String] = []
        if let cacert { arguments += ["--cacert", cacert] }
        if insecure { arguments.append("--insecure") }
        return try TransferOptions.parse(arguments)
    }
}
