import Foundation
import ResumeDataCodec
import ResumeSystemCalls

/// A walked folder's possible ledgers as ``LedgerCollector`` asks: the first page read from the
/// open file, the `-wal` beside it searched for the schema, and a ledger read from where it lies,
/// opened in its walked folder by its name's bytes (a private copy, so the evidence is never changed).
struct FolderLedgers: LedgerSource {
    var calls: FileSystemCalls
    /// The folders the scan walked: below them names are spelled as the walk spells them.
    var walkRoots: [String]

    struct Candidate {
        let file: TreeWalker.File
        let descriptor: Int32
    }

    func firstPage(of candidate: Candidate) throws(ScanProblem) -> LedgerProbe.FirstPage? {
        // Not zeroed first: most SQLite files met are far smaller than the 64 KiB asked for, and
        // only the bytes read are kept.
        var failed = false
        let page = [UInt8](unsafeUninitializedCapacity: LedgerProbe.firstPageLimit) { buffer, initialized in
            guard case .success(let count) = calls.pread(candidate.descriptor, UnsafeMutableRawBufferPointer(buffer), 0) else {
                failed = true
                initialized = 0
                return
            }
            initialized = min(max(count, 0), buffer.count)
        }
        return failed ? nil : LedgerProbe.FirstPage(Data(page))
    }

    /// Whether the `-wal` beside the file holds the `CREATE` statement of `session_tasks` in its
    /// first ``LedgerProbe/maximumHeldSize`` bytes, read a MiB at a time.
    func walHoldsSchema(of candidate: Candidate) throws(ScanProblem) -> Bool {
        let file = candidate.file
        let opened = calls.openEvidence(in: file.folder.descriptor, BytePath(bytes: file.name.bytes + Array("-wal".utf8)))
        guard case .success(let descriptor) = opened else { return false }
        defer { _ = calls.close(descriptor) }
        guard case .success(let status) = calls.fstat(descriptor), status.kind == .regular else { return false }
        let needle = LedgerProbe.createStatement
        let chunk = 1 << 20
        var buffer = [UInt8](repeating: 0, count: chunk + needle.count)
        var carried = 0
        var offset: Int64 = 0
        while offset < Int64(LedgerProbe.maximumHeldSize) {
            let got = buffer.withUnsafeMutableBytes { raw -> Int in
                guard case .success(let count) = calls.pread(descriptor, UnsafeMutableRawBufferPointer(rebasing: raw[carried..<carried + chunk]), offset) else { return 0 }
                return count
            }
            if got == 0 { return false }
            let filled = carried + got
            if ByteSearch.contains(needle, in: buffer[0..<filled]) { return true }
            // The statement may straddle two reads: keep the tail.
            carried = min(needle.count - 1, filled)
            buffer.replaceSubrange(0..<carried, with: buffer[(filled - carried)..<filled])
            offset += Int64(got)
        }
        return false
    }

    func heldSize(of candidate: Candidate) throws(LedgerCollector.Failure) -> Int64? { nil }

    func read(_ candidate: Candidate) throws -> FileProbe.Finding? {
        guard case .success(let found) = calls.fstat(candidate.descriptor), found.kind == .regular else { return nil }
        let file = candidate.file
        let ledger = try TaskLedger.read(.member(folder: file.folder.descriptor, name: file.name.bytes), path: file.path, walkRoots: walkRoots)
        return FileProbe.Finding(path: candidate.file.path, status: FileStatus(found), blobs: [], isPartialFile: false, ledger: ledger)
    }

    func problem(_ candidate: Candidate, _ message: String) -> ScanProblem {
        ScanProblem(path: candidate.file.path, message: message)
    }
}
