import Foundation
import Testing

/// `resumetool scan DIR` with zip and tar archives among the folder's files, through the built
/// binary: each is listed (path, kind, size) in text, `--json`, `--jsonl`, `--csv` and `--html`,
/// told by its first bytes whatever its name; `--open-archives` reads each as `scan ARCHIVE`
/// reads it, with the same findings; a truncated archive is an error of its own while the rest
/// is read; a `.zip` that is not one is not listed.
@Suite struct FoundArchiveScanTests {
    /// `case/` holding the generator's `extraction.zip` (23,883 bytes) and `extraction.tar.gz`
    /// (14,734 bytes), and `notes.zip`, a text file.
    final class Case {
        let directory: TemporaryDirectory
        init(extra: (TemporaryDirectory) throws -> Void = { _ in }) throws {
            directory = try TemporaryDirectory()
            let made = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"),
                                              ["python3", ArchiveScanTests.generator.path, directory.path("case"),
                                               "--formats", "zip,tar.gz", "--no-tree"])
            try #require(made.status == 0, "make_extraction.py: \(String(decoding: made.stderr, as: UTF8.self))")
            try Data("not an archive, only named like one\n".utf8).write(to: directory.url.appendingPathComponent("case/notes.zip"))
            try extra(directory)
        }

        func scan(_ arguments: [String]) throws -> ToolRunner.Result {
            try ToolRunner.run(["scan"] + arguments, in: directory.url)
        }

