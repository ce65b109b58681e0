import Foundation
@testable import ResumeDataCodec
import Testing

@testable import ResumeScan

/// nsurlsessiond's older ledger (keyed archives), built by Tests/LedgerFixtures/make_task_archive.py
/// in a Mac home: the tasks field by field through the library, the bundle and session names, the
/// partial files placed in the home, the hostile files and the bounds.
@Suite struct TaskArchiveTests {
    static let generator = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("LedgerFixtures/make_task_archive.py").path
    static let daemon = "Library/com.apple.nsurlsessiond"
    static let playerFolder = LedgerFolderNames.hash("com.example.player")
    static let playerSession = LedgerFolderNames.hash("com.example.player.background")
    static let mailFolder = LedgerFolderNames.hash("com.example.mail")
    static let mailSession = LedgerFolderNames.hash("com.example.mail.sync")
    static let downloads = "Library/Caches/com.apple.nsurlsessiond/Downloads/com.example.player"

    /// A home built by the generator with `arguments`.
    private func home(_ arguments: [String] = []) throws -> String {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("task-archive-\(UUID().uuidString)").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.generator, home] + arguments
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return home
    }

    private static func headers(_ task: LedgerTask) -> [String] { task.requestHeaders.map { "\($0.name): \($0.value)" } }

    @Test func folderNamesAreUpperCaseSHA1() {
        #expect(LedgerFolderNames.hash("com.example.player") == "3678D867081C87F4E7D23AF5B5B2F433AB1C671C")
        #expect(LedgerFolderNames.isHashName("3678D867081C87F4E7D23AF5B5B2F433AB1C671C"))
        #expect(LedgerFolderNames.isHashName("3678d867081c87f4e7d23af5b5b2f433ab1c671c"))
        #expect(!LedgerFolderNames.isHashName("3678D867081C87F4E7D23AF5B5B2F433AB1C671"))
        #expect(!LedgerFolderNames.isHashName("3678D867081C87F4E7D23AF5B5B2F433AB1C671G"))
    }

    @Test func placementIsTheHomeAboveLibraryOrTheExtractionAbovePrivate() {
        #expect(LedgerPlacement.forLedger(at: "/case/home/Library/com.apple.nsurlsessiond/A/B/tasks.plist", root: nil)
            == LedgerPlacement(root: "/case/home", isHome: true))
        #expect(LedgerPlacement.forLedger(at: "/case/home/Library/com.apple.nsurlsessiond", root: nil)
            == LedgerPlacement(root: "/case/home", isHome: true))
        #expect(LedgerPlacement.forLedger(at: "/x/private/var/mobile/Library/com.apple.nsurlsessiond/A/B/tasks.plist", root: nil)
            == LedgerPlacement(root: "/x", isHome: false))
        #expect(LedgerPlacement.forLedger(at: "tasks.plist", root: nil) == LedgerPlacement())
        #expect(LedgerPlacement.forLedger(at: "tasks.plist", root: "/e/") == LedgerPlacement(root: "/e"))
        #expect(LedgerPlacement.homeLength(of: ["Users", "me", "Library", "x"]) == 2)
        #expect(LedgerPlacement.homeLength(of: ["private", "var", "mobile", "Library"]) == 3)
        #expect(LedgerPlacement.homeLength(of: ["var", "mobile", "Library"]) == 2)
        #expect(LedgerPlacement.homeLength(of: ["etc", "passwd"]) == nil)
        #expect(LedgerPlacement.homeLength(of: ["Users", "me"]) == nil)
    }

    @Test func homeMappingTakesThePathPastTheDeviceHome() {
        let home = LedgerPlacement(root: "/case/home", isHome: true)
        let mapped = LedgerPartialFile(column: "downloadFileURL", recorded: "file:///Users/jo/Library/Caches/x.tmp", isURL: true, placement: home)
        #expect(mapped.devicePath == "/Users/jo/Library/Caches/x.tmp")
        #expect(mapped.path == "/case/home/Library/Caches/x.tmp")
        #expect(mapped.problem == nil)
        let outside = LedgerPartialFile(column: "downloadFileURL", recorded: "file:///etc/passwd", isURL: true, placement: home)
        #expect(outside.path == nil)
        #expect(outside.problem == "not in a user's home folder (/Users/NAME or /private/var/NAME), which /case/home stands for")
        let climbing = LedgerPartialFile(column: "downloadFileURL", recorded: "file:///Users/jo/../../etc/passwd", isURL: true, placement: home)
        #expect(climbing.path == nil)
        #expect(climbing.problem == "holds '..', which could leave the extraction")
    }

    @Test func theDaemonFolderGivesEveryTaskWithItsBundleAndSession() throws {
        let home = try self.home()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let ledger = try TaskLedger.read(path: home + "/" + Self.daemon)
        #expect(ledger.layout == .keyedArchives)
        #expect(ledger.layoutDescription == "keyed archives (tasks.plist)")
        #expect(ledger.path == home + "/" + Self.daemon)
        #expect(ledger.root == home)
        #expect(ledger.warnings == [])
        #expect(ledger.skippedRows.isEmpty)
        #expect(ledger.tasks.map { "\($0.bundleID ?? "-")/\($0.sessionID)/\($0.identifier)" } == [
            "com.example.mail/com.example.mail.sync/3",
            "com.example.player/com.example.player.background/7",
            "com.example.player/com.example.player.background/9",
        ])
        guard ledger.tasks.count == 3 else { return }
        let mail = ledger.tasks[0], first = ledger.tasks[1], second = ledger.tasks[2]

        #expect(first.rowID == 1)
        #expect(first.kind == .download)
        #expect(first.state == .suspended)
        #expect(first.taskDescription == "episode 41")
        #expect(first.creationTime == Date(timeIntervalSinceReferenceDate: 500_000_000))
        #expect(first.uniqueIdentifier == "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F7")
        #expect(first.requestColumn == "originalRequest")
        #expect(first.url == "https://media.example.com/episodes/41.mp4")
        #expect(first.method == "GET")
        #expect(Self.headers(first) == ["Accept: */*", "Authorization: Bearer secret-token-1234", "X-Client: player/2.0"])
        #expect(first.statusCode == 200)
        #expect(first.entityTag == "\"v1-abc\"")
        #expect(first.lastModified == "Tue, 01 Mar 2016 10:00:00 GMT")
        #expect(first.bytesReceived == 4096)
        #expect(first.bytesExpected == 10000)
        #expect(first.notes == [])
        let partial = try #require(first.partialFile)
        #expect(partial.column == "downloadFileURL")
        #expect(partial.recorded == "file:///Users/examiner/\(Self.downloads)/CFNetworkDownload_Xy12Ab.tmp")
        #expect(partial.devicePath == "/Users/examiner/\(Self.downloads)/CFNetworkDownload_Xy12Ab.tmp")
        #expect(partial.path == "\(home)/\(Self.downloads)/CFNetworkDownload_Xy12Ab.tmp")
        #expect(partial.size == 4096)
        #expect(partial.comparison(bytesReceived: first.bytesReceived) == "as received")

        #expect(second.rowID == 2)
        #expect(second.state == .running)
        #expect(second.bytesReceived == 0 && second.bytesExpected == -1)
        #expect(second.partialFile?.path == "\(home)/\(Self.downloads)/CFNetworkDownload_Gone99.tmp")
        #expect(second.partialFile?.problem == "not in the extraction")

        // The mail task names neither bundle nor session: both come from the plists by folder.
        #expect(mail.state == .completed)
        #expect(mail.url == "https://mail.example.com/sync")
        #expect(mail.partialFile == nil)
        #expect(mail.uniqueIdentifier == "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F3")
    }

    @Test func oneTaskFileGivesItsTasksAndReadsTheNamesAboveIt() throws {
        let home = try self.home()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let path = "\(home)/\(Self.daemon)/\(Self.mailFolder)/\(Self.mailSession)/tasks.plist"
        let ledger = try TaskLedger.read(path: path)
        #expect(ledger.layout == .keyedArchives)
        #expect(ledger.tasks.map { "\($0.bundleID ?? "-")/\($0.sessionID)/\($0.identifier)" } == ["com.example.mail/com.example.mail.sync/3"])
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(TaskLedger.isTaskArchive(data))
        #expect(TaskArchive.isPropertyList(data))
        // Without the plists above it, the session is its folder's name, with a note.
        let alone = FileManager.default.temporaryDirectory.appendingPathComponent("task-archive-\(UUID().uuidString)")
        let copied = alone.appendingPathComponent("\(Self.mailFolder)/\(Self.mailSession)/tasks.plist")
        try FileManager.default.createDirectory(at: copied.deletingLastPathComponent(), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: alone) }
        try data.write(to: copied)
        let bare = try TaskLedger.read(path: copied.path)
        #expect(bare.tasks.map { "\($0.bundleID ?? "-")/\($0.sessionID)/\($0.identifier)" } == ["-/\(Self.mailSession)/3"])
        #expect(bare.tasks.first?.notes == ["sessionID: not recorded; the session's folder name (the SHA-1 of its identifier) stands for it"])
        #expect(bare.root == nil)
    }

    @Test func hostileTasksAreSkippedAndTheRestRead() throws {
        let home = try self.home(["--scenario", "hostile"])
        defer { try? FileManager.default.removeItem(atPath: home) }
        let ledger = try TaskLedger.read(path: home + "/" + Self.daemon)
        let mailFile = "\(home)/\(Self.daemon)/\(Self.mailFolder)/\(Self.mailSession)/tasks.plist"
        #expect(ledger.warnings == [
            "\(mailFile): not nsurlsessiond's task list (a keyed archive of a dictionary of tasks): no $archiver key: not a keyed archive",
        ])
        #expect(ledger.tasks.map(\.identifier) == [7, 9, 12, 13])
        #expect(ledger.skippedRows.map(\.description) == [
            "row 3 (session com.example.player.background, task 11): originalRequest: $objects[138].$1: UID 138 refers back to $objects[138], which contains it (cycle)",
            "row 6 (session com.example.player.background, task 14): NS.objects[5]: $objects[263]: \"not a task\" is not an object dictionary",
        ])
        let climbing = try #require(ledger.tasks.first { $0.identifier == 12 })
        #expect(climbing.partialFile?.problem == "holds '..', which could leave the extraction")
        let outside = try #require(ledger.tasks.first { $0.identifier == 13 })
        #expect(outside.partialFile?.problem == "not in a user's home folder (/Users/NAME or /private/var/NAME), which \(home) stands for")
        #expect(outside.partialFile?.path == nil)
        // The file that is no keyed archive, named alone, is an error.
        #expect(throws: EvidenceDatabaseError(path: mailFile, message: "not nsurlsessiond's task list (a keyed archive of a dictionary of tasks): no $archiver key: not a keyed archive")) {
            try TaskLedger.read(path: mailFile)
        }
    }

    @Test func aHugeListIsCutAtTheBound() throws {
        let home = try self.home(["--scenario", "many"])
        defer { try? FileManager.default.removeItem(atPath: home) }
        let ledger = try TaskLedger.read(path: "\(home)/\(Self.daemon)/\(Self.playerFolder)/\(Self.playerSession)/tasks.plist")
        #expect(ledger.tasks.count == TaskArchive.maximumTasks)
        #expect(ledger.warnings == ["10001 tasks, more than 10000: the rest were not read"])
    }

    /// Tasks that share one object expanding to millions of values are refused from one count
    /// of the graph, not decoded each to the limit; the file's budget stops the rest.
    @Test func sharedExpansionIsCountedOnceAndBounded() throws {
        let home = try self.home(["--scenario", "bomb"])
        defer { try? FileManager.default.removeItem(atPath: home) }
        let clock = ContinuousClock()
        var ledger: TaskLedger?
        let elapsed = try clock.measure {
            ledger = try TaskLedger.read(path: "\(home)/\(Self.daemon)/\(Self.playerFolder)/\(Self.playerSession)/tasks.plist")
        }
        let read = try #require(ledger)
        // 8,192 values each (the task and its description, 2^13 - 1 arrays and strings counted
        // at every reference): 512 fit in 2^22 and are decoded (a description that is no string
        // skips them), the 88 after them are not.
        #expect(read.tasks.isEmpty)
        #expect(read.skippedRows.count == 9_600)
        #expect(read.skippedRows[9_000].description.hasPrefix("row 9001 (session com.example.player.background, task 9001): taskDescription: (((((((((((("))
        #expect(read.skippedRows[9_511].description.hasSuffix("… is not a string"))
        #expect(read.skippedRows[9_512].description
            == "row 9513 (session com.example.player.background): NS.objects[9512]: the tasks before it expand to 4194304 values: more than 4194304 are not decoded")
        #expect(read.skippedRows.first?.description == "row 1 (session com.example.player.background): NS.objects[0]: the task expands to more than 16384 values")
        #expect(read.skippedRows.last?.description
            == "row 9600 (session com.example.player.background): NS.objects[9599]: the tasks before it expand to 4194304 values: more than 4194304 are not decoded")
        #expect(elapsed < .seconds(60))
    }

    /// Only a file's start decides its layout: a `tasks.sqlite` over the task list's 16 MiB
    /// bound is still read as SQLite, and a property list over it is refused by size.
    @Test func theLayoutIsToldFromTheStartOfTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("task-archive-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let large = folder.appendingPathComponent("large.sqlite").path
        #expect(FileManager.default.createFile(atPath: large, contents: Data("SQLite format 3\u{0}".utf8) + Data(count: TaskArchive.maximumSize)))
        #expect(TaskLedger.startOfFile(atPath: large, calls: .system)?.count == 256)
        #expect(try TaskLedger.readArchives(path: large, root: nil, limits: TaskLedger.Limits()) == nil)
        let plist = folder.appendingPathComponent("tasks.plist").path
        #expect(FileManager.default.createFile(atPath: plist, contents: Data("bplist00".utf8) + Data(count: TaskArchive.maximumSize)))
        #expect(throws: EvidenceDatabaseError(path: plist, message: "16777224 bytes, over the limit of 16777216 for a task list")) {
            try TaskLedger.read(path: plist)
        }
    }

    @Test func aFolderThatIsNotTheDaemonsIsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("task-archive-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: EvidenceDatabaseError(path: folder.path, message: "not nsurlsessiond's folder: no tasks.sqlite, bundles.plist or bundle folders (named by SHA-1)")) {
            try TaskLedger.read(path: folder.path)
        }
    }

    @Test func aLinkedSessionFolderIsNotFollowed() throws {
        let home = try self.home()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let bundle = "\(home)/\(Self.daemon)/\(Self.mailFolder)"
        let outside = home + "/outside"
        try FileManager.default.moveItem(atPath: "\(bundle)/\(Self.mailSession)", toPath: outside)
        try FileManager.default.createSymbolicLink(atPath: "\(bundle)/\(Self.mailSession)", withDestinationPath: outside)
        let ledger = try TaskLedger.read(path: home + "/" + Self.daemon)
        #expect(ledger.tasks.map(\.identifier) == [7, 9])
        #expect(ledger.warnings == ["\(bundle)/\(Self.mailSession): not read: a symbolic link or not a folder"])
    }

    @Test func aTaskListIsReadByTheScanAndItsPartialFileIsNoOrphan() throws {
        let home = try self.home()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let inventory = ScanJob(roots: [home]).run().inventory
        #expect(inventory.ledgers.map(\.path).sorted() == [
            "\(home)/\(Self.daemon)/\(Self.playerFolder)/\(Self.playerSession)/tasks.plist",
            "\(home)/\(Self.daemon)/\(Self.mailFolder)/\(Self.mailSession)/tasks.plist",
        ].sorted())
        #expect(inventory.ledgers.allSatisfy { $0.layout == .keyedArchives })
        let tasks = inventory.ledgers.flatMap(\.tasks).map { "\($0.bundleID ?? "-")/\($0.sessionID)/\($0.identifier)" }.sorted()
        #expect(tasks == ["com.example.mail/com.example.mail.sync/3", "com.example.player/com.example.player.background/7",
                          "com.example.player/com.example.player.background/9"])
        #expect(inventory.orphanPartialFiles.map(\.path) == [])
        #expect(inventory.errors.map { "\($0.path): \($0.message)" } == [])
    }
}
