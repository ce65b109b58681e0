import Foundation
import Testing
@testable import ResumeDataCodec

/// `resumetool scan` on iTunes/Finder backups built by `Backups/make_backup.py` (forensic-formats
/// §2) around the repository's samples: plain and encrypted (the same findings, decrypted in
/// memory), the device, the hostile rows, a wrong password, no password, absurd keybag counts,
/// a damaged Manifest.db, an iOS 9 backup, and the evidence left byte for byte as it was.
@Suite struct BackupScanTests {
    static let generator = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Backups/make_backup.py")
    static let password = "pass word"
    static let app = "AppDomain-com.example.app"
    static let group = "AppDomainGroup-group.com.example.shared"
    static let downloadsBlob = "\(app)/Library/Application Support/downloads/5d41402abc4b2a76b9719d911017c592"
    static let preferences = "\(app)/Library/Preferences/com.example.app.plist"
    static let groupPreferences = "\(group)/Library/Preferences/group.com.example.shared.plist"
    static let partial = "\(app)/tmp/CFNetworkDownload_Occ2S2.tmp"
    /// SHA-256 of Samples/ios12-keyed-archive.resumedata and Samples/CFNetworkDownload_Occ2S2.tmp.
    static let downloadsSHA256 = "b64e8d5ed30de6813d476387c429ce87fb03c5a3be0fd32303007f2f0ebc7095"
    static let partialSHA256 = "d41d438c379110c7f7b2c561b1f04f26c1b4549110791f8e022f48974280c13e"

    /// A backup made by the generator in a fresh folder, named `backup`.
    final class Backup {
        let directory: TemporaryDirectory
        var root: URL { directory.url.appendingPathComponent("backup") }

        init(_ arguments: [String] = []) throws {
            directory = try TemporaryDirectory()
            let made = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"),
                                              ["python3", BackupScanTests.generator.path, root.path] + arguments)
            try #require(made.status == 0, "make_backup.py: \(String(decoding: made.stderr, as: UTF8.self))")
        }

        func run(_ arguments: [String]) throws -> ToolRunner.Result {
            try ToolRunner.run(arguments, in: directory.url)
        }

        func writePassword(_ text: String) throws -> String {
            let path = directory.path("password.txt")
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }

