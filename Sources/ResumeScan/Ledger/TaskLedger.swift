import Foundation
internal import GRDB
import ResumeDataCodec
import ResumeSystemCalls
import ResumeSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// nsurlsessiond's task ledger (`tasks.sqlite`, spec §1): every background task of every app,
/// read from a private copy with its WAL (the evidence is never opened for writing).
///
/// Schema versions 2 (iOS 18) and 3 (iOS 26) are known; any other is read by the known column
/// names, with a warning. Every value is checked for its storage class before use: several
/// columns are declared `text` but hold archives, so a blob where text belongs (or the reverse)
/// is the database's word against the spec's, and the row is reported and skipped, as is a row
/// whose archives are corrupt or hostile (with the key path at fault). Rows whose original
/// request is over 128 KiB are skipped as the daemon itself drops them; other archives are
/// bounded too, and so is the number of rows.
public struct TaskLedger: Sendable {
    /// Bounds on what is read.
    public struct Limits: Sendable {
        /// Rows read at most; the rest are reported as not read.
        public var maximumRows = 1_000_000
        /// The daemon drops rows whose original request is larger (`0x20000`; spec §1.3).
        public var maximumOriginalRequest = 0x20000
        /// Any other archive or text value larger than this is not decoded.
        public var maximumValue = 1 << 20
        /// The database file and its WAL together.
        public var maximumDatabaseSize = EvidenceDatabase.defaultMaximumSize

        /// The bounds the CLI reads with.
        public init() {}
    }

    /// A row that was not made into a task, and why.
    public struct SkippedRow: Error, Sendable, Hashable, CustomStringConvertible {
        /// The row's `ROWID`.
        public var rowID: Int64
        /// Its session's identifier, when it could be read.
        public var sessionID: String?
        /// Its task identifier, when it could be read.
        public var identifier: Int64?
        /// The column at fault.
        public var column: String
        /// Why, with the key path inside the archive first when there is one.
        public var message: String

        /// `row 12 (session evil, task 12): error: $top.root…: …`.
        public var description: String {
            var who: [String] = []
            if let sessionID { who.append("session \(sessionID)") }
            if let identifier { who.append("task \(identifier)") }
            return "row \(rowID)" + (who.isEmpty ? "" : " (" + who.joined(separator: ", ") + ")") + ": \(column): \(message)"
        }
    }

    /// The database as the caller named it.
    public var path: String
    /// `PRAGMA user_version`.
    public var schemaVersion: Int64
    /// The extraction folder partial files were looked for in, if any.
    public var root: String?
    /// The tasks, by bundle ID, session ID and identifier.
    public var tasks: [LedgerTask]
    /// Rows reported and skipped, in row order.
    public var skippedRows: [SkippedRow]
    /// Things about the whole database a reader should know (an unknown version, missing columns, a row limit hit).
    public var warnings: [String]
    /// Where `scan` found it; nil for `tasks`, which is given the file.
    public var source: FindingSource? = nil
    /// The `sessions` table of schema version 3, by bundle ID and session ID; nil without one.
    public var sessions: [LedgerSession]? = nil
    /// How the ledger is stored: `tasks.sqlite`, or the older keyed archives.
    public var layout: Layout = .sqlite

    /// Rows decoded together on all cores.
    static let batchSize = 256

    /// The versions whose schema is known (spec §1.2).
    static let knownVersions: [Int64] = [2, 3]

    /// Reads the ledger at `path`, in either layout.
    /// - Parameters:
    ///   - path: the ledger: `tasks.sqlite` (a `-wal` beside it is read too), a session's
    ///     `tasks.plist` of the older layout, or nsurlsessiond's folder of either.
    ///   - root: the extraction's top folder for partial files; `nil` for the default (the
    ///     folder above `private/` in `path`).
    ///   - limits: the bounds on what is read.
    /// - Throws: ``EvidenceDatabaseError`` when the file is not a readable SQLite database or
    ///   has no `session_tasks` table with `identifier` and `session_id`, or is a property list
    ///   that is no task list, or the folder is not nsurlsessiond's.
    public static func read(path: String, root: String? = nil, limits: Limits = Limits()) throws -> TaskLedger {
        if let archives = try readArchives(path: path, root: root, limits: limits) { return archives }
        // Partial files are looked up below `root` as a scan looks them up below its roots, from
        // their spelling (``EvidenceName``); a path that is UTF-8 without `\x{` is its own.
        return try read(.path(path), path: EvidenceName.text(ofPath: path.utf8), root: root.map { EvidenceName.text(ofPath: $0.utf8) }, limits: limits)
    }

