import Foundation
import ResumeDataCodec
import ResumeSystemCalls

/// One session's task list in nsurlsessiond's older layout (macOS 10.11 to 10.13, iOS before
/// the SQLite store): `<bundle SHA-1>/<session SHA-1>/tasks.plist`, a keyed archive of a
/// dictionary from task number (an `NSNumber`) to a `__NSCFURLSessionTaskInfo`, read into the
/// same ``LedgerTask`` values as a row of `tasks.sqlite`.
///
/// What is uncertain, and so is not relied on: the file's name is unverified (spec §1.1, "Legacy
/// task archive"); the field names are those of CFNetwork's `-[__NSCFURLSessionTaskInfo
/// initWithCoder:]` decompiled from a later build (unverified provenance, CFN), so every field
/// is optional and read by name, the task number being the dictionary's key when `identifier`
/// is absent; a unique identifier is taken as an `NSUUID` (`uniqueIdentifierUUID`) or as the
/// older string (`uniqueIdentifier`); `creationTime` is taken on the 2001 epoch as the SQLite
/// column is. The top dictionary is read from the object graph, key by key, so that numbers
/// as keys are read as the task numbers they are.
///
/// Each task is decoded alone within its own bounds: one whose objects are corrupt or hostile (a
/// cycle, a request that is not one) is reported with the field at fault and skipped, and the
/// rest are read. The file, the number of tasks and the values one task expands to are bounded.
enum TaskArchive {
    /// The file's name in a session folder.
    static let fileName = "tasks.plist"
    /// The task's class, and the name older archives carry (nsurlsessiond maps `NDTaskInfo` to it).
    static let taskClasses: Set<String> = ["__NSCFURLSessionTaskInfo", "NDTaskInfo"]
    /// The most bytes read: a task is a few KiB, and a daemon keeps a few hundred.
    static let maximumSize = 16 << 20
    /// The most tasks read from one file; the rest are reported as not read.
    static let maximumTasks = 10_000
    /// The most values one task may expand to: a real one, a request and a response with their
    /// headers, is a few hundred.
    static let maximumTaskValues = 1 << 14
    /// The most values all the tasks of one file may expand to together.
    static let maximumFileValues = 1 << 22

    /// The decoding bounds: objects as many as 16 MiB can hold, each task's values far above a
    /// real one's (a request with its headers is a few hundred), so that many tasks sharing one
    /// large object cannot multiply the work.
    static let options = KeyedArchiveOptions(maximumObjectCount: 1 << 21, maximumDepth: 64, maximumValueCount: 1 << 14,
                                             propertyListOptions: PropertyListReadOptions(maximumObjectCount: 1 << 21, maximumInputSize: maximumSize))

    /// Whether the bytes begin as a property list does (binary, or XML after any white space):
    /// the older layout's files, where `tasks.sqlite` begins with SQLite's header.
    static func isPropertyList(_ data: Data) -> Bool {
        if data.starts(with: Array("bplist".utf8)) { return true }
        let start = data.prefix(256).drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        return start.starts(with: Array("<?xml".utf8)) || start.starts(with: Array("<plist".utf8)) || start.starts(with: Array("<!DOCTYPE plist".utf8))
    }

    /// What one archive holds.
    struct Contents {
        var tasks: [LedgerTask] = []
        var skipped: [TaskLedger.SkippedRow] = []
        var warnings: [String] = []
    }

    /// Who the tasks belong to when the tasks themselves do not say: the bundle and session
    /// read from `bundles.plist` and `sessions.plist` by their folders' names, else those names.
    struct Owner {
        var bundleID: String?
        var sessionID: String?
        /// The session folder's name (the SHA-1 of the session's identifier), for a task that
        /// names no session when `sessions.plist` does not either.
        var sessionFolder: String?
    }

