import Foundation
import GRDB
@testable import ResumeSystemCalls
import Testing

@testable import ResumeScan

/// ``EvidenceDatabase``: what is only in the WAL is read, the evidence is never touched, and
/// every refusal names the evidence.
@Suite struct EvidenceDatabaseTests {
    /// A fresh folder for one test's evidence.
    private func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("evidence-db-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Runs a Python script with `arguments`; fails the test with its standard error.
    private func python(_ script: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(String(decoding: message, as: UTF8.self))")
    }

    /// A WAL database whose table `t` has rows 1 and 2 checkpointed into the main file and rows
    /// 3 and 4 only in the WAL: the writer exits without closing, so nothing checkpoints them.
    private func walDatabase(in folder: String) throws -> String {
        let path = folder + "/tasks.sqlite"
        try python("""
            import os, sqlite3, sys
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute('PRAGMA journal_mode=WAL')
            db.execute('PRAGMA wal_autocheckpoint=0')
            db.execute('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)')
            db.execute("INSERT INTO t VALUES (1, 'one'), (2, 'two')")
            db.execute('PRAGMA wal_checkpoint(TRUNCATE)')
            db.execute("INSERT INTO t VALUES (3, 'three')")
            db.execute("INSERT INTO t VALUES (4, 'four')")
            os._exit(0)
            """, [path])
        return path
    }

    private func names(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY id")
    }

    /// Every file in `folder` with its bytes and modification time.
    private func snapshot(_ folder: String) throws -> [String: (Data, Date)] {
        var result: [String: (Data, Date)] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let path = folder + "/" + name
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            result[name] = (try Data(contentsOf: URL(fileURLWithPath: path)), attributes[.modificationDate] as? Date ?? .distantPast)
        }
        return result
    }

    @Test func whatIsOnlyInTheWALIsReadAndTheEvidenceIsUntouched() throws {
        let folder = try self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try walDatabase(in: folder)
        let wal = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        #expect(wal.count > 0)
        #expect(FileManager.default.fileExists(atPath: path + "-shm"))
        let before = try snapshot(folder)
        // The main file alone holds only the checkpointed rows: the other two are in the WAL.
        let mainOnly = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try EvidenceDatabase.withDatabase(bytes: mainOnly, name: "main only", names) == ["one", "two"])

        #expect(try EvidenceDatabase.withDatabase(at: path, names) == ["one", "two", "three", "four"])

