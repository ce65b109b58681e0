import Foundation
import Testing

/// `resumetool scan` on a real device's backup rows: the `Manifest.db` and stored file published
/// by greatvovan/ios-backup-browser under the MIT License (`Backups/ios-backup-browser/SOURCE.md`),
/// a backup as forensic copies come: no `Manifest.plist`, `Status.plist` or `Info.plist`, a
/// desktop-trimmed database in WAL mode, the device's own `MBFile` records. Every scan runs on a
/// copy, and the copy is left byte for byte as it was.
@Suite struct RealBackupTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Backups/ios-backup-browser")
    static let stored = "12/12e90d5b620bbdeaaa88de34607ebf880fa708f5"
    static let preferences = "AppDomain-com.google.Translate/Library/Preferences/com.google.Translate.plist"
    static let noPlists = "no Manifest.plist: Manifest.db's first bytes say whether the backup is encrypted; no Info.plist either: the device is unknown"
    /// The times of the preferences plist's record, as the device wrote them (1682109153).
    static let recordTime = "2023-04-21T20:32:33Z"

    /// The fixture copied into a fresh folder as `backup`.
    final class Copy {
        let directory: TemporaryDirectory
        var root: URL { directory.url.appendingPathComponent("backup") }

        init() throws {
            directory = try TemporaryDirectory()
            try FileManager.default.copyItem(at: RealBackupTests.fixture, to: root)
            for extra in ["LICENSE", "SOURCE.md"] { try FileManager.default.removeItem(at: root.appendingPathComponent(extra)) }
        }

        func scan(_ arguments: [String] = []) throws -> ToolRunner.Result {
            try ToolRunner.run(["scan"] + arguments + ["backup"], in: directory.url)
        }

        /// Runs a Python program (plistlib, sqlite3) on the copy, with the copy as its folder.
        func python(_ program: String, _ arguments: [String] = []) throws {
            let result = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", program] + arguments, in: root)
            try #require(result.status == 0, "python3: \(String(decoding: result.stderr, as: UTF8.self))")
        }

        /// The stored preferences plist with a real resume blob added at `pendingDownloadResumeData`,
        /// written back as a binary plist by plistlib, as the app's NSUserDefaults would hold it.
        func plantBlob() throws {
            try python("""
                import plistlib, sys
                values = plistlib.load(open(sys.argv[1], 'rb'))
                values['pendingDownloadResumeData'] = open(sys.argv[2], 'rb').read()
                plistlib.dump(values, open(sys.argv[1], 'wb'), fmt=plistlib.FMT_BINARY)
                """, [RealBackupTests.stored, EndToEnd.samples.appendingPathComponent("ios12-keyed-archive.resumedata").path])
        }

        func size(_ relative: String) throws -> Int {
            try #require(try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(relative).path)[.size] as? Int)
        }

        /// What a scan must not change (``BackupScanTests/snapshot(of:)``).
        func snapshot() throws -> [String: String] { try BackupScanTests.snapshot(of: root) }
    }

    /// As published: one regular file among six rows (a symlink and four folders are not files),
    /// no resume data in it, the missing plists said once, and nothing written beside the WAL-mode
    /// database (no `-wal`, no `-shm`).
    @Test func asPublished() throws {
        let copy = try Copy()
        let before = try copy.snapshot()
        let result = try copy.scan(["--json"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let top = try BackupScanTests.json(result)
        #expect((top["blobs"] as? [Any])?.isEmpty == true)
        #expect((top["errors"] as? [Any])?.isEmpty == true)
        let backup = try #require((top["backups"] as? [[String: Any]])?.first)
        #expect(backup["encrypted"] as? Bool == false)
        #expect(backup["files"] as? Int == 1)
        #expect(backup["missingFiles"] as? Int == 0)
        #expect(backup["unreadFiles"] as? Int == 0)
        #expect(backup["warnings"] as? [String] == [Self.noPlists])

        let text = try copy.scan()
        #expect(text.status == 0)
        #expect(text.stdout == "backup backup: unnamed device\n  warning: \(Self.noPlists)\n\n1 file scanned: 0 blobs, 0 orphan partial files, 0 errors\n")
        #expect(try copy.snapshot() == before)
    }

    /// A resume blob in the app's real preferences plist is found with the bundle ID, the key path
    /// and the device's record: its times and mode. The stored copy is now longer than the record's
    /// Size: the size reported is the copy's (the digest is of the copy), and a note says so.
    @Test func aBlobInTheAppsPreferences() throws {
        let copy = try Copy()
        try copy.plantBlob()
        let storedSize = try copy.size(Self.stored)
        #expect(storedSize != 1562)
        let before = try copy.snapshot()
        let result = try copy.scan(["--json"])
        #expect(result.status == 0)
        let top = try BackupScanTests.json(result)
        let blob = try #require((top["blobs"] as? [[String: Any]])?.first)
        #expect(blob["path"] as? String == Self.preferences)
        #expect(blob["keyPath"] as? String == "pendingDownloadResumeData")
        #expect(blob["bundleID"] as? String == "com.google.Translate")
        #expect(blob["appContainer"] as? String == "AppDomain-com.google.Translate")
        #expect(blob["container"] as? String == "keyed-archive")
        #expect(blob["modified"] as? String == Self.recordTime)
        #expect(blob["changed"] as? String == Self.recordTime)
        #expect(blob["created"] as? String == Self.recordTime)
        #expect(blob["mode"] as? String == "100600")
        #expect(blob["size"] as? Int == storedSize)
        let findings = try #require(blob["findings"] as? [[String: Any]])
        #expect(findings.map { $0["code"] as? String } == ["temp-file-missing"])
        #expect(findings.map { $0["severity"] as? String } == ["note"])
        let errors = try #require(top["errors"] as? [[String: Any]])
        #expect(errors.map { $0["path"] as? String } == [Self.preferences])
        #expect(errors.map { $0["message"] as? String } == [
            "its stored copy is \(storedSize) bytes, its MBFile record says 1562: the size and digest here are the copy's, the times the record's",
        ])
        #expect(try copy.snapshot() == before)
    }

    /// The record's Size made the copy's (the archive re-written by plistlib, every other field
    /// the device's): the size is the record's and no note is written.
    @Test func aBlobWhoseRecordMatchesItsCopy() throws {
        let copy = try Copy()
        try copy.plantBlob()
        let storedSize = try copy.size(Self.stored)
        try copy.python("""
            import plistlib, sqlite3, sys
            database = sqlite3.connect('Manifest.db')
            (record,) = database.execute('select file from Files where fileID = ?', (sys.argv[1],)).fetchone()
            archive = plistlib.loads(record)
            archive['$objects'][archive['$top']['root'].data]['Size'] = int(sys.argv[2])
            database.execute('update Files set file = ? where fileID = ?', (plistlib.dumps(archive, fmt=plistlib.FMT_BINARY), sys.argv[1]))
            database.commit()
            database.close()
            """, [String(Self.stored.dropFirst(3)), String(storedSize)])
        let top = try BackupScanTests.json(try copy.scan(["--json"]))
        let blob = try #require((top["blobs"] as? [[String: Any]])?.first)
        #expect(blob["size"] as? Int == storedSize)
        #expect(blob["modified"] as? String == Self.recordTime)
        #expect((top["errors"] as? [Any])?.isEmpty == true)
    }

    /// The stored file gone: its row is still counted among the files listed, as missing, and is
    /// said in the summary's lines, exit 0.
    @Test func aStoredFileMissing() throws {
        let copy = try Copy()
        try FileManager.default.removeItem(at: copy.root.appendingPathComponent(Self.stored))
        let result = try copy.scan(["--json"])
        #expect(result.status == 0)
        let backup = try #require((try BackupScanTests.json(result)["backups"] as? [[String: Any]])?.first)
        #expect(backup["files"] as? Int == 1)
        #expect(backup["missingFiles"] as? Int == 1)
        let text = try copy.scan()
        #expect(text.status == 0)
        #expect(text.stdout == """
            backup backup: unnamed device
              warning: \(Self.noPlists)
              1 of 1 file listed in Manifest.db is not in this folder: an incomplete copy?
                \(Self.preferences)

            0 files scanned: 0 blobs, 0 orphan partial files, 1 error

            """)
    }
}
