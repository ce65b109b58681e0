import Foundation
import ResumeSystemCalls

/// A backup's possible ledgers as ``LedgerCollector`` asks: a row's first page and its `-wal`
/// row, decrypted in memory in an encrypted backup, the bound taken from their records' sizes
/// before anything is read whole, and the tasks' partial files placed among the backup's rows
/// (``BackupScan/place(_:bundleID:entries:groupIndex:)``).
struct BackupLedgers: LedgerSource {
    typealias Candidate = BackupScan.LedgerCandidate

    let entries: [BytePath: BackupScan.Entry]
    let folders: [String: FolderHandle]
    let keys: BackupScan.ClassKeys?
    let kind: FindingSource.Kind
    let root: String
    let calls: FileSystemCalls
    /// App-group rows by relative path, built the first time a task names an app group.
    var groupIndex: [BytePath: [String]]? = nil
    /// The `-wal` row's bytes, when reading them decided the candidate.
    var walBytes: [BytePath: Data] = [:]

    private func wal(of candidate: Candidate) -> BackupScan.Entry? { entries[BytePath(spelled: candidate.entry.inner + "-wal")] }

    private func content(of entry: BackupScan.Entry, prefix: Int?) throws(ScanProblem) -> Data {
        try BackupScan.content(of: entry, folders: folders, keys: keys, prefix: prefix, calls: calls)
    }

    func firstPage(of candidate: Candidate) throws(ScanProblem) -> LedgerProbe.FirstPage? {
        LedgerProbe.FirstPage(try content(of: candidate.entry, prefix: LedgerProbe.firstPageLimit))
    }

    mutating func walHoldsSchema(of candidate: Candidate) throws(ScanProblem) -> Bool {
        guard let wal = wal(of: candidate) else { return false }
        let bytes = try content(of: wal, prefix: LedgerProbe.maximumHeldSize)
        walBytes[BytePath(spelled: candidate.entry.inner)] = bytes
        return LedgerProbe.holdsSchema(bytes)
    }

    func heldSize(of candidate: Candidate) throws(LedgerCollector.Failure) -> Int64? {
        let wal = wal(of: candidate)
        guard let record = try? candidate.entry.fileRecord(), wal == nil || (try? wal?.fileRecord()) != nil else {
            throw .unreadable("its MBFile record (or its WAL's) cannot be read")
        }
        let (sum, overflow) = record.size.addingReportingOverflow((try? wal?.fileRecord())?.size ?? 0)
        return overflow ? Int64.max : sum
    }

    mutating func read(_ candidate: Candidate) throws -> FileProbe.Finding? {
        let entry = candidate.entry
        let inner = entry.inner
        let record = try? entry.fileRecord()
        let bytes = try content(of: entry, prefix: nil)
        var walData = walBytes.removeValue(forKey: BytePath(spelled: inner))
        if let wal = wal(of: candidate), walData == nil { walData = try content(of: wal, prefix: nil) }
        var status = FileStatus(size: record?.size ?? Int64(bytes.count), modified: record?.modified ?? Date(timeIntervalSince1970: 0))
        status.changed = record?.changed
        status.created = record?.created
        status.mode = record?.mode
        var groupIndex = self.groupIndex
        defer { self.groupIndex = groupIndex }
        let entries = self.entries
        return try LedgerProbe.readHeld(
            bytes: bytes, wal: walData, path: inner, status: status, source: FindingSource(kind: kind, root: root, inner: inner),
            missing: BackupExclusion.absence(of:), unplaceable: BackupScan.partialFileOutsideBackup
        ) { task, device in
            BackupScan.place(device, bundleID: task.bundleID, entries: entries, groupIndex: &groupIndex)
        }
    }

    func problem(_ candidate: Candidate, _ message: String) -> ScanProblem {
        ScanProblem(path: candidate.entry.inner, message: message)
    }
}