    /// Why the top of the archive is no dictionary of tasks: where, and why.
    struct FrameError: Error, CustomStringConvertible {
        var keyPath: String
        var message: String
        init(_ keyPath: String, _ message: String) {
            self.keyPath = keyPath
            self.message = message
        }
        var description: String { "\(keyPath): \(message)" }
    }

    /// The top dictionary's entries as UIDs, and the reader.
    /// - Throws: ``FrameError`` or the codec's error when the bytes are no keyed archive of a dictionary.
    private static func frame(_ data: Data) throws -> (reader: KeyedArchiveObjectReader, keys: [UInt64], values: [UInt64]) {
        let reader = try KeyedArchiveObjectReader(data: data, options: options)
        let root = reader.rootUID
        let className = try reader.className(at: root)
        guard className == "NSDictionary" || className == "NSMutableDictionary" else {
            throw FrameError("$objects[\(root)]", "the root is an \(className), not the dictionary of tasks")
        }
        guard case .dictionary(let fields) = try reader.raw(root) else {
            throw FrameError("$objects[\(root)]", "the root is not an object")
        }
        func uids(_ key: String) throws -> [UInt64] {
            guard case .array(let elements)? = fields[key] else {
                throw FrameError("$objects[\(root)].\(key)", "the dictionary has no \(key) array")
            }
            return try elements.enumerated().map { index, element in
                guard case .uid(let uid) = element else {
                    throw FrameError("$objects[\(root)].\(key)[\(index)]", "not a UID")
                }
                return uid
            }
        }
        let keys = try uids("NS.keys")
        let values = try uids("NS.objects")
        guard keys.count == values.count else {
            throw FrameError("$objects[\(root)]", "NS.keys has \(keys.count) entries but NS.objects has \(values.count)")
        }
        return (reader, keys, values)
    }

    /// Whether `data` is such a task list: a keyed archive of a dictionary whose first value is a
    /// task object. One answer for `scan` (by content, wherever the file lies) and for
    /// `inspect`, `validate` and `explain`, which name the command that reads it.
    static func isTaskArchive(_ data: Data) -> Bool {
        guard data.count <= maximumSize, let (reader, _, values) = try? frame(data), let first = values.first,
              let className = try? reader.className(at: first) else { return false }
        return taskClasses.contains(className)
    }

    /// The tasks of one `tasks.plist`.
    /// - Parameters:
    ///   - path: the file, for messages.
    ///   - owner: the bundle and session its folders stand for.
    ///   - placement: where the tasks' partial files are looked for.
    /// - Throws: ``EvidenceDatabaseError`` when the bytes are no keyed archive of a dictionary.
    static func read(_ data: Data, path: String, owner: Owner, placement: LedgerPlacement) throws -> Contents {
        guard data.count <= maximumSize else {
            throw EvidenceDatabaseError(path: path, message: "\(data.count) bytes, over the limit of \(maximumSize) for a task list")
        }
        let reader: KeyedArchiveObjectReader, keys: [UInt64], values: [UInt64]
        do {
            (reader, keys, values) = try frame(data)
        } catch {
            throw EvidenceDatabaseError(path: path, message: "not nsurlsessiond's task list (a keyed archive of a dictionary of tasks): \(error)")
        }
        var contents = Contents()
        let count = min(keys.count, maximumTasks)
        if keys.count > maximumTasks {
            contents.warnings.append("\(keys.count) tasks, more than \(maximumTasks): the rest were not read")
        }
        var expansion = ArchiveExpansion(reader: reader, cap: maximumTaskValues + 1)
        var budget = maximumFileValues
        for index in 0..<count {
            let entry = TaskArchiveEntry(reader: reader, position: Int64(index + 1), keyUID: keys[index], valueUID: values[index])
            // Counted before decoding, so that work is bounded by the file, not by the number
            // of tasks that share one large object.
            let expands = expansion.count(values[index])
            if expands > maximumTaskValues || expands > budget {
                let why = expands > maximumTaskValues
                    ? "the task expands to more than \(maximumTaskValues) values"
                    : "the tasks before it expand to \(maximumFileValues - budget) values: more than \(maximumFileValues) are not decoded"
                contents.skipped.append(TaskLedger.SkippedRow(rowID: Int64(index + 1), sessionID: owner.sessionID, identifier: nil,
                                                              column: "NS.objects[\(index)]", message: why))
                continue
            }
            budget -= expands
            switch entry.decoded(owner: owner, placement: placement) {
            case .success(let task): contents.tasks.append(task)
            case .failure(let row): contents.skipped.append(row)
            }
        }
        return contents
    }
}

