import Crypto
import Foundation
import ResumeDataCodec
import ResumeSystemCalls

/// A backup's stored files as ``EvidenceProbe`` reads them: each listed row's file, opened
/// read-only without following a link, decrypted in memory in an encrypted backup (its first
/// AES block for the triage, the rest only when it may matter), its status the device's from
/// the row's MBFile record.
struct BackupEvidence: EvidenceSource {
    var readLimit: Int
    var calls: FileSystemCalls
    var kind: FindingSource.Kind
    var root: String
    /// Whether the backup is encrypted: its files are read through ``Member/fileKey``.
    var isEncrypted: Bool

    struct Member {
        let entry: BackupScan.Entry
        let descriptor: Int32
        let name: String
        let parentName: String
        let isPartialFile: Bool
        let wal: EvidenceTriage.WAL
        /// The file's key in an encrypted backup; nil for an empty file, which has none.
        let fileKey: SymmetricKey?
        /// The record, decoded up front in an encrypted backup (the key is in it), in a plain
        /// one only for the few files found.
        var record: BackupFileRecord?
        var recordProblem: BackupError?
        var stored: FileSystemCalls.Status?
    }

    func name(of member: Member) -> String { member.name }
    func isPartialFile(_ member: Member) -> Bool { member.isPartialFile }
    func wal(beside member: Member) -> EvidenceTriage.WAL { member.wal }
    func parentName(of member: Member) -> String { member.parentName }
    func path(of member: Member) -> String { member.entry.inner }
    func findingSource(of member: Member) -> FindingSource? { FindingSource(kind: kind, root: root, inner: member.entry.inner) }

    func firstBytes(of member: inout Member) throws(ScanProblem) -> EvidenceFirstBytes {
        let inner = member.entry.inner
        guard isEncrypted else {
            return EvidenceFirstBytes(bytes: [UInt8](try read(member, count: ScanContentKind.prefixLength)))
        }
        guard let fileKey = member.fileKey, let record = member.record else {
            // An empty file of an encrypted backup: nothing stored, nothing to decrypt.
            _ = try stored(&member)
            return EvidenceFirstBytes(bytes: [], size: 0)
        }
        // Two blocks: a zip's local header is 30 bytes, and ArchiveSignature asks for all of it.
        let first = try read(member, count: 2 * BackupCipher.blockSize)
        guard let start = BackupCipher.decryptStart(first, blocks: 2, with: fileKey) else {
            throw ScanProblem(path: inner, message: "cannot decrypt: the stored file is shorter than one AES block")
        }
        // Two blocks decrypted, its size from the record: more is decrypted only if it may matter.
        return EvidenceFirstBytes(bytes: [UInt8](start.prefix(Int(clamping: max(0, record.size)))), size: record.size)
    }

    func size(of member: inout Member) throws(ScanProblem) -> Int64? {
        let size = try stored(&member).size
        guard isEncrypted else { return size }
        guard member.fileKey != nil, let record = member.record else { return 0 }
        guard size % Int64(BackupCipher.blockSize) == 0, size >= record.size else {
            throw ScanProblem(path: member.entry.inner,
                              message: "cannot decrypt: the stored file is \(size) bytes, not whole AES blocks covering its Size \(record.size)")
        }
        return record.size
    }

    func whole(of member: inout Member, size: Int64) throws(ScanProblem) -> Data? {
        let inner = member.entry.inner
        guard case .success = calls.seek(member.descriptor, 0) else { throw ScanProblem(path: inner, message: "cannot read: seek failed") }
        guard isEncrypted else { return try read(member, count: Int(size)) }
        guard let fileKey = member.fileKey else { return Data() }
        let ciphertext = try read(member, count: Int(try stored(&member).size))
        guard let plain = BackupCipher.decrypt(ciphertext, with: fileKey) else {
            throw ScanProblem(path: inner, message: "cannot decrypt: the stored file is cut short")
        }
        return plain.prefix(Int(size))
    }

