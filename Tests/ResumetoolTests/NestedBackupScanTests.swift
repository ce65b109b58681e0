import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `resumetool scan HOME` on a home folder holding a backup where Finder keeps them
/// (`Library/Application Support/MobileSync/Backup/UDID`): the backup is read as a backup, with
/// the bundle IDs, key paths, times and device that `scan BACKUP` reports, its files not walked
/// again as loose files; and the hostile cases (a damaged `Manifest.db`, links where a backup
/// would be, a backup inside a backup) are errors for that place while the rest is scanned.
@Suite struct NestedBackupScanTests {
    static let udid = "00008140-001A2B3C4D5E6F70"
    static let backupFolder = "home/Library/Application Support/MobileSync/Backup"
    static let nested = "\(backupFolder)/\(udid)"
    static let looseBlob = "home/Documents/loose.resumedata"

    /// A backup made by `make_backup.py` (as `backup`), copied below `home/` where Finder keeps
    /// backups, beside a loose blob of the home folder.
    final class Home {
        let backup: BackupScanTests.Backup
        var directory: URL { backup.directory.url }

        init(_ arguments: [String] = []) throws {
            backup = try BackupScanTests.Backup(arguments)
            let parent = directory.appendingPathComponent(NestedBackupScanTests.backupFolder)
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: backup.root, to: parent.appendingPathComponent(NestedBackupScanTests.udid))
            let documents = directory.appendingPathComponent("home/Documents")
            try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
            try Data(contentsOf: EndToEnd.samples.appendingPathComponent("ios12-keyed-archive.resumedata"))
                .write(to: directory.appendingPathComponent(NestedBackupScanTests.looseBlob))
        }

        var nestedRoot: URL { directory.appendingPathComponent(NestedBackupScanTests.nested) }

