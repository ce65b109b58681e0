import ArgumentParser
import Foundation
import ResumeReports
import ResumeScan

/// `resumetool tasks DB`
struct TasksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tasks",
        abstract: "List the background tasks in nsurlsessiond's ledger (tasks.sqlite, or the older tasks.plist).",
        discussion: """
            Reads DB from a private copy with its -wal and -shm (the evidence is never written or locked) and prints every task by app: session, identifier, kind, state, description, creation and earliest begin times, the request's method, URL and headers, the response's status, ETag, Last-Modified and length, the error, the byte counters, and the partial file mapped into the extraction (its /.nofollow prefix stripped) with its size beside the bytes received. Rows whose values are corrupt or hostile are reported with the column and key path at fault, and skipped.

            DB may also be the older layout (macOS 10.11 to 10.13, iOS before the SQLite store): a session's tasks.plist, or nsurlsessiond's folder (com.apple.nsurlsessiond) with its bundles.plist and <bundle SHA-1>/<session SHA-1>/tasks.plist files, read without following a link. Each task's bundle and session come from the task, else from bundles.plist and sessions.plist; a skipped task's "row" is its place in its tasks.plist. Without --root, partial files are looked for below the folder above private/ in DB's path, else below the home folder that holds Library/com.apple.nsurlsessiond (a device path /Users/NAME/... is taken as inside it).

            Example:
              resumetool tasks --json --root ~/extraction tasks.sqlite > tasks.json
              cd ~/extraction && resumetool tasks \\
                  private/var/mobile/Library/com.apple.nsurlsessiond/tasks.sqlite
              resumetool tasks ~/case/home/Library/com.apple.nsurlsessiond

            \(ExitStatus.help(success: "the database was read (skipped rows are reported)", failure: nil))
            """
    )

    @Flag(name: .long, help: "Print JSON: {database, schemaVersion, root, warnings, tasks, skippedRows}.")
    var json = false

    @Flag(name: .long, help: "Print JSON Lines: one task per line (warnings and skipped rows go to standard error).")
    var jsonl = false

    @Flag(name: .long, help: "Print CSV (RFC 4180): one row per task, with a header row.")
    var csv = false

    @Option(name: .long, help: ArgumentHelp("The extraction's top folder, where partial files are looked for (default: the folder above private/ in DB's path).", valueName: "EXTRACTION"), completion: .directory)
    var root: String?

    @Argument(help: ArgumentHelp("The ledger: tasks.sqlite, a tasks.plist, or nsurlsessiond's folder.", valueName: "DB"), completion: .file())
    var database: String

    func validate() throws {
        guard [json, jsonl, csv].filter({ $0 }).count <= 1 else { throw ValidationError("--json, --jsonl and --csv cannot be used together") }
    }

    func run() throws {
        try reportingDiagnostics {
            let ledger: TaskLedger
            do {
                ledger = try TaskLedger.read(path: database, root: root)
            } catch let error as EvidenceDatabaseError {
                throw Diagnostic(file: error.path, message: error.message).unreadableInput
            }
            let report = TasksReport(ledger: ledger)
            var output = StandardOutput()
            if json {
                report.writeJSON(to: &output.bytes) { bytes in
                    if bytes.count >= 1 << 16 { StandardOutput.write(&bytes) }
                }
                output.append("\n")
            } else {
                for warning in ledger.warnings { Diagnostic(file: database, severity: .warning, message: warning).emit() }
                for skipped in ledger.skippedRows { Diagnostic(file: database, severity: .warning, message: "skipped " + skipped.description).emit() }
                if jsonl {
                    for task in ledger.tasks {
                        TasksReport.json(for: task).writeCompact(to: &output.bytes)
                        output.append("\n")
                        output.flushIfLarge()
                    }
                } else if csv {
                    report.writeCSV { output.append($0); output.flushIfLarge() }
                } else {
                    report.writeText { output.append($0); output.flushIfLarge() }
                }
            }
            output.flush()
        }
    }
}
