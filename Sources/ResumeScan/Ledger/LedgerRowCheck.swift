import Foundation
internal import GRDB
import ResumeDataCodec
import ResumeSystemCalls

/// The fuzzing entry point for one row of nsurlsessiond's ledger: the bytes are read as the
/// values of `session_tasks`' known columns (each a storage class and a value), the row is
/// decoded as ``TaskLedger`` decodes it, and the properties every decoded row must keep are
/// checked. The harness (`FuzzTesting/Sources/FuzzLedgerRow`) traps on a broken property; the
/// decoding itself must never trap.
///
/// Input: one byte of limits (bit 0: small limits, so values go over them), then for each known
/// column in order a tag byte (`tag % 5`: 0 NULL, 1 integer, 2 real, 3 text, 4 blob) and its
/// value: 8 bytes big-endian for a number, a 2-byte big-endian length and that many bytes for
/// text or a blob (fewer at the end of the input). Missing columns are absent from the row.
@_spi(Fuzzing) public enum LedgerRowCheck {
    /// The extraction folder partial files are mapped into.
    static let root = "/fuzz-root"

    /// Decodes `bytes` as a row; returns the property that broke, or nil.
    public static func check(_ bytes: [UInt8]) -> String? {
        var input = bytes[...]
        var limits = TaskLedger.Limits()
        if let first = input.popFirst(), first & 1 == 1 {
            limits.maximumValue = 64
            limits.maximumOriginalRequest = 128
        }
        var columns: [(name: String, type: String, length: Int64, value: DatabaseValue)] = []
        var identifier: Int64?
        var sessionID: String?
        for column in TaskLedger.knownColumns {
            guard let tag = input.popFirst() else { break }
            let limit = column.name == "original_request" ? limits.maximumOriginalRequest : limits.maximumValue
            switch tag % 5 {
            case 1, 2:
                let word = input.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                input = input.dropFirst(8)
                if tag % 5 == 1 {
                    let value = Int64(bitPattern: word)
                    if column.name == "identifier" { identifier = value }
                    columns.append((column.name, "integer", 8, value.databaseValue))
                } else {
                    columns.append((column.name, "real", 8, Double(bitPattern: word).databaseValue))
                }
            case 3, 4:
                let count = input.prefix(2).reduce(0) { $0 << 8 | Int($1) }
                input = input.dropFirst(2)
                let value = Data(input.prefix(count))
                input = input.dropFirst(count)
                if tag % 5 == 3 {
                    let text = String(decoding: value, as: UTF8.self)
                    if column.name == "session_id" { sessionID = text }
                    columns.append((column.name, "text", Int64(value.count), value.count <= limit ? text.databaseValue : .null))
                } else {
                    columns.append((column.name, "blob", Int64(value.count), value.count <= limit ? value.databaseValue : .null))
                }
            default:
                columns.append((column.name, "null", 0, .null))
            }
        }
        let row = RowValues(rowID: 1, columns: columns, limits: limits)
        switch row.decoded(root: root) {
        case .failure(let skipped):
            guard TaskLedger.knownColumns.contains(where: { $0.name == skipped.column }) else {
                return "a skipped row names \(skipped.column), not a known column"
            }
            return nil
        case .success(let task):
            if task.identifier != identifier { return "identifier \(task.identifier) is not the row's \(String(describing: identifier))" }
            if task.sessionID != sessionID { return "session \(task.sessionID) is not the row's" }
            guard let partial = task.partialFile else { return nil }
            return check(partial)
        }
    }

    /// A partial file's path stays inside the root, or inside the evidence it is placed in.
    static func check(_ partial: LedgerPartialFile) -> String? {
        if let path = partial.path {
            guard BytePath(path).isInside(BytePath(root)), path.utf8.count > root.utf8.count, !BytePath(path).names().contains(where: \.isParentName) else {
                return "the partial file \(path) is outside \(root)"
            }
        }
        if partial.path != nil, partial.refusal != nil { return "a partial file both mapped and refused" }
        // Placed in an archive and a backup as scan places it.
        var unrooted = partial
        unrooted.path = nil
        if partial.path != nil { unrooted.refusal = LedgerPartialFile.noRoot }
        guard let device = unrooted.deviceComponents else { return nil }
        if device.contains("..") || device.contains(".") || device.contains("") { return "device components \(device) hold . or .. or nothing" }
        let member = ArchiveLedgers.memberPath(device, ledger: ["filesystem1", "private", "var", "mobile", "tasks.sqlite"])
        if BytePath(member).names().contains(where: \.isParentName) { return "the member path \(member) climbs" }
        var index: [BytePath: [String]]?
        if let placed = BackupScan.place(device, bundleID: "b", entries: [:], groupIndex: &index) {
            guard let parts = BytePath(placed.path).firstNameAndRest.map({ (first: $0.first.text, rest: $0.rest.text) }), BackupScan.staysInside(domain: parts.first, relativePath: parts.rest) else {
                return "the backup path \(placed.path) leaves its domain"
            }
        }
        return nil
    }
}
