internal import CSQLiteShim
import Foundation
internal import GRDB
import ResumeSystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way evidence SQLite is opened: a private copy, never the evidence itself.
///
/// SQLite writes beside any database it opens: it creates or truncates `-shm`, replays and
/// checkpoints the `-wal` into the main file, and takes locks; a read-only open cannot even see
/// what is only in the WAL of a database whose `-shm` it may not write. So the database file and
/// its `-wal` and `-shm` (when present) are copied, each opened with `O_NOFOLLOW` and only read,
/// into a fresh `0700` temporary folder, and SQLite opens the copy, where it may apply the WAL.
/// The evidence is never written, locked or renamed. A database given as bytes alone (a
/// decrypted backup's `Manifest.db`, an archive's member) is read in memory (`sqlite3_deserialize`):
/// it reaches no file system at all. With a WAL beside it, the two are written into the same kind
/// of folder, since only SQLite's file code applies a WAL. The folder is removed by ``close()``
/// (or when the value goes away).
///
/// Every query runs read-only (`query_only`) with `trusted_schema` off, so a hostile schema's
/// views and triggers cannot call functions with side effects, and with `cell_size_check` on,
/// so a corrupt page is an error rather than a misread.
final class EvidenceDatabase {
    /// Databases (main file plus WAL) larger than this are refused unless the caller says more:
    /// nsurlsessiond's ledger is a few MiB, a backup's `Manifest.db` some tens.
    static let defaultMaximumSize: Int64 = 512 << 20

    /// The evidence as the caller named it, for messages.
    let evidencePath: String
    /// The private folder holding the copy, nil for a database read in memory; internal so tests
    /// can see it is gone.
    let folder: PrivateTemporaryFolder?
    private var queue: DatabaseQueue?
    /// Whether the database file was empty and everything was read from its WAL, under a
    /// stand-in first page.
    private(set) var readFromWALAlone = false

    /// Copies the database at `path` (and its `-wal`/`-shm`) and opens the copy.
    /// - Parameter maximumSize: the most bytes the database file and its WAL together may hold.
    /// - Throws: ``EvidenceDatabaseError`` naming `path`: unreadable, a symbolic link, not a
    ///   regular file, too large, not SQLite, or corrupt.
    convenience init(
        path: String,
        maximumSize: Int64 = EvidenceDatabase.defaultMaximumSize,
        calls: FileSystemCalls = .system
    ) throws(EvidenceDatabaseError) {
        try self.init(location: .path(path), path: path, maximumSize: maximumSize, calls: calls)
    }

    /// Where the evidence database lies.
    enum Location {
        /// A path, opened as it is spelled.
        case path(String)
        /// A name in a folder already open: a walked folder's file whose name (or a folder's
        /// above it) is not UTF-8 has no path text to open it by, and opening in the folder
        /// keeps the walk's own no-follow descent.
        case member(folder: Int32, name: [UInt8])

        func open(suffix: String, calls: FileSystemCalls) -> Result<Int32, FileSystemCalls.Failure> {
            switch self {
            case .path(let path): calls.openEvidence(atPath: path + suffix)
            case .member(let folder, let name): calls.openEvidence(in: folder, BytePath(bytes: name + Array(suffix.utf8)))
            }
        }
    }

    /// Copies the database at `location` (and its `-wal`/`-shm`) and opens the copy; `path`
    /// names it in messages.
    convenience init(
        location: Location,
        path: String,
        maximumSize: Int64 = EvidenceDatabase.defaultMaximumSize,
        calls: FileSystemCalls = .system
    ) throws(EvidenceDatabaseError) {
        let folder = try Self.makePrivateFolder(evidencePath: path)
        do {
            var total: Int64 = 0
            for suffix in ["", "-wal", "-shm"] {
                let copied = try Self.copy(
                    from: location, suffix: suffix, to: BytePath(folder.path).appending(Self.copyName + suffix).text,
                    required: suffix.isEmpty, evidencePath: path,
                    // The shm is an index SQLite rebuilds; it does not count towards the limit
                    // but is bounded by it all the same.
                    limit: suffix == "-shm" ? maximumSize : maximumSize - total, calls: calls
                )
                if suffix != "-shm" { total += copied }
            }
            try self.init(folder: folder, evidencePath: path)
        } catch {
            folder.remove()
            throw error
        }
    }

