import Foundation
internal import GRDB
import ResumeDataCodec

/// One row of the `sessions` table that schema version 3 (iOS 26) adds: a background session's
/// bundle ID and identifier, its `options` and its `configuration` (spec §1.2-1.3).
///
/// The spec knows the two identifiers and, in `options` (an archived `NSDictionary`), the keys
/// `NSURLSessionLastDisconnectDateKey` (an `NSDate`), `NDBackgroundSessionManagerKeySessionUUID`
/// and the `NSURLSessionDelegateImplements…Key` flags; these are decoded, and a value of
/// another type than expected is a note, not a failure. It names no field of the archived
/// `NSURLSessionConfiguration`, so the configuration is shown only as archived: its class and
/// its scalar fields under their archived keys, meaning unknown.
public struct LedgerSession: Sendable {
    /// The SQLite `rowid`.
    public var rowID: Int64
    /// `bundle_id`.
    public var bundleID: String?
    /// `session_id`: the background configuration's identifier.
    public var sessionID: String?
    /// `options`' `NSURLSessionLastDisconnectDateKey`.
    public var lastDisconnectDate: Date?
    /// `options`' `NDBackgroundSessionManagerKeySessionUUID`, as text (its archived type is not
    /// known: a string or an `NSUUID` shown as archived).
    public var sessionUUID: String?
    /// `options`' `NSURLSessionDelegateImplements…Key` entries, in archive order, each as archived.
    public var delegateImplements: [(key: String, value: String)] = []
    /// The other keys of `options`, in archive order.
    public var otherOptionKeys: [String] = []
    /// The archived configuration's class, e.g. `NSURLSessionConfiguration`.
    public var configurationClass: String?
    /// The configuration's fields that hold a string, number, boolean or date, under their
    /// archived keys, as archived (their meaning is not in the spec).
    public var configurationFields: [(key: String, value: String)] = []
    /// What could not be read, each `column: why`.
    public var notes: [String] = []

    /// The spec's keys of `options`.
    enum OptionKey {
        static let lastDisconnectDate = "NSURLSessionLastDisconnectDateKey"
        static let sessionUUID = "NDBackgroundSessionManagerKeySessionUUID"
        static let delegateImplementsPrefix = "NSURLSessionDelegateImplements"
    }

