import Crypto
import Foundation
import ResumeDataCodec
import ResumeSystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// nsurlsessiond's ledger in a backup (issue 26): a file whose content is SQLite with the
/// `session_tasks` schema, on its first page or (a ledger whose schema is still only in its
/// WAL) in its `-wal` sibling's row, read with that WAL, decrypted in memory in an encrypted
/// backup, and its tasks' partial files placed among the backup's rows.
extension BackupScan {
    /// A file whose first bytes are SQLite's (or an empty file with a `-wal` row beside it): read
    /// once the parallel pass is over, since its WAL is another row.
    struct LedgerCandidate: Sendable {
        var entry: Entry
    }

    static let partialFileOutsideBackup = "a path no domain of a backup holds"

    /// Reads each candidate that turns out to be the ledger; the others are forgotten.
    static func ledgers(
        _ candidates: [LedgerCandidate], entries: [BytePath: Entry], folders: [String: FolderHandle], keys: ClassKeys?,
        source: FindingSource.Kind, root: String, calls: FileSystemCalls
    ) -> (findings: [FileProbe.Finding], problems: [ScanProblem]) {
        var ledgers = BackupLedgers(entries: entries, folders: folders, keys: keys, kind: source, root: root, calls: calls)
        return LedgerCollector.collect(candidates, from: &ledgers)
    }

    /// Where a device path is in a backup, and what is there: `/private/var/mobile/…` in
    /// `HomeDomain`, `/private/var/root/…` in `RootDomain`, an app's data container in its
    /// `AppDomain-` (or `AppDomainPlugin-`) domain, an app group's in the `AppDomainGroup-`
    /// domain that holds the path; nil for any other place.
    static func place(_ device: [String], bundleID: String?, entries: [BytePath: Entry],
                      groupIndex: inout [BytePath: [String]]?) -> (path: String, entry: PartialFileResolution.Entry)? {
        func found(_ inner: String) -> (path: String, entry: PartialFileResolution.Entry)? {
            guard let entry = entries[BytePath(spelled: inner)] else { return nil }
            guard let record = try? entry.fileRecord() else { return (inner, .other("a row whose MBFile record cannot be read")) }
            return (inner, .regularFile(size: record.size))
        }
        // device: private, var, …
        let rest = Array(device.dropFirst(2))
        if rest.count > 1, rest[0] == "mobile", rest[1] == "Containers" {
            // Containers are in their app's domains, not in HomeDomain.
            guard rest.count > 5, AppContainerLayout.isContainerUUID(rest[4]) else { return nil }
            let relative = BytePath(joining: rest.dropFirst(5)).text
            if rest[2] == "Data", rest[3] == "Application" {
                // The task's bundle, or the Downloads/<bundle>/ folder the daemon named after it.
                var bundles: [String] = []
                if let bundleID, !bundleID.isEmpty, !bundleID.contains("/") { bundles.append(bundleID) }
                if let index = rest.firstIndex(of: "Downloads"), index + 1 < rest.count - 1, !bundles.contains(rest[index + 1]) {
                    bundles.append(rest[index + 1])
                }
                let candidates = bundles.flatMap { ["AppDomain-\($0)/\(relative)", "AppDomainPlugin-\($0)/\(relative)"] }
                for candidate in candidates { if let hit = found(candidate) { return hit } }
                return candidates.first.map { ($0, .missing) }
            }
            if rest[2] == "Shared", rest[3] == "AppGroup" {
                if groupIndex == nil {
                    var index: [BytePath: [String]] = [:]
                    for entry in entries.values where entry.domain.hasPrefix("AppDomainGroup-") {
                        index[BytePath(spelled: entry.relativePath), default: []].append(entry.inner)
                    }
                    for (relative, inners) in index { index[relative] = inners.sorted { TreeWalker.byteOrder($0, $1) } }
                    groupIndex = index
                }
                if let inner = groupIndex?[BytePath(spelled: relative)]?.first, let hit = found(inner) { return hit }
                return nil
            }
            return nil
        }
        guard let first = rest.first, rest.count > 1 else { return nil }
        let domain: String
        switch first {
        case "mobile": domain = "HomeDomain"
        case "root": domain = "RootDomain"
        default: return nil
        }
        let inner = BytePath(joining: [domain] + rest.dropFirst()).text
        return found(inner) ?? (inner, .missing)
    }

