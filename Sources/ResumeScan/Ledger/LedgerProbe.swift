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
/// statement first. A ledger whose schema is only in its WAL (created moments before the
/// extraction) is missed; `resumetool tasks` reads it all the same.
struct LedgerProbe {
    var calls: FileSystemCalls

    static let magic = Array("SQLite format 3".utf8) + [0]
    static let createStatement = Array("CREATE TABLE session_tasks".utf8)
    /// The largest SQLite page: the most read to find the schema.
    static let firstPageLimit = 1 << 16

    static func isSQLite(prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        prefix.starts(with: magic)
    }

    func probe(_ file: TreeWalker.File, descriptor: Int32) -> FileProbe.Outcome {
        var page = [UInt8](repeating: 0, count: Self.firstPageLimit)
        let read = page.withUnsafeMutableBytes { buffer -> Int? in
            guard case .success(let count) = calls.pread(descriptor, buffer, 0) else { return nil }
            return count
        }
        guard let read, Self.contains(page[..<read], Self.createStatement) else { return .nothing }
        let status: FileStatus
        switch calls.fstat(descriptor) {
        case .success(let found) where found.kind == .regular: status = FileStatus(found)
        default: return .nothing
        }
        do {
            let ledger = try TaskLedger.read(path: file.path)
            return .found(FileProbe.Finding(path: file.path, status: status, blobs: [], isPartialFile: false, ledger: ledger))
        } catch let error as EvidenceDatabaseError {
            return .failed(ScanProblem(path: file.path, message: "nsurlsessiond's ledger: \(error.message)"))
        } catch {
            return .failed(ScanProblem(path: file.path, message: "nsurlsessiond's ledger: \(error)"))
        }
    }

    private static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count, let first = needle.first else { return false }
        var index = haystack.startIndex
        while index <= haystack.endIndex - needle.count {
            if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