/// Where a ledger's partial files are looked for: below the folder that stands for the device's
/// `/` (an extraction's top folder, as for `tasks.sqlite`), or below the folder that stands for
/// the user's home, when the ledger lies in a copied home (`HOME/Library/com.apple.nsurlsessiond`)
/// and the device's paths are `/Users/NAME/…` or `/private/var/NAME/…` (an inference from where
/// the daemon keeps its folder, spec §1.1: the user's `Library`).
struct LedgerPlacement: Sendable, Equatable {
    /// The folder, nil when there is none to look in.
    var root: String?
    /// Whether ``root`` stands for the home rather than for `/`.
    var isHome = false

    /// The placement for a ledger at `path`: `root` when given; else the folder above the last
    /// `private` of the path (an extraction's); else the folder above `Library/com.apple.nsurlsessiond`
    /// (a home's); else none.
    static func forLedger(at path: String, root: String?) -> LedgerPlacement {
        if let root { return LedgerPlacement(root: BytePath(root).trimmingTrailingSlashes.text) }
        if let above = TaskLedger.defaultRoot(forDatabaseAt: path) { return LedgerPlacement(root: above) }
        let names = BytePath(path).names(keepingEmpty: true).map(\.text)
        guard let index = Array(zip(names.indices, names.dropFirst())).last(where: { names[$0.0] == "Library" && $0.1 == "com.apple.nsurlsessiond" })?.0 else {
            return LedgerPlacement()
        }
        let above = BytePath(joining: names[..<index]).text
        if above.isEmpty { return LedgerPlacement(root: path.utf8.first == UInt8(ascii: "/") ? "/" : ".", isHome: true) }
        return LedgerPlacement(root: above, isHome: true)
    }

    /// How many leading components of a device path name the home: `Users/NAME` (a Mac) or
    /// `private/var/NAME` and `var/NAME` (a device's `mobile`); nil for a path outside a home.
    static func homeLength(of components: [String]) -> Int? {
        if components.count > 2, components[0] == "Users" { return 2 }
        if components.count > 3, components[0] == "private", components[1] == "var" { return 3 }
        if components.count > 2, components[0] == "var" { return 2 }
        return nil
    }
}

/// One entry of the top dictionary: its key, the task number, and its value, the task object.
private struct TaskArchiveEntry {
    /// A value shortened for a message: `an NSData`, or the value itself up to 40 characters.
    private func kind(of value: ArchivedValue) -> String {
        if case .object(let object) = value { return "an \(object.className)" }
        let text = value.description
        return text.count > 40 ? String(text.prefix(40)) + "…" : text
    }

    let reader: KeyedArchiveObjectReader
    /// The entry's position in the dictionary, from 1: its ``TaskLedger/SkippedRow/rowID``.
    let position: Int64
    let keyUID: UInt64
    let valueUID: UInt64

    func decoded(owner: TaskArchive.Owner, placement: LedgerPlacement) -> Result<LedgerTask, TaskLedger.SkippedRow> {
        var identifier: Int64?
        var sessionID: String?
        do {
            let number = try taskNumber()
            identifier = number
            let fields = try taskFields()
            sessionID = (try? string(fields, "sessionID")) ?? owner.sessionID
            return .success(try task(fields, identifier: number, owner: owner, placement: placement))
        } catch {
            return .failure(TaskLedger.SkippedRow(rowID: position, sessionID: sessionID ?? owner.sessionID, identifier: identifier,
                                                  column: error.column, message: error.message))
        }
    }