    /// Reads the ledger at `location`, which `path` names in messages and whose folders give
    /// the default `root`; `walkRoots` are the folders a scan walked, below which `path` and
    /// the partial files' paths are spelled as the walk spells names (``EvidenceName``).
    static func read(
        _ location: EvidenceDatabase.Location, path: String, root: String? = nil, limits: Limits = Limits(), walkRoots: [String] = []
    ) throws -> TaskLedger {
        let database = try EvidenceDatabase(location: location, path: path, maximumSize: limits.maximumDatabaseSize)
        defer { database.close() }
        let root = root.map { BytePath($0).trimmingTrailingSlashes.text } ?? defaultRoot(forDatabaseAt: path)
        var ledger = try database.read { db in try read(db, path: path, root: root, limits: limits, walkRoots: walkRoots) }
        if database.readFromWALAlone { ledger.warnings.insert(walAloneWarning, at: 0) }
        return ledger
    }

    /// Reads a ledger held in memory (a backup's file, decrypted, or an archive's member) with
    /// its `-wal` when there is one; `name` names it in messages. Partial files are left for
    /// ``placePartialFiles(missing:unplaceable:_:)`` to place in that evidence.
    /// - Throws: ``EvidenceDatabaseError`` as ``read(path:root:limits:)`` does.
    static func read(bytes: Data, wal: Data?, name: String, limits: Limits = Limits()) throws -> TaskLedger {
        let database = try EvidenceDatabase(bytes: bytes, wal: wal, name: name, maximumSize: limits.maximumDatabaseSize)
        defer { database.close() }
        var ledger = try database.read { db in try read(db, path: name, root: nil, limits: limits) }
        if database.readFromWALAlone { ledger.warnings.insert(walAloneWarning, at: 0) }
        return ledger
    }

    static let walAloneWarning = "the database file is empty: everything was read from its WAL"

    /// Places each task's partial file in a backup or an archive: `locate` gives, for a task and
    /// its device path as `/private/var/…` components, where the file would be there and what is
    /// at it, nil when that evidence cannot hold such a path; `missing` says, for a path there,
    /// why nothing is at it.
    mutating func placePartialFiles(
        missing: (_ path: String) -> String, unplaceable: String,
        _ locate: (_ task: LedgerTask, _ device: [String]) -> (path: String, entry: PartialFileResolution.Entry)?
    ) {
        for index in tasks.indices {
            guard var partial = tasks[index].partialFile else { continue }
            let found = partial.deviceComponents.flatMap { locate(tasks[index], $0) }
            partial.place(found, missing: missing, unplaceable: unplaceable)
            tasks[index].partialFile = partial
        }
    }

    /// The folder above the last `private` folder of `path` (a device's `/private/var/…`
    /// inside an extraction); `nil` when `path` has none.
    static func defaultRoot(forDatabaseAt path: String) -> String? {
        var components = BytePath(path).names(keepingEmpty: true).map(\.text)
        components.removeLast()
        guard let index = components.lastIndex(of: "private") else { return nil }
        let above = BytePath(joining: components[..<index]).text
        if above.isEmpty { return path.utf8.first == UInt8(ascii: "/") ? "/" : "." }
        return above
    }

    /// Whether `db` looks like the ledger: a `session_tasks` table with `identifier` and `session_id`.
    static func isLedger(_ db: Database) -> Bool {
        guard let columns = try? columnNames(db) else { return false }
        return columns.contains("identifier") && columns.contains("session_id")
    }

