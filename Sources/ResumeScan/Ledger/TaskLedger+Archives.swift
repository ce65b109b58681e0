import Crypto
import Foundation
import ResumeDataCodec
import ResumeSystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension TaskLedger {
    /// How the ledger is stored.
    public enum Layout: Sendable, Hashable {
        /// `tasks.sqlite` (spec §1).
        case sqlite
        /// The older keyed archives: `bundles.plist`, `<bundle SHA-1>/sessions.plist` and
        /// `<bundle SHA-1>/<session SHA-1>/tasks.plist`.
        case keyedArchives

        /// `schema version N` or `keyed archives (tasks.plist)`, for people.
        func description(schemaVersion: Int64) -> String {
            switch self {
            case .sqlite: "schema version \(schemaVersion)"
            case .keyedArchives: "keyed archives (tasks.plist)"
            }
        }
    }

    /// `schema version N`, or `keyed archives (tasks.plist)` for the older layout.
    public var layoutDescription: String { layout.description(schemaVersion: schemaVersion) }

    /// Whether `data` is nsurlsessiond's older task list (a `tasks.plist`): the one answer
    /// `inspect`, `validate` and `explain` give before naming the command that reads it.
    package static func isTaskArchive(_ data: Data) -> Bool { TaskArchive.isTaskArchive(data) }

    /// The name of nsurlsessiond's folder.
    static let daemonFolderName = "com.apple.nsurlsessiond"

    /// The older layout when `path` is a folder (the daemon's, with `bundles.plist` and its
    /// bundle folders) or a property list (a session's `tasks.plist`); nil for anything else,
    /// which is read as `tasks.sqlite`. A folder that holds `tasks.sqlite` is read as that file.
    static func readArchives(path: String, root: String?, limits: Limits, calls: FileSystemCalls = .system) throws -> TaskLedger? {
        guard case .success(let status) = calls.lstat(path) else { return nil }
        switch status.kind {
        case .directory:
            let database = BytePath(path).appending("tasks.sqlite").text
            if case .success(let found) = calls.lstat(database), found.kind == .regular {
                return try read(path: database, root: root, limits: limits)
            }
            return try readDaemonFolder(path: path, root: root, calls: calls)
        case .regular:
            // Only the start is read to tell a property list: `tasks.sqlite` may be far larger
            // than a task list may be.
            guard let start = startOfFile(atPath: path, calls: calls), TaskArchive.isPropertyList(start) else { return nil }
            return try readTaskFile(readEvidenceFile(atPath: path, calls: calls), path: path, root: root, calls: calls)
        case .symbolicLink, .other:
            return nil
        }
    }

    /// One session's `tasks.plist`, its bundle and session told by the `sessions.plist` and
    /// `bundles.plist` above it when its folders are named as the layout names them.
    static func readTaskFile(_ data: Data, path: String, root: String?, calls: FileSystemCalls) throws -> TaskLedger {
        let names = BytePath(path).names(keepingEmpty: true).map(\.text)
        var owner = TaskArchive.Owner()
        if names.count >= 3, LedgerFolderNames.isHashName(names[names.count - 2]), LedgerFolderNames.isHashName(names[names.count - 3]) {
            let sessionFolder = names[names.count - 2]
            let bundleFolder = names[names.count - 3]
            func folder(_ count: Int) -> String {
                let joined = BytePath(joining: names[..<count]).text
                return joined.isEmpty ? (path.utf8.first == UInt8(ascii: "/") ? "/" : ".") : joined
            }
            let bundlePath = folder(names.count - 2)
            let daemonPath = folder(names.count - 3)
            owner.sessionFolder = sessionFolder
            owner.sessionID = LedgerFolderNames(data: try? readEvidenceFile(atPath: BytePath(bundlePath).appending("sessions.plist").text, calls: calls))[sessionFolder]
            owner.bundleID = LedgerFolderNames(data: try? readEvidenceFile(atPath: BytePath(daemonPath).appending("bundles.plist").text, calls: calls))[bundleFolder]
        }
        let placement = LedgerPlacement.forLedger(at: path, root: root)
        let contents = try TaskArchive.read(data, path: path, owner: owner, placement: placement)
        return assemble(path: path, placement: placement, contents: contents, walkRoots: [])
    }

    /// The daemon's folder: every `<bundle>/<session>/tasks.plist` in it, each bundle and session
    /// told by `bundles.plist` and `sessions.plist`. A file that cannot be read is a warning and
    /// the rest are read; no symbolic link is followed.
    static func readDaemonFolder(path: String, root: String?, calls: FileSystemCalls) throws -> TaskLedger {
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        guard case .success(let descriptor) = calls.open(path, flags, 0) else {
            throw EvidenceDatabaseError(path: path, message: "cannot open the folder")
        }
        let daemon = FolderHandle(descriptor, calls: calls)
        guard case .success(let listing) = calls.listFolder(daemon.descriptor) else {
            throw EvidenceDatabaseError(path: path, message: "cannot list the folder")
        }
        let bundleNames = LedgerFolderNames(data: try? readEvidenceFile(in: daemon, "bundles.plist", calls: calls))
        let bundleFolders = listing.entries.compactMap(\.name).filter(LedgerFolderNames.isHashName).sorted()
        guard listing.entries.contains(where: { $0.name == "bundles.plist" }) || !bundleFolders.isEmpty else {
            throw EvidenceDatabaseError(path: path, message: "not nsurlsessiond's folder: no tasks.sqlite, bundles.plist or bundle folders (named by SHA-1)")
        }
        let placement = LedgerPlacement.forLedger(at: path, root: root)
        var contents = TaskArchive.Contents()
        var files = 0
        for bundleFolder in bundleFolders {
            let bundlePath = BytePath(path).appending(bundleFolder).text
            guard case .success(let opened) = calls.openat(daemon.descriptor, BytePath(bundleFolder), flags) else {
                contents.warnings.append("\(bundlePath): not read: a symbolic link or not a folder")
                continue
            }
            let bundle = FolderHandle(opened, calls: calls)
            guard case .success(let sessions) = calls.listFolder(bundle.descriptor) else {
                contents.warnings.append("\(bundlePath): cannot list the folder")
                continue
            }
            let sessionNames = LedgerFolderNames(data: try? readEvidenceFile(in: bundle, "sessions.plist", calls: calls))
            for sessionFolder in sessions.entries.compactMap(\.name).filter(LedgerFolderNames.isHashName).sorted() {
                let filePath = BytePath(bundlePath).appending(sessionFolder).appending(TaskArchive.fileName).text
                guard case .success(let sessionOpened) = calls.openat(bundle.descriptor, BytePath(sessionFolder), flags) else {
                    contents.warnings.append("\(BytePath(bundlePath).appending(sessionFolder).text): not read: a symbolic link or not a folder")
                    continue
                }
                let session = FolderHandle(sessionOpened, calls: calls)
                files += 1
                guard files <= maximumSessionFolders else {
                    contents.warnings.append("more than \(maximumSessionFolders) session folders: the rest were not read")
                    break
                }
                do {
                    guard let data = try readEvidenceFile(in: session, TaskArchive.fileName, calls: calls, ifPresent: true) else { continue }
                    let owner = TaskArchive.Owner(bundleID: bundleNames[bundleFolder], sessionID: sessionNames[sessionFolder], sessionFolder: sessionFolder)
                    let read = try TaskArchive.read(data, path: filePath, owner: owner, placement: placement)
                    contents.tasks += read.tasks
                    contents.skipped += read.skipped
                    contents.warnings += read.warnings.map { "\(filePath): \($0)" }
                } catch let error as EvidenceDatabaseError {
                    contents.warnings.append("\(error.path): \(error.message)")
                }
            }
            if files > maximumSessionFolders { break }
        }
        return assemble(path: path, placement: placement, contents: contents, walkRoots: [])
    }

    /// The most session folders read from one daemon folder.
    static let maximumSessionFolders = 10_000

    /// The ledger of archived tasks: partial files looked up below the placement's folder without
    /// following a link, tasks in the order `tasks.sqlite`'s are.
    static func assemble(path: String, placement: LedgerPlacement, contents: TaskArchive.Contents, walkRoots: [String]) -> TaskLedger {
        var tasks = contents.tasks
        if let root = placement.root {
            let lookUp = PartialFileLookUp(walkRoots: walkRoots)
            defer { lookUp.close() }
            for index in tasks.indices {
                guard var partial = tasks[index].partialFile, let path = partial.path else { continue }
                partial.entry = lookUp.entry(path, root: root)
                tasks[index].partialFile = partial
            }
        }
        tasks.sort(by: LedgerTask.isListedBefore)
        var ledger = TaskLedger(path: path, schemaVersion: 0, root: placement.root, tasks: tasks, skippedRows: contents.skipped,
                                warnings: contents.warnings)
        ledger.layout = .keyedArchives
        return ledger
    }

    /// The first 256 bytes of a file named by the user (fewer when shorter), opened without
    /// following a final link; nil when it cannot be read.
    static func startOfFile(atPath path: String, calls: FileSystemCalls) -> Data? {
        guard case .success(let descriptor) = calls.openEvidence(atPath: path) else { return nil }
        defer { _ = calls.close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 256)
        let count = bytes.withUnsafeMutableBytes { buffer -> Int? in
            guard case .success(let got) = calls.pread(descriptor, buffer, 0) else { return nil }
            return got
        }
        guard let count else { return nil }
        return Data(bytes.prefix(max(0, min(count, 256))))
    }

    /// A file named by the user, opened without following a final link, whole within the bound.
    static func readEvidenceFile(atPath path: String, calls: FileSystemCalls) throws -> Data {
        guard case .success(let descriptor) = calls.openEvidence(atPath: path) else {
            throw EvidenceDatabaseError(path: path, message: "cannot open the file")
        }
        defer { _ = calls.close(descriptor) }
        return try readEvidence(descriptor, path: path, calls: calls)
    }

    /// A file of an open folder, opened without following a link; nil when absent and `ifPresent`.
    static func readEvidenceFile(in folder: FolderHandle, _ name: String, calls: FileSystemCalls, ifPresent: Bool = false) throws -> Data? {
        switch calls.openEvidence(in: folder.descriptor, BytePath(name)) {
        case .success(let descriptor):
            defer { _ = calls.close(descriptor) }
            return try readEvidence(descriptor, path: name, calls: calls)
        case .failure(let failure):
            if ifPresent, failure.code == ENOENT { return nil }
            throw EvidenceDatabaseError(path: name, message: "cannot open: \(TreeWalker.describe(failure.code))")
        }
    }

    /// The whole of a regular file within ``TaskArchive/maximumSize``.
    static func readEvidence(_ descriptor: Int32, path: String, calls: FileSystemCalls) throws -> Data {
        guard case .success(let status) = calls.fstat(descriptor), status.kind == .regular else {
            throw EvidenceDatabaseError(path: path, message: "not a regular file")
        }
        guard status.size <= Int64(TaskArchive.maximumSize) else {
            throw EvidenceDatabaseError(path: path, message: "\(status.size) bytes, over the limit of \(TaskArchive.maximumSize) for a task list")
        }
        do {
            return try BackupScan.read(descriptor, count: Int(status.size), calls: calls)
        } catch {
            throw EvidenceDatabaseError(path: path, message: error.message)
        }
    }
}

