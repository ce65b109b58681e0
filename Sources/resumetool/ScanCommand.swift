import ArgumentParser
import Foundation
import ResumeReports
import ResumeScan
import ResumeSystemCalls

/// `resumetool scan PATH...`
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Find resume blobs and partial downloads in folder trees and iTunes/Finder backups.",
        discussion: """
            Walks each DIR without following symbolic links and decides by content, not by name: finds resume blobs of every container (the Network-framework format too), blobs embedded as data in property lists and keyed archives (with their key path), pairs each with its partial file (TempFileName in the app container's tmp/, or LocalPath), reports the tasks of nsurlsessiond's ledger (a tasks.sqlite found by its tables) with the partial files they name, and lists the partial files neither names (candidates for `rebuild`).

            A DIR holding Manifest.db (Manifest.mbdb before iOS 10) is read as an iTunes/Finder backup: its files through Manifest.db, named DOMAIN/relativePath, with the device in the report. An encrypted backup needs --password-file FILE (or, on a terminal, the password typed at a prompt); without one its files are counted as unread. Nothing in the evidence is written; decrypted data stays in memory.

            A FILE that is a zip or tar archive (gzip, bzip2 or xz compressed too) is read as a full-file-system extraction in one streaming pass, never unpacked: any leading folder (filesystem1/, a case number) is recognised by the private/var/ layout beneath it, blobs are paired with partial files inside the archive, and members with unsafe names, links, bombs and truncation are reported, never followed or written out.

            A zip or tar archive (gzip, bzip2 or xz compressed too) met among the files of a DIR, told by its first bytes whatever its name, is listed in every report (its path, kind and size), not read: scan it with `resumetool scan PATH`, or give --open-archives to read each one found in a folder as a FILE given here is read (an archive inside it, or inside a backup, is listed, never opened).

            Example:
              resumetool scan ~/extraction/private/var/mobile/Containers/Data/Application
              resumetool scan --json ~/Library > downloads.json
              resumetool scan --csv /mnt/image > downloads.csv
              resumetool scan --jsonl --html case-42.html /mnt/image > findings.jsonl
              resumetool scan --timeline /mnt/image > timeline.csv
              resumetool scan --json ~/cases/42/filesystem1.zip
              resumetool scan --open-archives ~/cases/42
              resumetool scan --json --password-file pw.txt \\
                  ~/backups/00008140-001A2B3C4D5E6F70

            Reports: text (the default), --json (one document), --jsonl (one finding per line: blob, embedded blob, partial file, orphan partial file, Safari bundle's partial file, Safari history entry, archive found), --csv or --tsv (one row per blob, per orphan partial file, per Safari bundle's partial file, per Safari history entry and per archive found), --timeline (CSV for Timesketch: one row per time of every finding), and --html FILE (a self-contained page for a case file, written in addition to any of the others). Ctrl-C stops the scan and prints the report of what was found so far (exit status 130); a second Ctrl-C ends it at once.

            Every file reported is hashed (SHA-256) unless it is sparse (at least 64 MiB of holes, more than half of it) or above --hash-limit (default 4G): such a file is reported with its apparent and allocated sizes and "not hashed" in every format (hashSkipped in JSON, CSV and the timeline); --hash-limit none hashes every file.

            \(ExitStatus.help(success: "the walk finished (unreadable files and folders below a DIR are reported and skipped)", failure: "the page cannot be written", also: [.interrupted])) A DIR that cannot be read is 2: a backup with a wrong password or a damaged Manifest.db, an archive truncated, corrupt or refused as a bomb.
            """
    )

    @Flag(name: .long, help: "Print JSON: {blobs, orphanPartialFiles, errors}, with ledgers after blobs when one was found.")
    var json = false

    @Flag(name: .long, help: "Print CSV (RFC 4180): one row per blob, with a header row.")
    var csv = false

    @Flag(name: .long, help: "Print JSON Lines: one self-contained object per finding.")
    var jsonl = false

    @Flag(name: .long, help: "Print the CSV's rows as tab-separated values (tab, line breaks and \\ written \\t, \\n, \\r, \\\\).")
    var tsv = false

    @Flag(name: .long, help: "Print a timeline as CSV for Timesketch (message,datetime,timestamp_desc first): one row per time of every finding.")
    var timeline = false

    @Option(name: .long, help: ArgumentHelp("Also write a self-contained HTML report to FILE (replaced atomically; - for standard output alone).", valueName: "FILE"),
            completion: .file())
    var html: ScanOptionText?

    @Option(name: .long, help: ArgumentHelp("The password of encrypted backups: the file's first line (never give a password as an argument).", valueName: "FILE"),
            completion: .file())
    var passwordFile: ScanOptionText?

    @Option(name: .long, help: ArgumentHelp("Hash no file above SIZE (bytes, or K, M, G, T: powers of 1024), nor any sparse file; none hashes every file (default: 4G).", valueName: "SIZE"))
    var hashLimit: String?

    @Flag(name: .long, help: "Read each zip or tar archive found in a DIR as an archive given as a FILE is read (not one inside an archive or a backup).")
    var openArchives = false

    @Argument(help: ArgumentHelp("Folders, backup folders or zip/tar archives to scan (a link given here is followed; none below it is).", valueName: "DIR"), completion: .directory)
    var folders: [ScanRoot] = []

    func validate() throws {
        guard !folders.isEmpty else { throw ValidationError("give at least one DIR") }
        guard !(json && csv) else { throw ValidationError("--json and --csv cannot be used together") }
        let formats = [("--json", json), ("--jsonl", jsonl), ("--csv", csv), ("--tsv", tsv), ("--timeline", timeline)].filter(\.1).map(\.0)
        guard formats.count <= 1 else { throw ValidationError("\(formats.joined(separator: " and ")) cannot be used together") }
        if html?.text == "-", let format = formats.first { throw ValidationError("--html - and \(format) cannot be used together: both print on standard output") }
        if let hashLimit, HashLimit(argument: hashLimit) == nil {
            throw ValidationError("--hash-limit takes a size (4G, 512M, 1073741824) or none, not \(hashLimit)")
        }
    }

    func run() throws {
        var progress = ScanProgress()
        var password: Data?
        if let passwordFile { try reportingDiagnostics { password = try BackupPassword.read(from: passwordFile.text) } }
        // Each DIR by its bytes: a folder whose name is not UTF-8 is scanned as it is named.
        var job = ScanJob(rootPaths: folders.map(\.path.bytes)) { [password] in password ?? BackupPassword.prompt() }
        job.hashLimit = hashLimit.flatMap(HashLimit.init(argument:)) ?? .standard
        job.opensArchives = openArchives
        let interruption = ScanInterruption()
        job.shouldStop = { interruption.wasInterrupted }
        let (inventory, allRootsRead) = job.run { progress.update($0) }
        let interrupted = interruption.wasInterrupted
        interruption.stop()
        progress.finish()
        if interrupted { StandardStream.write("scan: interrupted: the report holds what was found before Ctrl-C\n", to: STDERR_FILENO) }
        let htmlFile = html.map { OutputFile($0.text) }
        if htmlFile?.path != nil || html == nil { printReport(inventory) }
        if let htmlFile {
            let page = ScanHTMLReport(inventory: inventory, generated: Date()).html
            try reportingDiagnostics { try htmlFile.write(Data(page.utf8)) }
        }
        if interrupted { throw ExitStatus.interrupted.code }
        if !allRootsRead { throw ExitStatus.unreadableInput.code }
    }

    /// The report chosen for standard output.
    private func printReport(_ inventory: ScanInventory) {
        let report = ScanReport(inventory: inventory)
        var output = StandardOutput()
        if json {
            report.json.write(to: &output.bytes, indent: 0)
            output.append("\n")
        } else {
            // Only the JSON document has room for them. The text report counts a backup's absent
            // stored files in one line under the backup instead.
            let isText = !(jsonl || csv || tsv || timeline)
            for error in inventory.errors where !(isText && error.kind == .storedFileMissing) {
                Diagnostic(file: error.path, message: error.message).emit()
            }
            if jsonl {
                output.bytes += ScanJSONLinesReport(inventory: inventory).bytes
            } else if csv {
                output.append(report.csv)
            } else if tsv {
                output.append(ScanTable(inventory: inventory).tsv)
            } else if timeline {
                output.append(ScanTimeline(inventory: inventory).csv)
            } else {
                output.append(report.text)
            }
        }
        output.flush()
    }
}