    /// Writes `bytes` (and `wal`, its `-wal` file, when there is one) into a private folder and
    /// opens them as a database; `name` is how messages name the evidence (a backup's
    /// `Manifest.db`, an archive's member, say).
    convenience init(
        bytes: Data,
        wal: Data? = nil,
        name: String,
        maximumSize: Int64 = EvidenceDatabase.defaultMaximumSize
    ) throws(EvidenceDatabaseError) {
        let (total, overflow) = Int64(bytes.count).addingReportingOverflow(Int64(wal?.count ?? 0))
        guard !overflow, total <= maximumSize else {
            throw EvidenceDatabaseError(path: name, message: "the database is larger than \(maximumSize) bytes")
        }
        guard let wal else {
            try self.init(memory: bytes, evidencePath: name)
            return
        }
        let folder = try Self.makePrivateFolder(evidencePath: name)
        do {
            try Self.write(bytes, to: BytePath(folder.path).appending(Self.copyName).text, evidencePath: name)
            try Self.write(wal, to: BytePath(folder.path).appending(Self.copyName + "-wal").text, evidencePath: name)
            try self.init(folder: folder, evidencePath: name)
        } catch {
            folder.remove()
            throw error
        }
    }

    private init(folder: PrivateTemporaryFolder, evidencePath: String) throws(EvidenceDatabaseError) {
        self.folder = folder
        self.evidencePath = evidencePath
        let copy = BytePath(folder.path).appending(Self.copyName).text
        // An empty database file whose WAL holds everything (the daemon killed before its first
        // checkpoint, or a file system extraction that caught it so): SQLite deletes a WAL beside
        // an empty file, so the copy gets a stand-in first page the WAL's own page 1 replaces.
        if Self.fileSize(copy) == 0, let pageSize = Self.walPageSize(copy + "-wal") {
            try Self.write(Self.standInFirstPage(pageSize: pageSize), to: copy, evidencePath: evidencePath, replacing: true)
            readFromWALAlone = true
        }
        guard Self.hasSQLiteHeader(copy) else {
            throw EvidenceDatabaseError(path: evidencePath, message: "not a SQLite database")
        }
        try self.open(evidencePath: evidencePath) { configuration in try DatabaseQueue(path: copy, configuration: configuration) }
    }

    /// `bytes` as an in-memory database: SQLite gets its own copy of them, read-only.
    private init(memory bytes: Data, evidencePath: String) throws(EvidenceDatabaseError) {
        self.folder = nil
        self.evidencePath = evidencePath
        guard bytes.starts(with: Self.magic) else {
            throw EvidenceDatabaseError(path: evidencePath, message: "not a SQLite database")
        }
        try self.open(evidencePath: evidencePath) { configuration in
            let queue = try DatabaseQueue(configuration: configuration)
            let status = queue.inDatabase { db in
                bytes.withUnsafeBytes { raw in
                    csqlite_deserialize_read_only(UnsafeMutableRawPointer(db.sqliteConnection), raw.baseAddress, Int64(raw.count))
                }
            }
            guard status == 0 else { throw DatabaseError(resultCode: ResultCode(rawValue: status)) }
            return queue
        }
    }

