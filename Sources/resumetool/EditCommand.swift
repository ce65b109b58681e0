import ArgumentParser
import ResumeDataCodec

/// `resumetool edit BLOB [--url URL] [--header 'K: V']... [--remove-header K]... [-o OUT]`
struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Give a resume blob a new URL or new request headers.",
        discussion: """
            For a signed URL that expired: the URL changes in NSURLSessionDownloadURL and in both archived requests, headers are set or removed in both requests; every other key (bytes received, temp file, validators…) stays as it was, and so do the container and the request archives' layout. When the new URL's origin (scheme, host, port) differs from the old one, Authorization, Cookie and Proxy-Authorization are dropped from the requests unless given again with --header (a note on standard error says which).

            Example:
              resumetool edit app.resumedata \\
                  --url 'https://cdn.example.com/big.dmg?sig=new' -o app.resumedata

            \(ExitStatus.help(success: "written", failure: "the output cannot be written")) Nothing is written unless the status is 0; a URL that is not http or https or a malformed header is a usage error.
            """
    )

    @Argument(help: "The resume blob; - reads standard input.", completion: .file())
    var blob: String

    @Option(help: "The new URL (http or https).")
    var url: String?

    @Option(name: .customLong("header"), help: "A request header to set, 'Name: value' (repeatable).")
    var headers: [String] = []

    @Option(name: .customLong("remove-header"), help: ArgumentHelp("A request header to remove (repeatable).", valueName: "name"))
    var removedHeaders: [String] = []

    @Option(name: .shortAndLong, help: "The output file (replaced atomically), or - for standard output (the default).")
    var output: String?

    @OptionGroup var reading: StrictReading

    func validate() throws {
        _ = try edit()
    }

    /// The library's edit for the options; every problem is a usage error.
    private func edit() throws -> ResumeDataEdit {
        guard url != nil || !headers.isEmpty || !removedHeaders.isEmpty else {
            throw ValidationError("give at least one of --url, --header and --remove-header")
        }
        var edit = ResumeDataEdit()
        if let url {
            do {
                edit.url = try HTTPURL(validating: url)
            } catch {
                throw ValidationError(HTTPURL.message(for: url, error))
            }
        }
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
        return edit
    }

    func run() throws {
        let edit = try edit()
        try reportingDiagnostics {
            let input = try BlobFile(blob, options: reading.options, command: "edit")
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
            if !result.droppedHeaders.isEmpty || result.droppedHiddenHeaderCopy {
                var dropped = result.droppedHeaders
                if result.droppedHiddenHeaderCopy { dropped.append("CFNetwork's hidden copy of the headers (__hhaa__)") }
                let origin = edit.url.map { " (\($0.origin))" } ?? ""
                Diagnostic(file: input.input.displayName, severity: .note,
                           message: "the new URL's origin\(origin) differs from the old one: dropped \(dropped.joined(separator: ", ")) from the requests; give them again with --header to keep them").emit()
            }
        }
    }
}
