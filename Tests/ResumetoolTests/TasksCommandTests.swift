import Foundation
import Testing

/// `resumetool tasks` through the built binary, on ledgers from Tests/LedgerFixtures/make_ledger.py.
@Suite struct TasksCommandTests {
    static let generator = EndToEnd.repository.appendingPathComponent("Tests/LedgerFixtures/make_ledger.py").path
    static let ledger = "extraction/private/var/mobile/Library/com.apple.nsurlsessiond/tasks.sqlite"
    static let downloads = "extraction/private/var/mobile/Containers/Data/Application/8F9C2B1E-4D3A-4C2B-9E1F-0A1B2C3D4E5F/Library/Caches/com.apple.nsurlsessiond/Downloads/com.example.player"

    /// A folder holding `extraction/` with a ledger of `arguments`.
    private func folder(_ arguments: [String]) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        let output = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"),
                                            ["python3", Self.generator, folder.path("extraction")] + arguments, in: folder.url)
        #expect(output.status == 0, "\(String(decoding: output.stderr, as: UTF8.self))")
        return folder
    }

    @Test func textByApp() throws {
        let folder = try self.folder(["--version", "3"])
        let result = try EndToEnd.run(["tasks", Self.ledger], in: folder.url)
        #expect(result == ToolRunner.Result(status: 0, stdout: """
            com.example.news:
              session news-refresh, task 1 (data, completed)
                description:      -
                created:          2025-11-28T05:23:20.25Z
                request:          GET https://news.example.com/feed.json
                response:         HTTP 404, 0 bytes expected
                bytes:            0 of 0 received
                partial file:     -

            com.example.player:
              session com.example.player.background, task 1 (download, running)
                description:      episode-42
                created:          2025-11-28T05:20:00.5Z
                request:          GET https://media.example.com/podcasts/episode-42.mp3
                  header:         User-Agent: DownloadFileDemo/1 CFNetwork/808.1.4 Darwin/16.0.0
                  header:         Accept: */*
                  header:         Accept-Language: zh-cn
                  header:         Accept-Encoding: gzip, deflate
                response:         HTTP 200, ETag "143e-4fa5647f1c100", Last-Modified Mon, 26 May 2014 23:53:08 GMT, 5,182 bytes expected
                bytes:            4,096 of 5,182 received
                partial file:     \(Self.downloads)/CFNetworkDownload_d8md6s.tmp, 4,096 bytes (4.0 KiB), as received
              session com.example.player.background, task 2 (download, suspended)
                description:      episode-43
                created:          2025-11-28T05:21:40Z
                begins:           2026-09-21T14:13:20Z
                request:          GET https://media.example.com/podcasts/episode-43.mp3
                response:         -
                error:            NSURLErrorDomain -1001: The request timed out. (underlying: kCFErrorDomainCFNetwork -1001)
                bytes:            1,000 received, total unknown
                partial file:     \(Self.downloads)/CFNetworkDownload_AbC123.tmp: not in the extraction

            3 tasks in 2 apps (schema version 3), 0 rows skipped

            """, stderr: ""))
    }

    static let skipped = [
        "row 5 (session evil, task 11): original_request: 10485760 bytes, over the limit of 131072 (the daemon drops such rows)",
        "row 6 (session evil, task 12): error: $objects[2].NS.objects[1]: UID 1 refers back to $objects[1], which contains it (cycle)",
        "row 7 (session evil, task 13): task_description: holds a blob, not text",
        "row 8 (session evil, task 14): original_request: holds text, not a blob",
    ]

    @Test func hostileRowsAreReportedOnStandardErrorAndSkipped() throws {
        let folder = try self.folder(["--version", "9", "--scenario", "hostile"])
        let warnings = ["\(Self.ledger): warning: schema version 9 is not one this reader knows (2 or 3): the known columns were read by name"]
            + Self.skipped.map { "\(Self.ledger): warning: skipped \($0)" }
        let text = try EndToEnd.run(["tasks", Self.ledger], in: folder.url)
        #expect(text.status == 0)
        #expect(text.stderr == warnings.joined(separator: "\n") + "\n")
        #expect(text.stdout.hasSuffix("\n4 tasks in 3 apps (schema version 9), 4 rows skipped\n"))
        #expect(text.stdout.contains("    partial file:     /private/var/../../../etc/passwd: holds '..', which could leave the extraction\n"))

        let lines = try EndToEnd.run(["tasks", "--jsonl", Self.ledger], in: folder.url)
        #expect(lines.status == 0)
        #expect(lines.stderr == text.stderr)
        let objects = try lines.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.map { "\($0["bundleID"] ?? "")/\($0["identifier"] ?? "")" } == [
            "com.example.evil/10", "com.example.news/1", "com.example.player/1", "com.example.player/2",
        ])

        let json = try EndToEnd.run(["tasks", "--json", "--root", "extraction/", Self.ledger], in: folder.url)
        #expect(json.status == 0)
        #expect(json.stderr == "")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["database"] as? String == Self.ledger)
        #expect(document["schemaVersion"] as? Int == 9)
        #expect(document["root"] as? String == "extraction")
        #expect(document["warnings"] as? [String] == [
            "schema version 9 is not one this reader knows (2 or 3): the known columns were read by name",
        ])
        let rows = try #require(document["skippedRows"] as? [[String: Any]])
        #expect(rows.map { $0["column"] as? String } == ["original_request", "error", "task_description", "original_request"])
        #expect(rows.map { $0["rowID"] as? Int } == [5, 6, 7, 8])
        let tasks = try #require(document["tasks"] as? [[String: Any]])
        #expect(tasks.count == 4)
        let second = tasks[3]
        let error = try #require(second["error"] as? [String: Any])
        #expect(error["domain"] as? String == "NSURLErrorDomain")
        #expect(error["code"] as? Int == -1001)
        #expect((error["underlying"] as? [String: Any])?["domain"] as? String == "kCFErrorDomainCFNetwork")
        let partial = try #require((tasks[2]["partialFile"]) as? [String: Any])
        #expect(partial["path"] as? String == "\(Self.downloads)/CFNetworkDownload_d8md6s.tmp")
        #expect(partial["size"] as? Int == 4096)
        #expect(partial["comparison"] as? String == "as received")
    }

    @Test func csvHasOneRowPerTask() throws {
        let folder = try self.folder(["--version", "2"])
        let result = try EndToEnd.run(["tasks", "--csv", Self.ledger], in: folder.url)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let lines = result.stdout.components(separatedBy: "\r\n")
        #expect(lines.count == 5)
        #expect(lines.first == "bundleID,sessionID,identifier,uniqueIdentifier,kind,state,description,creationTime,earliestBeginDate,method,url,requestBodySize,statusCode,entityTag,lastModified,expectedContentLength,errorDomain,errorCode,errorDescription,bytesReceived,bytesExpected,partialFileRecorded,partialFilePath,partialFileSize,partialFileProblem,notes")
        #expect(lines[1] == "com.example.news,news-refresh,1,01010101-0101-0101-0101-010101010101,data,completed,,2025-11-28T05:23:20.25Z,,GET,https://news.example.com/feed.json,,404,,,0,,,,0,0,,,,,")
        #expect(lines[4] == "")
    }

    @Test func unreadableDatabasesAndUsageErrors() throws {
        let folder = try TemporaryDirectory()
        try Data("not sqlite".utf8).write(to: folder.url.appendingPathComponent("x.sqlite"))
        let notSQLite = try EndToEnd.run(["tasks", "x.sqlite"], in: folder.url)
        #expect(notSQLite == ToolRunner.Result(status: 2, stdout: "", stderr: "x.sqlite: error: not a SQLite database\n"))
        let missing = try EndToEnd.run(["tasks", "missing.sqlite"], in: folder.url)
        #expect(missing == ToolRunner.Result(status: 2, stdout: "", stderr: "missing.sqlite: error: cannot open: No such file or directory\n"))
        let both = try EndToEnd.run(["tasks", "--json", "--csv", "x.sqlite"], in: folder.url)
        #expect(both.status == 64)
        #expect(both.stderr.hasPrefix("Error: --json, --jsonl and --csv cannot be used together\n"))
        let none = try EndToEnd.run(["tasks"], in: folder.url)
        #expect(none.status == 64)
        #expect(none.stderr.hasPrefix("Error: Missing expected argument '<DB>'\n"))
    }

    @Test func rebuildFromTaskErrors() throws {
        let folder = try self.folder(["--version", "3", "--scenario", "hostile"])
        let partial = "\(Self.downloads)/CFNetworkDownload_d8md6s.tmp"
        let ambiguous = try EndToEnd.run(["rebuild", "--from-task", Self.ledger, "--task", "1", "--partial", partial], in: folder.url)
        #expect(ambiguous == ToolRunner.Result(status: 64, stdout: "", stderr: """
            Error: \(Self.ledger): task 1 is in 2 sessions (news-refresh, com.example.player.background): give --session
              See 'resumetool rebuild --help' for more information.

            """))
        let absent = try EndToEnd.run(["rebuild", "--from-task", Self.ledger, "--task", "99", "--session", "evil", "--partial", partial], in: folder.url)
        #expect(absent.status == 64)
        #expect(absent.stderr.hasPrefix("Error: \(Self.ledger): no task 99 in session evil\n"))
        let cyclic = try EndToEnd.run(["rebuild", "--from-task", Self.ledger, "--task", "12", "--partial", partial], in: folder.url)
        #expect(cyclic == ToolRunner.Result(status: 2, stdout: "", stderr: "\(Self.ledger): error: the task could not be read: \(Self.skipped[1])\n"))
        let noPartial = try EndToEnd.run(["rebuild", "--from-task", Self.ledger, "--task", "1", "--session", "news-refresh",
                                          "--partial", "nothing.tmp", "-o", "out"], in: folder.url)
        #expect(noPartial == ToolRunner.Result(status: 2, stdout: "", stderr: "nothing.tmp: error: no such file\n"))
        #expect(!folder.exists("out"))

        for (arguments, message) in [
            (["--from-task", "db", "--task", "1"], "Missing expected argument '--partial <FILE>' (--from-task needs it)"),
            (["--from-task", "db", "--partial", "p"], "Missing expected argument '--task <ID>' (--from-task needs it)"),
            (["--from-task", "db", "--task", "1", "--partial", "p", "--url", "https://x/"], "--url cannot be used with --from-task, which takes it from the ledger"),
            (["--from-task", "db", "--task", "1", "--partial", "p", "--etag", "x"], "--etag cannot be used with --from-task, which takes it from the ledger"),
            (["--partial", "p", "--url", "https://x/", "--task", "1"], "--task needs --from-task"),
            // --from is --partial's old name, taken with --from-task too.
            (["--from-task", "db", "--task", "1", "--partial", "p", "--from", "p"], "give --partial once (--from is its old name)"),
        ] {
            let result = try EndToEnd.run(["rebuild"] + arguments, in: folder.url)
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("Error: \(message)\n"), "\(result.stderr)")
        }
    }

    /// Sets `column` of the news task's row to `bytes` and makes it an upload task.
    private func putUploadState(_ bytes: Data, in column: String, folder: TemporaryDirectory) throws {
        let blob = folder.url.appendingPathComponent("state.bin")
        try bytes.write(to: blob)
        let script = "import sqlite3,sys\ndb=sqlite3.connect(sys.argv[1])\n"
            + "db.execute('UPDATE session_tasks SET task_kind=1, \(column)=? WHERE session_id=?', (open(sys.argv[2],'rb').read(), 'news-refresh'))\ndb.commit()"
        let output = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, folder.path(Self.ledger), blob.path])
        #expect(output.status == 0, "\(String(decoding: output.stderr, as: UTF8.self))")
    }

    static let uploadBlob = EndToEnd.fixtures.appendingPathComponent("upload/upload-taskinfo-v6.resumedata")

    @Test func anUploadTasksResumeStateIsShown() throws {
        let folder = try self.folder(["--version", "3"])
        try putUploadState(try Data(contentsOf: Self.uploadBlob), in: "resumable_upload_data", folder: folder)
        let result = try EndToEnd.run(["tasks", Self.ledger], in: folder.url)
        #expect(result.status == 0)
        #expect(result.stdout.contains("""
              session news-refresh, task 1 (upload, completed)
            """), "\(result.stdout)")
        #expect(result.stdout.contains("""
                partial file:     -
                upload:           draft 6, continues at https://uploads.example.com/resumable_upload/8c0f4e2a-51d7
                  body:           file file:///private/var/mobile/Containers/Data/Application/6D1E4F7A-2B3C-4D5E-8F90-A1B2C3D4E5F6/tmp/IMG_0042.heic

            """), "\(result.stdout)")
        let json = try EndToEnd.run(["tasks", "--json", Self.ledger], in: folder.url)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let tasks = try #require(document["tasks"] as? [[String: Any]])
        let upload = try #require(tasks.compactMap { $0["upload"] as? [String: Any] }.first)
        #expect(upload["draftVersion"] as? String == "6")
        #expect(upload["resumeURL"] as? String == "https://uploads.example.com/resumable_upload/8c0f4e2a-51d7")
        #expect((upload["findings"] as? [[String: Any]])?.map { $0["code"] as? String } == ["upload-request-missing"])
        #expect(tasks.filter { $0["upload"] is NSNull }.count == 2)
    }

    /// iOS 26.1 binds the upload state to av_asset_options_plist when that column has no value.
    @Test func anUploadStateInTheNeighbouringColumnIsFoundAndSaidSo() throws {
        let folder = try self.folder(["--version", "3"])
        try putUploadState(try Data(contentsOf: Self.uploadBlob), in: "av_asset_options_plist", folder: folder)
        let result = try EndToEnd.run(["tasks", Self.ledger], in: folder.url)
        #expect(result.stdout.contains("    upload:           draft 6, continues at https://uploads.example.com/resumable_upload/8c0f4e2a-51d7\n"), "\(result.stdout)")
        #expect(result.stdout.contains("    note:             resumable_upload_data: found in av_asset_options_plist, where iOS 26.1 puts it when that column has no value of its own\n"))
    }

    @Test func anUploadStateThatDoesNotReadIsANoteNotASkippedRow() throws {
        let folder = try self.folder(["--version", "3"])
        try putUploadState(Data("not an upload".utf8), in: "resumable_upload_data", folder: folder)
        let result = try EndToEnd.run(["tasks", Self.ledger], in: folder.url)
        #expect(result.status == 0)
        #expect(result.stdout.contains("    note:             resumable_upload_data: 13 bytes that are not upload resume data\n"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("3 tasks in 2 apps (schema version 3), 0 rows skipped\n"))
    }
}

/// `resumetool scan` finds the ledger by its tables and pairs its tasks with their partial files.
@Suite struct ScanFindsTheLedgerTests {
    @Test func theLedgersPartialFilesAreNotOrphans() throws {
        let folder = try TemporaryDirectory()
        let made = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"),
                                          ["python3", TasksCommandTests.generator, folder.path("extraction"), "--version", "2"], in: folder.url)
        #expect(made.status == 0)
        // A partial file no task names, beside the one task 1 names; and the ledger copied
        // under another name, found by content all the same.
        let orphan = TasksCommandTests.downloads + "/CFNetworkDownload_zzzzzz.tmp"
        try Data(count: 10).write(to: folder.url.appendingPathComponent(orphan))
        let result = try EndToEnd.run(["scan", "extraction"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let ledger = TasksCommandTests.ledger
        #expect(result.stdout.contains("""
            nsurlsessiond ledger \(ledger) (schema version 2):
              com.example.news, session news-refresh, task 1 (data, completed): https://news.example.com/feed.json
              com.example.player, session com.example.player.background, task 1 (download, running): https://media.example.com/podcasts/episode-42.mp3
                partial file: \(TasksCommandTests.downloads)/CFNetworkDownload_d8md6s.tmp, 4,096 bytes (4.0 KiB), as received
              com.example.player, session com.example.player.background, task 2 (download, suspended): https://media.example.com/podcasts/episode-43.mp3
                partial file: \(TasksCommandTests.downloads)/CFNetworkDownload_AbC123.tmp: not in the extraction

            """), "\(result.stdout)")
        // Shown relative to its app container, as scan shows every path in a container.
        #expect(result.stdout.contains("""
            8F9C2B1E-4D3A-4C2B-9E1F-0A1B2C3D4E5F:
              orphan partial file: Library/Caches/com.apple.nsurlsessiond/Downloads/com.example.player/CFNetworkDownload_zzzzzz.tmp, 10 bytes, modified
            """))
        #expect(!result.stdout.contains("orphan partial file: private/var/mobile/Containers/Data/Application/8F9C2B1E-4D3A-4C2B-9E1F-0A1B2C3D4E5F/Library/Caches/com.apple.nsurlsessiond/Downloads/com.example.player/CFNetworkDownload_d8md6s.tmp"))
        #expect(result.stdout.hasSuffix(": 0 blobs, 3 ledger tasks, 1 orphan partial file, 0 errors\n"))

        let json = try EndToEnd.run(["scan", "--json", "extraction"], in: folder.url)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let ledgers = try #require(document["ledgers"] as? [[String: Any]])
        #expect(ledgers.map { $0["database"] as? String } == [ledger])
        #expect((ledgers.first?["tasks"] as? [Any])?.count == 3)
        #expect((document["orphanPartialFiles"] as? [[String: Any]])?.map { $0["path"] as? String } == [orphan])

        // Without a ledger, the JSON has no ledgers key at all, as before.
        try FileManager.default.removeItem(atPath: folder.path(ledger))
        let without = try EndToEnd.run(["scan", "--json", "extraction"], in: folder.url)
        let plain = try #require(try JSONSerialization.jsonObject(with: Data(without.stdout.utf8)) as? [String: Any])
        #expect(plain["ledgers"] == nil)
        #expect((plain["orphanPartialFiles"] as? [Any])?.count == 2)
    }

    @Test func anUnreadableLedgerIsAScanError() throws {
        let folder = try TemporaryDirectory()
        // The first page names the table, the rest is noise: SQLite refuses it.
        var bytes = Data("SQLite format 3".utf8) + [0]
        bytes += Data(repeating: 0x41, count: 100) + Data("CREATE TABLE session_tasks (identifier int)".utf8) + Data(repeating: 0x42, count: 4000)
        try bytes.write(to: folder.url.appendingPathComponent("tasks.sqlite"))
        let result = try EndToEnd.run(["scan", "."], in: folder.url)
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("./tasks.sqlite: error: nsurlsessiond's ledger: not a readable SQLite database: "), "\(result.stderr)")
    }
}