    /// The key a file of an encrypted backup is encrypted with (nil for an empty file, which has none).
    static func fileKey(_ record: BackupFileRecord, keys: ClassKeys) throws(ScanProblem) -> SymmetricKey? {
        guard let wrappedKey = record.encryptionKey else {
            if record.size > 0 { throw ScanProblem(path: "", message: "cannot decrypt: it has no EncryptionKey") }
            return nil
        }
        guard let split = BackupCipher.splitClassAndKey(wrappedKey) else { throw ScanProblem(path: "", message: "cannot decrypt: its EncryptionKey is too short") }
        let protectionClass = record.protectionClass ?? split.protectionClass
        guard let classKey = keys.key(protectionClass) else {
            throw ScanProblem(path: "", message: "cannot decrypt: protection class \(protectionClass) has no key in the keybag")
        }
        guard let key = BackupCipher.unwrap(split.wrapped, with: classKey) else {
            throw ScanProblem(path: "", message: "cannot decrypt: its EncryptionKey does not unwrap")
        }
        return key
    }

    /// A stored file's content (decrypted in memory in an encrypted backup), its first `prefix`
    /// bytes only when `prefix` is given, never more than ``LedgerProbe/maximumHeldSize``.
    static func content(of entry: Entry, folders: [String: FolderHandle], keys: ClassKeys?, prefix: Int?,
                        calls: FileSystemCalls) throws(ScanProblem) -> Data {
        guard let folder = folders[entry.folderKey] else { throw ScanProblem(path: entry.inner, message: "missing from the backup: no file \(entry.storedPath)") }
        var key: SymmetricKey?
        var plainSize: Int64?
        if let keys {
            let record: BackupFileRecord
            do { record = try entry.fileRecord() } catch { throw ScanProblem(path: entry.inner, message: "cannot decrypt: \(error.message)") }
            key = try fileKey(record, keys: keys)
            plainSize = record.size
            if key == nil { return Data() }
        }
        let descriptor: Int32
        switch calls.openEvidence(in: folder.descriptor, BytePath(entry.fileID)) {
        case .success(let opened): descriptor = opened
        case .failure(let failure):
            if failure.code == ENOENT { throw ScanProblem(path: entry.inner, message: "missing from the backup: no file \(entry.storedPath)") }
            throw ScanProblem(path: entry.inner, message: "cannot open \(entry.storedPath): \(TreeWalker.describe(failure.code))")
        }
        defer { _ = calls.close(descriptor) }
        guard case .success(let status) = calls.fstat(descriptor), status.kind == .regular else {
            throw ScanProblem(path: entry.inner, message: "its file in the backup is not a regular file")
        }
        let limit = Int64(min(prefix ?? LedgerProbe.maximumHeldSize, LedgerProbe.maximumHeldSize))
        guard let key, let plainSize else {
            guard prefix != nil || status.size <= limit else { throw ScanProblem(path: entry.inner, message: LedgerProbe.overLimit(status.size)) }
            return try read(descriptor, count: Int(min(status.size, limit)), calls: calls)
        }
        guard status.size % Int64(BackupCipher.blockSize) == 0, status.size >= plainSize else {
            throw ScanProblem(path: entry.inner, message: "cannot decrypt: the stored file is \(status.size) bytes, not whole AES blocks covering its Size \(plainSize)")
        }
        guard prefix != nil || plainSize <= limit else { throw ScanProblem(path: entry.inner, message: LedgerProbe.overLimit(plainSize)) }
        let wanted = min(plainSize, limit)
        // Whole blocks from the start: CBC decrypts a prefix with the same zero IV.
        let blocks = Int64(BackupCipher.blockSize)
        let cipherCount = wanted == plainSize ? status.size : min(status.size, (wanted + blocks - 1) / blocks * blocks)
        let ciphertext = try read(descriptor, count: Int(cipherCount), calls: calls)
        guard let plain = BackupCipher.decrypt(ciphertext, with: key) else {
            throw ScanProblem(path: entry.inner, message: "cannot decrypt: the stored file is cut short")
        }
        return plain.prefix(Int(wanted))
    }
}
