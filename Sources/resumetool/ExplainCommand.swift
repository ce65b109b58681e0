import ArgumentParser
import Foundation
import ResumeDataCodec
import ResumeReports
import ResumeScan
import ResumeSystemCalls
import ResumeTransfer

/// `resumetool explain BLOB [--partial FILE | --tmp-dir DIR | --file FILE] [--probe] [--json]`
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Say whether a resume blob would continue, restart from zero or fail, and why.",
        discussion: """
            The verdict comes first, in one line: continue at byte N, restart from zero (why) or fail (why). Then each of Apple's conditions as a check: the request is a GET; the server sent an ETag or Last-Modified; the server supports byte ranges (from the stored response, or the server with --probe); the resource has not changed (--probe only); the temp file exists and is as long as the blob says (--partial, else the file the blob names in --tmp-dir, by default the blob's folder, as `resume` looks for it; not looked for when the blob comes from standard input). Then each reason, with the command that fixes it.

            With --probe the server is asked as `resume` would ask it (credentials only to the blob's origin, redirects bounded): a HEAD, then a one-byte range at the blob's offset with If-Range and the blob's headers.

            A Safari NAME.download bundle is explained as `resume NAME.download` would continue it: the resume data its Info.plist makes (URL, and the legacy layout's entity tag and Last-Modified) and the partial file in the bundle (or --partial).

            An upload blob (a device's, or upload's FILE.uploadresume) holds no offset: its checks are the keys URLSession reads (draft-version, resume-url, original-request, body), then file (--file FILE, the file to upload on this machine) and server. With --probe the draft's offset request (HEAD of the resume URL) is sent as `resume BLOB --file` sends it: the blob's headers, credentials only to its original request's origin, never over http for an upload begun over https, and nothing for a blob that fails on its own. The server's offset N is `continue at byte N of the file`; a 404 or 410 is `restart from zero` (resume creates the upload again and sends the whole file); another refusal or an answer that breaks the draft is `fail`; an upload already complete is said so.

            Example:
              resumetool explain app.resumedata --tmp-dir tmp --probe
              resumetool explain photo.uploadresume --probe --file photo.jpg

            \(ExitStatus.help(success: "continue", failure: "restart or fail", also: [.serverUnreachable]))  With 3 (--probe only) the verdict is the blob's alone.
            """
    )

    @Argument(help: "The resume blob, or a Safari NAME.download bundle; - reads standard input.", completion: .file())
    var blob: String

    @Option(help: "The partial file (default: the one the blob names, inside --tmp-dir).")
    var partial: String?

    @Option(name: .customLong("tmp-dir"), help: "The folder holding the blob's partial file (default: the blob's folder).")
    var tmpDirectory: String?

    @Flag(help: "Ask the server: a HEAD, then a one-byte range with If-Range; for an upload blob, its offset (a HEAD of the resume URL).")
    var probe = false

    @Flag(help: "Print the explanation as one JSON object.")
    var json = false

    @Option(help: ArgumentHelp("With --probe: trust the certificate authorities in this PEM file instead of the system's.", valueName: "FILE"))
    var cacert: String?

    @Flag(help: "With --probe: accept any server certificate.")
    var insecure = false

    @Option(help: ArgumentHelp("For an upload blob: the file to upload, on this machine (the blob names a file on the device).", valueName: "FILE"), completion: .file())
    var file: String?

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
        if blob != "-", SafariDownloadBundle.isBundle(blob) {
            return try await self.explainBundle()
        }
        let input: BlobFile
        do {
            switch try BlobFile.read(blob, options: reading.options) {
            case .download(let blob): input = blob
            case .upload(let name, _, let upload): return try await self.explainUpload(upload, name: name)
            }
        } catch let error as Diagnostic {
            error.emit()
            throw error.status.code
        }
        if self.file != nil {
            throw Diagnostic.usageError("--file is for upload blobs; \(input.input.displayName) is download resume data", command: "explain")
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

        try await self.explain(resume, blobSize: input.bytes.count, name: input.input.displayName, partialFile: partialFile)
    }

    /// Explains download resume data: the checks, with `--probe` the server's answers, the
    /// verdict, and the exit status that carries it.
    func explain(_ resume: ResumeData, blobSize: Int, name blob: String, partialFile: ResumeExplanation.PartialFile) async throws {
        var probed: Result<ResumeProbe, TransferError>?
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

        let explanation = ResumeExplanation(resume, blobSize: blobSize, partialFile: partialFile, probe: probed)
        let text = json ? ExplainReport.json(explanation, blob: blob) : ExplainReport.text(explanation, blob: blob)
        StandardStream.write(text, to: STDOUT_FILENO)
        if explanation.verdict != .continue { throw ExitStatus.failure.code }
        if explanation.serverUnreachable { throw ExitStatus.serverUnreachable.code }
    }

    /// The engine's options for the probe, parsed as `resume` parses them, so `--cacert` and
    /// `--insecure` are checked and warned about the same way.
    private func transferOptions() throws -> TransferOptions {
        try TransferOptions.parse(self.tlsArguments)
    }

    /// `--cacert FILE` and `--insecure`, as given.
    private var tlsArguments: [String] {
        (cacert.map { ["--cacert", $0] } ?? []) + (insecure ? ["--insecure"] : [])
    }

    // MARK: Upload blobs

    /// Explains an upload blob: URLSession's rules for its keys, with `--probe` the server's
    /// offset (the blob holds none), with `--file` the file to continue it with.
    private func explainUpload(_ upload: UploadResumeData, name: String) async throws {
        if let (option, _) = [("--partial", partial != nil), ("--tmp-dir", tmpDirectory != nil)].first(where: \.1) {
            throw Diagnostic.usageError("\(option) is for download blobs; \(name) is upload resume data", command: "explain")
        }
        let file = self.localFile(for: upload)
        var server = UploadExplanation.Server.notAsked
        if probe {
            server = try await self.askServer(upload, blobVerdict: UploadExplanation(upload, server: .notAsked, file: file).verdict)
        }
        let explanation = UploadExplanation(upload, server: server, file: file)
        let text = json ? ExplainReport.json(explanation, blob: name) : ExplainReport.text(explanation, blob: name)
        StandardStream.write(text, to: STDOUT_FILENO)
        if explanation.verdict != .continue { throw ExitStatus.failure.code }
        if explanation.serverUnreachable { throw ExitStatus.serverUnreachable.code }
    }

    /// Asks the server for its offset as `resume BLOB --file` asks it (``UploadContinuation``):
    /// the blob's draft version, its original request's headers, credentials only to that
    /// request's origin. Nothing is sent for a blob that fails on its own, or that cannot be
    /// continued.
    private func askServer(_ upload: UploadResumeData, blobVerdict: ResumeExplanation.Verdict) async throws -> UploadExplanation.Server {
        guard blobVerdict != .fail else { return .withheld("the blob fails without it") }
        let continuation: UploadContinuation
        do {
            continuation = try UploadContinuation(upload)
        } catch {
            return .withheld("\(error)")
        }
        let options = try self.transferOptions()
        let settings = UploadSettings(engine: options.engine, proxy: try options.proxies.settings(), quiet: true, verbose: false)
        return .asked(await ResumableUploader.probe(continuation, configuration: try settings.configuration()))
    }

    /// `--file` as found here, and what the blob's body says of it (a data body's bytes are
    /// read only when the sizes agree).
    private func localFile(for upload: UploadResumeData) -> UploadExplanation.LocalFile {
        guard let path = self.file else { return .notGiven }
        switch PartialFileResolution.entry(at: path) {
        case .missing:
            return .unusable(path: path, why: "it does not exist")
        case .other(let kind):
            return .unusable(path: path, why: "it is \(kind), not a regular file")
        case .regularFile(let size):
            // Read as every input is (one open, read-only, bounded), not through Foundation's
            // path helpers, which trap on some paths.
            do throws(Diagnostic) {
                let verdict = try upload.body.verdict(forFileOf: size) { () throws(Diagnostic) -> Data in try InputFile(path: path).read() }
                return .file(path: path, size: size, verdict: verdict)
            } catch {
                return .unusable(path: path, why: "cannot read it: \(error.message)")
            }
        }
    }
}