    /// The key: an integer (`NSNumber`), or a string of digits.
    private func taskNumber() throws(RowFailure) -> Int64 {
        let column = "NS.keys[\(position - 1)]"
        let key: ArchivedValue
        do {
            key = try reader.value(at: keyUID)
        } catch {
            throw RowFailure(column: column, message: "\(error)")
        }
        switch key {
        case .integer(let number):
            guard let value = number.int64Value else { throw RowFailure(column: column, message: "\(number) is not a task number") }
            return value
        case .string(let text):
            guard let value = Int64(text) else { throw RowFailure(column: column, message: "\"\(VisibleText.escaping(text))\" is not a task number") }
            return value
        default:
            throw RowFailure(column: column, message: "\(kind(of: key)) is not a task number")
        }
    }

    private func taskFields() throws(RowFailure) -> PropertyListDictionary {
        let column = "NS.objects[\(position - 1)]"
        do {
            let className = try reader.className(at: valueUID)
            guard TaskArchive.taskClasses.contains(className) else {
                throw RowFailure(column: column, message: "an \(className), not a task (__NSCFURLSessionTaskInfo)")
            }
            guard case .dictionary(let fields) = try reader.raw(valueUID) else { throw RowFailure(column: column, message: "not an object") }
            return fields
        } catch let failure as RowFailure {
            throw failure
        } catch {
            throw RowFailure(column: column, message: "\(error)")
        }
    }

    /// A field's object decoded; nil when absent or nil. A field stored inline is given as is.
    private func object(_ fields: PropertyListDictionary, _ key: String) throws(RowFailure) -> ArchivedValue? {
        guard let field = fields[key] else { return nil }
        if case .uid(let uid) = field {
            guard uid != 0 else { return nil }
            do {
                return try reader.value(at: uid)
            } catch {
                throw RowFailure(column: key, message: "\(error)")
            }
        }
        switch field {
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        case .boolean(let flag): return .boolean(flag)
        case .string(let text): return .string(text)
        case .data(let bytes): return .data(bytes)
        case .date(let date): return .date(date)
        case .array, .set, .dictionary, .uid, .null: throw RowFailure(column: key, message: "holds \(field.typeName), not a value")
        }
    }

    private func integer(_ fields: PropertyListDictionary, _ key: String) throws(RowFailure) -> Int64? {
        switch try object(fields, key) {
        case nil: return nil
        case .integer(let number)?:
            guard let value = number.int64Value else { throw RowFailure(column: key, message: "\(number) is out of range") }
            return value
        case .boolean(let flag)?: return flag ? 1 : 0
        case let other?: throw RowFailure(column: key, message: "\(kind(of: other)) is not an integer")
        }
    }

    private func real(_ fields: PropertyListDictionary, _ key: String) throws(RowFailure) -> Double? {
        switch try object(fields, key) {
        case nil: return nil
        case .real(let number)?: return number.value
        case .integer(let number)?: return number.doubleValue
        case let other?: throw RowFailure(column: key, message: "\(kind(of: other)) is not a number")
        }
    }

    func string(_ fields: PropertyListDictionary, _ key: String) throws(RowFailure) -> String? {
        switch try object(fields, key) {
        case nil: return nil
        case .string(let text)?: return text
        case let other?: throw RowFailure(column: key, message: "\(kind(of: other)) is not a string")
        }
    }

    private func url(_ fields: PropertyListDictionary, _ key: String) throws(RowFailure) -> String? {
        switch try object(fields, key) {
        case nil: return nil
        case .url(let url)?: return url.absoluteString
        case let other?: throw RowFailure(column: key, message: "\(kind(of: other)) is not a URL")
        }
    }

