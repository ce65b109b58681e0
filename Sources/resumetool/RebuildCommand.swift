import ArgumentParser
import Foundation
import ResumeDataCodec
import ResumeScan

/// `resumetool rebuild --from TMPFILE --url URL …`, or `--from-task DB --task ID --partial FILE`
struct RebuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Make a resume blob from a partial download file when none was saved.",
        discussion: """
            The file's size becomes the bytes received and the current request asks for `Range: bytes=<size>-`. Give --etag or --last-modified (the server's values): without one a device refuses to resume.

            Example:
              resumetool rebuild --from CFNetworkDownload_Occ2S2.tmp \\
                  --url https://example.com/big.dmg --etag '"afda885a"' \\
                  --format keyed-archive -o big.resumedata

            With --from-task, the URL, the request headers and the validators come from a task in nsurlsessiond's ledger (see `resumetool tasks`), and --partial names its partial file:
              resumetool rebuild --from-task tasks.sqlite --task 7 \\
                  --session com.example.player.background \\
                  --partial CFNetworkDownload_d8md6s.tmp -o episode.resumedata

            Exit status: 0 written, 1 the file or the ledger cannot be read, the task has no usable URL, or the output cannot be written, 64 usage error (a malformed --header, a URL that is not http or https, a task not in the ledger).
            """
    )

    @Option(name: .long, help: "The partial download file.")
    var from: String?

    @Option(name: .long, help: "The URL being downloaded (http or https).")
    var url: String?

    @Option(name: .customLong("from-task"), help: ArgumentHelp("nsurlsessiond's ledger (tasks.sqlite): take the URL, headers and validators from a task in it.", valueName: "DB"))
    var fromTask: String?

    @Option(name: .long, help: ArgumentHelp("With --from-task: the task identifier.", valueName: "ID"))
    var task: Int64?

    @Option(name: .long, help: ArgumentHelp("With --from-task: the task's session, when the identifier is in several.", valueName: "S"))
    var session: String?

    @Option(name: .long, help: ArgumentHelp("With --from-task: the task's partial download file.", valueName: "FILE"))
    var partial: String?

    @Option(name: .long, help: "The server's ETag, quotes included.")
    var etag: String?

    @Option(name: .customLong("last-modified"), help: "The server's Last-Modified date.")
    var lastModified: String?

    @Option(name: .customLong("header"), help: "An extra request header, 'Name: value' (repeatable).")
    var headers: [String] = []

    @Option(name: .long, help: "The container: xml (iOS ≤ 11), keyed-archive (iOS 12+, the default), binary, keyed-archive-xml.")
    var format: ResumeDataContainer = .keyedArchive

    @Flag(name: .customLong("local-path"), help: "Name the partial file by its absolute path (LocalPath) instead of its bare name.")
    var useLocalPath = false

    @Option(name: .shortAndLong, help: "The output file (replaced atomically), or - for standard output (the default).")
    var output: String?

    func validate() throws {
        if fromTask != nil {
            for (given, name) in [(from != nil, "--from"), (url != nil, "--url"), (etag != nil, "--etag"), (lastModified != nil, "--last-modified")] where given {
                throw ValidationError("\(name) cannot be used with --from-task, which takes it from the ledger")
            }
            guard task != nil else { throw ValidationError("Missing expected argument '--task <ID>' (--from-task needs it)") }
            guard partial != nil else { throw ValidationError("Missing expected argument '--partial <FILE>' (--from-task needs it)") }
        } else {
            for (given, name) in [(task != nil, "--task"), (session != nil, "--session"), (partial != nil, "--partial")] where given {
                throw ValidationError("\(name) needs --from-task")
            }
            guard from != nil else { throw ValidationError("Missing expected argument '--from <from>'") }
            guard url != nil else { throw ValidationError("Missing expected argument '--url <url>'") }
        }
        guard !format.isNetworkFramework else {
            // That format keeps its validator only in an archived response, which a partial file cannot tell.
            throw ValidationError("--format \(format) is not a container rebuild writes: use xml, binary, keyed-archive or keyed-archive-xml")
        }
        _ = try parsedHeaders()
    }

    /// The `--header` options through the codec's one rule, as `edit` and `download` check them;
    /// every problem is a usage error.
    private func parsedHeaders() throws -> [HTTPHeaderField] {
        try headers.map { header in
            do {
                return try HTTPHeaderField(parsing: header)
            } catch {
                throw ValidationError("--header: \(error)")
            }
        }
    }

    func run() throws {
        let parsedHeaders = try parsedHeaders()
        if let fromTask {
            try runFromTask(fromTask, headers: parsedHeaders)
            return
        }
        let from = self.from ?? ""
        try reportingDiagnostics {
            let rebuilder = ResumeDataRebuilder(url: url ?? "", entityTag: etag, lastModified: lastModified,
                                                headers: parsedHeaders, container: format, useLocalPath: useLocalPath)
            try write(rebuilder, from: from)
        }
    }

    /// `--from-task`: the ledger's task makes the rebuilder; the partial file is --partial.
    private func runFromTask(_ database: String, headers: [HTTPHeaderField]) throws {
        let identifier = task ?? 0
        let partial = self.partial ?? ""
        let chosen: LedgerTask
        do {
            let ledger: TaskLedger
            do {
                ledger = try TaskLedger.read(path: database)
            } catch let error as EvidenceDatabaseError {
                Diagnostic(file: error.path, message: error.message).emit()
                throw ExitCode.failure
            }
            chosen = try ledger.task(identifier: identifier, session: session)
        } catch let failure as TaskLedger.LookUpFailure {
            if case .unreadable = failure {
                Diagnostic(file: database, message: failure.description).emit()
                throw ExitCode.failure
            }
            throw Diagnostic.usageError("\(database): \(failure)", command: "rebuild")
        }
        try reportingDiagnostics {
            let rebuilder: ResumeDataRebuilder
            do {
                rebuilder = try chosen.rebuilder(container: format, useLocalPath: useLocalPath, extraHeaders: headers)
            } catch {
                throw Diagnostic(file: database, message: "\(error)")
            }
            let resume = try write(rebuilder, from: partial)
            // What the ledger says beside what the file holds, and a blob no device will take:
            // both are worth saying, neither stops the blob being written.
            if let received = chosen.bytesReceived, let size = resume.bytesReceived, received != size {
                Diagnostic(file: partial, severity: .note,
                           message: "the file holds \(size) bytes; the ledger says \(received) were received").emit()
            }
            for finding in ResumeDataValidator().findings(for: resume) where finding.code == .missingValidator {
                Diagnostic(file: database, severity: .warning,
                           message: "task \(chosen.identifier) of session \(chosen.sessionID): \(finding.message)").emit()
            }
        }
    }

    /// Rebuilds from the partial file and writes the blob.
    @discardableResult
    private func write(_ rebuilder: ResumeDataRebuilder, from: String) throws -> ResumeData {
        let resume: ResumeData
        do {
            resume = try rebuilder.rebuild(fromPartialFile: from)
        } catch let error as ResumeDataError where error.code == .partialFile {
            // The library's message starts with the path; the diagnostic already names the file.
            var message = error.message
            for prefix in [from + ": ", from + " "] where message.hasPrefix(prefix) {
                message = String(message.dropFirst(prefix.count))
                break
            }
            throw Diagnostic(file: from, message: message)
        } catch let error as ResumeDataError where error.code == .invalidArgument {
            // A bad --url is a usage error (exit 64), like a malformed --header.
            throw Diagnostic.usageError(error.message, command: "rebuild")
        } catch {
            throw Diagnostic(file: "resumetool rebuild", message: "\(error)")
        }
        try BlobFile.write(resume, as: format, to: OutputFile(output))
        return resume
    }
}
