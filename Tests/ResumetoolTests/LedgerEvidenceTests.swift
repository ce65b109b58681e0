import Foundation
import Testing

/// `resumetool scan` finds nsurlsessiond's ledger by content inside a backup (plain and
/// encrypted) and a zip or tar extraction, read with its WAL, and pairs its tasks with the
/// partial files there (issue 26); a ledger whose schema is only in its WAL is found in a folder
/// too. Fixtures: `Backups/make_backup.py --ledger`, `Backups/make_extraction.py --ledger` and
/// `--hostile ledger-*`, `LedgerFixtures/make_ledger.py --layout`.
@Suite struct LedgerEvidenceTests {
    static let ledgerInner = "Library/com.apple.nsurlsessiond/tasks.sqlite"
    static let player = "com.example.player.background"
    static let downloads = "Library/Caches/com.apple.nsurlsessiond/Downloads/com.example.player"
    static let playerContainer = "private/var/mobile/Containers/Data/Application/8F9C2B1E-4D3A-4C2B-9E1F-0A1B2C3D4E5F"
    static let notInBackup = "not in the backup (backups leave out Library/Caches: expected, not an error)"
    static let walAlone = "the database file is empty: everything was read from its WAL"

    static func json(_ result: ToolRunner.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// The one ledger of a scan's JSON, checked: its database, source, version and warnings, its
    /// three tasks with task 1's partial file at `partial` (4,096 bytes, as received) and task
    /// 2's at `missing` (not there, for `why`), and its two sessions.
    static func expectLedger(_ document: [String: Any], database: String, source: [String: String], warnings: [String],
                             partial: String, missing: String, why: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ledgers = try #require(document["ledgers"] as? [[String: Any]], sourceLocation: sourceLocation)
        try #require(ledgers.count == 1, sourceLocation: sourceLocation)
        let ledger = ledgers[0]
        #expect(ledger["database"] as? String == database, sourceLocation: sourceLocation)
        #expect(ledger["source"] as? [String: String] == source, sourceLocation: sourceLocation)
        #expect(ledger["schemaVersion"] as? Int == 3, sourceLocation: sourceLocation)
        #expect(ledger["warnings"] as? [String] == warnings, sourceLocation: sourceLocation)
        let tasks = try #require(ledger["tasks"] as? [[String: Any]], sourceLocation: sourceLocation)
        #expect(tasks.map { $0["identifier"] as? Int } == [1, 1, 2], sourceLocation: sourceLocation)
        #expect(tasks.map { $0["sessionID"] as? String } == ["news-refresh", player, player], sourceLocation: sourceLocation)
        #expect(tasks[0]["partialFile"] is NSNull, sourceLocation: sourceLocation)
        let first = try #require(tasks[1]["partialFile"] as? [String: Any], sourceLocation: sourceLocation)
        #expect(first["column"] as? String == "path_to_download_task_file", sourceLocation: sourceLocation)
        #expect(first["devicePath"] as? String == "/\(playerContainer)/\(downloads)/CFNetworkDownload_d8md6s.tmp", sourceLocation: sourceLocation)
        #expect(first["path"] as? String == partial, sourceLocation: sourceLocation)
        #expect(first["size"] as? Int == 4096, sourceLocation: sourceLocation)
        #expect(first["comparison"] as? String == "as received", sourceLocation: sourceLocation)
        #expect(first["problem"] is NSNull, sourceLocation: sourceLocation)
        let second = try #require(tasks[2]["partialFile"] as? [String: Any], sourceLocation: sourceLocation)
        #expect(second["column"] as? String == "download_file_url", sourceLocation: sourceLocation)
        #expect(second["path"] as? String == missing, sourceLocation: sourceLocation)
        #expect(second["size"] is NSNull, sourceLocation: sourceLocation)
        #expect(second["problem"] as? String == why, sourceLocation: sourceLocation)
        let sessions = try #require(ledger["sessions"] as? [[String: Any]], sourceLocation: sourceLocation)
        #expect(sessions.map { $0["sessionID"] as? String } == ["news-refresh", player], sourceLocation: sourceLocation)
        #expect(sessions[1]["lastDisconnectDate"] as? String == "2025-11-28T05:28:20Z", sourceLocation: sourceLocation)
    }

    // MARK: Backups

    @Test func aLedgerInAPlainBackup() throws {
        let backup = try BackupScanTests.Backup(["--ledger", "checkpointed"])
        let inner = "HomeDomain/" + Self.ledgerInner
        let partial = "AppDomain-com.example.player/\(Self.downloads)/CFNetworkDownload_d8md6s.tmp"
        let result = try backup.run(["scan", "--json", "backup"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let document = try Self.json(result)
        try Self.expectLedger(document, database: inner, source: ["kind": "backup", "root": "backup", "inner": inner], warnings: [],
                              partial: partial, missing: "AppDomain-com.example.player/\(Self.downloads)/CFNetworkDownload_AbC123.tmp",
                              why: Self.notInBackup)
        // The partial file the ledger names is paired, not an orphan.
        #expect((document["orphanPartialFiles"] as? [Any])?.count == 0)

        let text = try backup.run(["scan", "backup"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("""

            nsurlsessiond ledger \(inner) in backup backup (schema version 3):
              com.example.news, session news-refresh, task 1 (data, completed): https://news.example.com/feed.json
              com.example.player, session \(Self.player), task 1 (download, running): https://media.example.com/podcasts/episode-42.mp3
                partial file: \(partial), 4,096 bytes (4.0 KiB), as received
              com.example.player, session \(Self.player), task 2 (download, suspended): https://media.example.com/podcasts/episode-43.mp3
                partial file: AppDomain-com.example.player/\(Self.downloads)/CFNetworkDownload_AbC123.tmp: \(Self.notInBackup)

            10 files scanned: 3 blobs, 3 ledger tasks, 0 orphan partial files, 0 errors

            """), "\(text.stdout)")

        // A backup without the ledger has no ledgers key, as before.
        let without = try BackupScanTests.Backup()
        let plain = try Self.json(try without.run(["scan", "--json", "backup"]))
        #expect(plain["ledgers"] == nil)
    }

    @Test(arguments: ["wal-only", "empty-main"])
    func aLedgerInAnEncryptedBackupIsDecryptedInMemory(layout: String) throws {
        let backup = try BackupScanTests.Backup(["--ledger", layout, "--password", BackupScanTests.password, "--dpic", "1000", "--iter", "100"])
        let inner = "HomeDomain/" + Self.ledgerInner
        let passwordFile = try backup.writePassword(BackupScanTests.password)
        let before = try backup.snapshot()
        // Decrypted bytes go only into EvidenceDatabase's private folder, removed at once.
        let temporary = backup.directory.path("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let result = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"),
                                            ["TMPDIR=\(temporary)", ToolRunner.executable.path, "scan", "--json", "--password-file", passwordFile, "backup"],
                                            in: backup.directory.url)
        #expect(result.status == 0)
        #expect(String(decoding: result.stderr, as: UTF8.self) == "")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == [])
        #expect(try backup.snapshot() == before)
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        try Self.expectLedger(document, database: inner, source: ["kind": "encrypted-backup", "root": "backup", "inner": inner],
                              warnings: layout == "empty-main" ? [Self.walAlone] : [],
                              partial: "AppDomain-com.example.player/\(Self.downloads)/CFNetworkDownload_d8md6s.tmp",
                              missing: "AppDomain-com.example.player/\(Self.downloads)/CFNetworkDownload_AbC123.tmp", why: Self.notInBackup)
        #expect((document["orphanPartialFiles"] as? [Any])?.count == 0)
        let text = try backup.run(["scan", "--password-file", passwordFile, "backup"])
        #expect(text.stdout.contains("nsurlsessiond ledger \(inner) in encrypted backup backup (schema version 3):\n"))
        #expect(text.stdout.hasSuffix("10 files scanned: 3 blobs, 3 ledger tasks, 0 orphan partial files, 0 errors\n"))

        // Without the password the ledger is not read, as no other file is.
        let locked = try backup.run(["scan", "--json", "backup"])
        #expect(try Self.json(locked)["ledgers"] == nil)
    }

    // MARK: Archives

    @Test(arguments: [("zip", "checkpointed", false), ("tar.gz", "checkpointed", true), ("tar", "wal-only", true),
                      ("zip", "wal-only", false), ("tar.gz", "empty-main", false)])
    func aLedgerInAnArchive(format: String, layout: String, walFirst: Bool) throws {
        let extraction = try ArchiveScanTests.Extraction(["--formats", format, "--ledger", layout, "--no-tree"] + (walFirst ? ["--wal-first"] : []))
        let name = "extraction.\(format)"
        let (result, document) = try extraction.json(name)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let database = "filesystem1/private/var/mobile/" + Self.ledgerInner
        let container = "filesystem1/" + Self.playerContainer
        try Self.expectLedger(document, database: database, source: ["kind": "archive", "root": name, "inner": database],
                              warnings: layout == "empty-main" ? [Self.walAlone] : [],
                              partial: "\(container)/\(Self.downloads)/CFNetworkDownload_d8md6s.tmp",
                              missing: "\(container)/\(Self.downloads)/CFNetworkDownload_AbC123.tmp", why: "not in the archive")
        // Only the partial file no blob and no task names stays an orphan.
        #expect((document["orphanPartialFiles"] as? [[String: Any]])?.map { $0["path"] as? String } == [
            "filesystem1/\(ArchiveScanTests.app)/Library/Caches/com.apple.nsurlsessiond/Downloads/com.example.app/CFNetworkDownload_a1B2c3.tmp",
        ])
        // The blobs are those of the extraction without a ledger.
        #expect((document["blobs"] as? [Any])?.count == 4)
        let text = try extraction.scan([name])
        #expect(text.stdout.contains("""
            nsurlsessiond ledger \(database) in archive \(name) (schema version 3):
              com.example.news, session news-refresh, task 1 (data, completed): https://news.example.com/feed.json
              com.example.player, session \(Self.player), task 1 (download, running): https://media.example.com/podcasts/episode-42.mp3
                partial file: \(container)/\(Self.downloads)/CFNetworkDownload_d8md6s.tmp, 4,096 bytes (4.0 KiB), as received
              com.example.player, session \(Self.player), task 2 (download, suspended): https://media.example.com/podcasts/episode-43.mp3
                partial file: \(container)/\(Self.downloads)/CFNetworkDownload_AbC123.tmp: not in the archive
            \(layout == "empty-main" ? "  warning: \(Self.walAlone)\n" : "")
            """), "\(text.stdout)")
        #expect(text.stdout.hasSuffix("14 files scanned: 4 blobs, 3 ledger tasks, 1 orphan partial file, 0 errors\n"))
    }

    @Test func hostileLedgerMembersAreReportedAndTheScanGoesOn() throws {
        let database = "filesystem1/private/var/mobile/" + Self.ledgerInner
        let cases: [(kind: String, message: String?)] = [
            ("ledger-large", "member 7: nsurlsessiond's ledger: 68255744 bytes, over the limit of 67108864 that a ledger and its WAL may hold in memory: not read"),
            ("ledger-corrupt", "member 7: nsurlsessiond's ledger: not a readable SQLite database: file is not a database"),
            ("wal-orphan", nil),
        ]
        for (kind, message) in cases {
            let extraction = try ArchiveScanTests.Extraction(["--hostile", kind])
            let (result, document) = try extraction.json("hostile.tar")
            #expect(result.status == 0, "\(kind)")
            #expect(document["ledgers"] == nil, "\(kind)")
            // The blob after the member is found all the same.
            #expect((document["blobs"] as? [[String: Any]])?.map { $0["path"] as? String } == [
                "filesystem1/private/var/mobile/Library/Caches/after.resumedata",
            ], "\(kind)")
            let errors = try #require(document["errors"] as? [[String: String]])
            #expect(errors == (message.map { [["path": database, "message": $0]] } ?? []), "\(kind)")
            let text = try extraction.scan(["hostile.tar"])
            #expect(text.status == 0)
            #expect(text.stderr == (message.map { "\(database): error: \($0)\n" } ?? ""), "\(kind)")
            #expect(text.stdout.hasSuffix("2 files scanned: 1 blob, 0 orphan partial files, \(message == nil ? 0 : 1) error\(message == nil ? "s" : "")\n"),
                    "\(kind): \(text.stdout)")
        }
    }

    // MARK: Folders

    @Test(arguments: ["wal-only", "empty-main"])
    func aLedgerWhoseSchemaIsOnlyInItsWALIsFoundInAFolder(layout: String) throws {
        let folder = try TemporaryDirectory()
        let made = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"),
                                          ["python3", TasksCommandTests.generator, folder.path("extraction"), "--version", "3", "--layout", layout])
        #expect(made.status == 0)
        let mainSize = try FileManager.default.attributesOfItem(atPath: folder.path(TasksCommandTests.ledger))[.size] as? Int
        #expect(mainSize == (layout == "wal-only" ? 4096 : 0))
        let result = try EndToEnd.run(["scan", "--json", "extraction"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let document = try Self.json(result)
        let inner = String(TasksCommandTests.ledger.dropFirst("extraction/".count))
        try Self.expectLedger(document, database: TasksCommandTests.ledger, source: ["kind": "folder", "root": "extraction", "inner": inner],
                              warnings: layout == "empty-main" ? [Self.walAlone] : [],
                              partial: "extraction/\(Self.playerContainer)/\(Self.downloads)/CFNetworkDownload_d8md6s.tmp",
                              missing: "extraction/\(Self.playerContainer)/\(Self.downloads)/CFNetworkDownload_AbC123.tmp", why: "not in the extraction")
        #expect((document["orphanPartialFiles"] as? [Any])?.count == 0)
    }

    @Test func aWALWithoutItsDatabaseAndEmptyFilesAreNotLedgers() throws {
        let folder = try TemporaryDirectory()
        let made = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"),
                                          ["python3", TasksCommandTests.generator, folder.path("extraction"), "--version", "3", "--layout", "wal-only"])
        #expect(made.status == 0)
        // The WAL alone; an empty file beside a WAL that is not one; an empty file beside nothing.
        try FileManager.default.removeItem(atPath: folder.path(TasksCommandTests.ledger))
        try Data().write(to: folder.url.appendingPathComponent("other.db"))
        try Data("not a WAL at all".utf8).write(to: folder.url.appendingPathComponent("other.db-wal"))
        try Data().write(to: folder.url.appendingPathComponent("empty"))
        let result = try EndToEnd.run(["scan", "--json", "."], in: folder.url)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let document = try Self.json(result)
        #expect(document["ledgers"] == nil)
        #expect((document["errors"] as? [Any])?.count == 0)
        // The partial file no ledger names any more is an orphan again.
        #expect((document["orphanPartialFiles"] as? [[String: Any]])?.map { $0["path"] as? String } == [
            "./extraction/\(Self.playerContainer)/\(Self.downloads)/CFNetworkDownload_d8md6s.tmp",
        ])
    }
}
