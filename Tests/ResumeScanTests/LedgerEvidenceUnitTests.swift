import Foundation
import GRDB
@testable import ResumeDataCodec
import ResumeSystemCalls
import Testing

@testable import ResumeScan

/// The parts `scan` reads nsurlsessiond's ledger in backups and archives with (issue 26): a
/// database and its WAL given as bytes, a WAL beside an empty file, the first-page test, the
/// archive's hold of a member, where a device path is in a backup or an archive, and the
/// `sessions` table of schema version 3.
@Suite struct LedgerEvidenceUnitTests {
    static let uuid = "8F9C2B1E-4D3A-4C2B-9E1F-0A1B2C3D4E5F"

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func aDatabaseAndItsWALFromBytes() throws {
        let fixture = try LedgerFixture(["--version", "3", "--layout", "wal-only"])
        defer { fixture.remove() }
        let main = try Self.bytes(fixture.database)
        let wal = try Self.bytes(fixture.database + "-wal")
        #expect(main.count == 4096)
        // The schema is only in the WAL: without it there is no table.
        let alone = try EvidenceDatabase.withDatabase(bytes: main, name: "m") { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
        #expect(alone == 0)
        let database = try EvidenceDatabase(bytes: main, wal: wal, name: "m")
        #expect(try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM session_tasks") } == 3)
        #expect(!database.readFromWALAlone)
        // With a WAL the two are files in a private folder (only SQLite's file code applies a WAL).
        let folder = try #require(database.folder?.path)
        #expect(FileManager.default.fileExists(atPath: folder))
        database.close()
        #expect(!FileManager.default.fileExists(atPath: folder))
        // The limit counts the file and its WAL together.
        #expect(throws: EvidenceDatabaseError(path: "m", message: "the database is larger than \(main.count) bytes")) {
            try EvidenceDatabase(bytes: main, wal: wal, name: "m", maximumSize: Int64(main.count))
        }

        let ledger = try TaskLedger.read(bytes: main, wal: wal, name: "inner/tasks.sqlite")
        #expect(ledger.path == "inner/tasks.sqlite")
        #expect(ledger.root == nil)
        #expect(ledger.warnings == [])
        #expect(ledger.tasks.count == 3)
        #expect(ledger.tasks.compactMap(\.partialFile?.refusal) == [LedgerPartialFile.noRoot, LedgerPartialFile.noRoot])
    }

    @Test func anEmptyFileBesideItsWALIsReadUnderAStandInFirstPage() throws {
        let fixture = try LedgerFixture(["--version", "3", "--layout", "empty-main"])
        defer { fixture.remove() }
        #expect(try Self.bytes(fixture.database).isEmpty)
        let before = try Self.bytes(fixture.database + "-wal")
        let database = try EvidenceDatabase(path: fixture.database)
        #expect(database.readFromWALAlone)
        #expect(try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM session_tasks") } == 3)
        database.close()
        // The evidence is as it was.
        #expect(try Self.bytes(fixture.database).isEmpty)
        #expect(try Self.bytes(fixture.database + "-wal") == before)
        let ledger = try TaskLedger.read(path: fixture.database)
        #expect(ledger.warnings == [TaskLedger.walAloneWarning])
        #expect(ledger.tasks.count == 3)

        // An empty file beside a file that is not a WAL stays not a database.
        let other = fixture.root + "/other.db"
        try Data().write(to: URL(fileURLWithPath: other))
        try Data(repeating: 7, count: 64).write(to: URL(fileURLWithPath: other + "-wal"))
        #expect(throws: EvidenceDatabaseError(path: other, message: "not a SQLite database")) { try EvidenceDatabase(path: other) }
    }

    @Test func theStandInPageAndTheWALHeader() throws {
        let page = EvidenceDatabase.standInFirstPage(pageSize: 65536)
        #expect(page.count == 65536)
        #expect(Array(page[16..<20]) == [0, 1, 2, 2])
        #expect(LedgerProbe.hasEmptySchema(page))
        #expect(Array(EvidenceDatabase.standInFirstPage(pageSize: 4096)[16..<18]) == [0x10, 0])
        var header: [UInt8] = [0x37, 0x7F, 0x06, 0x83, 0, 0x2D, 0xE2, 0x18, 0, 0, 0x10, 0]
        #expect(EvidenceDatabase.walPageSize(header: header) == 4096)
        header[10] = 0x0F
        #expect(EvidenceDatabase.walPageSize(header: header) == nil)
        header[10] = 0x10
        header[0] = 0x38
        #expect(EvidenceDatabase.walPageSize(header: header) == nil)
        #expect(EvidenceDatabase.walPageSize(header: [0x37]) == nil)
    }