        let after = try snapshot(folder)
        #expect(Set(after.keys) == ["tasks.sqlite", "tasks.sqlite-wal", "tasks.sqlite-shm"])
        for (name, (bytes, modified)) in before {
            #expect(after[name]?.0 == bytes, "\(name) changed")
            #expect(after[name]?.1 == modified, "\(name)'s modification time changed")
        }
    }

    @Test func theWALIsAppliedWithoutTheSharedMemoryFile() throws {
        let folder = try self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try walDatabase(in: folder)
        try FileManager.default.removeItem(atPath: path + "-shm")
        #expect(try EvidenceDatabase.withDatabase(at: path, names) == ["one", "two", "three", "four"])
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    }

    @Test func thePrivateFolderIsMode0700AndGoneAfterClose() throws {
        let folder = try self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try EvidenceDatabase(path: try walDatabase(in: folder))
        let copy = try #require(database.folder?.path)
        let name = BytePath(copy).lastName.text
        #expect(name.hasPrefix("resumetool-evidence.") && name.utf8.count == "resumetool-evidence.XXXXXX".utf8.count)
        let attributes = try FileManager.default.attributesOfItem(atPath: copy)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        #expect(try database.read(names).count == 4)
        database.close()
        #expect(!FileManager.default.fileExists(atPath: copy))
        database.close()
        #expect(throws: EvidenceDatabaseError(path: folder + "/tasks.sqlite", message: "the database was closed")) {
            try database.read(names)
        }
    }

    @Test func aDatabaseGivenAsBytesIsReadInMemoryWithoutAnyFile() throws {
        let folder = try self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/Manifest.db"
        try python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)')
            db.execute("INSERT INTO t VALUES (1, 'backup')")
            db.commit()
            db.close()
            """, [path])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let database = try EvidenceDatabase(bytes: bytes, name: "Manifest.db")
        #expect(database.evidencePath == "Manifest.db")
        // sqlite3_deserialize: no private folder, no file anywhere (a decrypted Manifest.db
        // never reaches a file system).
        #expect(database.folder == nil)
        #expect(try database.read(names) == ["backup"])
        // Read-only: a write is refused even outside GRDB's read transactions.
        #expect(throws: (any Error).self) { try database.read { db in try db.execute(sql: "DELETE FROM t") } }
        database.close()
        #expect(throws: EvidenceDatabaseError(path: "Manifest.db", message: "the database was closed")) { try database.read(names) }
        // Noise after SQLite's magic is refused by name, as from a file.
        let noise = Data("SQLite format 3".utf8) + [0] + Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let error = #expect(throws: EvidenceDatabaseError.self) { try EvidenceDatabase(bytes: noise, name: "noise") }
        #expect(error?.path == "noise")
        #expect(error?.message.hasPrefix("not a readable SQLite database: ") == true, "\(String(describing: error))")
        #expect(throws: EvidenceDatabaseError(path: "Manifest.db", message: "the database is larger than 100 bytes")) {
            try EvidenceDatabase(bytes: bytes, name: "Manifest.db", maximumSize: 100)
        }
    }

    @Test func aFileThatIsNotSQLiteIsRefusedByName() throws {
        let folder = try self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, contents) in [("text.sqlite", Data("hello, not a database".utf8)), ("empty.sqlite", Data())] {
            let path = folder + "/" + name
            try contents.write(to: URL(fileURLWithPath: path))
            #expect(throws: EvidenceDatabaseError(path: path, message: "not a SQLite database")) {
                try EvidenceDatabase(path: path)
            }
        }
        #expect(throws: EvidenceDatabaseError(path: "bytes", message: "not a SQLite database")) {
            try EvidenceDatabase(bytes: Data("plain".utf8), name: "bytes")
        }
    }

    @Test func aCorruptDatabaseIsRefusedByName() throws {
        let folder = try self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/corrupt.sqlite"
        // SQLite's magic, then a header and pages of noise.
        var bytes = Data("SQLite format 3".utf8) + [0]
        bytes += Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: EvidenceDatabaseError.self) { try EvidenceDatabase(path: path) }
        #expect(error?.path == path)
        #expect(error?.message.hasPrefix("not a readable SQLite database: ") == true, "\(String(describing: error))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["corrupt.sqlite"])
    }

    @Test func symbolicLinksAreNeverFollowed() throws {
        let folder = try self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try walDatabase(in: folder)
        let link = folder + "/link.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        #expect(throws: EvidenceDatabaseError(path: link, message: "is a symbolic link, which evidence reading never follows")) {
            try EvidenceDatabase(path: link)
        }
        // A WAL that is a link is refused too, rather than read from wherever it points.
        let other = folder + "/other.sqlite"
        try FileManager.default.copyItem(atPath: path, toPath: other)
        try FileManager.default.createSymbolicLink(atPath: other + "-wal", withDestinationPath: path + "-wal")
        #expect(throws: EvidenceDatabaseError(path: other + "-wal", message: "is a symbolic link, which evidence reading never follows")) {
            try EvidenceDatabase(path: other)
        }
    }

    @Test func missingFoldersAndOversizedFilesAreRefusedByName() throws {
        let folder = try self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try walDatabase(in: folder)
        #expect(throws: EvidenceDatabaseError(path: folder + "/absent.sqlite", message: "cannot open: No such file or directory")) {
            try EvidenceDatabase(path: folder + "/absent.sqlite")
        }
        #expect(throws: EvidenceDatabaseError(path: folder, message: "is not a regular file")) {
            try EvidenceDatabase(path: folder)
        }
        let size = Int64(try Data(contentsOf: URL(fileURLWithPath: path)).count)
        #expect(throws: EvidenceDatabaseError(path: path, message: "the database is larger than \(size - 1) bytes")) {
            try EvidenceDatabase(path: path, maximumSize: size - 1)
        }
        // The limit counts the WAL: the main file fits, the two together do not.
        #expect(throws: EvidenceDatabaseError(path: path, message: "the database is larger than 0 bytes")) {
            try EvidenceDatabase(path: path, maximumSize: size)
        }
    }

    @Test func aReadErrorFromSQLiteNamesTheEvidence() throws {
        let folder = try self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try walDatabase(in: folder)
        #expect(throws: EvidenceDatabaseError(path: path, message: "cannot read the database: no such table: absent")) {
            try EvidenceDatabase.withDatabase(at: path) { db in try Row.fetchAll(db, sql: "SELECT * FROM absent") }
        }
        // Queries are read-only: the copy is not written through them either.
        do {
            try EvidenceDatabase.withDatabase(at: path) { db in try db.execute(sql: "DELETE FROM t") }
            Issue.record("a write went through")
        } catch let error as EvidenceDatabaseError {
            #expect(error.path == path)
        }
    }

    @Test func aFailingReadOfTheEvidenceIsReportedByName() throws {
        let folder = try self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try walDatabase(in: folder)
        var calls = FileSystemCalls.system
        calls.pread = { _, _, _ in .failure(FileSystemCalls.Failure(EIO)) }
        #expect(throws: EvidenceDatabaseError(path: path, message: "cannot read: Input/output error")) {
            try EvidenceDatabase(path: path, calls: calls)
        }
    }
}
