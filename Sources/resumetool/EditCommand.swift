import ArgumentParser
import ResumeDataCodec
import ResumeSystemCalls

/// `resumetool edit BLOB [--url URL] [--header 'K: V']... [--remove-header K]... [--request-url URL] [--upload-file PATH] [-o OUT]`
struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Give a resume blob a new URL or new request headers.",
        discussion: """
            For a signed URL that expired: the URL changes in NSURLSessionDownloadURL and in both archived requests, headers are set or removed in both requests; every other key (bytes received, temp file, validators…) stays as it was, and so do the container and the request archives' layout. When the new URL's origin (scheme, host, port) differs from the old one, Authorization, Cookie and Proxy-Authorization are dropped from the requests unless given again with --header (a note on standard error says which).

            An upload blob (a URLSession upload task's): --url is where the upload continues (resumeURL), --header and --remove-header change the request that created the upload, --request-url that request's URL (moved to another origin, it loses its credentials as above), and --upload-file the file of a file body (a relative path is taken from the current folder). The blob keeps its first 8 bytes' mask and every other key in its place, so a device that wrote it reads it again. nsurlsessiond's own copy has no request: a header or request URL for it is an error.

            Example:
              resumetool edit app.resumedata \\
                  --url 'https://cdn.example.com/big.dmg?sig=new' -o app.resumedata
              resumetool edit photo.uploadresume \\
                  --header 'Authorization: Bearer new-token' -o photo.uploadresume

            \(ExitStatus.help(success: "written", failure: "the blob cannot take the edit (an upload blob without a request, a body that is not a file), or the output cannot be written")) Nothing is written unless the status is 0; a URL that is not http or https, a malformed header, or --request-url or --upload-file for a download blob is a usage error.
            """
    )

    @Argument(help: "The resume blob; - reads standard input.", completion: .file())
    var blob: String

    @Option(help: "The new URL (http or https); for an upload blob, where the upload continues.")
    var url: String?

    @Option(name: .customLong("header"), help: "A request header to set, 'Name: value' (repeatable).")
    var headers: [String] = []

    @Option(name: .customLong("remove-header"), help: ArgumentHelp("A request header to remove (repeatable).", valueName: "name"))
    var removedHeaders: [String] = []

    @Option(name: .customLong("request-url"), help: ArgumentHelp("Upload blobs: the new URL of the request that created the upload (http or https).", valueName: "url"))
    var requestURL: String?

    @Option(name: .customLong("upload-file"), help: ArgumentHelp("Upload blobs with a file body: the file to upload.", valueName: "path"), completion: .file())
    var uploadFile: String?

    @Option(name: .shortAndLong, help: "The output file (replaced atomically), or - for standard output (the default).")
    var output: String?

    @OptionGroup var reading: StrictReading

    func validate() throws {
        _ = try edit()
    }

    /// The options as one checked value; every problem is a usage error.
    private func edit() throws -> UploadResumeDataEdit {
        guard url != nil || !headers.isEmpty || !removedHeaders.isEmpty || requestURL != nil || uploadFile != nil else {
            throw ValidationError("give at least one of --url, --header, --remove-header, --request-url and --upload-file")
        }
        var edit = UploadResumeDataEdit()
        edit.resumeURL = try url.map { try Self.httpURL($0) }
        edit.requestURL = try requestURL.map { try Self.httpURL($0, option: "--request-url") }
        for header in headers {
            do {
                edit.settingHeaders.append(try HTTPHeaderField(parsing: header))
            } catch {
                throw ValidationError("--header: \(error)")
            }
        }
        for name in removedHeaders {
            do {
                try HTTPHeaderField.checkName(name)
            } catch {
                throw ValidationError("--remove-header: \(error)")
            }
        }
        edit.removingHeaders = removedHeaders
        if let uploadFile {
            guard !uploadFile.isEmpty else { throw ValidationError("--upload-file: the path is empty") }
            // The blob needs an absolute path; a relative one means the current folder's file.
            // BytePath, not Foundation's URL: its path helpers trap on some inputs.
            edit.uploadFile = BytePath(uploadFile).absolute.text
        }
        return edit
    }

    private static func httpURL(_ text: String, option: String? = nil) throws -> HTTPURL {
        do {
            return try HTTPURL(validating: text)
        } catch {
            throw ValidationError((option.map { "\($0): " } ?? "") + HTTPURL.message(for: text, error))
        }
    }

    func run() throws {
        let edit = try edit()
        try reportingDiagnostics {
            switch try BlobFile.read(blob, options: reading.options) {
            case .download(let input):
                try editDownload(input, edit)
            case .upload(let name, _, let upload):
                try editUpload(upload, name: name, edit)
            }
        }
    }

    private func editDownload(_ input: BlobFile, _ upload: UploadResumeDataEdit) throws {
        guard upload.requestURL == nil, upload.uploadFile == nil else {
            let options = [upload.requestURL.map { _ in "--request-url" }, upload.uploadFile.map { _ in "--upload-file" }].compactMap(\.self)
            throw Diagnostic.usageError("\(options.joined(separator: " and ")) \(options.count == 1 ? "is" : "are") for upload blobs; \(input.input.displayName) is download resume data", command: "edit")
        }
        let edit = ResumeDataEdit(url: upload.resumeURL, settingHeaders: upload.settingHeaders, removingHeaders: upload.removingHeaders)
        input.emitWarnings()
        let result: ResumeDataEdit.Result
        do {
            result = try input.resume.edited(edit)
        } catch let error as ResumeDataError where error.code == .invalidArgument {
            throw Diagnostic.usageError(error.message, command: "edit")
        } catch {
            throw Diagnostic(file: input.input.displayName, message: "\(error)")
        }
        try BlobFile.write(result.resume, as: result.resume.container, to: OutputFile(output))
        if let dropped = Self.dropped(result.droppedHeaders, hiddenCopy: result.droppedHiddenHeaderCopy) {
            let origin = edit.url.map { " (\($0.origin))" } ?? ""
            Diagnostic(file: input.input.displayName, severity: .note,
                       message: "the new URL's origin\(origin) differs from the old one: dropped \(dropped) from the requests; give them again with --header to keep them").emit()
        }
    }

    private func editUpload(_ upload: UploadResumeData, name: String, _ edit: UploadResumeDataEdit) throws {
        let result: UploadResumeDataEdit.Result
        do {
            result = try upload.edited(edit)
        } catch let error as ResumeDataError where error.code == .invalidArgument {
            throw Diagnostic.usageError(error.message, command: "edit")
        } catch {
            throw Diagnostic(file: name, message: "\(error)")
        }
        try BlobFile.write(result.upload, format: .binary, mask: result.upload.mask, to: OutputFile(output))
        if let dropped = Self.dropped(result.droppedHeaders, hiddenCopy: result.droppedHiddenHeaderCopy) {
            let origin = edit.requestURL.map { " (\($0.origin))" } ?? ""
            Diagnostic(file: name, severity: .note,
                       message: "the request URL's new origin\(origin) differs from the old one: dropped \(dropped) from the original request; give them again with --header to keep them").emit()
        }
    }

    /// What an edit dropped for another origin, as the note lists it; nil when nothing was.
    private static func dropped(_ headers: [String], hiddenCopy: Bool) -> String? {
        let names = headers + (hiddenCopy ? ["CFNetwork's hidden copy of the headers (__hhaa__)"] : [])
        return names.isEmpty ? nil : names.joined(separator: ", ")
    }
}