    /// Opens the queue `make` gives with the evidence settings and reads the schema once.
    private func open(evidencePath: String, _ make: (Configuration) throws -> DatabaseQueue) throws(EvidenceDatabaseError) {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        configuration.label = "evidence"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA trusted_schema = OFF")
            try db.execute(sql: "PRAGMA cell_size_check = ON")
            try db.execute(sql: "PRAGMA mmap_size = 0")
        }
        do {
            let queue = try make(configuration)
            self.queue = queue
            // Reading the schema makes a file that only starts like SQLite fail here, naming
            // the evidence, rather than at the first query.
            _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
        } catch {
            try? queue?.close()
            queue = nil
            throw EvidenceDatabaseError(path: evidencePath, message: "not a readable SQLite database: \(Self.describe(error))")
        }
    }

    deinit {
        try? queue?.close()
        if let folder { folder.remove() }
    }

    /// Runs `body` on the database, read-only. A SQLite error it throws becomes an
    /// ``EvidenceDatabaseError`` naming the evidence; any other error is thrown as it is.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        guard let queue else {
            throw EvidenceDatabaseError(path: evidencePath, message: "the database was closed")
        }
        do {
            return try queue.read(body)
        } catch let error as DatabaseError {
            throw EvidenceDatabaseError(path: evidencePath, message: "cannot read the database: \(Self.describe(error))")
        }
    }

    /// Closes the copy and removes the private folder; later reads fail. Idempotent.
    func close() {
        try? queue?.close()
        queue = nil
        if let folder { folder.remove() }
    }

    /// Opens the database at `path`, runs `body`, and removes the copy whatever happens.
    static func withDatabase<T>(
        at path: String,
        maximumSize: Int64 = EvidenceDatabase.defaultMaximumSize,
        _ body: (Database) throws -> T
    ) throws -> T {
        let database = try EvidenceDatabase(path: path, maximumSize: maximumSize)
        defer { database.close() }
        return try database.read(body)
    }

    /// Opens `bytes` as a database, runs `body`, and removes the copy whatever happens.
    static func withDatabase<T>(
        bytes: Data,
        name: String,
        maximumSize: Int64 = EvidenceDatabase.defaultMaximumSize,
        _ body: (Database) throws -> T
    ) throws -> T {
        let database = try EvidenceDatabase(bytes: bytes, name: name, maximumSize: maximumSize)
        defer { database.close() }
        return try database.read(body)
    }

    // MARK: - The private copy

    private static let copyName = "evidence.sqlite"
    private static let chunkSize = 1 << 20

    private static func makePrivateFolder(evidencePath: String) throws(EvidenceDatabaseError) -> PrivateTemporaryFolder {
        switch PrivateTemporaryFolder.make(prefix: "resumetool-evidence.") {
        case .success(let folder): return folder
        case .failure(let failure):
            throw EvidenceDatabaseError(path: evidencePath, message: "cannot make a private temporary folder in \(failure.base): \(failure.failure)")
        }
    }

    /// Copies one file of the evidence, reading it with `O_NOFOLLOW` and never writing it.
    /// - Returns: the bytes copied; 0 when an optional file is absent.
    private static func copy(
        from location: Location, suffix: String, to destination: String, required: Bool, evidencePath: String, limit: Int64,
        calls: FileSystemCalls
    ) throws(EvidenceDatabaseError) -> Int64 {
        let source = evidencePath + suffix
        let input: Int32
        switch location.open(suffix: suffix, calls: calls) {
        case .success(let opened): input = opened
        case .failure(let failure):
            if failure.code == ENOENT, !required { return 0 }
            if failure.code == ELOOP {
                throw EvidenceDatabaseError(path: source, message: "is a symbolic link, which evidence reading never follows")
            }
            throw EvidenceDatabaseError(path: source, message: "cannot open: \(failure)")
        }
        defer { _ = calls.close(input) }
        let status: FileSystemCalls.Status
        switch calls.fstat(input) {
        case .success(let found): status = found
        case .failure(let failure): throw EvidenceDatabaseError(path: source, message: "cannot read: \(failure)")
        }
        guard status.kind == .regular else {
            throw EvidenceDatabaseError(path: source, message: "is not a regular file")
        }
        guard status.size <= limit else {
            throw EvidenceDatabaseError(path: evidencePath, message: "the database is larger than \(max(0, limit)) bytes")
        }
        let output: Int32
        switch calls.open(destination, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) {
        case .success(let opened): output = opened
        case .failure(let failure):
            throw EvidenceDatabaseError(path: evidencePath, message: "cannot write the private copy: \(failure)")
        }
        defer { _ = calls.close(output) }
        // Up to the size fstat gave: a file still growing is copied as it was.
        let outcome = calls.copyThroughBuffer(from: input, to: output, start: 0, end: status.size, bufferSize: chunkSize)
        if let (side, error) = outcome.failure {
            switch side {
            case .read: throw EvidenceDatabaseError(path: source, message: "cannot read: \(error)")
            case .write: throw EvidenceDatabaseError(path: evidencePath, message: "cannot write the private copy: \(error)")
            }
        }
        return outcome.reached
    }

    private static func write(_ bytes: Data, to destination: String, evidencePath: String, replacing: Bool = false) throws(EvidenceDatabaseError) {
        let calls = FileSystemCalls.system
        let output: Int32
        // Replacing happens only to the private copy's own empty file.
        switch calls.open(destination, O_WRONLY | O_CREAT | (replacing ? O_TRUNC : O_EXCL) | O_NOFOLLOW | O_CLOEXEC, 0o600) {
        case .success(let opened): output = opened
        case .failure(let failure):
            throw EvidenceDatabaseError(path: evidencePath, message: "cannot write the private copy: \(failure)")
        }
        defer { _ = calls.close(output) }
        if let failure = bytes.withUnsafeBytes({ calls.writeAll(output, $0, at: 0) }).failure {
            throw EvidenceDatabaseError(path: evidencePath, message: "cannot write the private copy: \(failure)")
        }
    }

    /// The size of a file of the private copy; nil when it is absent.
    private static func fileSize(_ path: String) -> Int64? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = attributes[.size] as? NSNumber else { return nil }
        return size.int64Value
    }

    /// The page size a WAL file's header gives (bytes 8-11, big-endian), when the file starts
    /// with a WAL magic number and the size is one SQLite allows.
    static func walPageSize(_ path: String) -> Int? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 32), header.count == 32 else { return nil }
        return walPageSize(header: Array(header))
    }

    /// The page size of a WAL header's first 32 bytes, or nil when they are not one.
    static func walPageSize(header: [UInt8]) -> Int? {
        guard header.count >= 12 else { return nil }
        func word(_ at: Int) -> UInt32 { header[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        guard word(0) & 0xFFFF_FFFE == 0x377F_0682 else { return nil }
        let size = Int(word(8))
        guard (512...65536).contains(size), size & (size - 1) == 0 else { return nil }
        return size
    }

    /// A database's first page with an empty schema in WAL mode: the least SQLite opens and then
    /// reads the WAL beside.
    static func standInFirstPage(pageSize: Int) -> Data {
        var page = [UInt8](repeating: 0, count: pageSize)
        page.replaceSubrange(0..<16, with: magic)
        func put16(_ value: Int, at offset: Int) {
            page[offset] = UInt8(truncatingIfNeeded: value >> 8)
            page[offset + 1] = UInt8(truncatingIfNeeded: value)
        }
        func put32(_ value: Int, at offset: Int) {
            put16(value >> 16, at: offset)
            put16(value & 0xFFFF, at: offset + 2)
        }
        put16(pageSize == 65536 ? 1 : pageSize, at: 16)
        page[18] = 2  // WAL mode, for writing and reading
        page[19] = 2
        page[21] = 64
        page[22] = 32
        page[23] = 32
        put32(1, at: 24)  // change counter
        put32(1, at: 28)  // pages in the file
        put32(4, at: 44)  // schema format
        put32(1, at: 56)  // UTF-8
        put32(1, at: 92)  // the change counter the page count is valid for
        put32(3_045_000, at: 96)
        page[100] = 0x0D  // a leaf table page with no cells: an empty schema
        put16(pageSize & 0xFFFF, at: 105)
        return Data(page)
    }

    /// SQLite's 16-byte magic, checked before SQLite sees the file: an empty or foreign file
    /// would otherwise open as a new, empty database.
    private static func hasSQLiteHeader(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let prefix = try? handle.read(upToCount: magic.count) else { return false }
        return Array(prefix) == magic
    }

    private static let magic = Array("SQLite format 3".utf8) + [0]

    private static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? "\(error.resultCode)"
        }
        return "\(error)"
    }
}

/// Evidence SQLite that could not be opened or read.
public struct EvidenceDatabaseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The evidence file (or the name given to in-memory bytes).
    public let path: String
    /// What went wrong, in a sentence.
    public let message: String

    package init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `PATH: MESSAGE`.
    public var description: String { "\(path): \(message)" }
}