        func json(_ arguments: [String]) throws -> [String: Any] {
            let result = try scan(["--json"] + arguments)
            #expect(result.status == 0)
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        }
    }

    static let hint = "Read an archive with `resumetool scan PATH`, or scan again with --open-archives to read every one found in a folder."

    @Test func archivesInAFolderAreListedInText() throws {
        let folder = try Case()
        let result = try folder.scan(["case"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == """
            archives found among the files:
              case/extraction.tar.gz: tar.gz, 14,734 bytes (14.4 KiB)
              case/extraction.zip: zip, 23,883 bytes (23.3 KiB)
            \(Self.hint)

            3 files scanned: 0 blobs, 0 orphan partial files, 2 archives found, 0 errors

            """)
    }

    @Test func archivesInAFolderAreListedInJSON() throws {
        let top = try Case().json(["case"])
        let archives = try #require(top["foundArchives"] as? [[String: Any]])
        #expect(archives.map { $0["path"] as? String } == ["case/extraction.tar.gz", "case/extraction.zip"])
        #expect(archives.map { $0["kind"] as? String } == ["tar.gz", "zip"])
        #expect(archives.map { $0["size"] as? Int } == [14734, 23883])
        #expect(archives.map { $0["opened"] as? Bool } == [false, false])
        #expect(archives.map { ($0["source"] as? [String: String]) } == [
            ["kind": "folder", "root": "case", "inner": "extraction.tar.gz"],
            ["kind": "folder", "root": "case", "inner": "extraction.zip"],
        ])
        #expect(archives.allSatisfy { $0["modified"] is String })
        #expect(top["archives"] == nil)
        #expect((top["blobs"] as? [Any])?.isEmpty == true)
        #expect((top["errors"] as? [Any])?.isEmpty == true)
    }

    @Test func archivesInAFolderAreListedInJSONLinesCSVAndHTML() throws {
        let folder = try Case()
        let lines = try folder.scan(["--jsonl", "case"])
        #expect(lines.status == 0)
        let objects = try lines.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["finding"] as? String } == ["archive", "archive"])
        #expect(objects.map { $0["path"] as? String } == ["case/extraction.tar.gz", "case/extraction.zip"])
        #expect(objects.map { $0["kind"] as? String } == ["tar.gz", "zip"])
        #expect(objects.map { $0["size"] as? Int } == [14734, 23883])
        #expect(objects.map { ($0["source"] as? [String: String])?["inner"] } == ["extraction.tar.gz", "extraction.zip"])

        let csv = try folder.scan(["--csv", "case"])
        let rows = csv.stdout.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count == 3)
        let header = try #require(rows.first)
        let finding = try #require(header.firstIndex(of: "finding")), path = try #require(header.firstIndex(of: "path"))
        let size = try #require(header.firstIndex(of: "size")), inner = try #require(header.firstIndex(of: "sourceInner"))
        #expect(rows.dropFirst().map { [$0[path], $0[finding], $0[size], $0[inner]] } == [
            ["case/extraction.tar.gz", "archive", "14734", "extraction.tar.gz"],
            ["case/extraction.zip", "archive", "23883", "extraction.zip"],
        ])

        let timeline = try folder.scan(["--timeline", "case"])
        #expect(timeline.status == 0)
        #expect(timeline.stdout.components(separatedBy: "\r\n\"archive modified: ").count == 3)
        #expect(timeline.stdout.contains("\r\n\"archive modified: case/extraction.tar.gz, tar.gz, 14734 bytes, not read\""))
        #expect(timeline.stdout.contains("archive modified: case/extraction.zip, zip, 23883 bytes, not read\""))

        let page = try folder.scan(["--html", "-", "case"])
        #expect(page.status == 0)
        #expect(page.stdout.contains("<h2>Archives found</h2>"))
        let table = try #require(page.stdout.components(separatedBy: "<h2>Archives found</h2>").last)
        #expect(table.contains("""
                 <td>
                  <code>case/extraction.zip</code>
                 </td>
                 <td>zip</td>
                 <td>23,883 bytes (23.3 KiB)</td>
            """))
        #expect(table.components(separatedBy: "<td>no</td>").count == 3)
    }

    /// The blobs `--open-archives` finds in each archive of the folder are the ones `scan ARCHIVE`
    /// gives, field for field, source included.
    @Test func openArchivesReadsEachAsAnArchiveRoot() throws {
        let folder = try Case()
        let opened = try folder.json(["--open-archives", "case"])
        let blobs = try #require(opened["blobs"] as? [[String: Any]])
        for name in ["case/extraction.tar.gz", "case/extraction.zip"] {
            let alone = try folder.json([name])
            let expected = try #require(alone["blobs"] as? [[String: Any]])
            #expect(expected.count == 4)
            let found = blobs.filter { ($0["source"] as? [String: Any])?["root"] as? String == name }
            #expect(found.map(Self.canonical) == expected.map(Self.canonical))
            #expect(found.map { ($0["source"] as? [String: Any])?["kind"] as? String } == Array(repeating: "archive", count: 4))
            let orphans = try #require(opened["orphanPartialFiles"] as? [[String: Any]])
            #expect(orphans.filter { ($0["source"] as? [String: Any])?["root"] as? String == name }.map(Self.canonical)
                    == (alone["orphanPartialFiles"] as? [[String: Any]] ?? []).map(Self.canonical))
        }
        #expect(blobs.count == 8)
        let summaries = try #require(opened["archives"] as? [[String: Any]])
        #expect(summaries.map { $0["root"] as? String } == ["case/extraction.tar.gz", "case/extraction.zip"])
        #expect(summaries.map { $0["complete"] as? Bool } == [true, true])
        #expect((opened["foundArchives"] as? [[String: Any]])?.map { $0["opened"] as? Bool } == [true, true])
        #expect((opened["errors"] as? [Any])?.isEmpty == true)

        let text = try folder.scan(["--open-archives", "case"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("""
            archives found among the files:
              case/extraction.tar.gz: tar.gz, 14,734 bytes (14.4 KiB), read (see archive case/extraction.tar.gz above)
              case/extraction.zip: zip, 23,883 bytes (23.3 KiB), read (see archive case/extraction.zip above)

            """))
        #expect(!text.stdout.contains(Self.hint))
    }

    /// An archive given as a PATH and met again in a folder PATH is read once, as the PATH given,
    /// whichever way the two spell it: its findings are not reported twice.
    @Test func anArchiveGivenTooIsReadOnceAsTheRoot() throws {
        let folder = try Case()
        let absolute = folder.directory.path("case/extraction.zip")
        for root in ["case/extraction.zip", absolute, "case/../case/extraction.zip"] {
            let top = try folder.json(["--open-archives", "case", root])
            let summaries = try #require(top["archives"] as? [[String: Any]])
            #expect(summaries.map { $0["root"] as? String }.sorted { ($0 ?? "") < ($1 ?? "") }
                    == [root, "case/extraction.tar.gz"].sorted(), "\(root)")
            let blobs = try #require(top["blobs"] as? [[String: Any]])
            #expect(blobs.count == 8, "\(root)")
            #expect(blobs.filter { ($0["source"] as? [String: Any])?["root"] as? String == root }.count == 4, "\(root)")
            let found = try #require(top["foundArchives"] as? [[String: Any]])
            #expect(found.map { $0["path"] as? String } == ["case/extraction.tar.gz", "case/extraction.zip"])
            #expect(found.map { $0["opened"] as? Bool } == [true, true])
            #expect(found.map { $0["readAs"] as? String } == ["case/extraction.tar.gz", root], "\(root)")
            #expect((top["errors"] as? [Any])?.isEmpty == true)
        }
        let text = try folder.scan(["--open-archives", "case", absolute])
        #expect(text.status == 0)
        #expect(text.stdout.contains("  case/extraction.zip: zip, 23,883 bytes (23.3 KiB), read (see archive \(absolute) above)\n"), "\(text.stdout)")
        #expect(text.stdout.components(separatedBy: "archive \(absolute)").count == 3, "\(text.stdout)")
        // Without --open-archives the folder's copy is listed as read too: the root read it.
        let listed = try folder.json(["case", absolute])
        #expect((listed["foundArchives"] as? [[String: Any]])?.map { $0["readAs"] as? String } == [nil, absolute])
    }

    /// A zip among a backup's files, plain or encrypted, given as the root or met below a folder:
    /// listed with the backup as its source, never opened, `--open-archives` or not; the backup
    /// is left as it was.
    @Test(arguments: [false, true]) func anArchiveInsideABackupIsListedNeverOpened(encrypted: Bool) throws {
        let backup = try BackupScanTests.Backup(["--archive"] + (encrypted ? ["--password", BackupScanTests.password, "--dpic", "1000", "--iter", "100"] : []))
        let password = encrypted ? ["--password-file", try backup.writePassword(BackupScanTests.password)] : []
        let before = try backup.snapshot()
        let inner = "AppDomain-com.example.app/Documents/export.zip"
        let kind = encrypted ? "encrypted-backup" : "backup"
        for (root, scanRoot) in [("backup", "backup"), (".", "./backup")] {
            for open in [[], ["--open-archives"]] {
                let result = try backup.run(["scan", "--json"] + open + password + [root])
                #expect(result.status == 0, "\(result.stderr)")
                let top = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
                let found = try #require(top["foundArchives"] as? [[String: Any]], "\(result.stdout)")
                #expect(found.map { $0["path"] as? String } == [inner])
                #expect(found.map { $0["kind"] as? String } == ["zip"])
                #expect(found.map { $0["size"] as? Int } == [4692])
                #expect(found.map { $0["opened"] as? Bool } == [false])
                #expect(found.map { $0["source"] as? [String: String] } == [["kind": kind, "root": scanRoot, "inner": inner]], "\(root) \(open)")
                #expect(top["archives"] == nil, "\(root) \(open)")
                let blobs = try #require(top["blobs"] as? [[String: Any]])
                #expect(!blobs.contains { ($0["source"] as? [String: Any])?["kind"] as? String == "archive" })
            }
        }
        let text = try backup.run(["scan", "--open-archives"] + password + ["backup"])
        #expect(text.stdout.contains("""
            archives found among the files:
              \(inner): zip, 4,692 bytes (4.6 KiB) (in \(encrypted ? "encrypted backup" : "backup") backup: not opened)

            """), "\(text.stdout)")
        #expect(!text.stdout.contains(Self.hint))
        #expect(try backup.snapshot() == before)
    }

    /// A truncated archive is an error naming it; the other archive and the folder are still read.
    @Test func aTruncatedArchiveIsAnErrorOfItsOwn() throws {
        let folder = try Case { directory in
            let whole = try Data(contentsOf: directory.url.appendingPathComponent("case/extraction.tar.gz"))
            try whole.prefix(6000).write(to: directory.url.appendingPathComponent("case/cut.tar.gz"))
        }
        let top = try folder.json(["--open-archives", "case"])
        let errors = try #require(top["errors"] as? [[String: String]])
        #expect(errors.map { $0["path"] } == ["case/cut.tar.gz"])
        #expect(errors.first?["message"]?.hasSuffix("; the findings before it are reported") == true)
        let summaries = try #require(top["archives"] as? [[String: Any]])
        #expect(summaries.map { $0["root"] as? String } == ["case/cut.tar.gz", "case/extraction.tar.gz", "case/extraction.zip"])
        #expect(summaries.map { $0["complete"] as? Bool } == [false, true, true])
        let blobs = try #require(top["blobs"] as? [[String: Any]])
        #expect(blobs.filter { ($0["source"] as? [String: Any])?["root"] as? String == "case/extraction.zip" }.count == 4)
        let text = try folder.scan(["--open-archives", "case"])
        #expect(text.status == 0)
        #expect(text.stderr.contains("case/cut.tar.gz: "))
    }

    /// A bzip2 stream is listed by its signature (its first block cannot be decompressed from the
    /// first kilobyte); `--open-archives` says so when it holds no tar, and reads on.
    @Test func aCompressedFileThatHoldsNoTarIsSaidSo() throws {
        let folder = try Case { directory in
            try Data(String(repeating: "a log line\n", count: 200).utf8).write(to: directory.url.appendingPathComponent("case/log.txt"))
            let made = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"), ["bzip2", directory.path("case/log.txt")])
            try #require(made.status == 0)
        }
        let listed = try folder.json(["case"])
        #expect((listed["foundArchives"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["tar.gz", "zip", "tar.bz2"])
        let opened = try folder.json(["--open-archives", "case"])
        #expect(opened["errors"] as? [[String: String]] == [
            ["path": "case/log.txt.bz2", "message": "not read as an archive: libarchive recognises no zip or tar in it"],
        ])
        #expect((opened["archives"] as? [[String: Any]])?.map { $0["root"] as? String } == ["case/extraction.tar.gz", "case/extraction.zip"])
        #expect((opened["foundArchives"] as? [[String: Any]])?.map { $0["opened"] as? Bool } == [true, true, false])
        #expect((opened["blobs"] as? [Any])?.count == 8)
    }

    /// Content decides: a text file named `.zip` is no archive, and a zip named `.dat` is one.
    @Test func contentNotNameDecides() throws {
        let folder = try Case { directory in
            try FileManager.default.moveItem(at: directory.url.appendingPathComponent("case/extraction.zip"),
                                             to: directory.url.appendingPathComponent("case/blob.dat"))
            // A link is never followed by the walk, to an archive or anything else.
            try FileManager.default.createSymbolicLink(atPath: directory.path("case/link.zip"), withDestinationPath: "blob.dat")
        }
        let top = try folder.json(["case"])
        let archives = try #require(top["foundArchives"] as? [[String: Any]])
        #expect(archives.map { $0["path"] as? String } == ["case/blob.dat", "case/extraction.tar.gz"])
        #expect(archives.map { $0["kind"] as? String } == ["zip", "tar.gz"])
        let opened = try folder.json(["--open-archives", "case"])
        #expect((opened["errors"] as? [Any])?.isEmpty == true)
        #expect((opened["blobs"] as? [Any])?.count == 8)
    }

    /// An archive inside an opened archive is listed with the archive as its source, never opened.
    @Test func anArchiveInsideAnArchiveIsListedNotOpened() throws {
        let folder = try Case { directory in
            let made = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"),
                                              ["zip", "-q", "-j", directory.path("case/outer.zip"), directory.path("case/extraction.zip")])
            try #require(made.status == 0)
        }
        let top = try folder.json(["--open-archives", "case"])
        let archives = try #require(top["foundArchives"] as? [[String: Any]])
        #expect(archives.map { $0["path"] as? String } == ["case/extraction.tar.gz", "case/extraction.zip", "case/outer.zip", "extraction.zip"])
        #expect(archives.map { $0["opened"] as? Bool } == [true, true, true, false])
        #expect(archives.last.flatMap { $0["source"] as? [String: String] } == ["kind": "archive", "root": "case/outer.zip", "inner": "extraction.zip"])
        let summaries = try #require(top["archives"] as? [[String: Any]])
        #expect(summaries.map { $0["root"] as? String } == ["case/extraction.tar.gz", "case/extraction.zip", "case/outer.zip"])
        #expect((top["blobs"] as? [Any])?.count == 8)
    }

    static func canonical(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
