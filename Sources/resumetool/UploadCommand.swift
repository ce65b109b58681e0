import ArgumentParser
import Foundation
import ResumeDataCodec
import ResumeReports
import ResumeTransfer

/// `resumetool upload FILE URL [-H 'K: V']... [--draft N] [--limit-rate R] [--retries N] [-v]`
struct UploadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Upload a file resumably (draft-ietf-httpbis-resumable-upload); running the same command again continues.",
        discussion: """
            Creates the upload with the whole file (POST, or --method PUT) and the draft's fields for --draft (interop version 3, 5 or 6 as Apple's systems speak it, 7 or 8 as the latest drafts; default 6). When the server answers 104 with a resume URL, an Apple-format upload blob is written beside the file as FILE.uploadresume, with the file's identity (size, modification time, inode, SHA-256 of its first and last MiB) as FILE.uploadresume.identity; where the file's folder is not writable, both go to --state-dir DIR, else to $XDG_STATE_HOME/resumetool/uploads/ (default ~/.local/state/…), named by the file's device and inode so that the same command finds them again. After an interruption, in this run or a later one (even after kill -9), the server is asked how much it has (HEAD) and the rest is appended (PATCH) from there; a file that changed since is refused. Both records are removed once the server has the whole file. Authorization, Cookie and Proxy-Authorization headers go only to the origin of URL, never to a resume URL elsewhere, and are never written to the blob (give them again with -H when continuing). A resume URL from https to http is refused. With - as FILE, standard input is copied whole to a private folder under TMPDIR first and uploaded from there (resuming within the run after a dropped connection); the folder is removed at the end, so a killed run cannot be continued. --proxy, --noproxy and the environment's proxies apply as for downloads: an http proxy carries the upload through a CONNECT tunnel, a socks5 proxy through SOCKS5.

            The blob's first 8 bytes are not masked: Apple's constant is unknown, so the blob is a plain bplist00 keyed archive (inspect, validate and plutil read it; validate notes it as unmasked).

            Example:
              resumetool upload video.mov https://uploads.example.com/files \\
                  -H 'Authorization: Bearer TOKEN'
              resumetool upload video.mov https://uploads.example.com/files \\
                  -H 'Authorization: Bearer TOKEN'   # continues
              resumetool upload big.iso http://127.0.0.1:8080/upload \\
                  --draft 3 --limit-rate 2M -v

            \(ExitStatus.help(success: "uploaded (the server confirmed the whole file)", failure: "failed, or the file changed since the upload started (the checkpoint is kept when the upload can be continued)")) Ctrl-C stops the upload; run the same command again to continue.
            """
    )

    @Argument(help: "The file to upload; - for standard input (copied first, so that the upload can resume within the run).")
    var file: String

    @Argument(help: "The http or https URL that creates the upload.")
    var url: String

    @Option(help: "The interop version of the draft to speak (3, 5, 6, 7 or 8).")
    var draft: UploadDraftVersion = UploadDraftVersion("6") ?? Self.versionThree

    @Option(help: "The method that creates the upload: POST or PUT.")
    var method = "POST"

    @OptionGroup var request: RequestOptions

    @OptionGroup var options: UploadOptions

    private static var versionThree: UploadDraftVersion {
        guard let version = UploadDraftVersion("3") else { preconditionFailure("interop version 3 is known") }
        return version
    }

    func validate() throws {
        if HTTPURL(self.url) == nil { throw ValidationError("\(self.url) is not an absolute http or https URL") }
        if !["POST", "PUT"].contains(self.method) { throw ValidationError("--method must be POST or PUT") }
    }

    func run() async throws {
        let url = try HTTPURL(validating: self.url)
        let headers = try self.request.fields(for: url)
        let settings = try self.options.settings()
        let configuration = try settings.configuration(draft: self.draft, method: self.method, headers: headers)
        guard self.file == "-" else {
            let checkpoint = try UploadRunner.checkpoint(for: self.file, stateDirectory: self.options.stateDirectory, quiet: settings.quiet)
            let job = UploadJob(file: self.file, url: url, configuration: configuration, checkpoint: checkpoint)
            try await UploadRunner.run(
                job, settings: settings, continueHint: "the same command again",
                startOverHint: "remove \(ShellWord.quoted(checkpoint.blobPath)) and \(ShellWord.quoted(checkpoint.identityPath)), then run the same command again")
            return
        }
        let staged: StagedInput
        do {
            staged = try StagedInput.make()
        } catch {
            error.emit()
            throw error.status.code
        }
        defer { staged.remove() }
        let job = UploadJob(file: staged.path, url: url, configuration: configuration, checkpoint: .beside(file: staged.path))
        try await UploadRunner.run(job, settings: settings, label: "<stdin>", continueHint: nil)
    }
}