        func run(_ arguments: [String]) throws -> ToolRunner.Result { try backup.run(arguments) }
    }

    /// The blobs of one kind of source.
    static func blobs(_ top: [String: Any], kind: String) -> [[String: Any]] {
        (top["blobs"] as? [[String: Any]] ?? []).filter { ($0["source"] as? [String: Any])?["kind"] as? String == kind }
    }

    /// `top` with only the blobs of `kind`, for ``BackupScanTests/checkBlobs(_:kind:preferencesSHA256:groupSHA256:root:)``.
    static func only(_ top: [String: Any], kind: String) -> [String: Any] {
        var top = top
        top["blobs"] = blobs(top, kind: kind)
        return top
    }

    /// Every member of each blob but `source` and the partial file's `source`, whose root is where the backup was found.
    static func withoutRoots(_ blobs: [[String: Any]]) throws -> String {
        let stripped = blobs.map { blob -> [String: Any] in
            var blob = blob
            blob["source"] = nil
            if var partial = blob["partialFile"] as? [String: Any] {
                partial["source"] = nil
                blob["partialFile"] = partial
            }
            return blob
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: stripped, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test func manifestDatabaseBackupBelowTheFolder() throws {
        let home = try Home()
        let before = try BackupScanTests.snapshot(of: home.nestedRoot)
        let direct = try home.run(["scan", "--json", "backup"])
        let result = try home.run(["scan", "--json", "home/"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let top = try BackupScanTests.json(result)
        #expect(Set(top.keys) == ["blobs", "orphanPartialFiles", "errors", "backups", "device"])
        try BackupScanTests.checkBlobs(Self.only(top, kind: "backup"), kind: "backup",
                                       preferencesSHA256: try BackupScanTests.storedSHA256(home.backup, domain: BackupScanTests.app,
                                                                                           relativePath: "Library/Preferences/com.example.app.plist"),
                                       groupSHA256: try BackupScanTests.storedSHA256(home.backup, domain: BackupScanTests.group,
                                                                                     relativePath: "Library/Preferences/group.com.example.shared.plist"),
                                       root: Self.nested)
        try BackupScanTests.checkDevice(top, encrypted: false, files: 7, unread: 0, root: Self.nested)
        // Every other member as `scan BACKUP` gives it.
        let directBlobs = try #require(try BackupScanTests.json(direct)["blobs"] as? [[String: Any]])
        #expect(try Self.withoutRoots(Self.blobs(top, kind: "backup")) == Self.withoutRoots(directBlobs))
        // The loose blob of the home folder is still found; none of the backup's files is one.
        #expect(Self.blobs(top, kind: "folder").map { $0["path"] as? String } == [Self.looseBlob])
        #expect((top["blobs"] as? [Any])?.count == 4)
        #expect((top["errors"] as? [Any])?.isEmpty == true)
        #expect(try BackupScanTests.snapshot(of: home.nestedRoot) == before)

        // Scanning the Backup folder itself finds the backup the same way, and counts its files once.
        let folder = try home.run(["scan", "--json", Self.backupFolder])
        #expect(folder.status == 0)
        try BackupScanTests.checkDevice(try BackupScanTests.json(folder), encrypted: false, files: 7, unread: 0, root: Self.nested)
        #expect(try Self.withoutRoots(Self.blobs(try BackupScanTests.json(folder), kind: "backup")) == Self.withoutRoots(directBlobs))
    }

    /// A real device's backup rows (``RealBackupTests``: no `Manifest.plist` or `Info.plist`, a
    /// WAL-mode `Manifest.db`, the device's own `MBFile` records) below a home folder: the planted
    /// blob with its bundle ID, key path and the record's times, as `scan BACKUP` gives it, and the
    /// copy left as it was.
    @Test func realBackupBelowTheFolder() throws {
        let copy = try RealBackupTests.Copy()
        try copy.plantBlob()
        let nested = copy.directory.url.appendingPathComponent(Self.nested)
        try FileManager.default.createDirectory(at: nested.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: copy.root, to: nested)
        let before = try BackupScanTests.snapshot(of: nested)
        let direct = try copy.scan(["--json"])
        let result = try ToolRunner.run(["scan", "--json", "home"], in: copy.directory.url)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let top = try BackupScanTests.json(result)
        let blobs = try #require(top["blobs"] as? [[String: Any]])
        #expect(blobs.map { $0["path"] as? String } == [RealBackupTests.preferences])
        #expect(blobs.map { $0["keyPath"] as? String } == ["pendingDownloadResumeData"])
        #expect(blobs.map { $0["bundleID"] as? String } == ["com.google.Translate"])
        #expect(blobs.map { $0["modified"] as? String } == [RealBackupTests.recordTime])
        #expect(blobs.map { $0["created"] as? String } == [RealBackupTests.recordTime])
        #expect(blobs.map { ($0["source"] as? [String: Any])?["root"] as? String } == [Self.nested])
        #expect(try Self.withoutRoots(blobs) == Self.withoutRoots(try #require(try BackupScanTests.json(direct)["blobs"] as? [[String: Any]])))
        let backups = try #require(top["backups"] as? [[String: Any]])
        #expect(backups.map { $0["root"] as? String } == [Self.nested])
        #expect(backups.first?["warnings"] as? [String] == [RealBackupTests.noPlists])
        // The record's size mismatch, named as `scan BACKUP` names it.
        #expect((top["errors"] as? [[String: Any]])?.map { $0["path"] as? String } == [RealBackupTests.preferences])
        #expect(try BackupScanTests.snapshot(of: nested) == before)
    }

    /// A backup below a folder whose name is not UTF-8 (byte E9): read through the folder the
    /// walk opened, its root spelled as every path of the walk is.
    @Test func backupBelowAFolderNamedByItsBytes() throws {
        let home = try Home()
        defer {
            // Foundation's removal is not given names that are not UTF-8.
            _ = try? ToolRunner.capture(URL(fileURLWithPath: "/bin/rm"), ["-rf", home.directory.appendingPathComponent("home").path])
        }
        let parent = Array(home.directory.appendingPathComponent("home/caf").path.utf8) + [0xE9]
        let moved = (parent.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { folder -> Bool in
            guard mkdir(folder.baseAddress!, 0o755) == 0 else { return false }
            let target = (parent + Array("/\(Self.udid)".utf8)).map { CChar(bitPattern: $0) } + [0]
            return target.withUnsafeBufferPointer { rename(home.nestedRoot.path, $0.baseAddress!) == 0 }
        }
        try #require(moved)
        let result = try home.run(["scan", "--json", "home"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let top = try BackupScanTests.json(result)
        let root = "home/caf\\x{e9}/\(Self.udid)"
        #expect((top["backups"] as? [[String: Any]])?.map { $0["root"] as? String } == [root])
        let blobs = Self.blobs(top, kind: "backup")
        #expect(blobs.map { $0["path"] as? String } == [BackupScanTests.downloadsBlob, BackupScanTests.preferences, BackupScanTests.groupPreferences])
        #expect(blobs.map { ($0["source"] as? [String: Any])?["root"] as? String } == Array(repeating: root, count: 3))
        #expect(blobs.map { $0["bundleID"] as? String } == ["com.example.app", "com.example.app", "group.com.example.shared"])
        #expect((top["errors"] as? [Any])?.isEmpty == true)
    }

    /// The text report heads the backup's blocks with its device, as `scan BACKUP` does, and
    /// counts its listed files (7) and the home's one loose file, not the backup's stored copies.
    @Test func textReport() throws {
        let home = try Home()
        let direct = try home.run(["scan", "backup"])
        let result = try home.run(["scan", "home"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let header = "backup backup: Examiner's iPhone (iPhone17,1, iOS 18.2 22C152, serial F17ZX0EXAMPL)\n"
        let summary = "7 files scanned: 3 blobs, 0 orphan partial files, 0 errors\n"
        try #require(direct.stdout.hasPrefix(header) && direct.stdout.hasSuffix("\n" + summary))
        // Everything of the backup but its root and the summary line, word for word, after the home's own blocks.
        let backupBlock = "backup \(Self.nested): Examiner's iPhone (iPhone17,1, iOS 18.2 22C152, serial F17ZX0EXAMPL)\n"
            + direct.stdout.dropFirst(header.count).dropLast(summary.count)
        #expect(result.stdout.hasSuffix("\n\n" + backupBlock + "8 files scanned: 4 blobs, 0 orphan partial files, 0 errors\n"))
        #expect(result.stdout.hasPrefix("home:\n  Documents/loose.resumedata\n"))
    }

    /// `--jsonl`, `--csv`, `--timeline` and `--html` carry the backup's source, device and times.
    @Test func otherFormats() throws {
        let home = try Home()
        let lines = try home.run(["scan", "--jsonl", "home"])
        #expect(lines.status == 0)
        #expect(lines.stderr == "")
        let records = try lines.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let backupBlobs = records.filter { ["blob", "embedded-blob"].contains($0["finding"] as? String ?? "") && ($0["source"] as? [String: Any])?["kind"] as? String == "backup" }
        #expect(backupBlobs.map { $0["path"] as? String } == [BackupScanTests.downloadsBlob, BackupScanTests.preferences, BackupScanTests.groupPreferences])
        #expect(backupBlobs.map { ($0["source"] as? [String: Any])?["root"] as? String } == Array(repeating: Self.nested, count: 3))
        #expect(backupBlobs.map { $0["bundleID"] as? String } == ["com.example.app", "com.example.app", "group.com.example.shared"])
        #expect(backupBlobs.map { $0["modified"] as? String } == Array(repeating: "2026-01-02T03:04:05Z", count: 3))
        #expect(backupBlobs.map { ($0["device"] as? [String: Any])?["udid"] as? String } == Array(repeating: Self.udid, count: 3))

        // In --csv and --timeline the backup's rows are `scan BACKUP`'s, but for the root they
        // name (sourceKind, then sourceRoot); the home's loose blob adds its own.
        for (format, directCount, homeCount) in [("--csv", 4, 5), ("--timeline", 20, 23)] {
            let direct = try home.run(["scan", format, "backup"])
            let nested = try home.run(["scan", format, "home"])
            #expect(nested.status == 0)
            #expect(nested.stderr == "")
            let directRows = direct.stdout.split(whereSeparator: \.isNewline).map(String.init)
            let rows = nested.stdout.split(whereSeparator: \.isNewline).map(String.init)
            #expect(directRows.count == directCount, "\(format)")
            #expect(rows.count == homeCount, "\(format)")
            #expect(rows.first == directRows.first)
            for row in directRows.dropFirst() {
                #expect(row.contains(",backup,backup,"))
                #expect(rows.contains(row.replacingOccurrences(of: ",backup,backup,", with: ",backup,\(Self.nested),")), "\(format): \(row)")
            }
        }

        let html = try home.run(["scan", "--html", "-", "home"])
        #expect(html.status == 0)
        #expect(html.stdout.contains("Examiner&#39;s iPhone") || html.stdout.contains("Examiner's iPhone"))
        #expect(html.stdout.contains(Self.udid))
    }

    /// A backup of iOS 9 or earlier below the folder: read through `Manifest.mbdb` (no longer
    /// "0 blobs" from its flat files), with the mbdb's times and the device.
    @Test func manifestMBDBBackupBelowTheFolder() throws {
        let home = try Home(["--mbdb"])
        let direct = try home.run(["scan", "--json", "backup"])
        let result = try home.run(["scan", "--json", "home"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let top = try BackupScanTests.json(result)
        let blobs = Self.blobs(top, kind: "backup")
        #expect(blobs.map { $0["path"] as? String } == [BackupScanTests.downloadsBlob, BackupScanTests.preferences, BackupScanTests.groupPreferences])
        #expect(blobs.map { $0["keyPath"] as? String } == [nil, "pending[0].resumeData", "lastTask.resumeData"])
        #expect(blobs.map { $0["bundleID"] as? String } == ["com.example.app", "com.example.app", "group.com.example.shared"])
        #expect(blobs.first?["sha256"] as? String == BackupScanTests.downloadsSHA256)
        #expect(blobs.map { $0["modified"] as? String } == Array(repeating: "2026-01-02T03:04:05Z", count: 3))
        #expect(blobs.map { $0["changed"] as? String } == Array(repeating: "2026-01-01T00:00:00Z", count: 3))
        #expect(blobs.allSatisfy { $0["created"] is NSNull })
        #expect(blobs.map { ($0["source"] as? [String: Any])?["root"] as? String } == Array(repeating: Self.nested, count: 3))
        let device = try #require(top["device"] as? [String: Any])
        #expect(device["iOSVersion"] as? String == "9.3.5")
        #expect(device["udid"] as? String == Self.udid)
        let backups = try #require(top["backups"] as? [[String: Any]])
        #expect(backups.map { $0["root"] as? String } == [Self.nested])
        #expect(try Self.withoutRoots(blobs) == Self.withoutRoots(try #require(try BackupScanTests.json(direct)["blobs"] as? [[String: Any]])))
        #expect(Self.blobs(top, kind: "folder").map { $0["path"] as? String } == [Self.looseBlob])
        #expect((top["errors"] as? [Any])?.isEmpty == true)
    }

    /// An encrypted backup below the folder: decrypted with `--password-file`, or its files
    /// counted as unread without one, as `scan BACKUP` does.
    @Test func encryptedBackupBelowTheFolder() throws {
        let home = try Home(["--password", BackupScanTests.password, "--dpic", "1000", "--iter", "100"])
        let password = try home.backup.writePassword(BackupScanTests.password)
        let result = try home.run(["scan", "--json", "--password-file", password, "home"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let top = try BackupScanTests.json(result)
        let blobs = Self.blobs(top, kind: "encrypted-backup")
        #expect(blobs.map { $0["path"] as? String } == [BackupScanTests.downloadsBlob, BackupScanTests.preferences, BackupScanTests.groupPreferences])
        #expect(blobs.first?["sha256"] as? String == BackupScanTests.downloadsSHA256)
        #expect(blobs.map { $0["bundleID"] as? String } == ["com.example.app", "com.example.app", "group.com.example.shared"])
        try BackupScanTests.checkDevice(top, encrypted: true, files: 7, unread: 0, root: Self.nested)

        let locked = try home.run(["scan", "home"])
        #expect(locked.status == 0)
        #expect(locked.stderr == "")
        #expect(locked.stdout.contains("""

            backup \(Self.nested): encrypted, Examiner's iPhone (iPhone17,1, iOS 18.2 22C152, serial F17ZX0EXAMPL)
              7 files left unread: the backup is encrypted; give its password with --password-file FILE

            """))
        #expect(locked.stdout.hasSuffix("\n1 file scanned: 1 blob, 0 orphan partial files, 0 errors\n"))

        // A wrong password is an error naming that backup; the home's own files are still scanned.
        let wrong = try home.run(["scan", "--password-file", try home.backup.writePassword("pass Word"), "home"])
        #expect(wrong.status == 0)
        #expect(wrong.stderr == "\(Self.nested): error: wrong password: it does not unlock the backup's keybag\n")
        #expect(wrong.stdout.hasSuffix("\n1 file scanned: 1 blob, 0 orphan partial files, 1 error\n"))
    }

    /// Typed at a terminal: the password is asked when the walk meets the encrypted backup, on a
    /// line of its own (the progress line cleared first), and the backup is decrypted with it.
    @Test func passwordTypedWhenTheWalkMeetsTheBackup() throws {
        let home = try Home(["--password", BackupScanTests.password, "--dpic", "1000", "--iter", "100"])
        let program = """
            import os, pty, sys
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], [sys.argv[1], "scan", "home"])
            seen = b""
            typed = False
            while True:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
                if not typed and seen.endswith(b"Password of the encrypted backup: "):
                    os.write(fd, sys.argv[2].encode() + b"\\n")
                    typed = True
            _, status = os.waitpid(pid, 0)
            sys.stdout.buffer.write(seen)
            sys.exit(os.waitstatus_to_exitcode(status))
            """
        let output = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"),
                                            ["python3", "-c", program, ToolRunner.executable.path, BackupScanTests.password], in: home.directory)
        let text = String(decoding: output.stdout, as: UTF8.self)
        #expect(output.status == 0, "\(text) \(String(decoding: output.stderr, as: UTF8.self))")
        #expect(text.contains("\r\u{1B}[KPassword of the encrypted backup: "))
        // The terminal turns each line feed into CR LF.
        #expect(text.contains("backup \(Self.nested): encrypted, Examiner's iPhone (iPhone17,1, iOS 18.2 22C152, serial F17ZX0EXAMPL)\r\n\r\nAppDomain-com.example.app:"))
        #expect(text.hasSuffix("4 blobs, 0 orphan partial files, 0 errors\r\n"))
        #expect(!text.contains(BackupScanTests.password))
    }

    /// A `Manifest.db` that is not SQLite: an error naming that backup; the home's other files
    /// are still scanned, and the backup's stored files are not read as loose files.
    @Test func damagedManifestDatabaseBelowTheFolder() throws {
        let home = try Home()
        try Data("not a database at all".utf8).write(to: home.nestedRoot.appendingPathComponent("Manifest.db"))
        let result = try home.run(["scan", "home"])
        #expect(result.status == 0)
        #expect(result.stderr == "\(Self.nested): error: Manifest.db: not a SQLite database\n")
        #expect(result.stdout.contains("\nbackup \(Self.nested): Examiner's iPhone (iPhone17,1, iOS 18.2 22C152, serial F17ZX0EXAMPL)\n"))
        #expect(result.stdout.hasSuffix("\n1 file scanned: 1 blob, 0 orphan partial files, 1 error\n"))
        let top = try BackupScanTests.json(try home.run(["scan", "--json", "home"]))
        #expect((top["blobs"] as? [[String: Any]])?.map { $0["path"] as? String } == [Self.looseBlob])
        #expect((top["errors"] as? [[String: Any]])?.map { $0["path"] as? String } == [Self.nested])
    }

    /// A `Backup` folder that is a link to backups elsewhere is not followed, and says so.
    @Test func linkedBackupFolder() throws {
        let home = try Home()
        let backupFolder = home.directory.appendingPathComponent(Self.backupFolder)
        try FileManager.default.moveItem(at: backupFolder, to: home.directory.appendingPathComponent("elsewhere"))
        try FileManager.default.createSymbolicLink(atPath: backupFolder.path, withDestinationPath: "../../../../elsewhere")
        #expect(FileManager.default.fileExists(atPath: home.nestedRoot.appendingPathComponent("Manifest.db").path))
        let result = try home.run(["scan", "--json", "home"])
        #expect(result.status == 0)
        let top = try BackupScanTests.json(result)
        #expect(top["backups"] == nil)
        #expect((top["blobs"] as? [[String: Any]])?.map { $0["path"] as? String } == [Self.looseBlob])
        let errors = try #require(top["errors"] as? [[String: Any]])
        #expect(errors.map { $0["path"] as? String } == [Self.backupFolder])
        #expect(errors.map { $0["message"] as? String } == [
            "skipped: a symbolic link, not followed: the backups behind it are not scanned (scan the folder it points to)",
        ])

        // One backup of the folder a link to a backup elsewhere: not followed either.
        try FileManager.default.removeItem(at: backupFolder)
        try FileManager.default.createDirectory(at: backupFolder, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: home.nestedRoot.path, withDestinationPath: "../../../../../elsewhere/\(Self.udid)")
        #expect(FileManager.default.fileExists(atPath: home.nestedRoot.appendingPathComponent("Manifest.db").path))
        let one = try BackupScanTests.json(try home.run(["scan", "--json", "home"]))
        #expect(one["backups"] == nil)
        #expect((one["blobs"] as? [[String: Any]])?.map { $0["path"] as? String } == [Self.looseBlob])
        #expect((one["errors"] as? [[String: Any]])?.map { $0["path"] as? String } == [Self.nested])
        #expect((one["errors"] as? [[String: Any]])?.map { $0["message"] as? String } == [
            "skipped: a symbolic link, not followed: the backup behind it is not scanned (scan the folder it points to)",
        ])
    }

    /// A `Manifest.db` that is a link does not make its folder a backup (at the root neither):
    /// it is not followed, and the folder is scanned as a folder, with a note saying why.
    @Test func linkedManifestDatabase() throws {
        let home = try Home()
        let database = home.nestedRoot.appendingPathComponent("Manifest.db")
        try FileManager.default.moveItem(at: database, to: home.directory.appendingPathComponent("Manifest.db"))
        try FileManager.default.createSymbolicLink(atPath: database.path, withDestinationPath: "../../../../../../Manifest.db")
        #expect(FileManager.default.fileExists(atPath: database.path))
        let result = try home.run(["scan", "--json", "home"])
        #expect(result.status == 0)
        let top = try BackupScanTests.json(result)
        #expect(top["backups"] == nil)
        #expect(Self.blobs(top, kind: "backup").isEmpty)
        let errors = try #require(top["errors"] as? [[String: Any]])
        #expect(errors.map { $0["path"] as? String } == ["\(Self.nested)/Manifest.db"])
        #expect(errors.map { $0["message"] as? String } == [
            "skipped: a symbolic link, not followed: the folder is not read as a backup (its Manifest.db must be a regular file)",
        ])
        // Given as the root, the same answer.
        let root = try home.run(["scan", "--json", Self.nested])
        let rootTop = try BackupScanTests.json(root)
        #expect(rootTop["backups"] == nil)
        #expect((rootTop["errors"] as? [[String: Any]])?.map { $0["path"] as? String } == ["\(Self.nested)/Manifest.db"])
    }

    /// A backup inside a backup's folders is not walked into (the backup's files are its
    /// `Manifest.db`'s rows), and a backup given as a root and met again below another root is
    /// read once.
    @Test func backupInsideABackupAndGivenTwice() throws {
        let home = try Home()
        let inner = home.nestedRoot.appendingPathComponent("00/inner")
        try FileManager.default.createDirectory(at: inner.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: home.backup.root, to: inner)
        try Data(contentsOf: EndToEnd.samples.appendingPathComponent("ios12-keyed-archive.resumedata"))
            .write(to: home.nestedRoot.appendingPathComponent("Snapshot-stray.resumedata"))
        let result = try home.run(["scan", "--json", "home"])
        #expect(result.status == 0)
        let top = try BackupScanTests.json(result)
        #expect((top["backups"] as? [[String: Any]])?.map { $0["root"] as? String } == [Self.nested])
        #expect(Self.blobs(top, kind: "backup").count == 3)
        #expect(Self.blobs(top, kind: "folder").map { $0["path"] as? String } == [Self.looseBlob])
        #expect((top["errors"] as? [Any])?.isEmpty == true)

        let twice = try home.run(["scan", "--json", Self.nested, "home"])
        #expect(twice.status == 0)
        let twiceTop = try BackupScanTests.json(twice)
        #expect((twiceTop["backups"] as? [[String: Any]])?.map { $0["root"] as? String } == [Self.nested])
        #expect(Self.blobs(twiceTop, kind: "backup").count == 3)
        #expect((twiceTop["errors"] as? [[String: Any]])?.map { $0["message"] as? String } == [
            "skipped: already scanned (as another DIR, or under another path through a bind mount)",
        ])
    }
}
