import Crypto
import Foundation
internal import GRDB
import ResumeDataCodec
import ResumeSystemCalls
import ResumeSupport
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
struct BackupScan: Sendable {
    /// The backup folder as given.
    let root: String
    /// Asked for the password when the backup turns out to be encrypted; nil scans only its
    /// plain parts (the device) and counts its files as unread.
    var password: @Sendable () -> Data?
    /// The bounds and the search of a folder scan's files.
    var probe = FileProbe()

    /// Whether the file list is `Manifest.mbdb` (iOS 9 and earlier) rather than `Manifest.db`.
    var isMBDB = false

    /// The backup folder already open, for one the walk met below a scanned folder: it is
    /// reopened through this handle (`.` relative to it), never by ``root``'s path, so a link
    /// swapped in on the way since the walk listed it is not followed.
    var openFolder: FolderHandle?

    init(root: String, password: @escaping @Sendable () -> Data?) {
        self.root = root
        self.password = password
    }

    /// The mbdb's regular files as entries, checked as `Files` rows are.
    private func mbdbEntries(_ records: [BackupMBDB.Record], problems: inout [ScanProblem]) -> [Entry] {
        var found: [Entry] = []
        for record in records {
            let inner = BytePath(joining: [record.domain, record.relativePath]).text
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
    enum RootKind: Sendable, Equatable {
        case folder
        case backup
        case mbdbBackup
    }

    /// The names whose regular file makes a folder a backup, in the order asked.
    static let listNames = ["Manifest.db", "Manifest.mbdb"]

    /// What a folder is, from whether it holds a regular file of each name (a link does not
    /// count: it is never followed): the one answer for a root given to `scan` and for a folder
    /// the walk lists below it.
    static func kind(holdingRegularFile holds: (String) -> Bool) -> RootKind {
        if holds("Manifest.db") { return .backup }
        if holds("Manifest.mbdb") { return .mbdbBackup }
        return .folder
    }

    /// What the folder at `root` is (``kind(holdingRegularFile:)``), asked of its entries.
    static func kind(of root: String, calls: FileSystemCalls = .system) -> RootKind {
        guard case .success(let folder) = calls.open(BytePath(spelled: root), O_RDONLY | O_DIRECTORY | O_CLOEXEC) else { return .folder }
        defer { _ = calls.close(folder) }
        return kind { name in
            if case .success(let status) = calls.fstatat(folder, BytePath(name)), status.kind == .regular { return true }
            return false
        }
    }

    /// Where a symbolic link stands in place of a backup: the walk does not follow it, and says
    /// so rather than pass over it in silence.
    enum LinkInPlaceOfBackup: Sendable, Equatable {
        /// `Manifest.db` or `Manifest.mbdb`: its folder is not read as a backup.
        case list
        /// `MobileSync/Backup` itself.
        case backupsFolder
        /// A folder of `MobileSync/Backup`, where each backup is.
        case backupFolder
    }

    /// What a symbolic link named `name` in the folder at `folder` stands in place of, if a backup.
    static func linkInPlaceOfBackup(name: String, folder: String) -> LinkInPlaceOfBackup? {
        if listNames.contains(name) { return .list }
        let parentName = BytePath(folder).lastName.text
        if name == "Backup", parentName == "MobileSync" { return .backupsFolder }
        if parentName == "Backup", BytePath(folder).folder.lastName.text == "MobileSync" { return .backupFolder }
        return nil
    }

    /// One row of `Files` that names a regular file.
    struct Entry: Sendable {
        let fileID: String
        let domain: String
        let relativePath: String
        /// The `file` column: an archived MBFile (empty for an mbdb backup's entry).
        let record: Data
        /// The record already decoded (an mbdb backup's, read from `Manifest.mbdb`).
        var decoded: BackupFileRecord? = nil
        /// Where the file is stored: `ab/abcd…` (Manifest.db) or `abcd…` in the backup folder (mbdb).
        var isFlat = false
        /// `DOMAIN/relativePath`, spelled as every evidence's paths are (``EvidenceName``), so that
        /// a blob's names are looked up here as in a folder or an archive.
        var inner: String { EvidenceName.text(ofBlobPath: BytePath(joining: [domain, relativePath]).text) }
        var storedPath: String { isFlat ? fileID : "\(fileID.prefix(2))/\(fileID)" }
        var folderKey: String { isFlat ? "" : String(fileID.prefix(2)) }

        /// The file's metadata, decoded from the MBFile archive unless it was read from the mbdb.
        func fileRecord() throws(BackupError) -> BackupFileRecord {
            if let decoded { return decoded }
            return try BackupFileRecord(archive: record)
        }
    }

    /// What the scan of one backup found.
    struct Outcome: Sendable {
        var summary: BackupSummary
        var kind: FindingSource.Kind
        /// Files holding blobs or being partial files, by inner path.
        var findings: [FileProbe.Finding] = []
        /// Problems with single rows and files, sorted by path.
        var errors: [ScanProblem] = []
        /// Every regular file listed, by inner path: what a blob's partial file is looked up in.
        var entries: [BytePath: Entry] = [:]
        /// Why the backup as a whole could not be read (it also counts as an unread root).
        var failure: BackupError?
    }

    /// The most rows read from `Files`: a real backup has a few hundred thousand.
    static let maximumRows = 5_000_000
    /// `Manifest.plist` and `Info.plist` larger than this are not read.
    static let maximumPlistSize = 64 << 20

    func run() -> Outcome {
        let calls = probe.calls
        var outcome = Outcome(summary: BackupSummary(root: root, isEncrypted: false, device: BackupDevice(), fileCount: 0, unreadFileCount: 0),
                              kind: .backup)
        func fail(_ error: BackupError) -> Outcome {
            outcome.failure = error
            return outcome
        }
        let folder: Int32
        // A descriptor of its own: the walk's has been listed to its end, and listing shares the offset.
        let opened = openFolder.map { calls.openat($0.descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
            ?? calls.open(BytePath(spelled: root), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        switch opened {
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
                    database = try EvidenceDatabase(bytes: plain, name: BytePath(root).appending("Manifest.db").text)
                } else {
                    // A Manifest.db caught while written has a -wal beside it: the private copy
                    // takes it too, so the rows are read as of the WAL and the evidence is untouched.
                    database = try EvidenceDatabase(location: .member(folder: handle.descriptor, name: Array("Manifest.db".utf8)),
                                                    path: BytePath(root).appending("Manifest.db").text)
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
        for entry in entries { outcome.entries[BytePath(spelled: entry.inner)] = entry }

        // The 256 two-digit folders, each opened once without following a link.
        var folders: [String: FolderHandle] = [:]
        for prefix in Set(entries.map(\.folderKey)) {
            if prefix.isEmpty {
                folders[prefix] = handle
            } else if case .success(let opened) = calls.openat(folder, BytePath(prefix), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) {
                folders[prefix] = FolderHandle(opened, calls: calls)
            }
        }
        let openFolders = folders
        let source = outcome.kind
        let root = self.root
        let probe = self.probe
        let keys = classKeys
        // The files a `-wal` row sits beside: an empty one may be a ledger held in its WAL.
        let walOwners = Set(entries.compactMap { BytePath(spelled: $0.inner).removingSuffix("-wal") })
        var findings: [FileProbe.Finding] = []
        var ledgerCandidates: [LedgerCandidate] = []
        orderedParallelMap(entries) { entry in
            Self.probe(entry, folder: openFolders[entry.folderKey], keys: keys, source: source, root: root, probe: probe,
                       hasWAL: walOwners.contains(BytePath(spelled: entry.inner)))
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
                let inner = BytePath(joining: [domain, relativePath]).text
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

    static func isFileID(_ text: String) -> Bool {
        text.utf8.count == 40 && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    /// A domain is one name; a relativePath is relative, without `.` or `..` components or NUL.
    static func staysInside(domain: String, relativePath: String) -> Bool {
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
    static func bundleID(ofDomain domain: String) -> String? {
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
        let components = BytePath(entry.relativePath).names().map(\.text)
        let name = components.last ?? entry.relativePath
        let parentName = components.count > 1 ? components[components.count - 2] : entry.domain
        let calls = probe.calls

        // The record is decoded up front only in an encrypted backup (the file's key is in it).
        var record: BackupFileRecord?
        var fileKey: SymmetricKey?
        if let keys {
            do {
                let decoded = try entry.fileRecord()
                record = decoded
                fileKey = try Self.fileKey(decoded, keys: keys)
            } catch let error as BackupError {
                return ProbeResult(problem: ScanProblem(path: inner, message: "cannot decrypt: \(error.message)"))
            } catch let error as ScanProblem {
                return ProbeResult(problem: ScanProblem(path: inner, message: error.message))
            } catch {
                return ProbeResult(problem: ScanProblem(path: inner, message: "cannot decrypt: \(error)"))
            }
        }
        guard let folder else { return ProbeResult(problem: Self.storedFileMissing(entry)) }
        let descriptor: Int32
        switch calls.openEvidence(in: folder.descriptor, BytePath(entry.fileID)) {
        case .success(let opened): descriptor = opened
        case .failure(let failure):
            if failure.code == ENOENT { return ProbeResult(problem: Self.storedFileMissing(entry)) }
            if failure.code == ELOOP { return ProbeResult(problem: ScanProblem(path: inner, message: "skipped: its file in the backup is a symbolic link")) }
            return ProbeResult(problem: ScanProblem(path: inner, message: "cannot open \(entry.storedPath): \(TreeWalker.describe(failure.code))"))
        }
        defer { _ = calls.close(descriptor) }
        var member = BackupEvidence.Member(entry: entry, descriptor: descriptor, name: name, parentName: parentName,
                                           isPartialFile: AppContainerLayout.isPartialFile(name: name, parentName: parentName),
                                           wal: hasWAL ? .beside : .none, fileKey: fileKey, record: record)
        let evidence = BackupEvidence(readLimit: probe.readLimit, calls: calls, kind: source, root: root, isEncrypted: keys != nil)
        switch EvidenceProbe(search: probe.search, hashLimit: probe.hashLimit).probe(&member, in: evidence) {
        case .nothing: return ProbeResult()
        case .ledger: return ProbeResult(ledgerCandidate: LedgerCandidate(entry: entry))
        case .found(let finding, let note): return ProbeResult(finding: finding, problem: note)
        case .failed(let problem): return ProbeResult(problem: problem)
        }
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
        switch calls.openEvidence(in: folder.descriptor, BytePath(name)) {
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
                  case .success(let sub) = calls.openat(folder.descriptor, BytePath(name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) else { continue }
            let handle = FolderHandle(sub, calls: calls)
            if case .success(let files) = calls.listFolder(handle.descriptor) {
                count += files.entries.filter { $0.kind == .regular }.count
            }
        }
        return count
    }
}
