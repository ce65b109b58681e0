import Crypto
import Foundation
import GRDB
import ResumeDataCodec
import ResumeSystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Scans one iTunes/Finder backup folder (forensic-formats §2): the files `Manifest.db`'s `Files`
/// table lists, each named `DOMAIN/relativePath`, read (and, in an encrypted backup, decrypted in
/// memory) and searched as `scan` searches a folder's files.
///
/// Nothing in the backup is written: every file is opened read-only with `O_NOFOLLOW` relative to
/// the backup folder, `Manifest.db` is opened by ``EvidenceDatabase`` from a private copy, and a
/// decrypted `Manifest.db` is handed to it as bytes (it writes them only into its private `0700`
/// folder, removed on close). Decrypted files stay in memory. nsurlsessiond's ledger, found by
/// content, is read with its `-wal` row once the other files are done (`BackupScan+Ledger.swift`).
package struct BackupScan: Sendable {
    /// The backup folder as given.
    package let root: String
    /// Asked for the password when the backup turns out to be encrypted; nil scans only its
    /// plain parts (the device) and counts its files as unread.
    package var password: @Sendable () -> Data?
    /// The bounds and the search of a folder scan's files.
    package var probe = FileProbe()

    /// Whether the file list is `Manifest.mbdb` (iOS 9 and earlier) rather than `Manifest.db`.
    var isMBDB = false

    package init(root: String, password: @escaping @Sendable () -> Data?) {
        self.root = root
        self.password = password
    }

    /// The mbdb's regular files as entries, checked as `Files` rows are.
    private func mbdbEntries(_ records: [BackupMBDB.Record], problems: inout [ScanProblem]) -> [Entry] {
        var found: [Entry] = []
        for record in records {
            let inner = record.domain + "/" + record.relativePath
            guard Self.staysInside(domain: record.domain, relativePath: record.relativePath) else {
                problems.append(ScanProblem(path: inner, message: "skipped: its relativePath leaves its domain (fileID \(record.fileID))"))
                continue
            }
            found.append(Entry(fileID: record.fileID, domain: record.domain, relativePath: record.relativePath, record: Data(),
                               decoded: record.file, isFlat: true))
        }
        return found
    }

    /// What a folder holds, decided by content: a backup has `Manifest.db` (iOS 10 and later) or
    /// `Manifest.mbdb` (before).
    package enum RootKind: Sendable, Equatable {
        case folder
        case backup
        case mbdbBackup
    }

    package static func kind(of root: String, calls: FileSystemCalls = .system) -> RootKind {
        guard case .success(let folder) = calls.open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0) else { return .folder }
        defer { _ = calls.close(folder) }
        if case .success(let status) = calls.fstatat(folder, "Manifest.db"), status.kind == .regular { return .backup }
        if case .success(let status) = calls.fstatat(folder, "Manifest.mbdb"), status.kind == .regular { return .mbdbBackup }
        return .folder
    }

    /// One row of `Files` that names a regular file.
    package struct Entry: Sendable {
        let fileID: String
        let domain: String
        let relativePath: String
        /// The `file` column: an archived MBFile (empty for an mbdb backup's entry).
        let record: Data
        /// The record already decoded (an mbdb backup's, read from `Manifest.mbdb`).
        var decoded: BackupFileRecord? = nil
        /// Where the file is stored: `ab/abcd…` (Manifest.db) or `abcd…` in the backup folder (mbdb).
        var isFlat = false
        /// `DOMAIN/relativePath`.
        var inner: String { domain + "/" + relativePath }
        var storedPath: String { isFlat ? fileID : "\(fileID.prefix(2))/\(fileID)" }
        var folderKey: String { isFlat ? "" : String(fileID.prefix(2)) }

        /// The file's metadata, decoded from the MBFile archive unless it was read from the mbdb.
        func fileRecord() throws(BackupError) -> BackupFileRecord {
            if let decoded { return decoded }
            return try BackupFileRecord(archive: record)
        }
    }

    /// What the scan of one backup found.
    package struct Outcome: Sendable {
        package var summary: BackupSummary
        package var kind: FindingSource.Kind
        /// Files holding blobs or being partial files, by inner path.
        package var findings: [FileProbe.Finding] = []
        /// Problems with single rows and files, sorted by path.
        package var errors: [ScanProblem] = []
        /// Every regular file listed, by inner path: what a blob's partial file is looked up in.
        package var entries: [String: Entry] = [:]
        /// Why the backup as a whole could not be read (it also counts as an unread root).
        package var failure: BackupError?
    }

    /// The most rows read from `Files`: a real backup has a few hundred thousand.
    package static let maximumRows = 5_000_000
    /// `Manifest.plist` and `Info.plist` larger than this are not read.
    static let maximumPlistSize = 64 << 20

    package func run() -> Outcome {
        let calls = probe.calls
        var outcome = Outcome(summary: BackupSummary(root: root, isEncrypted: false, device: BackupDevice(), fileCount: 0, unreadFileCount: 0),
                              kind: .backup)
        func fail(_ error: BackupError) -> Outcome {
            outcome.failure = error
            return outcome
        }
        let folder: Int32
        switch calls.open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0) {
        case .success(let opened): folder = opened
        case .failure(let failure): return fail(.unreadable("cannot read the backup folder: \(TreeWalker.describe(failure.code))"))
        }
        let handle = FolderHandle(folder, calls: calls)
        let manifestPlist: BackupManifestPlist
        do {
            let manifest = try Self.readFile(in: handle, "Manifest.plist", limit: Self.maximumPlistSize, ifPresent: true, calls: calls)
            let info = try? Self.readFile(in: handle, "Info.plist", limit: Self.maximumPlistSize, ifPresent: true, calls: calls)
            // Without Manifest.plist, Manifest.db's own first bytes say whether it is encrypted.
            let header = manifest == nil && !isMBDB
                ? try Self.readFile(in: handle, "Manifest.db", limit: LedgerProbe.magic.count, prefixOnly: true, calls: calls) : nil
            manifestPlist = try BackupManifestPlist(manifest: manifest, info: info, databaseHeader: header)
        } catch {
            return fail(error)
        }
        outcome.summary.device = manifestPlist.device
        outcome.summary.isEncrypted = manifestPlist.isEncrypted
        outcome.summary.warnings = manifestPlist.warnings
        outcome.summary.listName = isMBDB ? "Manifest.mbdb" : "Manifest.db"
        outcome.kind = manifestPlist.isEncrypted ? .encryptedBackup : .backup
        if manifestPlist.isEncrypted, !manifestPlist.hasManifestPlist {
            return fail(.unreadable(BackupManifestPlist.encryptedWithoutManifestPlist))
        }

        var classKeys: ClassKeys?
        if manifestPlist.isEncrypted {
            guard let password = password() else {
                let count = Self.countStoredFiles(in: handle, calls: calls)
                outcome.summary.fileCount = count
                outcome.summary.unreadFileCount = count
                return outcome
            }
            do throws(BackupError) {
                guard let keybagBytes = manifestPlist.keybag else { throw BackupError.keybag("Manifest.plist has no BackupKeyBag") }
                let keybag = try BackupKeybag(keybagBytes)
                classKeys = ClassKeys(try keybag.unlock(with: try keybag.passcodeKey(password: password)))
            } catch {
                return fail(error)
            }
        }

        var entries: [Entry] = []
        do {
            if isMBDB {
                // Before iOS 10: the list is Manifest.mbdb and the files lie flat.
                guard !manifestPlist.isEncrypted else {
                    throw BackupError.unreadable("an encrypted backup of iOS 9 or earlier (Manifest.mbdb): not supported")
                }
                let bytes = try Self.readFile(in: handle, "Manifest.mbdb", limit: Int(EvidenceDatabase.defaultMaximumSize), calls: calls)
                entries = mbdbEntries(try BackupMBDB.records(bytes), problems: &outcome.errors)
            } else {
                let database: EvidenceDatabase
                if let classKeys, let manifestKey = manifestPlist.manifestKey {
                    let encrypted = try Self.readFile(in: handle, "Manifest.db", limit: Int(EvidenceDatabase.defaultMaximumSize), calls: calls)
                    guard let split = BackupCipher.splitClassAndKey(manifestKey), let classKey = classKeys.key(split.protectionClass),
                          let key = BackupCipher.unwrap(split.wrapped, with: classKey) else {
                        throw BackupError.unreadable("its ManifestKey does not unwrap with the keybag's class keys")
                    }
                    guard let padded = BackupCipher.decrypt(encrypted, with: key), let plain = BackupCipher.removingPadding(padded) else {
                        throw BackupError.unreadable("Manifest.db does not decrypt with its ManifestKey")
                    }
                    database = try EvidenceDatabase(bytes: plain, name: AppContainerLayout.join(root, "Manifest.db"))
                } else {
                    // A Manifest.db caught while written has a -wal beside it: the private copy
                    // takes it too, so the rows are read as of the WAL and the evidence is untouched.
                    database = try EvidenceDatabase(path: AppContainerLayout.join(root, "Manifest.db"))
                }
                defer { database.close() }
                if database.readFromWALAlone { outcome.summary.warnings.append(Self.manifestInWALAlone) }
                entries = try readEntries(database, problems: &outcome.errors)
            }
        } catch let error as BackupError {
            return fail(error)
        } catch let error as EvidenceDatabaseError {
            return fail(.unreadable("Manifest.db: \(error.message)"))
        } catch {
            return fail(.unreadable("Manifest.db: \(error)"))
        }
        outcome.summary.fileCount = entries.count
        for entry in entries { outcome.entries[entry.inner] = entry }

        // The 256 two-digit folders, each opened once without following a link.
        var folders: [String: FolderHandle] = [:]
        for prefix in Set(entries.map(\.folderKey)) {
            if prefix.isEmpty {
                folders[prefix] = handle
            } else if case .success(let opened) = calls.openat(folder, prefix, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) {
                folders[prefix] = FolderHandle(opened, calls: calls)
            }
        }
        let openFolders = folders
        let source = outcome.kind
        let root = self.root
        let probe = self.probe
        let keys = classKeys
        // The files a `-wal` row sits beside: an empty one may be a ledger held in its WAL.
        let walOwners = Set(entries.compactMap { $0.inner.hasSuffix("-wal") ? String($0.inner.dropLast(4)) : nil })
        var findings: [FileProbe.Finding] = []
        var ledgerCandidates: [LedgerCandidate] = []
        orderedParallelMap(entries) { entry in
            Self.probe(entry, folder: openFolders[entry.folderKey], keys: keys, source: source, root: root, probe: probe,
                       hasWAL: walOwners.contains(entry.inner))
        } emit: { result in
            if let finding = result.finding { findings.append(finding) }
            if let problem = result.problem { outcome.errors.append(problem) }
            if let candidate = result.ledgerCandidate { ledgerCandidates.append(candidate) }
        }
        let ledgers = Self.ledgers(ledgerCandidates, entries: outcome.entries, folders: openFolders, keys: keys, source: source,
                                   root: root, calls: calls)
        findings += ledgers.findings
        outcome.errors += ledgers.problems
        outcome.findings = findings
        outcome.errors.sort { TreeWalker.byteOrder($0.path, $1.path) }
        let missing = outcome.errors.filter { $0.kind == .storedFileMissing }
        outcome.summary.missingFileCount = missing.count
        outcome.summary.missingFileExamples = missing.prefix(Self.missingFileExampleCount).map(\.path)
        return outcome
    }

    /// Said of a backup whose `Manifest.db` is empty and whose rows all come from its `-wal`.
    static let manifestInWALAlone = "Manifest.db is empty: every row was read from Manifest.db-wal"

    /// How many of the rows whose stored file is absent a summary names.
    static let missingFileExampleCount = 3

    /// A listed file whose stored copy is not in the folder.
    static func storedFileMissing(_ entry: Entry) -> ScanProblem {
        ScanProblem(path: entry.inner, message: "missing from the backup: no file \(entry.storedPath)", kind: .storedFileMissing)
    }

    /// The class keys, kept as bytes: swift-crypto's `SymmetricKey` is not `Sendable`.
    struct ClassKeys: Sendable {
        private let keys: [UInt32: Data]

        init(_ keys: [UInt32: SymmetricKey]) {
            self.keys = keys.mapValues { key in key.withUnsafeBytes { Data($0) } }
        }

        func key(_ protectionClass: UInt32) -> SymmetricKey? {
            keys[protectionClass].map { SymmetricKey(data: $0) }
        }
    }

    /// The regular-file rows, checked: a fileID of 40 hex digits, a domain without `/`, a
    /// relativePath that stays inside its domain. Rows that fail are problems, not files.
    private func readEntries(_ database: EvidenceDatabase, problems: inout [ScanProblem]) throws -> [Entry] {
        var found: [Entry] = []
        var skipped: [ScanProblem] = []
        try database.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT fileID, domain, relativePath, flags, file FROM Files")
            var count = 0
            while let row = try rows.next() {
                count += 1
                guard count <= Self.maximumRows else {
                    skipped.append(ScanProblem(path: root, message: "skipped the rows of Manifest.db after the first \(Self.maximumRows)"))
                    break
                }
                let values: [DatabaseValue] = (0..<5).map { row[$0] }
                guard case .int64(1) = values[3].storage else { continue }
                guard case .string(let domain) = values[1].storage, case .string(let relativePath) = values[2].storage else {
                    skipped.append(ScanProblem(path: root, message: "skipped a row of Manifest.db whose domain or relativePath is not text"))
                    continue
                }
                let inner = domain + "/" + relativePath
                guard case .string(let fileID) = values[0].storage, Self.isFileID(fileID) else {
                    skipped.append(ScanProblem(path: inner, message: "skipped: its fileID is not 40 hexadecimal digits"))
                    continue
                }
                guard Self.staysInside(domain: domain, relativePath: relativePath) else {
                    skipped.append(ScanProblem(path: inner, message: "skipped: its relativePath leaves its domain (fileID \(fileID))"))
                    continue
                }
                guard case .blob(let record) = values[4].storage else {
                    skipped.append(ScanProblem(path: inner, message: "skipped: it has no MBFile record (fileID \(fileID))"))
                    continue
                }
                found.append(Entry(fileID: fileID, domain: domain, relativePath: relativePath, record: record))
            }
        }
        problems += skipped
        return found
    }

    package static func isFileID(_ text: String) -> Bool {
        text.utf8.count == 40 && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    /// A domain is one name; a relativePath is relative, without `.` or `..` components or NUL.
    package static func staysInside(domain: String, relativePath: String) -> Bool {
        // Bytes, not Characters: this runs once per row, and a combining mark must not hide a `/`.
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        let domainBytes = domain.utf8
        guard !domainBytes.isEmpty, !domainBytes.contains(slash), !domainBytes.contains(0),
              !domainBytes.elementsEqual([dot]), !domainBytes.elementsEqual([dot, dot]) else { return false }
        let path = relativePath.utf8
        guard !path.isEmpty, !path.contains(0) else { return false }
        var componentLength = 0
        var dots = 0
        for byte in path {
            if byte == slash {
                // An empty, `.` or `..` component (a leading `/` is an empty first one).
                if componentLength == 0 || componentLength == dots && dots <= 2 { return false }
                componentLength = 0
                dots = 0
            } else {
                componentLength += 1
                if byte == dot { dots += 1 }
            }
        }
        return !(componentLength == 0 || componentLength == dots && dots <= 2)
    }

    /// The bundle or group an app domain belongs to, nil for the system's domains.
    package static func bundleID(ofDomain domain: String) -> String? {
        for prefix in ["AppDomainGroup-", "AppDomainPlugin-", "AppDomain-"] where domain.hasPrefix(prefix) {
            let rest = String(domain.dropFirst(prefix.count))
            return rest.isEmpty ? nil : rest
        }
        return nil
    }

    private struct ProbeResult: Sendable {
        var finding: FileProbe.Finding?
        var problem: ScanProblem?
        var ledgerCandidate: LedgerCandidate?
    }

    private static func probe(_ entry: Entry, folder: FolderHandle?, keys: ClassKeys?, source: FindingSource.Kind, root: String,
                              probe: FileProbe, hasWAL: Bool) -> ProbeResult {
        let inner = entry.inner
        let components = entry.relativePath.split(separator: "/")
        let name = components.last.map(String.init) ?? entry.relativePath
        let parentName = components.count > 1 ? String(components[components.count - 2]) : entry.domain
        let isPartialFile = AppContainerLayout.isPartialFile(name: name, parentName: parentName)
        let wal: EvidenceTriage.WAL = hasWAL ? .beside : .none
        let calls = probe.calls
        func problem(_ message: String) -> ProbeResult { ProbeResult(problem: ScanProblem(path: inner, message: message)) }

        // The record is decoded up front only in an encrypted backup (the file's key is in it);
        // in a plain one only for the few files found.
        var record: BackupFileRecord?
        var recordProblem: BackupError?
        func decodeRecord() {
            do { record = try entry.fileRecord() } catch { recordProblem = error }
        }
        var fileKey: SymmetricKey?
        if let keys {
            decodeRecord()
            guard let record else { return problem("cannot decrypt: \(recordProblem?.message ?? "no MBFile record")") }
            if let wrappedKey = record.encryptionKey {
                guard let split = BackupCipher.splitClassAndKey(wrappedKey) else { return problem("cannot decrypt: its EncryptionKey is too short") }
                let protectionClass = record.protectionClass ?? split.protectionClass
                guard let classKey = keys.key(protectionClass) else {
                    return problem("cannot decrypt: protection class \(protectionClass) has no key in the keybag")
                }
                guard let key = BackupCipher.unwrap(split.wrapped, with: classKey) else {
                    return problem("cannot decrypt: its EncryptionKey does not unwrap")
                }
                fileKey = key
            } else if record.size > 0 {
                return problem("cannot decrypt: it has no EncryptionKey")
            }
        }
        guard let folder else { return ProbeResult(problem: Self.storedFileMissing(entry)) }
        let descriptor: Int32
        switch calls.openEvidence(in: folder.descriptor, entry.fileID) {
        case .success(let opened): descriptor = opened
        case .failure(let failure):
            if failure.code == ENOENT { return ProbeResult(problem: Self.storedFileMissing(entry)) }
            if failure.code == ELOOP { return problem("skipped: its file in the backup is a symbolic link") }
            return problem("cannot open \(entry.storedPath): \(TreeWalker.describe(failure.code))")
        }
        defer { _ = calls.close(descriptor) }
        // fstat only for the files that matter: most are ruled out by their first bytes.
        var storedStatus: FileSystemCalls.Status?
        func stored() throws(ScanProblem) -> FileSystemCalls.Status {
            if let storedStatus { return storedStatus }
            switch calls.fstat(descriptor) {
            case .success(let status):
                guard status.kind == .regular else { throw ScanProblem(path: inner, message: "skipped: its file in the backup is not a regular file") }
                storedStatus = status
                return status
            case .failure(let failure):
                throw ScanProblem(path: inner, message: "cannot read: \(TreeWalker.describe(failure.code))")
            }
        }

        // The content: read and (in an encrypted backup) decrypted only when it may hold a blob.
        var content: Data?
        var mayHoldBlobs = false
        do {
            if let fileKey, let record {
                let first = try read(descriptor, count: BackupCipher.blockSize, calls: calls)
                guard let start = BackupCipher.decryptFirstBlock(first, with: fileKey) else {
                    return problem("cannot decrypt: the stored file is shorter than one AES block")
                }
                // One block decrypted, its size from the record: more is decrypted only if it may matter.
                // As an array: the check's generic calls on a Data slice cost more than the copy.
                let verdict = EvidenceTriage.verdict(prefix: [UInt8](start.prefix(Int(clamping: max(0, record.size)))), isPartialFile: isPartialFile,
                                                     size: record.size, wal: wal)
                if verdict == .ledger { return ProbeResult(ledgerCandidate: LedgerCandidate(entry: entry)) }
                mayHoldBlobs = verdict.mayHoldBlobs
                guard verdict != .skip else { return ProbeResult() }
                let size = try stored().size
                guard size % Int64(BackupCipher.blockSize) == 0, size >= record.size else {
                    return problem("cannot decrypt: the stored file is \(size) bytes, not whole AES blocks covering its Size \(record.size)")
                }
                if mayHoldBlobs, record.size <= Int64(probe.readLimit) {
                    guard case .success = calls.seek(descriptor, 0) else { return problem("cannot read: seek failed") }
                    let ciphertext = try read(descriptor, count: Int(size), calls: calls)
                    guard let plain = BackupCipher.decrypt(ciphertext, with: fileKey) else { return problem("cannot decrypt: the stored file is cut short") }
                    content = plain.prefix(Int(record.size))
                }
            } else if keys == nil {
                let start = try read(descriptor, count: ScanContentKind.prefixLength, calls: calls)
                let verdict = EvidenceTriage.verdict(prefix: start, isPartialFile: isPartialFile, size: nil, wal: wal)
                if verdict == .ledger { return ProbeResult(ledgerCandidate: LedgerCandidate(entry: entry)) }
                mayHoldBlobs = verdict.mayHoldBlobs
                guard verdict != .skip else { return ProbeResult() }
                let size = try stored().size
                if mayHoldBlobs, size <= Int64(probe.readLimit) {
                    guard case .success = calls.seek(descriptor, 0) else { return problem("cannot read: seek failed") }
                    content = try read(descriptor, count: Int(size), calls: calls)
                }
            } else {
                // An empty file of an encrypted backup: nothing stored, nothing to decrypt.
                _ = try stored()
                if EvidenceTriage.verdict(prefix: [], isPartialFile: isPartialFile, size: 0, wal: wal) == .ledger {
                    return ProbeResult(ledgerCandidate: LedgerCandidate(entry: entry))
                }
                content = Data()
            }
        } catch {
            return ProbeResult(problem: ScanProblem(path: inner, message: error.message))
        }
        var blobs: [FoundResumeBlob] = []
        if let content, mayHoldBlobs, ScanContentKind(prefix: content.prefix(ScanContentKind.prefixLength)).isCandidate {
            blobs = probe.search.blobs(in: content)
        }
        guard !blobs.isEmpty || isPartialFile else { return ProbeResult() }
        if keys == nil, record == nil, recordProblem == nil { decodeRecord() }

        let digest: String?
        if let content {
            digest = EvidenceHash.hex(of: content)
        } else if let fileKey, let record {
            digest = decryptedDigest(descriptor, key: fileKey, size: record.size, calls: calls)
        } else {
            digest = EvidenceHash.hex(ofDescriptor: descriptor, calls: calls)
        }
        // The device's metadata, or what the stored copy shows when the record is damaged.
        var status: FileStatus
        if let record {
            status = FileStatus(size: record.size, modified: record.modified ?? Date(timeIntervalSince1970: 0))
            status.changed = record.changed
            status.created = record.created
            status.mode = record.mode
        } else {
            let copy = try? stored()
            status = FileStatus(size: copy?.size ?? Int64(content?.count ?? 0), modified: Date(timeIntervalSince1970: Double(copy?.modifiedSeconds ?? 0)))
        }
        let finding = FileProbe.Finding(path: inner, status: status, blobs: blobs, isPartialFile: isPartialFile, sha256: digest,
                                        source: FindingSource(kind: source, root: root, inner: inner))
        return ProbeResult(finding: finding, problem: recordProblem.map { ScanProblem(path: inner, message: "\($0.message); its size and time here are the stored copy's") })
    }

    /// SHA-256 of a large encrypted file's plaintext, decrypted a MiB at a time (CBC: each chunk's
    /// IV is the last ciphertext block before it) and cut at `size`.
    private static func decryptedDigest(_ descriptor: Int32, key: SymmetricKey, size: Int64, calls: FileSystemCalls) -> String? {
        guard case .success = calls.seek(descriptor, 0) else { return nil }
        var hasher = SHA256()
        var remaining = size
        var iv = Data(repeating: 0, count: BackupCipher.blockSize)
        while remaining > 0 {
            guard let chunk = try? read(descriptor, count: 1 << 20, calls: calls), !chunk.isEmpty,
                  chunk.count % BackupCipher.blockSize == 0,
                  let plain = BackupCipher.decrypt(chunk, with: key, iv: iv) else { return nil }
            let used = plain.prefix(Int(min(Int64(plain.count), remaining)))
            hasher.update(data: used)
            remaining -= Int64(used.count)
            iv = chunk.suffix(BackupCipher.blockSize)
        }
        return SHA256Hex(digest: hasher.finalize()).text
    }

    /// Up to `count` bytes from the descriptor's position (fewer at the end of the file); a
    /// freshly opened descriptor reads from the start.
    static func read(_ descriptor: Int32, count: Int, calls: FileSystemCalls) throws(ScanProblem) -> Data {
        var data = Data(count: count)
        var filled = 0
        var failure: FileSystemCalls.Failure?
        data.withUnsafeMutableBytes { buffer in
            while filled < buffer.count {
                switch calls.read(descriptor, UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])) {
                case .success(0): return
                case .success(let got): filled += got
                case .failure(let error):
                    failure = error
                    return
                }
            }
        }
        if let failure { throw ScanProblem(path: "", message: "cannot read: \(TreeWalker.describe(failure.code))") }
        data.count = filled
        return data
    }

    /// A small file of the backup folder, whole (or its first `limit` bytes, with `prefixOnly`).
    private static func readFile(in folder: FolderHandle, _ name: String, limit: Int, prefixOnly: Bool = false,
                                 calls: FileSystemCalls) throws(BackupError) -> Data {
        guard let data = try readFile(in: folder, name, limit: limit, prefixOnly: prefixOnly, ifPresent: false, calls: calls) else {
            throw BackupError.unreadable("cannot read \(name): \(TreeWalker.describe(ENOENT))")
        }
        return data
    }

    /// A small file of the backup folder, whole (or its first `limit` bytes, with `prefixOnly`);
    /// nil when it is not there and `ifPresent` allows that.
    private static func readFile(in folder: FolderHandle, _ name: String, limit: Int, prefixOnly: Bool = false, ifPresent: Bool,
                                 calls: FileSystemCalls) throws(BackupError) -> Data? {
        let descriptor: Int32
        switch calls.openEvidence(in: folder.descriptor, name) {
        case .success(let opened): descriptor = opened
        case .failure(let failure):
            if ifPresent, failure.code == ENOENT { return nil }
            throw BackupError.unreadable("cannot read \(name): \(TreeWalker.describe(failure.code))")
        }
        defer { _ = calls.close(descriptor) }
        guard case .success(let status) = calls.fstat(descriptor), status.kind == .regular else {
            throw BackupError.unreadable("\(name) is not a regular file")
        }
        guard prefixOnly || status.size <= Int64(limit) else { throw BackupError.unreadable("\(name) is larger than \(limit) bytes") }
        do {
            return try read(descriptor, count: Int(min(status.size, Int64(limit))), calls: calls)
        } catch {
            throw BackupError.unreadable("cannot read \(name): \(error.message)")
        }
    }

    /// The files stored in the two-digit folders: what is left unread without a password.
    private static func countStoredFiles(in folder: FolderHandle, calls: FileSystemCalls) -> Int {
        guard case .success(let listing) = calls.listFolder(folder.descriptor) else { return 0 }
        var count = 0
        // Files lying flat (a backup of iOS 9 or earlier).
        count += listing.entries.filter { $0.kind == .regular && $0.name.map(isFileID) == true }.count
        for entry in listing.entries where entry.kind == .directory {
            guard let name = entry.name, name.utf8.count == 2, isFileID(String(repeating: name, count: 20)),
                  case .success(let sub) = calls.openat(folder.descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) else { continue }
            let handle = FolderHandle(sub, calls: calls)
            if case .success(let files) = calls.listFolder(handle.descriptor) {
                count += files.entries.filter { $0.kind == .regular }.count
            }
        }
        return count
    }
}