/// The bundle or session identifiers a `bundles.plist` or `sessions.plist` lists, by the name of
/// the folder each has: the upper-case hex SHA-1 of its UTF-8 (spec §1.1; that this is the
/// function the daemon names its folders with is unverified, so a folder no name matches keeps
/// its hash, and a task's own `bundleID` and `sessionID` come first).
struct LedgerFolderNames {
    private var byHash: [String: String] = [:]

    /// The names in a keyed archive of a dictionary (its keys: `bundleID → isSpringBoardApp`),
    /// an array or a set of strings; none for anything else, or nil.
    init(data: Data?) {
        guard let data, let archive = try? KeyedArchive(data: data, options: TaskArchive.options), let root = try? archive.decodeRoot() else { return }
        var names: [String] = []
        switch root {
        case .dictionary(let entries): names = entries.map(\.key)
        case .array(let values): names = values.compactMap { if case .string(let name) = $0 { name } else { nil } }
        case .object(let object):
            if case .array(let values)? = object["NS.objects"]?.value {
                names = values.compactMap { if case .string(let name) = $0 { name } else { nil } }
            }
        default: break
        }
        for name in names { byHash[Self.hash(name)] = name }
    }

    /// The identifier whose folder is `folder`, if listed (the hash compared without regard to case).
    subscript(folder: String) -> String? { byHash[folder.uppercased()] }

    /// Upper-case hex SHA-1 of the UTF-8.
    static func hash(_ name: String) -> String {
        Insecure.SHA1.hash(data: Data(name.utf8)).map { String(format: "%02X", $0) }.joined()
    }

    /// Whether a folder's name is 40 hex digits, as the layout names bundle and session folders.
    static func isHashName(_ name: String) -> Bool {
        name.utf8.count == 40 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }
    }
}
