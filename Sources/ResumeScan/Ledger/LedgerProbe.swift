import Foundation
import ResumeDataCodec
import ResumeSystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How `scan` recognises nsurlsessiond's ledger by content: a SQLite file whose first page
/// holds the schema of `session_tasks`, then read as ``TaskLedger`` reads it.
///
/// A phone holds hundreds of SQLite files; copying each aside to ask SQLite for its tables would
/// cost more than the rest of the scan. The schema of a small database is on its first page
/// (`sqlite_master` is rooted there), so the first page is searched for the table's `CREATE`
/// statement first. A ledger created moments before the extraction has its schema only in its
/// WAL: its first page has an empty schema (or the file is empty), and then the `-wal` beside it
/// is searched for the statement. Backups and archives use the same tests on bytes.
enum LedgerProbe {
    static let magic = Array("SQLite format 3".utf8) + [0]
    static let createStatement = Array("CREATE TABLE session_tasks".utf8)
    /// The largest SQLite page: the most read to find the schema.
    static let firstPageLimit = 1 << 16

    static func isSQLite(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: magic)
    }

    /// The most bytes of a ledger (its file and WAL together) held in memory to be read from a
    /// backup or an archive, and of `-wal` members held until their database comes in an
    /// archive: nsurlsessiond's ledger is a few MiB; a larger one is reported, not read.
    static let maximumHeldSize = 64 << 20

    /// Why a ledger too large to hold was not read.
    static func overLimit(_ size: Int64) -> String {
        "nsurlsessiond's ledger: \(size) bytes, over the limit of \(maximumHeldSize) that a ledger and its WAL may hold in memory: not read"
    }

    /// Whether `bytes` (a first page, or a WAL) hold the `CREATE` statement of `session_tasks`.
    static func holdsSchema(_ bytes: Data) -> Bool {
        ByteSearch.contains(createStatement, in: bytes)
    }

    /// Whether a database's first page (or what there is of it) has an empty schema: an empty
    /// file, or page 1 a leaf table page with no cells (a database whose tables are in its WAL).
    static func hasEmptySchema(_ page: Data) -> Bool {
        if page.isEmpty { return true }
        guard page.count >= 105, isSQLite(page) else { return false }
        let start = page.startIndex
        return page[start + 100] == 0x0D && page[start + 103] == 0 && page[start + 104] == 0
    }

    /// What a database's first page says of it, the first of the two steps every kind of
    /// evidence takes to tell the ledger (``isLedger(_:walHoldsSchema:)``).
    enum FirstPage: Sendable, Equatable {
        /// The page holds the `CREATE` statement of `session_tasks`.
        case schema
        /// An empty schema (or an empty file): the tables may be only in the WAL.
        case emptySchema
        /// Any other database: not the ledger, whatever its WAL holds.
        case other

        init(_ page: Data) {
            if LedgerProbe.holdsSchema(page) {
                self = .schema
            } else if LedgerProbe.hasEmptySchema(page) {
                self = .emptySchema
            } else {
                self = .other
            }
        }
    }

    /// Whether a database is nsurlsessiond's ledger: its first page holds the schema, or has an
    /// empty one and its WAL holds it. `walHoldsSchema` is asked only then (a folder searches
    /// the `-wal` beside the file, a backup decrypts its `-wal` row, an archive looks in the
    /// `-wal` member it held): one decision for a folder, a backup and an archive.
    static func isLedger(_ page: FirstPage, walHoldsSchema: () throws -> Bool) rethrows -> Bool {
        switch page {
        case .schema: true
        case .emptySchema: try walHoldsSchema()
        case .other: false
        }
    }

    /// A ledger held as bytes (a backup's row, decrypted in memory when it must be; an archive's
    /// member), read with its WAL, told where it was found and with its tasks' partial files
    /// placed in that evidence: the reading step a backup and an archive share. The caller has
    /// kept the bytes within ``maximumHeldSize``.
    /// - Parameters:
    ///   - warnings: said of the ledger after the reader's own (a `-wal` left out, say).
    ///   - missing, unplaceable, locate: as ``TaskLedger/placePartialFiles(missing:unplaceable:_:)`` takes them.
    /// - Throws: ``EvidenceDatabaseError`` as ``TaskLedger/read(bytes:wal:name:limits:)`` does.
    static func readHeld(
        bytes: Data, wal: Data?, path: String, status: FileStatus, source: FindingSource, warnings: [String] = [],
        missing: (String) -> String, unplaceable: String,
        locate: (_ task: LedgerTask, _ device: [String]) -> (path: String, entry: PartialFileResolution.Entry)?
    ) throws -> FileProbe.Finding {
        var ledger = try TaskLedger.read(bytes: bytes, wal: wal, name: path)
        ledger.warnings += warnings
        ledger.source = source
        ledger.placePartialFiles(missing: missing, unplaceable: unplaceable, locate)
        return FileProbe.Finding(path: path, status: status, blobs: [], isPartialFile: false, sha256: EvidenceHash.hex(of: bytes),
                                 source: source, ledger: ledger)
    }
}