        /// Every file below the backup with its bytes, mode and modification time: what a scan must not change.
        func snapshot() throws -> [String: String] { try BackupScanTests.snapshot(of: root) }
    }

    /// Every file below `root` with its bytes, mode and modification time.
    static func snapshot(of root: URL) throws -> [String: String] {
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        while let relative = enumerator?.nextObject() as? String {
            let path = root.appendingPathComponent(relative).path
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let data = (attributes[.type] as? FileAttributeType) == .typeRegular ? try Data(contentsOf: URL(fileURLWithPath: path)) : Data()
            files[relative] = "\(data.base64EncodedString()) \(attributes[.posixPermissions] ?? "") \(attributes[.modificationDate] ?? "")"
        }
        return files
    }

    static func json(_ result: ToolRunner.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// `sha256sum` of the stored copy of a plain backup's file: the generator's plists come from
    /// Python's plistlib, so their digest is taken from the file rather than written here.
    static func storedSHA256(_ backup: Backup, domain: String, relativePath: String) throws -> String {
        let fileID = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"),
                                            ["python3", "-c", "import hashlib,sys; print(hashlib.sha1(sys.argv[1].encode()).hexdigest())",
                                             "\(domain)-\(relativePath)"])
        let id = String(decoding: fileID.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let sum = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"), ["sha256sum", backup.root.appendingPathComponent("\(id.prefix(2))/\(id)").path])
        return String(String(decoding: sum.stdout, as: UTF8.self).prefix(64))
    }

    /// The blobs as both kinds of backup must report them, `kind` and all.
    static func checkBlobs(_ top: [String: Any], kind: String, preferencesSHA256: String, groupSHA256: String, root: String = "backup") throws {
        let blobs = try #require(top["blobs"] as? [[String: Any]])
        #expect(blobs.map { $0["path"] as? String } == [downloadsBlob, preferences, groupPreferences])
        #expect(blobs.map { $0["keyPath"] as? String } == [nil, "pending[0].resumeData", "lastTask.resumeData"])
        #expect(blobs.map { $0["appContainer"] as? String } == [app, app, group])
        #expect(blobs.map { $0["bundleID"] as? String } == ["com.example.app", "com.example.app", "group.com.example.shared"])
        #expect(blobs.map { $0["container"] as? String } == ["keyed-archive", "xml", "nwurlsession"])
        #expect(blobs.map { $0["sha256"] as? String } == [downloadsSHA256, preferencesSHA256, groupSHA256])
        #expect(blobs.map { $0["size"] as? Int } == [4548, 5482, 3047])
        // The MBFile's times, not the stored copy's.
        #expect(blobs.map { $0["modified"] as? String } == Array(repeating: "2026-01-02T03:04:05Z", count: 3))
        #expect(blobs.map { $0["changed"] as? String } == Array(repeating: "2026-01-01T00:00:00Z", count: 3))
        #expect(blobs.map { $0["created"] as? String } == Array(repeating: "2025-12-31T00:00:00Z", count: 3))
        #expect(blobs.map { $0["mode"] as? String } == Array(repeating: "100644", count: 3))
        for blob in blobs {
            let source = try #require(blob["source"] as? [String: Any])
            #expect(source["kind"] as? String == kind)
            #expect(source["root"] as? String == root)
            #expect(source["inner"] as? String == blob["path"] as? String)
        }
        #expect(blobs.map { $0["downloadURL"] as? String } == [
            "https://downloads.example.com/releases/Example-2.4.1.dmg",
            "http://sw.bos.baidu.com/sw-search-sp/software/78ff35549b3e6/QQ_mac_5.5.0.dmg",
            "http://sw.bos.baidu.com/sw-search-sp/software/78ff35549b3e6/QQ_mac_5.5.0.dmg",
        ])
        // The keyed archive's TempFileName names the partial file in the app domain's tmp/.
        let partialFile = try #require(blobs[0]["partialFile"] as? [String: Any])
        #expect(partialFile["path"] as? String == partial)
        #expect(partialFile["size"] as? Int == 4096)
        #expect(partialFile["sha256"] as? String == partialSHA256)
        #expect(partialFile["modified"] as? String == "2026-01-02T03:04:05Z")
        #expect(partialFile["created"] as? String == "2025-12-31T00:00:00Z")
        #expect((partialFile["source"] as? [String: Any])?["inner"] as? String == partial)
        #expect((blobs[0]["findings"] as? [Any])?.isEmpty == true)
        // The real iOS 10.1 blob: its own findings, and a partial file shorter than it says.
        let findings = try #require(blobs[1]["findings"] as? [[String: Any]])
        #expect(findings.map { $0["code"] as? String } == ["ios10-request-archive", "ios10-request-archive", "temp-file-size"])
        #expect(findings.last?["message"] as? String
                == "the partial file \(partial) has 4096 bytes, fewer than the 2339054 received")
        #expect(blobs[2]["partialFile"] is NSNull)
        #expect((top["orphanPartialFiles"] as? [Any])?.isEmpty == true)
    }

    static func checkDevice(_ top: [String: Any], encrypted: Bool, files: Int, unread: Int, root: String = "backup") throws {
        let device = try #require(top["device"] as? [String: Any])
        #expect(device["name"] as? String == "Examiner's iPhone")
        #expect(device["model"] as? String == "iPhone17,1")
        #expect(device["iOSVersion"] as? String == "18.2")
        #expect(device["build"] as? String == "22C152")
        #expect(device["serial"] as? String == "F17ZX0EXAMPL")
        #expect(device["udid"] as? String == "00008140-001A2B3C4D5E6F70")
        let backups = try #require(top["backups"] as? [[String: Any]])
        try #require(backups.count == 1)
        #expect(backups[0]["root"] as? String == root)
        #expect(backups[0]["encrypted"] as? Bool == encrypted)
        #expect(backups[0]["files"] as? Int == files)
        #expect(backups[0]["unreadFiles"] as? Int == unread)
    }

    @Test func plainBackup() throws {
        let backup = try Backup()
        let before = try backup.snapshot()
        let result = try backup.run(["scan", "--json", "backup/"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let top = try Self.json(result)
        #expect(Set(top.keys) == ["blobs", "orphanPartialFiles", "errors", "backups", "device"])
        try Self.checkBlobs(top, kind: "backup",
                            preferencesSHA256: try Self.storedSHA256(backup, domain: Self.app, relativePath: "Library/Preferences/com.example.app.plist"),
                            groupSHA256: try Self.storedSHA256(backup, domain: Self.group, relativePath: "Library/Preferences/group.com.example.shared.plist"))
        try Self.checkDevice(top, encrypted: false, files: 7, unread: 0)
        #expect((top["errors"] as? [Any])?.isEmpty == true)
        #expect(try backup.snapshot() == before)
    }

    @Test func encryptedBackup() throws {
        let plain = try Backup()
        let backup = try Backup(["--password", Self.password, "--dpic", "1000", "--iter", "100"])
        let before = try backup.snapshot()
        let passwordFile = try backup.writePassword(Self.password + "\n")
        // A private TMPDIR: the decrypted Manifest.db lives only in EvidenceDatabase's 0700 folder, removed at the end.
        let temporary = backup.directory.path("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let output = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"),
                                            ["TMPDIR=\(temporary)", ToolRunner.executable.path, "scan", "--json", "--password-file", passwordFile, "backup"],
                                            in: backup.directory.url)
        let result = ToolRunner.Result(status: output.status, stdout: String(decoding: output.stdout, as: UTF8.self),
                                       stderr: String(decoding: output.stderr, as: UTF8.self))
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let top = try Self.json(result)
        // The decrypted files are the plain backup's, byte for byte.
        try Self.checkBlobs(top, kind: "encrypted-backup",
                            preferencesSHA256: try Self.storedSHA256(plain, domain: Self.app, relativePath: "Library/Preferences/com.example.app.plist"),
                            groupSHA256: try Self.storedSHA256(plain, domain: Self.group, relativePath: "Library/Preferences/group.com.example.shared.plist"))
        try Self.checkDevice(top, encrypted: true, files: 7, unread: 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == [])
        #expect(try backup.snapshot() == before)

        // The text report names the backup and its device.
        let text = try backup.run(["scan", "--password-file", passwordFile, "backup"])
        #expect(text.status == 0)
        #expect(text.stdout.hasPrefix("""
            backup backup: encrypted, Examiner's iPhone (iPhone17,1, iOS 18.2 22C152, serial F17ZX0EXAMPL)

            AppDomain-com.example.app:
              Library/Application Support/downloads/5d41402abc4b2a76b9719d911017c592
                bundle ID:        com.example.app
                container:        keyed-archive

            """))
        #expect(text.stdout.hasSuffix("\n7 files scanned: 3 blobs, 0 orphan partial files, 0 errors\n"))
    }

    @Test func wrongPassword() throws {
        let backup = try Backup(["--password", Self.password, "--dpic", "1000", "--iter", "100"])
        let result = try backup.run(["scan", "--password-file", try backup.writePassword("pass Word"), "backup"])
        #expect(result.status == 2)
        #expect(result.stderr == "backup: error: wrong password: it does not unlock the backup's keybag\n")
        #expect(result.stdout == """
            backup backup: encrypted, Examiner's iPhone (iPhone17,1, iOS 18.2 22C152, serial F17ZX0EXAMPL)

            0 files scanned: 0 blobs, 0 orphan partial files, 1 error

            """)
    }

    /// Without a password (standard input is no terminal, so nothing is asked) the files are
    /// counted, not read, and the scan still succeeds.
    @Test func noPassword() throws {
        let backup = try Backup(["--password", Self.password, "--dpic", "1000", "--iter", "100"])
        let result = try backup.run(["scan", "backup"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == """
            backup backup: encrypted, Examiner's iPhone (iPhone17,1, iOS 18.2 22C152, serial F17ZX0EXAMPL)
              7 files left unread: the backup is encrypted; give its password with --password-file FILE

            0 files scanned: 0 blobs, 0 orphan partial files, 0 errors

            """)
        let top = try Self.json(try backup.run(["scan", "--json", "backup"]))
        try Self.checkDevice(top, encrypted: true, files: 7, unread: 7)
    }

    /// A keybag asking for more rounds than any iOS writes is refused before any derivation.
    @Test func absurdIterationCounts() throws {
        let dpic = try Backup(["--password", Self.password, "--dpic", "1000", "--iter", "100", "--keybag-dpic", "4000000000"])
        let result = try dpic.run(["scan", "--password-file", try dpic.writePassword(Self.password), "backup"])
        #expect(result.status == 2)
        #expect(result.stderr == "backup: error: its keybag cannot be used: DPIC is 4000000000, more than the 20000000 this tool accepts\n")
        let iterations = try Backup(["--password", Self.password, "--dpic", "1000", "--iter", "100", "--keybag-iter", "1000001"])
        let other = try iterations.run(["scan", "--password-file", try iterations.writePassword(Self.password), "backup"])
        #expect(other.status == 2)
        #expect(other.stderr == "backup: error: its keybag cannot be used: ITER is 1000001, more than the 1000000 this tool accepts\n")
    }

    /// A relativePath that climbs out with `../`, a row whose file is missing, a record that is
    /// no keyed archive: each reported, none followed, the rest scanned.
    @Test func hostileRows() throws {
        let backup = try Backup(["--hostile"])
        let result = try backup.run(["scan", "--json", "backup"])
        #expect(result.status == 0)
        let top = try Self.json(result)
        let errors = try #require(top["errors"] as? [[String: Any]])
        #expect(errors.map { $0["path"] as? String } == [
            "\(Self.app)/../../../etc/escape.plist",
            "\(Self.app)/Library/Preferences/bad-record.plist",
            "\(Self.app)/Library/Preferences/missing.plist",
        ])
        #expect(errors.map { $0["message"] as? String } == [
            "skipped: its relativePath leaves its domain (fileID c7aec62664a375f85f3d2213ae35d28597157a08)",
            "its MBFile record is no keyed archive: 1:1: not a property list: expected XML (<plist> or a value) or binary data starting with bplist00; its size and time here are the stored copy's",
            "missing from the backup: no file f0/f07de343ad0700c312531114c56112872f17c6d6",
        ])
        let blobs = try #require(top["blobs"] as? [[String: Any]])
        #expect(blobs.map { $0["path"] as? String } == [
            Self.downloadsBlob, "\(Self.app)/Library/Preferences/bad-record.plist", Self.preferences, Self.groupPreferences,
        ])
        // The damaged record's blob is still read; its times are the stored copy's (set by the generator).
        #expect(blobs[1]["sha256"] as? String == Self.downloadsSHA256)
        #expect(blobs[1]["created"] is NSNull)
        #expect(blobs[1]["modified"] as? String == "2026-01-02T03:04:05Z")

        // In an encrypted backup a damaged record leaves the file unreadable: its key is in it.
        let encrypted = try Backup(["--hostile", "--password", Self.password, "--dpic", "1000", "--iter", "100"])
        let other = try encrypted.run(["scan", "--json", "--password-file", try encrypted.writePassword(Self.password), "backup"])
        let otherErrors = try #require(try Self.json(other)["errors"] as? [[String: Any]])
        #expect(otherErrors.map { $0["message"] as? String } == [
            "skipped: its relativePath leaves its domain (fileID c7aec62664a375f85f3d2213ae35d28597157a08)",
            "cannot decrypt: its MBFile record is no keyed archive: 1:1: not a property list: expected XML (<plist> or a value) or binary data starting with bplist00",
            "missing from the backup: no file f0/f07de343ad0700c312531114c56112872f17c6d6",
        ])
    }

    /// Backups never hold `tmp/` (nor `Library/Caches/`): a blob's partial file there is absent
    /// as expected, a note and not an error, as for nsurlsessiond's ledger tasks. A file of that
    /// name in another domain's `tmp/` is named.
    @Test func partialFilesInTmpAreNotesInABackup() throws {
        let note = "note[temp-file-missing] NSURLSessionResumeInfoTempFileName: the partial file %@ is not in the backup "
            + "(backups leave out tmp: expected, not an error)"
        func said(_ domain: String) -> String { note.replacingOccurrences(of: "%@", with: "\(domain)/tmp/CFNetworkDownload_Occ2S2.tmp") }
        let backup = try Backup(["--no-tmp"])
        let result = try backup.run(["scan", "--json", "backup"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let blobs = try #require(try Self.json(result)["blobs"] as? [[String: Any]])
        let findings = blobs.map { blob in
            (blob["findings"] as? [[String: Any]] ?? []).map { "\($0["severity"] as? String ?? "")[\($0["code"] as? String ?? "")] \($0["key"] as? String ?? ""): \($0["message"] as? String ?? "")" }
        }
        #expect(findings.map { $0.last } == [said(Self.app), said(Self.app), said(Self.group)])
        #expect(findings.map(\.count) == [1, 3, 1])

        let text = try backup.run(["scan", "backup"])
        #expect(text.stdout.contains("\n      " + said(Self.group) + "\n"))
        #expect(text.stdout.hasSuffix("\n6 files scanned: 3 blobs, 0 orphan partial files, 0 errors\n"))

        // With the app's tmp/ file there (as the generator keeps it by default), the group's blob names it.
        let full = try Backup().run(["scan", "--json", "backup"])
        let fullBlobs = try #require(try Self.json(full)["blobs"] as? [[String: Any]])
        #expect((fullBlobs[2]["findings"] as? [[String: Any]])?.map { $0["message"] as? String } == [
            "the partial file \(Self.group)/tmp/CFNetworkDownload_Occ2S2.tmp is not in the backup (backups leave out tmp: expected, not an error); "
                + "a file of that name is at \(Self.partial)",
        ])
    }

    static let noManifestPlist = "no Manifest.plist: Manifest.db's first bytes say whether the backup is encrypted, Info.plist names the device"

    /// What forensic tools keep of a backup: `Manifest.db`, a binary `Info.plist` and the files,
    /// no `Manifest.plist` and no `Status.plist`. Encryption is told from `Manifest.db`'s header,
    /// the device from `Info.plist`, and a warning says so.
    @Test func forensicCopyWithoutManifestPlist() throws {
        let backup = try Backup(["--forensic-copy"])
        #expect(!FileManager.default.fileExists(atPath: backup.root.appendingPathComponent("Manifest.plist").path))
        #expect(!FileManager.default.fileExists(atPath: backup.root.appendingPathComponent("Status.plist").path))
        #expect(try Data(contentsOf: backup.root.appendingPathComponent("Info.plist")).prefix(8) == Data("bplist00".utf8))
        let before = try backup.snapshot()
        let result = try backup.run(["scan", "--json", "backup"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let top = try Self.json(result)
        try Self.checkBlobs(top, kind: "backup",
                            preferencesSHA256: try Self.storedSHA256(backup, domain: Self.app, relativePath: "Library/Preferences/com.example.app.plist"),
                            groupSHA256: try Self.storedSHA256(backup, domain: Self.group, relativePath: "Library/Preferences/group.com.example.shared.plist"))
        try Self.checkDevice(top, encrypted: false, files: 7, unread: 0)
        let backups = try #require(top["backups"] as? [[String: Any]])
        #expect(backups.first?["warnings"] as? [String] == [Self.noManifestPlist])
        #expect((top["errors"] as? [Any])?.isEmpty == true)

        let text = try backup.run(["scan", "backup"])
        #expect(text.status == 0)
        #expect(text.stderr == "")
        #expect(text.stdout.hasPrefix("""
            backup backup: Examiner's iPhone (iPhone17,1, iOS 18.2 22C152, serial F17ZX0EXAMPL)
              warning: \(Self.noManifestPlist)

            AppDomain-com.example.app:
              Library/Application Support/downloads/5d41402abc4b2a76b9719d911017c592
                bundle ID:        com.example.app

            """))
        #expect(text.stdout.hasSuffix("\n7 files scanned: 3 blobs, 0 orphan partial files, 0 errors\n"))
        #expect(try backup.snapshot() == before)

        // Without Info.plist too, the device is unknown and the blobs are still found.
        try FileManager.default.removeItem(at: backup.root.appendingPathComponent("Info.plist"))
        let bare = try backup.run(["scan", "backup"])
        #expect(bare.status == 0)
        #expect(bare.stdout.hasPrefix("""
            backup backup: unnamed device
              warning: no Manifest.plist: Manifest.db's first bytes say whether the backup is encrypted; no Info.plist either: the device is unknown

            """))
        #expect(bare.stdout.hasSuffix("\n7 files scanned: 3 blobs, 0 orphan partial files, 0 errors\n"))
    }

    /// An encrypted backup without `Manifest.plist` has lost its keybag: its `Manifest.db` is
    /// told encrypted by its first bytes and refused, with why, before any password is asked.
    @Test func encryptedForensicCopyWithoutManifestPlist() throws {
        let backup = try Backup(["--forensic-copy", "--password", Self.password, "--dpic", "1000", "--iter", "100"])
        let result = try backup.run(["scan", "--password-file", try backup.writePassword(Self.password), "backup"])
        #expect(result.status == 2)
        #expect(result.stderr == """
            backup: error: Manifest.db is encrypted (it is not empty and does not start with SQLite's header) and this folder has no Manifest.plist, \
            whose BackupKeyBag holds the keys that decrypt it: the backup cannot be decrypted, with or without its password

            """)
        #expect(result.stdout == """
            backup backup: encrypted, Examiner's iPhone (iPhone17,1, iOS 18.2 22C152, serial F17ZX0EXAMPL)
              warning: \(Self.noManifestPlist)

            0 files scanned: 0 blobs, 0 orphan partial files, 1 error

            """)
    }

    /// An incomplete copy: 1,000 rows whose stored file is absent make one counted line with
    /// three examples in text (not 1,000 diagnostics), every one in `--json` and `--jsonl`, exit 0.
    @Test func incompleteCopy() throws {
        let backup = try Backup(["--missing", "1000"])
        let text = try backup.run(["scan", "backup"])
        #expect(text.status == 0)
        #expect(text.stderr == "")
        // The 1,000 rows add five lines to what the same backup without them prints.
        let complete = try Backup().run(["scan", "backup"])
        func lineCount(_ result: ToolRunner.Result) -> Int { (result.stdout + result.stderr).split(separator: "\n").count }
        #expect(lineCount(text) - lineCount(complete) == 5)
        #expect(text.stdout.hasPrefix("""
            backup backup: Examiner's iPhone (iPhone17,1, iOS 18.2 22C152, serial F17ZX0EXAMPL)
              1,000 of 1,007 files listed in Manifest.db are not in this folder: an incomplete copy? The first 3:
                AppDomain-com.example.gone0/Documents/000000.dat
                AppDomain-com.example.gone0/Documents/000020.dat
                AppDomain-com.example.gone0/Documents/000040.dat
                and 997 more (scan --json lists every one)

            AppDomain-com.example.app:

            """))
        #expect(text.stdout.hasSuffix("\n7 files scanned: 3 blobs, 0 orphan partial files, 1,000 errors\n"))

        let json = try backup.run(["scan", "--json", "backup"])
        #expect(json.status == 0)
        let top = try Self.json(json)
        let errors = try #require(top["errors"] as? [[String: Any]])
        #expect(errors.count == 1000)
        #expect(errors.first?["path"] as? String == "AppDomain-com.example.gone0/Documents/000000.dat")
        #expect(errors.allSatisfy { ($0["message"] as? String)?.hasPrefix("missing from the backup: no file ") == true })
        let backups = try #require(top["backups"] as? [[String: Any]])
        #expect(backups.first?["missingFiles"] as? Int == 1000)
        #expect(backups.first?["files"] as? Int == 1007)
        #expect((top["blobs"] as? [Any])?.count == 3)

        let lines = try backup.run(["scan", "--jsonl", "backup"])
        #expect(lines.status == 0)
        #expect(lines.stderr.split(separator: "\n").count == 1000)
        #expect(lines.stderr.hasPrefix("AppDomain-com.example.gone0/Documents/000000.dat: error: missing from the backup: no file "))
    }

    /// A `Manifest.db` caught while it was written: rows in its `-wal` (the files around the
    /// samples), or every row there and the file empty. Read as of the WAL from the private copy;
    /// the WAL is neither applied in place nor joined by a `-shm`. Without `Manifest.plist` too.
    @Test func manifestDatabaseWithItsWAL() throws {
        for (arguments, warnings) in [
            (["--manifest-wal", "tail"], [String]()),
            (["--manifest-wal", "wal-only"], ["Manifest.db is empty: every row was read from Manifest.db-wal"]),
            (["--manifest-wal", "wal-only", "--forensic-copy"], [Self.noManifestPlist, "Manifest.db is empty: every row was read from Manifest.db-wal"]),
        ] {
            let backup = try Backup(arguments)
            #expect(FileManager.default.fileExists(atPath: backup.root.appendingPathComponent("Manifest.db-wal").path))
            let before = try backup.snapshot()
            let result = try backup.run(["scan", "--json", "backup"])
            #expect(result.status == 0, "\(arguments)")
            #expect(result.stderr == "")
            let top = try Self.json(result)
            try Self.checkBlobs(top, kind: "backup",
                                preferencesSHA256: try Self.storedSHA256(backup, domain: Self.app, relativePath: "Library/Preferences/com.example.app.plist"),
                                groupSHA256: try Self.storedSHA256(backup, domain: Self.group, relativePath: "Library/Preferences/group.com.example.shared.plist"))
            try Self.checkDevice(top, encrypted: false, files: 7, unread: 0)
            #expect((top["backups"] as? [[String: Any]])?.first?["warnings"] as? [String] == warnings, "\(arguments)")
            #expect(try backup.snapshot() == before)
            #expect(!FileManager.default.fileExists(atPath: backup.root.appendingPathComponent("Manifest.db-shm").path))
        }
    }

    @Test func damagedManifestDatabase() throws {
        let backup = try Backup()
        let database = backup.root.appendingPathComponent("Manifest.db")
        try Data("not a database at all".utf8).write(to: database)
        let result = try backup.run(["scan", "backup"])
        #expect(result.status == 2)
        #expect(result.stderr == "backup: error: Manifest.db: not a SQLite database\n")

        // A real SQLite header over a cut file.
        let intact = try Backup()
        let intactDatabase = intact.root.appendingPathComponent("Manifest.db")
        let bytes = try Data(contentsOf: intactDatabase)
        try bytes.prefix(bytes.count / 2).write(to: intactDatabase)
        let cut = try intact.run(["scan", "backup"])
        #expect(cut.status == 2)
        #expect(cut.stderr.hasPrefix("backup: error: Manifest.db: "))
        #expect(cut.stderr.contains("malformed") || cut.stderr.contains("not a readable SQLite database"))
    }

    /// A backup of iOS 9 or earlier: `Manifest.mbdb`, files stored flat; its times are the mbdb's
    /// (no birth time there), its hostile rows reported as in `Manifest.db`.
    @Test func olderBackupThroughManifestMBDB() throws {
        let backup = try Backup(["--mbdb", "--hostile"])
        let before = try backup.snapshot()
        let result = try backup.run(["scan", "--json", "backup"])
        #expect(result.status == 0)
        let top = try Self.json(result)
        let blobs = try #require(top["blobs"] as? [[String: Any]])
        #expect(blobs.map { $0["path"] as? String } == [Self.downloadsBlob, Self.preferences, Self.groupPreferences])
        #expect(blobs.first?["sha256"] as? String == Self.downloadsSHA256)
        #expect(blobs.map { $0["modified"] as? String } == Array(repeating: "2026-01-02T03:04:05Z", count: 3))
        #expect(blobs.map { $0["changed"] as? String } == Array(repeating: "2026-01-01T00:00:00Z", count: 3))
        #expect(blobs.allSatisfy { $0["created"] is NSNull })
        #expect(blobs.map { $0["mode"] as? String } == Array(repeating: "100644", count: 3))
        #expect(((blobs.first?["partialFile"] as? [String: Any])?["sha256"] as? String) == Self.partialSHA256)
        let errors = try #require(top["errors"] as? [[String: Any]])
        #expect(errors.map { $0["message"] as? String } == [
            "skipped: its relativePath leaves its domain (fileID c7aec62664a375f85f3d2213ae35d28597157a08)",
            "missing from the backup: no file f07de343ad0700c312531114c56112872f17c6d6",
        ])
        let device = try #require(top["device"] as? [String: Any])
        #expect(device["iOSVersion"] as? String == "9.3.5")
        #expect(try backup.snapshot() == before)

        // A list that is not an mbdb, and one cut inside a record.
        let mbdb = backup.root.appendingPathComponent("Manifest.mbdb")
        let bytes = try Data(contentsOf: mbdb)
        try Data("mbdb\u{4}\u{0}".utf8).write(to: mbdb)
        let wrong = try backup.run(["scan", "backup"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr == "backup: error: Manifest.mbdb does not start with mbdb 5.0\n")
        try bytes.prefix(bytes.count - 3).write(to: mbdb)
        let cut = try backup.run(["scan", "backup"])
        #expect(cut.status == 2)
        #expect(cut.stderr.hasPrefix("backup: error: Manifest.mbdb: the record at byte "))
        #expect(cut.stderr.hasSuffix(" is cut short\n"))
    }

    /// A folder scan takes a container's bundle ID from its metadata plist.
    @Test func containerMetadataBundleID() throws {
        let directory = try TemporaryDirectory()
        let container = directory.path("Application/8C1F2A90-6B7D-4E3C-9A51-2F0D3B4C5E6F")
        try FileManager.default.createDirectory(atPath: container + "/tmp", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: container + "/Library", withIntermediateDirectories: true)
        try PropertyListWriter().write(["MCMMetadataIdentifier": "com.example.metadata", "MCMMetadataVersion": 6], as: .binary)
            .write(to: URL(fileURLWithPath: container + "/.com.apple.mobile_container_manager.metadata.plist"))
        try Data(contentsOf: EndToEnd.samples.appendingPathComponent("ios12-keyed-archive.resumedata"))
            .write(to: URL(fileURLWithPath: container + "/Library/blob"))
        let result = try ToolRunner.run(["scan", "--json", "Application"], in: directory.url)
        #expect(result.status == 0)
        let blobs = try #require(try Self.json(result)["blobs"] as? [[String: Any]])
        #expect(blobs.map { $0["bundleID"] as? String } == ["com.example.metadata"])
        #expect(blobs.map { $0["sha256"] as? String } == [Self.downloadsSHA256])
        let text = try ToolRunner.run(["scan", "Application"], in: directory.url)
        #expect(text.stdout.contains("\n    bundle ID:        com.example.metadata\n"))
    }
}
