import Foundation
import Testing

/// nsurlsessiond's older ledger (keyed archives) through the built binary: `tasks` of the daemon's
/// folder and of one `tasks.plist`, `scan` of the home tying the partial file to its task,
/// `rebuild --from-task`, and `inspect`/`validate`/`explain` naming what the file is. Homes are
/// built by Tests/LedgerFixtures/make_task_archive.py.
@Suite struct TaskArchiveCommandTests {
    static let generator = EndToEnd.repository.appendingPathComponent("Tests/LedgerFixtures/make_task_archive.py").path
    static let daemon = "home/Library/com.apple.nsurlsessiond"
    static let player = daemon + "/3678D867081C87F4E7D23AF5B5B2F433AB1C671C/4CC493A13615DC33190AC3F3A35F1B9D07D8E78F/tasks.plist"
    static let mail = daemon + "/F11B56B8E787F5FED251FF40F23A08DFB4DBDBE6/64533967CBD2C053D7B1BC3812C6AAABD704FA83/tasks.plist"
    static let downloads = "home/Library/Caches/com.apple.nsurlsessiond/Downloads/com.example.player"
    static let demoHeaders = """
              header:         User-Agent: DownloadFileDemo/1 CFNetwork/808.1.4 Darwin/16.0.0
              header:         Accept: */*
              header:         Accept-Language: zh-cn
              header:         Accept-Encoding: gzip, deflate

        """

