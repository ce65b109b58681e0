import ArgumentParser
import Foundation
import ResumeReports
import ResumeScan

/// `resumetool scan PATH...`
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Find resume blobs and partial downloads in folder trees and iTunes/Finder backups.",
        discussion: """
            Walks each DIR without following symbolic links and decides by content, not by name: finds resume blobs of every container (the Network-framework format too), blobs embedded as data in property lists and keyed archives (with their key path), pairs each with its partial file (TempFileName in the app container's tmp/, or LocalPath), and lists the partial files no blob names (candidates for `rebuild`).

            A DIR holding Manifest.db is read as an iTunes/Finder backup: its files through Manifest.db, named DOMAIN/relativePath, with the device in the report. An encrypted backup needs --password-file FILE (or, on a terminal, the password typed at a prompt); without one its files are counted as unread. Nothing in the evidence is written; decrypted data stays in memory.

            A FILE that is a zip or tar archive (gzip, bzip2 or xz compressed too) is read as a full-file-system extraction in one streaming pass, never unpacked: any leading folder (filesystem1/, a case number) is recognised by the private/var/ layout beneath it, blobs are paired with partial files inside the archive, and members with unsafe names, links, bombs and truncation are reported, never followed or written out.

            Example:
              resumetool scan ~/extraction/private/var/mobile/Containers/Data/Application
              resumetool scan --json ~/Library > downloads.json
              resumetool scan --csv /mnt/image > downloads.csv
              resumetool scan --json ~/cases/42/filesystem1.zip
              resumetool scan --json --password-file pw.txt ~/backups/00008140-001A2B3C4D5E6F70

            Exit status: 0 the walk finished (unreadable files and folders are reported and skipped), 1 a DIR could not be read (a backup: a wrong password, a damaged Manifest.db; an archive: truncated, corrupt or refused as a bomb), 64 usage error.
            """
    )

    @Flag(name: .long, help: "Print JSON: {blobs, orphanPartialFiles, errors}.")
    var json = false

    @Flag(name: .long, help: "Print CSV (RFC 4180): one row per blob, with a header row.")
    var csv = false

    @Option(name: .long, help: ArgumentHelp("The password of encrypted backups: the file's first line (never give a password as an argument).", valueName: "FILE"),
            completion: .file())
    var passwordFile: String?

    @Argument(help: ArgumentHelp("Folders, backup folders or zip/tar archives to scan (a link given here is followed; none below it is).", valueName: "DIR"), completion: .directory)
    var folders: [String] = []

    func validate() throws {
        guard !folders.isEmpty else { throw ValidationError("give at least one DIR") }
        guard !(json && csv) else { throw ValidationError("--json and --csv cannot be used together") }
    }

    func run() throws {
        var progress = ScanProgress()
        var password: Data?
        if let passwordFile { password = try BackupPassword.read(from: passwordFile) }
        let job = ScanJob(roots: folders) { [password] in password ?? BackupPassword.prompt() }
        let (inventory, allRootsRead) = job.run { progress.update($0) }
        progress.finish()
        let report = ScanReport(inventory: inventory)
        var output = StandardOutput()
        if json {
            report.json.write(to: &output.bytes, indent: 0)
            output.append("\n")
        } else {
            for error in inventory.errors { Diagnostic(file: error.path, message: error.message).emit() }
            output.append(csv ? report.csv : report.text)
        }
        output.flush()
        if !allRootsRead { throw ExitCode.failure }
    }
}