    @Test func theFirstPageDecides() throws {
        #expect(LedgerProbe.hasEmptySchema(Data()))
        var page = EvidenceDatabase.standInFirstPage(pageSize: 4096)
        #expect(!LedgerProbe.holdsSchema(page))
        page[104] = 1  // one cell: a table
        #expect(!LedgerProbe.hasEmptySchema(page))
        #expect(!LedgerProbe.hasEmptySchema(Data(repeating: 0, count: 4096)))
        #expect(!LedgerProbe.hasEmptySchema(page.prefix(100)))
        page.replaceSubrange(2000..<2000 + LedgerProbe.createStatement.count, with: LedgerProbe.createStatement)
        #expect(LedgerProbe.holdsSchema(page))
    }

    /// The two steps every kind of evidence takes: the first page, then the WAL, asked only when
    /// the page has an empty schema.
    @Test func theLedgerIsToldByItsFirstPageThenItsWAL() throws {
        var schema = EvidenceDatabase.standInFirstPage(pageSize: 4096)
        schema.replaceSubrange(3000..<3000 + LedgerProbe.createStatement.count, with: LedgerProbe.createStatement)
        var tables = EvidenceDatabase.standInFirstPage(pageSize: 4096)
        tables[104] = 2
        #expect(LedgerProbe.FirstPage(schema) == .schema)
        #expect(LedgerProbe.FirstPage(EvidenceDatabase.standInFirstPage(pageSize: 4096)) == .emptySchema)
        #expect(LedgerProbe.FirstPage(Data()) == .emptySchema)
        #expect(LedgerProbe.FirstPage(tables) == .other)
        #expect(LedgerProbe.FirstPage(Data("bplist00".utf8)) == .other)
        var asked = 0
        func wal(_ answer: Bool) -> () -> Bool { { asked += 1; return answer } }
        #expect(LedgerProbe.isLedger(.schema, walHoldsSchema: wal(false)))
        #expect(!LedgerProbe.isLedger(.other, walHoldsSchema: wal(true)))
        #expect(asked == 0)
        #expect(LedgerProbe.isLedger(.emptySchema, walHoldsSchema: wal(true)))
        #expect(!LedgerProbe.isLedger(.emptySchema, walHoldsSchema: wal(false)))
        #expect(asked == 2)
    }

    @Test func anArchiveMemberIsHeldByItsFirstBytes() throws {
        func hold(_ name: String, _ chunks: [Data], limit: Int = 1 << 20) -> ArchiveLedgers.Hold {
            var hold = ArchiveLedgers.Hold(name: name, isPartialFile: AppContainerLayout.isPartialFile(name: String(name.split(separator: "/").last ?? ""), parentName: "a"),
                                           limit: limit)
            for chunk in chunks { chunk.withUnsafeBytes { hold.take($0) } }
            hold.decide(atEnd: true)
            return hold
        }
        var schema = EvidenceDatabase.standInFirstPage(pageSize: 4096)
        schema.replaceSubrange(3000..<3000 + LedgerProbe.createStatement.count, with: LedgerProbe.createStatement)
        let ledger = hold("a/tasks.sqlite", [schema.prefix(10), schema.dropFirst(10)])
        #expect(ledger.kind == .database)
        #expect(ledger.schemaOnPage)
        #expect(ledger.bytes == schema)
        let headerOnly = hold("a/tasks.sqlite", [EvidenceDatabase.standInFirstPage(pageSize: 4096)])
        #expect(headerOnly.kind == .database)
        #expect(!headerOnly.schemaOnPage)
        var tables = EvidenceDatabase.standInFirstPage(pageSize: 4096)
        tables[104] = 2
        #expect(hold("a/other.db", [tables]).kind == .none)
        #expect(hold("a/other.db", [Data("bplist00".utf8)]).kind == .none)
        #expect(hold("a/empty", []).kind == .database)
        // A partial file is never a ledger, whatever its bytes (EvidenceTriage).
        #expect(hold("a/CFNetworkDownload_Occ2S2.tmp", [schema]).kind == .none)
        #expect(hold("a/CFNetworkDownload_Occ2S2.tmp", []).kind == .none)
        let wal = hold("a/tasks.sqlite-wal", [Data([0x37, 0x7F]), Data([0x06, 0x82, 1, 2])])
        #expect(wal.kind == .wal)
        #expect(wal.bytes == Data([0x37, 0x7F, 0x06, 0x82, 1, 2]))
        #expect(hold("a/tasks.sqlite-wal", [Data("SQLite format 3\0".utf8)]).kind == .none)
        // Over the limit: decided all the same, counted, not held.
        let large = hold("a/tasks.sqlite", [schema, schema], limit: 5000)
        #expect(large.kind == .database)
        #expect(large.overLimit)
        #expect(large.total == 8192)
        #expect(large.bytes.isEmpty)
    }