    /// An object field decoded by `decode`, which is given its UID; nil when absent or nil.
    private func decoded<T>(_ fields: PropertyListDictionary, _ key: String, _ decode: (UInt64) throws -> T) throws(RowFailure) -> T? {
        guard let field = fields[key] else { return nil }
        guard case .uid(let uid) = field else { throw RowFailure(column: key, message: "holds \(field.typeName), not an object") }
        guard uid != 0 else { return nil }
        do {
            return try decode(uid)
        } catch {
            throw RowFailure(column: key, message: "\(error)")
        }
    }

    /// `uniqueIdentifierUUID` (an `NSUUID`, its 16 bytes in `NS.uuidbytes`), else the older
    /// `uniqueIdentifier` string.
    private func uniqueIdentifier(_ fields: PropertyListDictionary, notes: inout [String]) throws(RowFailure) -> String? {
        if let value = try object(fields, "uniqueIdentifierUUID") {
            if case .object(let object) = value, case .inline(.data(let bytes))? = object["NS.uuidbytes"], bytes.count == 16 {
                let b = Array(bytes)
                return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])).uuidString
            }
            notes.append("uniqueIdentifierUUID: \(kind(of: value)), not an NSUUID of 16 bytes")
            return nil
        }
        return try string(fields, "uniqueIdentifier")
    }

    private func task(_ fields: PropertyListDictionary, identifier: Int64, owner: TaskArchive.Owner, placement: LedgerPlacement) throws(RowFailure) -> LedgerTask {
        var notes: [String] = []
        var sessionID = try string(fields, "sessionID") ?? owner.sessionID
        if sessionID == nil, let folder = owner.sessionFolder {
            sessionID = folder
            notes.append("sessionID: not recorded; the session's folder name (the SHA-1 of its identifier) stands for it")
        }
        var task = LedgerTask(rowID: position, sessionID: sessionID ?? "", identifier: identifier)
        if let recorded = try integer(fields, "identifier"), recorded != identifier {
            notes.append("identifier: \(recorded), but the task is filed under \(identifier)")
        }
        task.bundleID = try string(fields, "bundleID") ?? owner.bundleID
        task.taskDescription = try string(fields, "taskDescription")
        task.kind = try integer(fields, "taskKind").map(LedgerTask.Kind.init)
        task.state = try integer(fields, "state").map(LedgerTask.State.init)
        if let seconds = try real(fields, "creationTime"), seconds != 0 {
            if seconds.isFinite { task.creationTime = Date(timeIntervalSinceReferenceDate: seconds) } else { notes.append("creationTime: \(seconds) is not a time") }
        }
        if case .date(let date)? = try object(fields, "earliestBeginDate") { task.earliestBeginDate = date }
        task.uniqueIdentifier = try uniqueIdentifier(fields, notes: &notes)
        task.bytesReceived = try integer(fields, "countOfBytesReceived")
        task.bytesExpected = try integer(fields, "countOfBytesExpectedToReceive")

        task.take(original: try decoded(fields, "originalRequest") { try reader.request(at: $0) },
                  current: try decoded(fields, "currentRequest") { try reader.request(at: $0) },
                  columns: ("originalRequest", "currentRequest"))
        if let response = try decoded(fields, "response", { try reader.response(at: $0) }) {
            task.statusCode = response.statusCode
            task.entityTag = response.entityTag
            task.lastModified = response.lastModified
            task.expectedContentLength = response.expectedContentLength
            if task.url == nil { task.url = response.urlString }
        }
        task.error = try decoded(fields, "error") { try reader.error(at: $0) }

        if let stored = try string(fields, "pathToDownloadTaskFile"), !stored.isEmpty {
            task.partialFile = LedgerPartialFile(column: "pathToDownloadTaskFile", recorded: stored, isURL: false, placement: placement)
        } else if let url = try url(fields, "downloadFileURL") {
            task.partialFile = LedgerPartialFile(column: "downloadFileURL", recorded: url, isURL: true, placement: placement)
        }
        task.notes = notes
        return task
    }
}
