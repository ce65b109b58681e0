import ArgumentParser
import ResumeDataCodec

/// `resumetool relocate BLOB (--temp-file NAME | --local-path PATH) [-o OUT]`
struct RelocateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relocate",
        abstract: "Point a resume blob at a moved partial file.",
        discussion: """
            After an app update the container path changes and the blob's LocalPath or TempFileName no longer names the partial file; this rewrites it. The container is kept.

            Example:
              resumetool relocate app.resumedata \\
                  --temp-file CFNetworkDownload_Occ2S2.tmp -o app.resumedata

            \(ExitStatus.help(success: "written", failure: "the output cannot be written")) A temp file name with a slash or a relative local path is a usage error.
            """
    )

    @Argument(help: "The resume blob; - reads standard input.", completion: .file())
    var blob: String

    @Option(name: .customLong("temp-file"), help: "The new bare temp file name (NSURLSessionResumeInfoTempFileName).")
    var tempFile: String?

    @Option(name: .customLong("local-path"), help: "The new absolute path (NSURLSessionResumeInfoLocalPath).")
    var localPath: String?

    @Option(name: .shortAndLong, help: "The output file (replaced atomically), or - for standard output (the default).")
    var output: String?

    func validate() throws {
        guard (tempFile == nil) != (localPath == nil) else {
            throw ValidationError("give exactly one of --temp-file and --local-path")
        }
    }

    @OptionGroup var reading: StrictReading

    func run() throws {
        try reportingDiagnostics {
            let input = try BlobFile(blob, options: reading.options, command: "relocate")
            input.emitWarnings()
            let moved: ResumeData
            do {
                if let tempFile {
                    moved = try input.resume.relocated(tempFileName: tempFile)
                } else {
                    moved = try input.resume.relocated(localPath: localPath ?? "")
                }
            } catch let error as ResumeDataError where error.code == .invalidArgument {
                // A bad --temp-file or --local-path is a usage error (exit 64), not bad input.
                throw Diagnostic.usageError(error.message, command: "relocate")
            } catch {
                throw Diagnostic(file: input.input.displayName, message: "\(error)")
            }
            try BlobFile.write(moved, as: moved.container, to: OutputFile(output))
            if localPath != nil, let name = moved.tempFileName {
                Diagnostic(file: input.input.displayName, severity: .warning,
                           message: "the blob also names the temp file \(name), which systems since iOS 9 look for first; use --temp-file to change it").emit()
            }
        }
    }
}