    /// The rows of `sessions`, by bundle ID and session ID; nil when the database has no such table.
    static func read(_ db: Database, limits: TaskLedger.Limits, warnings: inout [String]) throws -> [LedgerSession]? {
        let present = Set(try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info('sessions')").compactMap { $0["name"] as String? })
        guard !present.isEmpty else { return nil }
        let names = ["bundle_id", "session_id", "options", "configuration"]
        let missing = names.filter { !present.contains($0) }
        if !missing.isEmpty { warnings.append("sessions has no column " + missing.joined(separator: ", ")) }
        var selected = ["rowid"]
        for name in names {
            guard present.contains(name) else {
                selected += ["'null'", "0", "NULL"]
                continue
            }
            let quoted = "\"\(name)\""
            selected += ["typeof(\(quoted))", "length(\(quoted))", "CASE WHEN length(\(quoted)) <= \(limits.maximumValue) THEN \(quoted) END"]
        }
        let sql = "SELECT " + selected.joined(separator: ", ") + " FROM sessions ORDER BY rowid LIMIT \(limits.maximumRows + 1)"
        var sessions: [LedgerSession] = []
        let rows = try Row.fetchCursor(db, sql: sql)
        while let row = try rows.next() {
            guard sessions.count < limits.maximumRows else {
                warnings.append("more than \(limits.maximumRows) sessions: the rest were not read")
                break
            }
            var rowID: Int64 = 0
            if case .int64(let id) = (row[0] as DatabaseValue).storage { rowID = id }
            var session = LedgerSession(rowID: rowID)
            func column(_ index: Int) -> (type: String, length: Int64, value: DatabaseValue) {
                let position = 1 + 3 * index
                var type = "null"
                if case .string(let name) = (row[position] as DatabaseValue).storage { type = name }
                var length: Int64 = 0
                if case .int64(let count) = (row[position + 1] as DatabaseValue).storage { length = count }
                return (type, length, row[position + 2])
            }
            session.bundleID = session.text(column(0), name: "bundle_id")
            session.sessionID = session.text(column(1), name: "session_id")
            if let bytes = session.blob(column(2), name: "options", limit: limits.maximumValue) { session.decodeOptions(bytes) }
            if let bytes = session.blob(column(3), name: "configuration", limit: limits.maximumValue) { session.decodeConfiguration(bytes) }
            sessions.append(session)
        }
        return sessions.sorted { a, b in
            if a.bundleID != b.bundleID {
                guard let left = a.bundleID else { return false }
                guard let right = b.bundleID else { return true }
                return TreeWalker.byteOrder(left, right)
            }
            if a.sessionID != b.sessionID {
                guard let left = a.sessionID else { return false }
                guard let right = b.sessionID else { return true }
                return TreeWalker.byteOrder(left, right)
            }
            return a.rowID < b.rowID
        }
    }

    private mutating func text(_ value: (type: String, length: Int64, value: DatabaseValue), name: String) -> String? {
        guard value.type != "null" else { return nil }
        guard value.type == "text", case .string(let text) = value.value.storage else {
            notes.append(value.type == "text" ? "\(name): \(value.length) bytes, over the limit" : "\(name): holds \(value.type), not text")
            return nil
        }
        return text
    }

    private mutating func blob(_ value: (type: String, length: Int64, value: DatabaseValue), name: String, limit: Int) -> Data? {
        guard value.type != "null" else { return nil }
        guard value.type == "blob" else {
            notes.append("\(name): holds \(value.type), not a blob")
            return nil
        }
        guard case .blob(let bytes) = value.value.storage else {
            notes.append("\(name): \(value.length) bytes, over the limit of \(limit)")
            return nil
        }
        return bytes
    }

    /// Bounds on the small archives of a session: they hold a dictionary of a few keys.
    private static let archiveOptions = KeyedArchiveOptions(maximumObjectCount: 10_000, maximumDepth: 32, maximumValueCount: 100_000)

    mutating func decodeOptions(_ bytes: Data) {
        let root: ArchivedValue
        do {
            root = try KeyedArchive(data: bytes, options: Self.archiveOptions).decodeRoot()
        } catch {
            notes.append("options: \(error)")
            return
        }
        guard case .dictionary(let entries) = root else {
            notes.append("options: the root is not a dictionary")
            return
        }
        for entry in entries {
            switch entry.key {
            case OptionKey.lastDisconnectDate:
                if case .date(let date) = entry.value {
                    lastDisconnectDate = date
                } else {
                    notes.append("options: \(OptionKey.lastDisconnectDate) is not a date")
                }
            case OptionKey.sessionUUID:
                sessionUUID = entry.value.stringValue ?? entry.value.description
            case let key where key.hasPrefix(OptionKey.delegateImplementsPrefix):
                delegateImplements.append((key, Self.scalar(entry.value) ?? entry.value.description))
            default:
                otherOptionKeys.append(entry.key)
            }
        }
    }

    mutating func decodeConfiguration(_ bytes: Data) {
        let root: ArchivedValue
        do {
            root = try KeyedArchive(data: bytes, options: Self.archiveOptions).decodeRoot()
        } catch {
            notes.append("configuration: \(error)")
            return
        }
        guard case .object(let object) = root else {
            notes.append("configuration: the root is not an object")
            return
        }
        configurationClass = object.className
        for field in object.fields {
            guard let value = field.value.value, let text = Self.scalar(value) else { continue }
            configurationFields.append((field.key, text))
        }
    }

    /// A string, number, boolean or date as text; nil for anything else.
    static func scalar(_ value: ArchivedValue) -> String? {
        switch value {
        case .string(let string): string
        case .integer(let integer): integer.description
        case .real(let real): real.description
        case .boolean(let bool): bool ? "true" : "false"
        case .date(let date): ISO8601DateText.text(date, fractionalSeconds: false)
        default: nil
        }
    }
}