    func digest(of member: inout Member) -> String? {
        guard isEncrypted else { return EvidenceHash.hex(ofDescriptor: member.descriptor, calls: calls) }
        guard let fileKey = member.fileKey, let record = member.record else { return EvidenceHash.hex(of: Data()) }
        return Self.decryptedDigest(member.descriptor, key: fileKey, size: record.size, calls: calls)
    }

    var hashesOnDemand: Bool { true }

    func status(of member: inout Member) -> (status: FileStatus, note: ScanProblem?) {
        if member.record == nil, member.recordProblem == nil {
            do { member.record = try member.entry.fileRecord() } catch { member.recordProblem = error }
        }
        // The device's metadata, or what the stored copy shows when the record is damaged.
        if let record = member.record {
            // A plain backup's stored copy is the file itself, and the digest is of it: a copy
            // whose length is not the record's was changed or cut short after the backup, and the
            // size said beside that digest is the copy's, with a note.
            var copySize: Int64?
            if !isEncrypted, let copy = try? stored(&member), copy.size != record.size { copySize = copy.size }
            var status = FileStatus(size: copySize ?? record.size, modified: record.modified ?? Date(timeIntervalSince1970: 0))
            status.changed = record.changed
            status.created = record.created
            status.mode = record.mode
            // A plain copy's holes are the file's: what decides whether hashing it is worth a read.
            if !isEncrypted { status.allocatedSize = (try? stored(&member))?.allocatedSize }
            let note = copySize.map {
                ScanProblem(path: member.entry.inner,
                            message: "its stored copy is \($0) bytes, its MBFile record says \(record.size): the size and digest here are the copy's, the times the record's")
            }
            return (status, note)
        }
        let copy = try? stored(&member)
        let status = FileStatus(size: copy?.size ?? 0, modified: Date(timeIntervalSince1970: Double(copy?.modifiedSeconds ?? 0)))
        let note = member.recordProblem.map {
            ScanProblem(path: member.entry.inner, message: "\($0.message); its size and time here are the stored copy's")
        }
        return (status, note)
    }

    /// The stored copy's `fstat`, asked once, only of the files that matter: most are ruled out
    /// by their first bytes.
    private func stored(_ member: inout Member) throws(ScanProblem) -> FileSystemCalls.Status {
        if let stored = member.stored { return stored }
        switch calls.fstat(member.descriptor) {
        case .success(let status):
            guard status.kind == .regular else {
                throw ScanProblem(path: member.entry.inner, message: "skipped: its file in the backup is not a regular file")
            }
            member.stored = status
            return status
        case .failure(let failure):
            throw ScanProblem(path: member.entry.inner, message: "cannot read: \(TreeWalker.describe(failure.code))")
        }
    }

    private func read(_ member: Member, count: Int) throws(ScanProblem) -> Data {
        do {
            return try BackupScan.read(member.descriptor, count: count, calls: calls)
        } catch {
            throw ScanProblem(path: member.entry.inner, message: error.message)
        }
    }

    /// SHA-256 of a large encrypted file's plaintext, decrypted a MiB at a time (CBC: each chunk's
    /// IV is the last ciphertext block before it) and cut at `size`.
    static func decryptedDigest(_ descriptor: Int32, key: SymmetricKey, size: Int64, calls: FileSystemCalls) -> String? {
        guard case .success = calls.seek(descriptor, 0) else { return nil }
        var hasher = SHA256()
        var remaining = size
        var iv = Data(repeating: 0, count: BackupCipher.blockSize)
        while remaining > 0 {
            guard let chunk = try? BackupScan.read(descriptor, count: 1 << 20, calls: calls), !chunk.isEmpty,
                  chunk.count % BackupCipher.blockSize == 0,
                  let plain = BackupCipher.decrypt(chunk, with: key, iv: iv) else { return nil }
            let used = plain.prefix(Int(min(Int64(plain.count), remaining)))
            hasher.update(data: used)
            remaining -= Int64(used.count)
            iv = chunk.suffix(BackupCipher.blockSize)
        }
        return SHA256Hex(digest: hasher.finalize()).text
    }
}
