import Foundation
import GRDB
@testable import ResumeDataCodec
import Testing

@testable import ResumeScan

/// nsurlsessiond's ledger, built by make_ledger.py in both schema versions and an unknown one:
/// every field of every task, every skipped row, the warnings and the limits.
@Suite struct TaskLedgerTests {
    static let player = "com.example.player.background"
    static let downloads = LedgerFixture.downloads

    private static func headers(_ task: LedgerTask) -> [String] { task.requestHeaders.map { "\($0.name): \($0.value)" } }

    /// The four tasks of the standard and hostile scenarios, field by field.
    private func expectStandardTasks(_ ledger: TaskLedger, root: String) throws {
        #expect(ledger.tasks.map { "\($0.bundleID ?? "-")/\($0.sessionID)/\($0.identifier)" } == [
            "com.example.evil/evil/10", "com.example.news/news-refresh/1",
            "com.example.player/\(Self.player)/1", "com.example.player/\(Self.player)/2",
        ])
        guard ledger.tasks.count == 4 else { return }
        let evil = ledger.tasks[0], news = ledger.tasks[1], first = ledger.tasks[2], second = ledger.tasks[3]

        #expect(evil.rowID == 4)
        #expect(evil.uniqueIdentifier == "0A0A0A0A-0A0A-0A0A-0A0A-0A0A0A0A0A0A")
        #expect(evil.kind == .download)
        #expect(evil.state == .running)
        #expect(evil.taskDescription == nil)
        #expect(evil.creationTime == Date(timeIntervalSinceReferenceDate: 0))
        #expect(evil.earliestBeginDate == nil)
        #expect(evil.requestColumn == "original_request")
        #expect(evil.url == "https://evil.example.com/x")
        #expect(evil.originalURL == nil)
        #expect(evil.method == "GET")
        #expect(Self.headers(evil) == [])
        #expect(evil.requestBodySize == nil)
        #expect(evil.statusCode == nil && evil.entityTag == nil && evil.lastModified == nil && evil.expectedContentLength == nil)
        #expect(evil.error == nil)
        #expect(evil.bytesReceived == nil && evil.bytesExpected == nil)
        #expect(evil.partialFile == LedgerPartialFile(
            column: "path_to_download_task_file", recorded: "/.nofollow/private/var/../../../etc/passwd",
            devicePath: "/private/var/../../../etc/passwd", path: nil, entry: nil,
            refusal: "holds '..', which could leave the extraction"))
        #expect(evil.partialFile?.problem == "holds '..', which could leave the extraction")
        #expect(evil.notes == [])

        #expect(news.rowID == 3)
        #expect(news.uniqueIdentifier == "01010101-0101-0101-0101-010101010101")
        #expect(news.kind == .data)
        #expect(news.state == .completed)
        #expect(news.taskDescription == nil)
        #expect(news.creationTime == Date(timeIntervalSinceReferenceDate: 786_000_200.25))
        #expect(news.earliestBeginDate == nil)
        #expect(news.requestColumn == "original_request")
        #expect(news.url == "https://news.example.com/feed.json")
        #expect(news.method == "GET")
        #expect(Self.headers(news) == [])
        #expect(news.statusCode == 404)
        #expect(news.entityTag == nil && news.lastModified == nil)
        #expect(news.expectedContentLength == 0)
        #expect(news.error == nil)
        #expect(news.bytesReceived == 0 && news.bytesExpected == 0)
        #expect(news.partialFile == nil)
        #expect(news.notes == [])

        let partial = root + "/" + Self.downloads + "/CFNetworkDownload_d8md6s.tmp"
        #expect(first.rowID == 1)
        #expect(first.uniqueIdentifier == "01010101-0101-0101-0101-010101010101")
        #expect(first.kind == .download)
        #expect(first.state == .running)
        #expect(first.taskDescription == "episode-42")
        #expect(first.creationTime == Date(timeIntervalSinceReferenceDate: 786_000_000.5))
        #expect(first.earliestBeginDate == nil)
        #expect(first.requestColumn == "current_request")
        #expect(first.url == "https://media.example.com/podcasts/episode-42.mp3")
        #expect(first.originalURL == nil)
        #expect(first.method == "GET")
        #expect(Self.headers(first) == [
            "User-Agent: DownloadFileDemo/1 CFNetwork/808.1.4 Darwin/16.0.0", "Accept: */*", "Accept-Language: zh-cn",
            "Accept-Encoding: gzip, deflate",
        ])
        #expect(first.requestBodySize == nil)
        #expect(first.statusCode == 200)
        #expect(first.entityTag == "\"143e-4fa5647f1c100\"")
        #expect(first.lastModified == "Mon, 26 May 2014 23:53:08 GMT")
        #expect(first.expectedContentLength == 5182)
        #expect(first.error == nil)
        #expect(first.bytesReceived == 4096 && first.bytesExpected == 5182)
        #expect(first.partialFile == LedgerPartialFile(
            column: "path_to_download_task_file", recorded: "/.nofollow/" + Self.downloads + "/CFNetworkDownload_d8md6s.tmp",
            devicePath: "/" + Self.downloads + "/CFNetworkDownload_d8md6s.tmp", path: partial, entry: .regularFile(size: 4096), refusal: nil))
        #expect(first.partialFile?.comparison(bytesReceived: first.bytesReceived) == "as received")
        #expect(first.partialFile?.problem == nil)
        #expect(first.notes == [])

        #expect(second.rowID == 2)
        #expect(second.uniqueIdentifier == "02020202-0202-0202-0202-020202020202")
        #expect(second.kind == .download)
        #expect(second.state == .suspended)
        #expect(second.taskDescription == "episode-43")
        #expect(second.creationTime == Date(timeIntervalSinceReferenceDate: 786_000_100))
        #expect(second.earliestBeginDate == Date(timeIntervalSince1970: 1_790_000_000))
        #expect(second.requestColumn == "original_request")
        #expect(second.url == "https://media.example.com/podcasts/episode-43.mp3")
        #expect(second.method == "GET")
        #expect(Self.headers(second) == [])
        #expect(second.statusCode == nil && second.entityTag == nil && second.lastModified == nil && second.expectedContentLength == nil)
        let error = try #require(second.error)
        #expect(error.domain == "NSURLErrorDomain")
        #expect(error.code == -1001)
        #expect(error.localizedDescription == "The request timed out.")
        #expect(error.userInfoStrings.map { "\($0.key)=\($0.value)" } == [
            "NSLocalizedDescription=The request timed out.",
            "NSErrorFailingURLKey=https://media.example.com/podcasts/episode-43.mp3", "_kCFStreamErrorCodeKey=-2102",
        ])
        #expect(error.underlying?.domain == "kCFErrorDomainCFNetwork")
        #expect(error.underlying?.code == -1001)
        #expect(error.underlying?.userInfoStrings.map { "\($0.key)=\($0.value)" } == ["_kCFStreamErrorDomainKey=4"])
        #expect(error.underlying?.underlying == nil)
        #expect(second.bytesReceived == 1000 && second.bytesExpected == -1)
        #expect(second.partialFile == LedgerPartialFile(
            column: "download_file_url", recorded: "file:///.nofollow/" + Self.downloads + "/CFNetworkDownload_AbC123.tmp",
            devicePath: "/" + Self.downloads + "/CFNetworkDownload_AbC123.tmp",
            path: root + "/" + Self.downloads + "/CFNetworkDownload_AbC123.tmp", entry: .missing, refusal: nil))
        #expect(second.partialFile?.problem == "not in the extraction")
        #expect(second.partialFile?.comparison(bytesReceived: 1000) == nil)
        #expect(second.notes == [])
    }

    private static let hostileSkips = [
        "row 5 (session evil, task 11): original_request: 10485760 bytes, over the limit of 131072 (the daemon drops such rows)",
        "row 6 (session evil, task 12): error: $objects[2].NS.objects[1]: UID 1 refers back to $objects[1], which contains it (cycle)",
        "row 7 (session evil, task 13): task_description: holds a blob, not text",
        "row 8 (session evil, task 14): original_request: holds text, not a blob",
    ]

    @Test(arguments: [Int64(2), 3])
    func everyFieldOfEveryTask(version: Int64) throws {
        let fixture = try LedgerFixture(["--version", String(version), "--scenario", "hostile"])
        defer { fixture.remove() }
        let ledger = try TaskLedger.read(path: fixture.database)
        #expect(ledger.path == fixture.database)
        #expect(ledger.schemaVersion == version)
        #expect(ledger.root == fixture.root)
        #expect(ledger.warnings == [])
        try expectStandardTasks(ledger, root: fixture.root)
        // The last row (task 14) is only in the WAL: it is read all the same.
        #expect(ledger.skippedRows.map(\.description) == Self.hostileSkips)
        #expect(ledger.skippedRows.map(\.column) == ["original_request", "error", "task_description", "original_request"])
    }

    @Test func anUnknownVersionIsReadByColumnNameWithAWarning() throws {
        let fixture = try LedgerFixture(["--version", "7", "--scenario", "hostile"])
        defer { fixture.remove() }
        let ledger = try TaskLedger.read(path: fixture.database)
        #expect(ledger.schemaVersion == 7)
        #expect(ledger.warnings == ["schema version 7 is not one this reader knows (2 or 3): the known columns were read by name"])
        try expectStandardTasks(ledger, root: fixture.root)
        #expect(ledger.skippedRows.map(\.description) == Self.hostileSkips)
    }

    @Test func theRootCanBeGivenAndMissingColumnsAreNamed() throws {
        let fixture = try LedgerFixture(["--version", "3"])
        defer { fixture.remove() }
        // Another root: the partial file is looked for there, and is not found.
        let elsewhere = fixture.root + "/elsewhere/"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let ledger = try TaskLedger.read(path: fixture.database, root: elsewhere)
        #expect(ledger.root == fixture.root + "/elsewhere")
        let first = try #require(ledger.tasks.first { $0.identifier == 1 && $0.sessionID == Self.player })
        #expect(first.partialFile?.path == fixture.root + "/elsewhere/" + Self.downloads + "/CFNetworkDownload_d8md6s.tmp")
        #expect(first.partialFile?.entry == .missing)

        // A ledger whose session_tasks lost columns: the rest is read, the loss said.
        let trimmed = fixture.root + "/trimmed.sqlite"
        try FileManager.default.copyItem(atPath: fixture.database, toPath: trimmed)
        try FileManager.default.copyItem(atPath: fixture.database + "-wal", toPath: trimmed + "-wal")
        let queue = try DatabaseQueue(path: trimmed)
        try queue.write { db in
            try db.execute(sql: "ALTER TABLE session_tasks DROP COLUMN response")
            try db.execute(sql: "ALTER TABLE session_tasks DROP COLUMN task_description")
        }
        try queue.close()
        let partial = try TaskLedger.read(path: trimmed)
        #expect(partial.warnings == ["session_tasks has no column task_description, response"])
        #expect(partial.root == nil)
        #expect(partial.tasks.count == 3)
        #expect(partial.tasks.allSatisfy { $0.taskDescription == nil && $0.statusCode == nil })
        #expect(partial.tasks.compactMap(\.partialFile?.refusal) == ["no extraction folder to look in (give --root)", "no extraction folder to look in (give --root)"])
    }

    @Test func limitsOnRowsAndValues() throws {
        let fixture = try LedgerFixture(["--version", "2"])
        defer { fixture.remove() }
        var limits = TaskLedger.Limits()
        limits.maximumRows = 2
        let cut = try TaskLedger.read(path: fixture.database, limits: limits)
        #expect(cut.warnings == ["more than 2 rows: the rest were not read"])
        #expect(cut.tasks.map(\.rowID) == [1, 2])
        limits = TaskLedger.Limits()
        limits.maximumValue = 1000
        let small = try TaskLedger.read(path: fixture.database, limits: limits)
        // The original requests (1,255 and 1,240 bytes) have their own limit, the daemon's.
        #expect(small.tasks.map(\.rowID) == [2])
        #expect(small.skippedRows.map(\.description) == [
            "row 1 (session \(Self.player), task 1): current_request: 1811 bytes, over the limit of 1000",
            "row 3 (session news-refresh, task 1): response: 1696 bytes, over the limit of 1000",
        ])
        limits = TaskLedger.Limits()
        limits.maximumDatabaseSize = 1000
        #expect(throws: EvidenceDatabaseError(path: fixture.database, message: "the database is larger than 1000 bytes")) {
            try TaskLedger.read(path: fixture.database, limits: limits)
        }
    }

    @Test func aDatabaseThatIsNotTheLedgerIsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("not-ledger-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let other = folder + "/other.sqlite"
        let queue = try DatabaseQueue(path: other)
        try queue.write { db in try db.execute(sql: "CREATE TABLE t (x)") }
        try queue.close()
        #expect(throws: EvidenceDatabaseError(path: other, message: "not an nsurlsessiond task database: no session_tasks table")) {
            try TaskLedger.read(path: other)
        }
        let almost = folder + "/almost.sqlite"
        let second = try DatabaseQueue(path: almost)
        try second.write { db in try db.execute(sql: "CREATE TABLE session_tasks (identifier int)") }
        try second.close()
        #expect(throws: EvidenceDatabaseError(path: almost, message: "not an nsurlsessiond task database: session_tasks has no identifier or session_id column")) {
            try TaskLedger.read(path: almost)
        }
        #expect(try EvidenceDatabase.withDatabase(at: almost) { TaskLedger.isLedger($0) } == false)
    }

    @Test func oddValuesAreNotedOrSkipTheirRow() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("odd-ledger-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/tasks.sqlite"
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            // No NOT NULL here: a hostile database need not keep the daemon's constraints.
            try db.execute(sql: """
                CREATE TABLE session_tasks (identifier int, session_id text, task_kind int, state int, creation_time real,
                    earliest_begin_date real, unique_identifier blob, response blob);
                PRAGMA user_version = 2;
                INSERT INTO session_tasks VALUES (1, 's', 9, 7, 9e999, 1790000000, x'0102', NULL);
                INSERT INTO session_tasks VALUES (NULL, 's', 0, 0, 0, 0, NULL, NULL);
                INSERT INTO session_tasks VALUES (3, NULL, 0, 0, 0, 0, NULL, NULL);
                INSERT INTO session_tasks VALUES (4, 's', 'x', 0, 0, 0, NULL, NULL);
                INSERT INTO session_tasks VALUES (5, 's', 0, 0, 'abc', 0, NULL, NULL);
                INSERT INTO session_tasks VALUES (6, 's', 0, 0, 0, 0, NULL, x'00ff');
                INSERT INTO session_tasks VALUES (7, 's', 0, 0, -1e999, 0, NULL, NULL);
                """)
        }
        try queue.close()
        let ledger = try TaskLedger.read(path: path, root: folder)
        #expect(ledger.warnings == [
            "session_tasks has no column task_description, original_request, current_request, error, download_file_url, bundle_id, "
                + "count_of_bytes_received, count_of_bytes_expected_to_receive, path_to_download_task_file",
        ])
        #expect(ledger.tasks.map(\.identifier) == [1, 7])
        let odd = ledger.tasks[0]
        #expect(odd.kind == .other(9))
        #expect(odd.kind?.name == "kind 9")
        #expect(odd.state == .other(7))
        #expect(odd.state?.name == "state 7")
        #expect(odd.creationTime == nil)
        #expect(odd.earliestBeginDate == Date(timeIntervalSince1970: 1_790_000_000))
        #expect(odd.uniqueIdentifier == nil)
        #expect(odd.notes == ["creation_time: inf is not a time", "unique_identifier: 2 bytes, not 16"])
        #expect(ledger.tasks[1].notes == ["creation_time: -inf is not a time"])
        #expect(ledger.skippedRows.map(\.description) == [
            "row 2 (session s): identifier: is NULL",
            "row 3 (task 3): session_id: is NULL",
            "row 4 (session s, task 4): task_kind: holds text, not an integer",
            "row 5 (session s, task 5): creation_time: holds text, not a real",
            "row 6 (session s, task 6): response: 1:1: not a property list: expected XML (<plist> or a value) or binary data starting with bplist00",
        ])
        #expect([LedgerTask.Kind(1), .init(3), .init(4), .init(5)].map(\.name) == ["upload", "av-asset-download", "av-aggregate-child", "av-aggregate-no-child"])
        #expect([LedgerTask.State(1), .init(2)].map(\.name) == ["suspended", "canceling"])
    }

    @Test func theDefaultRootIsTheFolderAbovePrivate() {
        #expect(TaskLedger.defaultRoot(forDatabaseAt: "/x/ext/private/var/mobile/Library/com.apple.nsurlsessiond/tasks.sqlite") == "/x/ext")
        #expect(TaskLedger.defaultRoot(forDatabaseAt: "ext/private/var/tasks.sqlite") == "ext")
        #expect(TaskLedger.defaultRoot(forDatabaseAt: "private/var/tasks.sqlite") == ".")
        #expect(TaskLedger.defaultRoot(forDatabaseAt: "/private/var/tasks.sqlite") == "/")
        #expect(TaskLedger.defaultRoot(forDatabaseAt: "/a/private/b/private/c/tasks.sqlite") == "/a/private/b")
        #expect(TaskLedger.defaultRoot(forDatabaseAt: "/tmp/tasks.sqlite") == nil)
        #expect(TaskLedger.defaultRoot(forDatabaseAt: "/tmp/private") == nil)
    }

    static let pathCases: [(String, Bool, String?, String?, String?)] = [
        ("/.nofollow/private/var/a.tmp", false, "/private/var/a.tmp", "/root/private/var/a.tmp", nil),
        ("/private/./var//a.tmp", false, "/private/./var//a.tmp", "/root/private/var/a.tmp", nil),
        ("/.nofollowing/a.tmp", false, "/.nofollowing/a.tmp", "/root/.nofollowing/a.tmp", nil),
        ("private/var/a.tmp", false, "private/var/a.tmp", nil, "not an absolute path"),
        ("/.nofollow", false, "", nil, "not an absolute path"),
        ("/.nofollow/", false, "/", nil, "names no file"),
        ("/a/../../b", false, "/a/../../b", nil, "holds '..', which could leave the extraction"),
        ("/a/\u{0}/b", false, "/a/\u{0}/b", nil, "holds a NUL byte"),
        ("file:///.nofollow/private/a%20b.tmp", true, "/private/a b.tmp", "/root/private/a b.tmp", nil),
        ("https://example.com/a.tmp", true, nil, nil, "not a file URL"),
        ("file:///private/../etc/passwd", true, "/private/../etc/passwd", nil, "holds '..', which could leave the extraction"),
    ]

    @Test(arguments: pathCases)
    func pathsAreMappedOnlyInsideTheRoot(_ recorded: String, _ isURL: Bool, _ device: String?, _ mapped: String?, _ refusal: String?) {
        var looked: [String] = []
        let file = LedgerPartialFile(column: "c", recorded: recorded, isURL: isURL, root: "/root") { path, root in
            looked.append(path)
            #expect(root == "/root")
            return .regularFile(size: 3)
        }
        #expect(file.devicePath == device)
        #expect(file.path == mapped)
        #expect(file.refusal == refusal)
        #expect(looked == (mapped.map { [$0] } ?? []))
        #expect(file.size == (mapped == nil ? nil : 3))
        #expect(file.comparison(bytesReceived: 3) == (mapped == nil ? nil : "as received"))
        #expect(file.comparison(bytesReceived: 10) == (mapped == nil ? nil : "7 fewer than received"))
        #expect(file.comparison(bytesReceived: 1) == (mapped == nil ? nil : "2 more than received"))
    }

    @Test func aPartialFileBehindASymbolicLinkIsNotFollowed() throws {
        let fixture = try LedgerFixture(["--version", "3"])
        defer { fixture.remove() }
        // The container's Library becomes a link to a folder outside the extraction holding the file.
        let outside = fixture.root + "-outside"
        defer { try? FileManager.default.removeItem(atPath: outside) }
        let container = fixture.root + "/private/var/mobile/Containers/Data/Application/8F9C2B1E-4D3A-4C2B-9E1F-0A1B2C3D4E5F"
        try FileManager.default.moveItem(atPath: container + "/Library", toPath: outside)
        try FileManager.default.createSymbolicLink(atPath: container + "/Library", withDestinationPath: outside)
        let ledger = try TaskLedger.read(path: fixture.database)
        let first = try #require(ledger.tasks.first { $0.identifier == 1 && $0.sessionID == Self.player })
        #expect(first.partialFile?.entry == .missing)
    }

    @Test func aTaskIsFoundByIdentifierAndSession() throws {
        let fixture = try LedgerFixture(["--version", "3", "--scenario", "hostile"])
        defer { fixture.remove() }
        let ledger = try TaskLedger.read(path: fixture.database)
        #expect(try ledger.task(identifier: 2, session: nil).taskDescription == "episode-43")
        #expect(try ledger.task(identifier: 1, session: "news-refresh").kind == .data)
        #expect(throws: TaskLedger.LookUpFailure.ambiguous(identifier: 1, sessions: ["news-refresh", Self.player])) {
            try ledger.task(identifier: 1, session: nil)
        }
        #expect(throws: TaskLedger.LookUpFailure.noSuchTask(identifier: 2, session: "news-refresh")) {
            try ledger.task(identifier: 2, session: "news-refresh")
        }
        #expect(throws: TaskLedger.LookUpFailure.unreadable(ledger.skippedRows[1])) { try ledger.task(identifier: 12, session: "evil") }
        #expect(TaskLedger.LookUpFailure.ambiguous(identifier: 1, sessions: ["a", "b"]).description
            == "task 1 is in 2 sessions (a, b): give --session")

        let rebuilder = try ledger.task(identifier: 1, session: Self.player).rebuilder(
            container: .xml, extraHeaders: [try HTTPHeaderField(name: "Authorization", value: "Bearer x")])
        #expect(rebuilder.url == "https://media.example.com/podcasts/episode-42.mp3")
        #expect(rebuilder.entityTag == "\"143e-4fa5647f1c100\"")
        #expect(rebuilder.lastModified == "Mon, 26 May 2014 23:53:08 GMT")
        #expect(rebuilder.headers.map { "\($0.name): \($0.value)" } == [
            "User-Agent: DownloadFileDemo/1 CFNetwork/808.1.4 Darwin/16.0.0", "Accept: */*", "Accept-Language: zh-cn",
            "Accept-Encoding: gzip, deflate", "Authorization: Bearer x",
        ])
        #expect(rebuilder.container == .xml)
        var noURL = try ledger.task(identifier: 10, session: "evil")
        noURL.url = nil
        #expect(throws: LedgerTask.RebuildFailure(description: "task 10 of session evil has no archived request or response with a URL")) {
            try noURL.rebuilder(container: .keyedArchive)
        }
        noURL.url = "ftp://example.com/x"
        #expect(throws: LedgerTask.RebuildFailure(description: "task 10 of session evil: \"ftp://example.com/x\" is not an absolute http or https URL: its scheme is \"ftp\"")) {
            try noURL.rebuilder(container: .keyedArchive)
        }
        // A device's header goes through the same rule as one given on the command line.
        var badHeader = noURL
        badHeader.url = "https://example.com/x"
        for (name, value, problem) in [
            ("Bad Name", "x", "'Bad Name' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)"),
            ("", "x", "'' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)"),
            ("X-A", "1\r\nX-B: 2", "the value of X-A holds a line break or NUL"),
        ] {
            badHeader.requestHeaders = [(name: "Accept", value: "*/*"), (name: name, value: value)]
            #expect(throws: LedgerTask.RebuildFailure(description: "task 10 of session evil: a request header: \(problem)")) {
                try badHeader.rebuilder(container: .keyedArchive)
            }
        }
        badHeader.requestHeaders = [(name: "Accept", value: "*/*"), (name: "Range", value: "bytes=0-\r\n")]
        #expect(try badHeader.rebuilder(container: .keyedArchive).headers == [try HTTPHeaderField(name: "Accept", value: "*/*")])
    }
}