    private static func columnNames(_ db: Database) throws -> Set<String> {
        Set(try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info('session_tasks')").compactMap { $0["name"] as String? })
    }

    /// The columns read, each with the storage class it must have.
    enum Expected { case integer, real, text, blob }
    static let knownColumns: [(name: String, expected: Expected)] = [
        ("identifier", .integer), ("task_kind", .integer), ("creation_time", .real), ("state", .integer),
        ("task_description", .text), ("original_request", .blob), ("current_request", .blob), ("response", .blob),
        ("earliest_begin_date", .real), ("error", .blob), ("download_file_url", .blob), ("bundle_id", .text),
        ("session_id", .text), ("unique_identifier", .blob), ("count_of_bytes_received", .integer),
        ("count_of_bytes_expected_to_receive", .integer), ("path_to_download_task_file", .text),
    ]
    /// Columns read when present, without a warning when absent: the upload resume state, which
    /// schema 1 lacks, and the column iOS 26.1 binds it to by mistake.
    static let uploadColumns: [(name: String, expected: Expected)] = [
        ("resumable_upload_data", .blob), ("av_asset_options_plist", .blob),
    ]

    static func read(_ db: Database, path: String, root: String?, limits: Limits, walkRoots: [String] = []) throws -> TaskLedger {
        let version = try Int64.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        let present = try columnNames(db)
        guard present.contains("identifier"), present.contains("session_id") else {
            throw EvidenceDatabaseError(path: path, message: present.isEmpty
                ? "not an nsurlsessiond task database: no session_tasks table"
                : "not an nsurlsessiond task database: session_tasks has no identifier or session_id column")
        }
        var warnings: [String] = []
        if !knownVersions.contains(version) {
            warnings.append("schema version \(version) is not one this reader knows (2 or 3): the known columns were read by name")
        }
        let columns = (knownColumns + uploadColumns).filter { present.contains($0.name) }
        let missing = knownColumns.map(\.name).filter { !present.contains($0) }
        if !missing.isEmpty {
            warnings.append("session_tasks has no column " + missing.joined(separator: ", "))
        }
        if version == 3, (try? Bool.fetchOne(db, sql: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sessions'")) != true {
            warnings.append("schema version 3 without a sessions table")
        }
        // Each value comes with its storage class and size, and only when within the limit, so
        // a huge blob is neither copied out of SQLite nor decoded.
        var selected = ["rowid"]
        for column in columns {
            let quoted = "\"\(column.name)\""
            let limit = column.name == "original_request" ? limits.maximumOriginalRequest : limits.maximumValue
            selected.append("typeof(\(quoted))")
            selected.append("length(\(quoted))")
            selected.append("CASE WHEN length(\(quoted)) <= \(limit) THEN \(quoted) END")
        }
        let sql = "SELECT " + selected.joined(separator: ", ") + " FROM session_tasks ORDER BY rowid LIMIT \(limits.maximumRows + 1)"
        var tasks: [LedgerTask] = []
        // Room for every row at once: grown by doubling, the array of 10,000 tasks had room for
        // 16,384 and, while it grew, held the old buffer beside the new one (most of the peak).
        if let rows = try? Int.fetchOne(db, sql: "SELECT count(*) FROM session_tasks"), rows > 0 {
            tasks.reserveCapacity(Swift.min(rows, limits.maximumRows))
        }
        var skipped: [SkippedRow] = []
        let lookUp = PartialFileLookUp(walkRoots: walkRoots)
        defer { lookUp.close() }
        // Rows are taken from SQLite in order, one batch at a time, and decoded on all cores;
        // the partial files are looked up afterwards, in order, through one cache of folders.
        func decode(_ batch: [RowValues]) {
            orderedParallelMap(batch, batchSize: batch.count) { values in
                values.decoded(root: root)
            } emit: { outcome in
                switch outcome {
                case .success(var task):
                    if var partial = task.partialFile, let path = partial.path, let root {
                        partial.entry = lookUp.entry(path, root: root)
                        task.partialFile = partial
                    }
                    tasks.append(task)
                case .failure(let row): skipped.append(row)
                }
            }
        }
        let rows = try Row.fetchCursor(db, sql: sql)
        var batch: [RowValues] = []
        var count = 0
        while let row = try rows.next() {
            count += 1
            if count > limits.maximumRows {
                warnings.append("more than \(limits.maximumRows) rows: the rest were not read")
                break
            }
            batch.append(RowValues(row: row, columns: columns, limits: limits))
            if batch.count == Self.batchSize {
                decode(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        decode(batch)
        // Sorted through their keys: moving whole tasks about is most of a sort's time.
        let order = tasks.indices.sorted { LedgerTask.isListedBefore(tasks[$0], tasks[$1]) }
        tasks.rearrange(by: order)
        let sessions = try LedgerSession.read(db, limits: limits, warnings: &warnings)
        return TaskLedger(path: path, schemaVersion: version, root: root, tasks: tasks, skippedRows: skipped,
                          warnings: warnings, sessions: sessions)
    }
}

/// Why a row is skipped.
struct RowFailure: Error {
    var column: String
    var message: String
}

/// Looks partial files up, each folder opened once: relative to the root, one component at a
/// time with `O_NOFOLLOW`, so no symbolic link is followed and nothing outside the root is
/// reached; its descriptor is kept for the next file in the same folder.
final class PartialFileLookUp {
    private let calls: FileSystemCalls
    /// The folders a scan walked (see ``TaskLedger/read(_:path:root:limits:walkRoots:)``); empty
    /// when the ledger was named directly, and its root is then a path as given.
    private let walkRoots: [String]
    /// Folder path → its descriptor, or -1 when it cannot be reached without following a link.
    private var folders: [BytePath: Int32] = [:]
    /// At most this many folders are held open; past that the cache starts again.
    private static let maximumOpenFolders = 64

    init(calls: FileSystemCalls = .system, walkRoots: [String] = []) {
        self.calls = calls
        self.walkRoots = walkRoots
    }

    func entry(_ path: String, root: String) -> PartialFileResolution.Entry {
        guard BytePath(path).isInside(BytePath(root)), path != root,
              let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return .missing }
        let folder = String(path[..<slash])
        let name = String(path[path.index(after: slash)...])
        guard !name.isEmpty, name != "..", name != "." else { return .missing }
        let descriptor: Int32
        let key = BytePath(spelled: folder)
        if let known = folders[key] {
            descriptor = known
        } else {
            if folders.count >= Self.maximumOpenFolders { close() }
            descriptor = open(folder, root: root)
            folders[key] = descriptor
        }
        guard descriptor >= 0, let bytes = EvidenceName.bytes(of: name), case .success(let status) = calls.fstatat(descriptor, BytePath(bytes: bytes)) else {
            return .missing
        }
        return PartialFileResolution.entry(status)
    }

    /// Opens `folder` (inside `root`, or `root` itself) component by component from the walked
    /// folder holding it (else from `root`), each by the bytes its spelling stands for
    /// (``TreeWalker/openFolder(atPath:roots:calls:)``); -1 when it cannot.
    private func open(_ folder: String, root: String) -> Int32 {
        TreeWalker.openFolder(atPath: folder, roots: walkRoots + [root], calls: calls) ?? -1
    }

    /// Closes every folder held open.
    func close() {
        for descriptor in folders.values where descriptor >= 0 { _ = calls.close(descriptor) }
        folders.removeAll()
    }
}

/// One row's values by column name, each checked for its storage class and size; copied out
/// of SQLite's row so that rows can be decoded on other threads.
struct RowValues: Sendable {
    private let names: [String: Int]
    private let values: [(type: String, length: Int64, value: DatabaseValue)]
    let limits: TaskLedger.Limits
    private(set) var rowID: Int64 = 0

    init(row: Row, columns: [(name: String, expected: TaskLedger.Expected)], limits: TaskLedger.Limits) {
        self.limits = limits
        var names: [String: Int] = [:]
        var values: [(type: String, length: Int64, value: DatabaseValue)] = []
        values.reserveCapacity(columns.count)
        for (index, column) in columns.enumerated() {
            let position = 1 + 3 * index
            var typeName = "null"
            if case .string(let type) = (row[position] as DatabaseValue).storage { typeName = type }
            var length: Int64 = 0
            if case .int64(let count) = (row[position + 1] as DatabaseValue).storage { length = count }
            names[column.name] = index
            values.append((typeName, length, row[position + 2]))
        }
        self.names = names
        self.values = values
        if case .int64(let id) = (row[0] as DatabaseValue).storage { rowID = id }
    }

    /// A row made of values given directly, each with the storage class and length SQLite would
    /// report and the value as the query returns it (NULL past the limit): the fuzzing check's.
    init(rowID: Int64, columns: [(name: String, type: String, length: Int64, value: DatabaseValue)], limits: TaskLedger.Limits) {
        self.limits = limits
        self.rowID = rowID
        var names: [String: Int] = [:]
        for (index, column) in columns.enumerated() where names[column.name] == nil { names[column.name] = index }
        self.names = names
        values = columns.map { ($0.type, $0.length, $0.value) }
    }

    /// The storage class SQLite reports, the length, and the value when within the limit.
    private func raw(_ name: String) -> (type: String, length: Int64, value: DatabaseValue)? {
        guard let index = names[name] else { return nil }
        return values[index]
    }

    /// The row as a task, or as the skipped row that says why not.
    func decoded(root: String?) -> Result<LedgerTask, TaskLedger.SkippedRow> {
        do {
            return .success(try task(root: root))
        } catch {
            return .failure(TaskLedger.SkippedRow(rowID: rowID, sessionID: try? text("session_id"), identifier: try? integer("identifier"),
                                                  column: error.column, message: error.message))
        }
    }

    private func limit(for name: String) -> Int { name == "original_request" ? limits.maximumOriginalRequest : limits.maximumValue }

    private func tooLarge(_ name: String, _ length: Int64) -> RowFailure {
        let why = name == "original_request" ? " (the daemon drops such rows)" : ""
        return RowFailure(column: name, message: "\(length) bytes, over the limit of \(limit(for: name))\(why)")
    }

    func integer(_ name: String) throws(RowFailure) -> Int64? {
        guard let raw = raw(name), raw.type != "null" else { return nil }
        guard case .int64(let value) = raw.value.storage else {
            throw RowFailure(column: name, message: "holds \(Self.article(raw.type)), not an integer")
        }
        return value
    }

    func real(_ name: String) throws(RowFailure) -> Double? {
        guard let raw = raw(name), raw.type != "null" else { return nil }
        switch raw.value.storage {
        case .double(let value): return value
        // SQLite stores a real with no fraction as an integer under REAL affinity only when asked; accept both.
        case .int64(let value): return Double(value)
        default: throw RowFailure(column: name, message: "holds \(Self.article(raw.type)), not a real")
        }
    }

    func text(_ name: String) throws(RowFailure) -> String? {
        try sized(name, type: "text") { if case .string(let value) = $0 { value } else { nil } }
    }

    func blob(_ name: String) throws(RowFailure) -> Data? {
        try sized(name, type: "blob") { if case .blob(let value) = $0 { value } else { nil } }
    }

    /// A text or blob column: of SQLite's storage class `type`, its value read unless it was over
    /// the limit (the read left it out, and `value` finds none).
    private func sized<T>(_ name: String, type: String, _ value: (DatabaseValue.Storage) -> T?) throws(RowFailure) -> T? {
        guard let raw = raw(name), raw.type != "null" else { return nil }
        guard raw.type == type else {
            throw RowFailure(column: name, message: "holds \(Self.article(raw.type)), not \(Self.article(type))")
        }
        guard let value = value(raw.value.storage) else { throw tooLarge(name, raw.length) }
        return value
    }

    private static func article(_ type: String) -> String {
        switch type {
        case "integer": "an integer"
        case "real": "a real"
        case "text": "text"
        case "blob": "a blob"
        default: type
        }
    }

    /// An archive column decoded by `decode`; a decoding error skips the row with its key path.
    private func archive<T>(_ name: String, _ decode: (Data) throws -> T) throws(RowFailure) -> T? {
        guard let bytes = try blob(name) else { return nil }
        do {
            return try decode(bytes)
        } catch {
            throw RowFailure(column: name, message: "\(error)")
        }
    }

    func task(root: String?) throws(RowFailure) -> LedgerTask {
        guard let identifier = try integer("identifier") else { throw RowFailure(column: "identifier", message: "is NULL") }
        guard let sessionID = try text("session_id") else { throw RowFailure(column: "session_id", message: "is NULL") }
        var task = LedgerTask(rowID: rowID, sessionID: sessionID, identifier: identifier)
        task.bundleID = try text("bundle_id")
        task.taskDescription = try text("task_description")
        task.kind = try integer("task_kind").map(LedgerTask.Kind.init)
        task.state = try integer("state").map(LedgerTask.State.init)
        if let seconds = try real("creation_time") {
            if seconds.isFinite { task.creationTime = Date(timeIntervalSinceReferenceDate: seconds) } else { task.notes.append("creation_time: \(seconds) is not a time") }
        }
        if let seconds = try real("earliest_begin_date"), seconds != 0 {
            if seconds.isFinite { task.earliestBeginDate = Date(timeIntervalSince1970: seconds) } else { task.notes.append("earliest_begin_date: \(seconds) is not a time") }
        }
        if let bytes = try blob("unique_identifier") {
            if bytes.count == 16 {
                let b = Array(bytes)
                task.uniqueIdentifier = UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])).uuidString
            } else {
                task.notes.append("unique_identifier: \(bytes.count) bytes, not 16")
            }
        }
        task.bytesReceived = try integer("count_of_bytes_received")
        task.bytesExpected = try integer("count_of_bytes_expected_to_receive")

        task.take(original: try archive("original_request") { try URLRequestArchive(archiveData: $0) },
                  current: try archive("current_request") { try URLRequestArchive(archiveData: $0) },
                  columns: ("original_request", "current_request"))
        if let response = try archive("response", { try ArchivedURLResponse(archiveData: $0) }) {
            task.statusCode = response.statusCode
            task.entityTag = response.entityTag
            task.lastModified = response.lastModified
            task.expectedContentLength = response.expectedContentLength
            if task.url == nil { task.url = response.urlString }
        }
        task.error = try archive("error") { try ArchivedError(archiveData: $0) }

        if let stored = try text("path_to_download_task_file"), !stored.isEmpty {
            task.partialFile = LedgerPartialFile(column: "path_to_download_task_file", recorded: stored, isURL: false, root: root)
        } else if let url = try archive("download_file_url", { try ArchivedURL(archiveData: $0) }) {
            task.partialFile = LedgerPartialFile(column: "download_file_url", recorded: url.absoluteString, isURL: true, root: root)
        }
        task.upload = try uploadState(notes: &task.notes)
        return task
    }

    /// `resumable_upload_data`, decoded. Its format is known only from decompiled code, so bytes
    /// that do not read are a note, not a skipped row. iOS 26.1 binds the value one column early,
    /// to `av_asset_options_plist`, when that column's own value is nil: there, only bytes that
    /// read as upload resume data count.
    private func uploadState(notes: inout [String]) throws(RowFailure) -> UploadResumeData? {
        let column = "resumable_upload_data"
        if let bytes = try blob(column) {
            do {
                if let upload = try UploadResumeData.read(bytes) { return upload }
                notes.append("\(column): \(bytes.count) bytes that are not upload resume data")
            } catch {
                notes.append("\(column): \(error)")
            }
            return nil
        }
        guard let bytes = try? blob("av_asset_options_plist"), let upload = try? UploadResumeData.read(bytes) else { return nil }
        notes.append("\(column): found in av_asset_options_plist, where iOS 26.1 puts it when that column has no value of its own")
        return upload
    }
}