    /// A folder holding `home/` built with `arguments`.
    private func folder(_ arguments: [String] = []) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        let output = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"),
                                            ["python3", Self.generator, folder.path("home")] + arguments, in: folder.url)
        #expect(output.status == 0, "\(String(decoding: output.stderr, as: UTF8.self))")
        return folder
    }

    @Test func tasksOfTheDaemonFolderByApp() throws {
        let folder = try self.folder()
        let result = try EndToEnd.run(["tasks", Self.daemon], in: folder.url)
        #expect(result == ToolRunner.Result(status: 0, stdout: """
            com.example.mail:
              session com.example.mail.sync, task 3 (download, completed)
                description:      -
                created:          2016-11-05T00:53:20Z
                request:          GET https://mail.example.com/sync

            """ + Self.demoHeaders + """
                response:         HTTP 200, ETag "v1-abc", Last-Modified Tue, 01 Mar 2016 10:00:00 GMT
                bytes:            0 received, total unknown
                partial file:     -

            com.example.player:
              session com.example.player.background, task 7 (download, suspended)
                description:      episode 41
                created:          2016-11-05T00:53:20Z
                request:          GET https://media.example.com/episodes/41.mp4
                  header:         Accept: */*
                  header:         Authorization: (withheld: 24 bytes)
                  header:         X-Client: player/2.0
                response:         HTTP 200, ETag "v1-abc", Last-Modified Tue, 01 Mar 2016 10:00:00 GMT, 10,000 bytes expected
                bytes:            4,096 of 10,000 received
                partial file:     \(Self.downloads)/CFNetworkDownload_Xy12Ab.tmp, 4,096 bytes (4.0 KiB), as received
              session com.example.player.background, task 9 (download, running)
                description:      -
                created:          2016-11-05T00:53:20Z
                request:          GET https://media.example.com/episodes/42.mp4

            """ + Self.demoHeaders + """
                response:         HTTP 200, ETag "v1-abc", Last-Modified Tue, 01 Mar 2016 10:00:00 GMT
                bytes:            0 received, total unknown
                partial file:     \(Self.downloads)/CFNetworkDownload_Gone99.tmp: not in the extraction

            3 tasks in 2 apps (keyed archives (tasks.plist)), 0 rows skipped

            """, stderr: ""))
        #expect(!result.stdout.contains("secret-token"))
    }

    @Test func tasksJSONOfOneFileNamesItsLayout() throws {
        let folder = try self.folder()
        let result = try EndToEnd.run(["tasks", "--json", Self.player], in: folder.url)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let top = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(top["database"] as? String == Self.player)
        #expect(top["schemaVersion"] is NSNull)
        #expect(top["layout"] as? String == "keyed archives")
        #expect(top["root"] as? String == "home")
        let tasks = try #require(top["tasks"] as? [[String: Any]])
        #expect(tasks.map { $0["identifier"] as? Int } == [7, 9])
        #expect(tasks.map { $0["bundleID"] as? String } == ["com.example.player", "com.example.player"])
        #expect(tasks.map { $0["sessionID"] as? String } == ["com.example.player.background", "com.example.player.background"])
        #expect(tasks.first?["bytesReceived"] as? Int == 4096)
        #expect(tasks.first?["bytesExpected"] as? Int == 10000)
        #expect(tasks.first?["state"] as? String == "suspended")
        let headers = try #require(tasks.first?["requestHeaders"] as? [[String]])
        #expect(headers == [["Accept", "*/*"], ["Authorization", "(withheld: 24 bytes)"], ["X-Client", "player/2.0"]])
        let partial = try #require(tasks.first?["partialFile"] as? [String: Any])
        #expect(partial["path"] as? String == "\(Self.downloads)/CFNetworkDownload_Xy12Ab.tmp")
        #expect(partial["size"] as? Int == 4096)
    }

    @Test func scanOfTheHomeTiesThePartialFileToItsTask() throws {
        let folder = try self.folder()
        let result = try EndToEnd.run(["scan", "home"], in: folder.url)
        #expect(result == ToolRunner.Result(status: 0, stdout: """
            nsurlsessiond ledger \(Self.player) (keyed archives (tasks.plist)):
              com.example.player, session com.example.player.background, task 7 (download, suspended): https://media.example.com/episodes/41.mp4
                partial file: \(Self.downloads)/CFNetworkDownload_Xy12Ab.tmp, 4,096 bytes (4.0 KiB), as received
              com.example.player, session com.example.player.background, task 9 (download, running): https://media.example.com/episodes/42.mp4
                partial file: \(Self.downloads)/CFNetworkDownload_Gone99.tmp: not in the extraction

            nsurlsessiond ledger \(Self.mail) (keyed archives (tasks.plist)):
              com.example.mail, session com.example.mail.sync, task 3 (download, completed): https://mail.example.com/sync

            8 files scanned: 0 blobs, 3 ledger tasks, 0 orphan partial files, 0 errors

            """, stderr: ""))
    }

    @Test func hostileFilesAreBoundedErrorsAndTheRestIsRead() throws {
        let folder = try self.folder(["--scenario", "hostile"])
        let scan = try EndToEnd.run(["scan", "home"], in: folder.url)
        #expect(scan.status == 0)
        #expect(scan.stderr == "\(Self.mail): error: not nsurlsessiond's task list (a keyed archive of a dictionary of tasks): no $archiver key: not a keyed archive\n")
        #expect(scan.stdout.hasSuffix("\n8 files scanned: 0 blobs, 4 ledger tasks, 0 orphan partial files, 1 error\n"))
        #expect(scan.stdout.contains("    partial file: /Users/examiner/../../etc/passwd: holds '..', which could leave the extraction\n"))
        #expect(scan.stdout.contains("    partial file: /etc/passwd: not in a user's home folder (/Users/NAME or /private/var/NAME), which home stands for\n"))
        #expect(scan.stdout.contains("  skipped row 3 (session com.example.player.background, task 11): originalRequest: $objects[138].$1: UID 138 refers back to $objects[138], which contains it (cycle)\n"))

        let tasks = try EndToEnd.run(["tasks", Self.daemon], in: folder.url)
        #expect(tasks.status == 0)
        #expect(tasks.stderr == """
            \(Self.daemon): warning: \(Self.mail): not nsurlsessiond's task list (a keyed archive of a dictionary of tasks): no $archiver key: not a keyed archive
            \(Self.daemon): warning: skipped row 3 (session com.example.player.background, task 11): originalRequest: $objects[138].$1: UID 138 refers back to $objects[138], which contains it (cycle)
            \(Self.daemon): warning: skipped row 6 (session com.example.player.background, task 14): NS.objects[5]: $objects[263]: "not a task" is not an object dictionary

            """)
        #expect(tasks.stdout.hasSuffix("\n4 tasks in 1 app (keyed archives (tasks.plist)), 2 rows skipped\n"))

        let alone = try EndToEnd.run(["tasks", Self.mail], in: folder.url)
        #expect(alone == ToolRunner.Result(status: 2, stdout: "", stderr:
            "\(Self.mail): error: not nsurlsessiond's task list (a keyed archive of a dictionary of tasks): no $archiver key: not a keyed archive\n"))
    }

    @Test func rebuildFromATaskOfTheTaskList() throws {
        let folder = try self.folder()
        let result = try EndToEnd.run(["rebuild", "--from-task", Self.player, "--task", "7", "--partial",
                                       "\(Self.downloads)/CFNetworkDownload_Xy12Ab.tmp", "--to", "xml", "-o", "ep.resumedata"], in: folder.url)
        #expect(result == ToolRunner.Result(status: 0, stdout: "", stderr: ""))
        let inspect = try EndToEnd.run(["inspect", "ep.resumedata"], in: folder.url)
        #expect(inspect.status == 0)
        #expect(inspect.stdout.contains("  download URL:       https://media.example.com/episodes/41.mp4\n"))
        #expect(inspect.stdout.contains("  bytes received:     4,096 bytes (4.0 KiB)\n"))
        #expect(inspect.stdout.contains("  entity tag:         \"v1-abc\"\n"))
        #expect(inspect.stdout.contains("    X-Client: player/2.0\n    Range: bytes=4096-\n"))
        let missing = try EndToEnd.run(["rebuild", "--from-task", Self.player, "--task", "99", "--partial",
                                        "\(Self.downloads)/CFNetworkDownload_Xy12Ab.tmp", "-o", "x.resumedata"], in: folder.url)
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("no task 99"))
    }

    @Test func inspectValidateAndExplainNameTheTaskList() throws {
        let folder = try self.folder()
        for command in ["inspect", "validate", "explain"] {
            let result = try EndToEnd.run([command, Self.player], in: folder.url)
            #expect(result == ToolRunner.Result(status: 2, stdout: "", stderr: """
                \(Self.player): error: nsurlsessiond's task list (a session's tasks.plist, the ledger before tasks.sqlite), not resume data: `resumetool tasks` lists its tasks and `resumetool rebuild --from-task FILE --task N` makes a resume blob from one

                """), "\(command)")
        }
    }
}