    @Test func devicePathsInAnArchive() {
        let device = ["private", "var", "mobile", "Containers", "a.tmp"]
        #expect(ArchiveLedgers.memberPath(device, ledger: ["filesystem1", "private", "var", "mobile", "Library", "tasks.sqlite"])
            == "filesystem1/private/var/mobile/Containers/a.tmp")
        #expect(ArchiveLedgers.memberPath(device, ledger: ["var", "mobile", "Library", "tasks.sqlite"]) == "var/mobile/Containers/a.tmp")
        #expect(ArchiveLedgers.memberPath(device, ledger: ["case 7", "var", "mobile", "tasks.sqlite"]) == "case 7/var/mobile/Containers/a.tmp")
        #expect(ArchiveLedgers.memberPath(device, ledger: ["tasks.sqlite"]) == "private/var/mobile/Containers/a.tmp")
    }

    @Test func devicePathsInABackup() {
        var index: [BytePath: [String]]?
        let downloads = ["Library", "Caches", "com.apple.nsurlsessiond", "Downloads", "com.b", "f.tmp"]
        let app = ["private", "var", "mobile", "Containers", "Data", "Application", Self.uuid] + downloads
        func place(_ device: [String], _ bundle: String?) -> String? {
            BackupScan.place(device, bundleID: bundle, entries: [:], groupIndex: &index).map { "\($0.path) \($0.entry)" }
        }
        #expect(place(app, "com.a") == "AppDomain-com.a/Library/Caches/com.apple.nsurlsessiond/Downloads/com.b/f.tmp missing")
        #expect(place(app, nil) == "AppDomain-com.b/Library/Caches/com.apple.nsurlsessiond/Downloads/com.b/f.tmp missing")
        #expect(place(app, "a/b") == "AppDomain-com.b/Library/Caches/com.apple.nsurlsessiond/Downloads/com.b/f.tmp missing")
        #expect(place(["private", "var", "mobile", "Containers", "Shared", "AppGroup", Self.uuid] + downloads, "com.a") == nil)
        #expect(index == [:])
        #expect(place(["private", "var", "mobile", "Library", "x"], nil) == "HomeDomain/Library/x missing")
        #expect(place(["private", "var", "root", "x"], nil) == "RootDomain/x missing")
        #expect(place(["private", "var", "db", "x"], nil) == nil)
        #expect(place(["private", "var", "mobile"], nil) == nil)
        #expect(place(["private", "var", "mobile", "Containers", "Data", "Application", "not-a-uuid", "f"], "com.a") == nil)
    }

    @Test func partialFilesArePlacedOnlyWhenTheyWereRefusedForWantOfARoot() throws {
        let fixture = try LedgerFixture(["--version", "3", "--scenario", "hostile"])
        defer { fixture.remove() }
        var ledger = try TaskLedger.read(bytes: try Self.bytes(fixture.database), wal: try Self.bytes(fixture.database + "-wal"), name: "t")
        var asked: [[String]] = []
        ledger.placePartialFiles(missing: { "gone from \($0)" }, unplaceable: "nowhere") { task, device in
            asked.append(device)
            return task.identifier == 1 ? ("p/\(task.identifier)", .regularFile(size: 4096)) : nil
        }
        let files = ledger.tasks.compactMap(\.partialFile)
        #expect(asked.count == 2)
        // By bundle: the evil task's path climbs out, the player's two are placed or not.
        #expect(files.map(\.path) == [nil, "p/1", nil])
        #expect(files.map(\.refusal) == ["holds '..', which could leave the extraction", nil, "nowhere"])
        #expect(files.map(\.problem) == ["holds '..', which could leave the extraction", nil, "nowhere"])
        #expect(files[1].size == 4096)
        var missing = files[1]
        missing.entry = .missing
        #expect(missing.problem == "gone from p/1")
    }

    @Test func theSessionsOfSchemaVersion3() throws {
        let fixture = try LedgerFixture(["--version", "3"])
        defer { fixture.remove() }
        let sessions = try #require(try TaskLedger.read(path: fixture.database).sessions)
        #expect(sessions.map(\.sessionID) == ["news-refresh", "com.example.player.background"])
        let news = sessions[0]
        #expect(news.bundleID == "com.example.news")
        #expect(news.rowID == 2)
        #expect(news.lastDisconnectDate == nil)
        #expect(news.configurationClass == nil)
        #expect(news.notes == ["options: 1:1: not a property list: expected XML (<plist> or a value) or binary data starting with bplist00"])
        let player = sessions[1]
        #expect(player.bundleID == "com.example.player")
        #expect(player.lastDisconnectDate == Date(timeIntervalSinceReferenceDate: 786_000_500))
        #expect(player.sessionUUID == "6F1C2D3E-4A5B-4C6D-8E9F-0A1B2C3D4E5F")
        #expect(player.delegateImplements.map { "\($0.key)=\($0.value)" } == ["NSURLSessionDelegateImplementsWillBeginDelayedRequestKey=true"])
        #expect(player.otherOptionKeys == ["SomethingElse"])
        #expect(player.configurationClass == "NSURLSessionConfiguration")
        #expect(player.configurationFields.map { "\($0.key)=\($0.value)" }
            == ["identifier=com.example.player.background", "discretionary=true", "timeoutIntervalForRequest=60.0"])
        #expect(player.notes == [])

        // Schema version 2 has no sessions table: nil, not empty.
        let older = try LedgerFixture(["--version", "2"])
        defer { older.remove() }
        #expect(try TaskLedger.read(path: older.database).sessions == nil)
    }

    @Test func hostileSessionRows() throws {
        let fixture = try LedgerFixture(["--version", "3"])
        defer { fixture.remove() }
        let queue = try DatabaseQueue(path: fixture.database)
        try queue.write { db in
            try db.execute(sql: "DELETE FROM sessions")
            // A blob where text belongs, text where an archive belongs, an archive whose root is
            // an array, a configuration that is a string, a date that is a string.
            try db.execute(sql: "INSERT INTO sessions VALUES (x'00ff', 's1', 'text', NULL)")
            let classes: (String) -> PropertyListValue = { name in
                .dictionary(["$classname": .string(name), "$classes": .array([.string(name), .string("NSObject")])])
            }
            try db.execute(sql: "INSERT INTO sessions VALUES ('b', 's2', ?, ?)", arguments: [
                try Self.archive([.dictionary(["NS.objects": .array([.uid(2)]), "$class": .uid(3)]), .string("one"), classes("NSArray")]),
                try Self.archive([.string("configuration")]),
            ])
            try db.execute(sql: "INSERT INTO sessions VALUES ('b', 's3', ?, NULL)", arguments: [
                try Self.archive([.dictionary(["NS.keys": .array([.uid(2)]), "NS.objects": .array([.uid(3)]), "$class": .uid(4)]),
                                  .string("NSURLSessionLastDisconnectDateKey"), .string("yesterday"), classes("NSDictionary")]),
            ])
        }
        try queue.close()
        let sessions = try #require(try TaskLedger.read(path: fixture.database).sessions)
        #expect(sessions.map(\.sessionID) == ["s2", "s3", "s1"])
        #expect(sessions.map(\.notes) == [
            ["options: the root is not a dictionary", "configuration: the root is not an object"],
            ["options: NSURLSessionLastDisconnectDateKey is not a date"],
            ["bundle_id: holds blob, not text", "options: holds text, not a blob"],
        ])
        #expect(sessions[2].bundleID == nil)
        #expect(sessions[1].lastDisconnectDate == nil)
    }

    /// A binary keyed archive whose `$objects` are `$null` then `objects`, top key `root` at UID 1.
    static func archive(_ objects: [PropertyListValue]) throws -> Data {
        let top: PropertyListDictionary = [
            "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000), "$top": .dictionary(["root": .uid(1)]),
            "$objects": .array([.string("$null")] + objects),
        ]
        return try PropertyListWriter().write(.dictionary(top), as: .binary)
    }
}
