import ArgumentParser
import Foundation
import ResumeDataCodec
import ResumeScan
import ResumeTransfer

/// `resumetool rebuild --partial TMPFILE --url URL …`, or `--from-task DB --task ID --partial FILE`
struct RebuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Make a resume blob from a partial download file when none was saved.",
        discussion: """
            The file's size becomes the bytes received and the current request asks for `Range: bytes=<size>-`. Give --etag or --last-modified (the server's values when the partial file was downloaded): without one a device restarts from zero. Given neither, rebuild asks the server with a HEAD (the blob's headers, under the same trust policy as `resume`) and takes its ETag and Last-Modified, which vouch for the partial file only if the file has not changed since; --offline asks nothing. Either way a blob without a validator is written with a warning.

            Example:
              resumetool rebuild --partial CFNetworkDownload_Occ2S2.tmp \\
                  --url https://example.com/big.dmg --etag '"afda885a"' \\
                  --to keyed-archive -o big.resumedata

            With --from-task, the URL, the request headers and the validators come from a task in nsurlsessiond's ledger, tasks.sqlite or the older tasks.plist (see `resumetool tasks`):
              resumetool rebuild --from-task tasks.sqlite --task 7 \\
                  --session com.example.player.background \\
                  --partial CFNetworkDownload_d8md6s.tmp -o episode.resumedata

            \(ExitStatus.help(success: "written", failure: "the task has no usable URL, or the output cannot be written", also: [.serverUnreachable])) With 3 the blob is written, without a validator. A malformed --header, a URL that is not http or https or a task not in the ledger is a usage error.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The partial download file.", valueName: "FILE"))
    var partial: String?

    /// The old name of --partial, kept so scripts written for it still run.
    @Option(name: .customLong("from"), help: .hidden)
    var oldPartial: String?

    @Option(name: .long, help: "The URL being downloaded (http or https).")
    var url: String?

    @Option(name: .customLong("from-task"), help: ArgumentHelp("nsurlsessiond's ledger (tasks.sqlite, or a tasks.plist of the older layout): take the URL, headers and validators from a task in it.", valueName: "DB"))
    var fromTask: String?

    @Option(name: .long, help: ArgumentHelp("With --from-task: the task identifier.", valueName: "ID"))
    var task: Int64?

    @Option(name: .long, help: ArgumentHelp("With --from-task: the task's session, when the identifier is in several.", valueName: "S"))
    var session: String?

    @Option(name: .long, help: "The server's ETag, quotes included.")
    var etag: String?

    @Option(name: .customLong("last-modified"), help: "The server's Last-Modified date.")
    var lastModified: String?

    @Option(name: .customLong("header"), help: "An extra request header, 'Name: value' (repeatable).")
    var headers: [String] = []

    @Option(name: .customLong("to"), help: ArgumentHelp(
        "The container to write: xml (iOS ≤ 11), keyed-archive (iOS 12+, the default), binary, keyed-archive-xml.",
        valueName: "format"))
    var to: ResumeDataContainer?

    /// The old name of --to, kept so scripts written for it still run.
    @Option(name: .customLong("format"), help: .hidden)
    var oldFormat: ResumeDataContainer?

    /// --to, or its old name; the one rule for both.
    private var format: ResumeDataContainer { to ?? oldFormat ?? .keyedArchive }

    /// --partial, or its old name --from.
    private var partialFile: String? { partial ?? oldPartial }

    @Flag(help: "Without --etag or --last-modified: do not ask the server for them (a HEAD).")
    var offline = false

    @Flag(name: .customLong("local-path"), help: "Name the partial file by its absolute path (LocalPath) instead of its bare name.")
    var useLocalPath = false

    @Option(name: .shortAndLong, help: "The output file (replaced atomically), or - for standard output (the default).")
    var output: String?

    func validate() throws {
        if partial != nil, oldPartial != nil { throw ValidationError("give --partial once (--from is its old name)") }
        if to != nil, oldFormat != nil { throw ValidationError("give --to once (--format is its old name)") }
        if fromTask != nil {
            for (given, name) in [(url != nil, "--url"), (etag != nil, "--etag"), (lastModified != nil, "--last-modified")] where given {
                throw ValidationError("\(name) cannot be used with --from-task, which takes it from the ledger")
            }
            guard task != nil else { throw ValidationError("Missing expected argument '--task <ID>' (--from-task needs it)") }
            guard partialFile != nil else { throw ValidationError("Missing expected argument '--partial <FILE>' (--from-task needs it)") }
        } else {
            for (given, name) in [(task != nil, "--task"), (session != nil, "--session")] where given {
                throw ValidationError("\(name) needs --from-task")
            }
            guard partialFile != nil else { throw ValidationError("Missing expected argument '--partial <FILE>'") }
            guard url != nil else { throw ValidationError("Missing expected argument '--url <url>'") }
        }
        guard !format.isNetworkFramework else {
            // That format keeps its validator only in an archived response, which a partial file cannot tell.
            throw ValidationError("--to \(format) is not a container rebuild writes: use xml, binary, keyed-archive or keyed-archive-xml")
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

    func run() async throws {
        let parsedHeaders = try parsedHeaders()
        if let fromTask {
            // The ledger is evidence: its server is not asked, and a task without a validator is
            // a warning (see runFromTask).
            try runFromTask(fromTask, headers: parsedHeaders)
            return
        }
        let from = self.partialFile ?? ""
        var rebuilder = ResumeDataRebuilder(url: url ?? "", entityTag: etag, lastModified: lastModified,
                                            headers: parsedHeaders, container: format, useLocalPath: useLocalPath)
        var unreachable = false
        if etag == nil, lastModified == nil {
            if offline {
                Diagnostic(file: from, severity: .warning, message: Self.noValidator + " (--offline)").emit()
            } else {
                unreachable = await !Self.askServer(into: &rebuilder, partialFile: from)
            }
        }
        try reportingDiagnostics { try write(rebuilder, from: from) }
        if unreachable { throw ExitStatus.serverUnreachable.code }
    }

    private static let noValidator =
        "the blob has no validator (ETag or Last-Modified): a device restarts it from zero; give --etag or --last-modified"

    /// Takes the validators from the server's answer to a HEAD sent as `explain --probe` sends it,
    /// saying on stderr what it took or why there is none. Returns false when the server could not
    /// be asked. A partial file or URL that cannot make a blob is left for ``write(_:from:)`` to
    /// report, before any request.
    private static func askServer(into rebuilder: inout ResumeDataRebuilder, partialFile: String) async -> Bool {
        guard let blob = try? rebuilder.rebuild(fromPartialFile: partialFile),
              let options = try? TransferOptions.parse([]),
              let configuration = try? options.configuration(parallel: 1) else { return true }
        let downloader = Downloader(configuration: configuration)
        let answer: Result<ResumeProbe.Answer, TransferError>
        do {
            answer = try await downloader.head(blob)
        } catch {
            answer = .failure(error)
        }
        try? await downloader.shutdown()
        switch answer {
        case .failure(let error):
            Diagnostic(file: partialFile, severity: .warning,
                       message: "could not ask the server for a validator (\(error)); " + noValidator).emit()
            return false
        case .success(let head) where !(200..<300).contains(head.status):
            Diagnostic(file: partialFile, severity: .warning,
                       message: "the server answered the HEAD with \(head.status); " + noValidator).emit()
        case .success(let head) where head.entityTag == nil && head.lastModified == nil:
            Diagnostic(file: partialFile, severity: .warning,
                       message: "the server sent neither ETag nor Last-Modified; " + noValidator).emit()
        case .success(let head):
            rebuilder.entityTag = head.entityTag
            rebuilder.lastModified = head.lastModified
            let taken = [head.entityTag.map { "ETag \($0)" }, head.lastModified.map { "Last-Modified \($0)" }].compactMap { $0 }
            Diagnostic(file: partialFile, severity: .note,
                       message: "took \(taken.joined(separator: " and ")) from the server (HEAD): they vouch for the partial file only if the file has not changed since it was downloaded").emit()
        }
        return true
    }

    /// `--from-task`: the ledger's task makes the rebuilder; the partial file is --partial.
    private func runFromTask(_ database: String, headers: [HTTPHeaderField]) throws {
        let identifier = task ?? 0
        let partial = self.partialFile ?? ""
        let chosen: LedgerTask
        do {
            let ledger: TaskLedger
            do {
                ledger = try TaskLedger.read(path: database)
            } catch let error as EvidenceDatabaseError {
                Diagnostic(file: error.path, message: error.message).emit()
                throw ExitStatus.unreadableInput.code
            }
            chosen = try ledger.task(identifier: identifier, session: session)
        } catch let failure as TaskLedger.LookUpFailure {
            if case .unreadable = failure {
                Diagnostic(file: database, message: failure.description).emit()
                throw ExitStatus.unreadableInput.code
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
            throw Diagnostic(file: from, message: message).unreadableInput
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
