import Foundation
import ResumeSystemCalls
import ResumeDataCodec
import ResumeReports
import ArgumentParser
import ResumeTransfer
import ResumeScan

/// `resumetool resume BLOB [--partial FILE] [-o FILE]`, or `resumetool resume UPLOADBLOB --file FILE`
struct ResumeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract: "Finish a download from a resume blob (ours or an Apple device's) and its partial file, or an upload from an upload blob.",
        discussion: """
            Continues with the blob's current request (Range and If-Range from its validators) and writes the finished file atomically. -H, --user-agent, -u and --netrc add to the blob's headers (replacing one of the same name), sent like them only to the blob's origin; -o - copies the finished file to standard output. The partial file and the blob given are inputs, left byte for byte as they were (they may be evidence, or an app's): the bytes the blob counts are copied to OUTPUT.part (a reflink where the file system allows) once the server agrees to continue after them (never when it sends another file or the whole file again), and the download goes on there, checkpointed as OUTPUT.resume, which is removed once the file is complete.

            Example:
              resumetool resume app.resumedata \\
                  --partial CFNetworkDownload_Occ2S2.tmp -o Example.dmg
              resumetool resume app.resumedata -H 'Authorization: Bearer NEW' -o - | tar x
              resumetool resume Library/Caches/app.resumedata --tmp-dir tmp -o Example.dmg
              resumetool resume app.resumedata --proxy http://proxy.lan:3128 \\
                  --limit-rate 2M --json

            A Safari NAME.download bundle is resumed from its Info.plist's URL and the partial file in it (left as it was; without -o the file is saved as NAME); with no validator, the partial file's last bytes are proved against the server's before anything is appended.

            An upload blob (a device's, or upload's FILE.uploadresume) is continued with --file FILE: the server is asked how much it has at the blob's resume URL (HEAD) and the rest of FILE is appended (PATCH), in the blob's draft version; the blob's original request gives the URL to create the upload at again if the server forgot it, its method and its headers (-H adds to them); a blob without one (nsurlsessiond's copy) goes on only while the server has the upload. With BLOB.identity beside it (upload writes one) a file that changed is refused; a device's blob has none: a data upload's body must be FILE's very bytes and a stream's recorded length its size, and for a file body a warning says the file cannot be checked. A blob other than FILE.uploadresume is an input, left as it was: the upload is recorded as FILE.uploadresume from the start, as upload does. --retries, --limit-rate, --stall-timeout, --cacert, --insecure, --quiet and -v apply; the download-only options are refused.
              resumetool resume photo.jpg.uploadresume --file photo.jpg \\
                  -H 'Authorization: Bearer TOKEN'

            The blob is not trusted to name files: its partial file (TempFileName, else LocalPath) is used only when it lies directly inside --tmp-dir, and is never followed through a symbolic link.

            \(ExitStatus.help(success: "downloaded", failure: "failed (the partial file and blob are kept when they are valid)", also: [.interrupted, .terminated])) A download stopped by a signal is paused: run again to continue.
            """
    )

    @Argument(help: "The resume blob.")
    var blob: String

    @Option(help: "The partial file (default: the one the blob names, inside --tmp-dir).")
    var partial: String?

    @Option(name: .customLong("tmp-dir"), help: "The folder the blob's partial file must be in (default: the blob's folder); a path the blob names outside it is ignored.")
    var tmpDirectory: String?

    @Option(name: .shortAndLong, help: "Where to save (default: BLOB without .resume, else the URL's file name); - for standard output.")
    var output: String?

    @Option(help: "Expected SHA-256 of the file, in hex.")
    var sha256: String?

    @Option(help: "For an upload blob: the file to upload (the blob names a file on the device that made it).")
    var file: String?

    @Option(name: .customLong("state-dir"), help: ArgumentHelp("For an upload blob: keep the checkpoint in DIR (by default beside FILE, or where its folder is not writable in $XDG_STATE_HOME/resumetool/uploads/).", valueName: "DIR"))
    var stateDirectory: String?

    @Flag(name: .customLong("consume-partial"), help: "Append to the partial file itself and rename it to the output (it must be writable and on the output's file system); by default its bytes are copied and it is left as it was.")
    var consumePartial = false

    @Flag(help: "Replace a file already at the output once the download is complete (by default the run stops before any request, leaving it as it is). The blob and partial file are never replaced.")
    var force = false

    @OptionGroup var request: RequestOptions

    @OptionGroup var transfer: TransferOptions

    func validate() throws {
        if let sha256, SHA256Hex(sha256) == nil {
            throw ValidationError("--sha256 needs 64 hex digits")
        }
        if self.output == "-" {
            if self.transfer.json { throw ValidationError("-o - and --json cannot be used together: both print on standard output") }
            if self.consumePartial { throw ValidationError("-o - and --consume-partial cannot be used together: the partial file would be renamed into a folder that is then removed") }
        }
    }

    func run() async throws {
        // A blob that cannot be read is exit status 2, as in every command; the library's error
        // does not tell it from a failure of the output or the partial file.
        var origin: HTTPURL?
        // A Safari bundle: resume data made from its Info.plist, its partial file inside it.
        var bundle: (blob: Data, partialFile: String, name: String)?
        if self.blob != "-", SafariDownloadBundle.isBundle(self.blob) {
            do throws(Diagnostic) {
                let read = try InspectCommand.readBundle(self.blob)
                let made: (blob: Data, partialFile: String)
                do { made = try read.resumeData() } catch { throw Diagnostic(file: self.blob, message: error.description) }
                bundle = (made.blob, made.partialFile, String(BytePath(self.blob).lastName.text.dropLast(".download".count)))
                origin = read.info.url.flatMap(HTTPURL.init)
            } catch {
                // A bundle that cannot be resumed from is an unreadable input, as a blob is.
                error.emit()
                throw ExitStatus.unreadableInput.code
            }
        } else if self.blob != "-" {
            do {
                if case .upload(_, _, let upload) = try BlobFile.read(self.blob) {
                    return try await self.continueUpload(upload)
                }
                for (name, given) in [("--file", self.file != nil), ("--state-dir", self.stateDirectory != nil)] where given {
                    throw Diagnostic.usageError("\(name) is for upload blobs; \(self.blob) is download resume data", command: "resume")
                }
                let resume = try BlobFile(self.blob, command: "resume").resume
                // The host a --netrc login is looked up for: where the download started, as the
                // engine, which sends the login only there, takes it.
                origin = ResumeCheckpoint.startURL(of: resume)
            } catch let error as Diagnostic {
                error.emit()
                throw error.status.code
            }
        }
        let headers = try self.request.fields(for: origin)
        var staged: StagedOutput?
        if self.output == "-" {
            do {
                staged = try StagedOutput.make()
            } catch {
                error.emit()
                throw error.status.code
            }
        }
        defer { staged?.remove() }
        var configuration = try self.transfer.configuration(parallel: 1)
        configuration.replacesExistingFiles = self.force
        let downloader = Downloader(configuration: configuration)
        let task: DownloadTask
        do {
            if let bundle {
                task = try downloader.resume(
                    resumeData: bundle.blob, partialFile: self.partial ?? bundle.partialFile, to: staged?.destination ?? self.output ?? bundle.name,
                    expectedSHA256: self.sha256, consumingPartialFile: self.consumePartial, headers: headers,
                    inputs: [self.blob + "/Info.plist"])
            } else {
                task = try downloader.resume(
                    blobAt: self.blob, partialFile: self.partial, tmpDirectory: self.tmpDirectory, to: staged?.destination ?? self.output,
                    expectedSHA256: self.sha256, consumingPartialFile: self.consumePartial, headers: headers)
            }
        } catch {
            TransferConsole.error("\(self.blob): error: \(error)")
            try? await downloader.shutdown()
            throw ExitCode(1)
        }
        var console = TransferConsole(quiet: self.transfer.quiet || self.transfer.json)
        console.staged = staged != nil
        if staged == nil, task.resumeDataPath != self.blob {
            // The new blob is trusted only with a partial file beside it; name one kept elsewhere.
            let besideBlob = Self.folder(of: task.partialPath) == Self.folder(of: task.resumeDataPath)
            console.continueHint = { task in
                "continue with: resumetool resume '\(task.resumeDataPath)'" + (besideBlob ? "" : " --partial '\(task.partialPath)'")
            }
        }
        let status = await console.run([.init(task: task, url: task.url, label: staged == nil ? task.destination : "<stdout>")],
                                       json: self.transfer.json, interactive: !self.transfer.quiet)
        try? await downloader.shutdown()
        if status != 0 { throw ExitCode(status) }
        if let staged { try reportingDiagnostics { try staged.send() } }
    }

    /// Continues an upload blob (a device's or `upload`'s) at its resume URL with `--file`: the
    /// blob's original request gives the URL, method and headers (-H adds to them, replacing one
    /// of the same name; ``UploadContinuation``); the blob is checkpointed beside the file, with
    /// its identity record.
    private func continueUpload(_ upload: UploadResumeData) async throws {
        guard let file = self.file else {
            throw Diagnostic.usageError("\(self.blob) is upload resume data: give the file to upload with --file FILE", command: "resume")
        }
        let downloadOnly: [(String, Bool)] = [
            ("--partial", self.partial != nil), ("-o", self.output != nil), ("--sha256", self.sha256 != nil),
            ("--consume-partial", self.consumePartial), ("--tmp-dir", self.tmpDirectory != nil), ("--json", self.transfer.json),
            ("--force", self.force),
        ]
        if let (name, _) = downloadOnly.first(where: \.1) {
            throw Diagnostic.usageError("\(name) is for download blobs; \(self.blob) is upload resume data", command: "resume")
        }
        let continuation: UploadContinuation
        do {
            continuation = try UploadContinuation(upload)
        } catch {
            // A blob read whole that URLSession would refuse (the one judgement: validate says
            // error, explain fail) is a failure; one whose keys cannot be read, an unreadable input.
            let diagnostic = Diagnostic(file: self.blob, message: "\(error)")
            if case .refused = error {
                diagnostic.emit()
                throw ExitStatus.failure.code
            }
            diagnostic.unreadableInput.emit()
            throw ExitStatus.unreadableInput.code
        }
        let given = try self.request.fields(for: continuation.origin)
        let settings = UploadSettings(
            engine: self.transfer.engine, proxy: try self.transfer.proxies.settings(), quiet: self.transfer.quiet, verbose: self.transfer.verbose)
        let configuration = try settings.configuration()
        let checkpoint = try UploadRunner.checkpoint(for: file, stateDirectory: self.stateDirectory, quiet: settings.quiet)
        let job = UploadJob(file: file, continuing: upload, as: continuation, given: given, configuration: configuration,
                            checkpoint: checkpoint, input: UploadCheckpoint(blobPath: self.blob))
        // A new upload needs the URL that creates it: the blob's original request, when it has one.
        let startOver = continuation.creationURL.map { "resumetool upload \(ShellWord.quoted(file)) \(ShellWord.quoted($0.string))" }
        try await UploadRunner.run(
            job, settings: settings, continueHint: "resumetool resume \(ShellWord.quoted(checkpoint.blobPath)) --file \(ShellWord.quoted(file))",
            startOverHint: startOver)
    }

    private static func folder(of path: String) -> String {
        BytePath(path).folder.absolute.text
    }
}
