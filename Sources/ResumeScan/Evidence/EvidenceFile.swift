import Foundation

/// Where a finding was read from: a folder, a backup (encrypted or not) or an archive, and the
/// path inside it.
public struct FindingSource: Sendable, Hashable {
    /// What kind of evidence the root is.
    public enum Kind: String, Sendable, Hashable {
        /// A folder tree, walked.
        case folder
        /// An iTunes/Finder backup whose files are not encrypted.
        case backup
        /// An encrypted backup, its files decrypted in memory.
        case encryptedBackup = "encrypted-backup"
        /// A zip or tar archive of an extraction, read in one streaming pass.
        case archive
    }

    /// The kind of the root.
    public var kind: Kind
    /// The path given to `scan`, as it was spelled (a trailing `/` dropped); for a backup found
    /// below a folder given, the backup folder's path below it.
    public var root: String
    /// The path inside the root: relative to a folder, `DOMAIN/relativePath` in a backup, a member
    /// name in an archive.
    public var inner: String

    /// A source with these values.
    public init(kind: Kind, root: String, inner: String) {
        self.kind = kind
        self.root = root
        self.inner = inner
    }
}

/// One file of the evidence as an examiner cites it: where it is, its SHA-256, size, mode and the
/// times its source records (a backup's `MBFile` has all three; a Linux `stat` no birth time).
public struct EvidenceFile: Sendable, Hashable {
    /// Where it is.
    public var source: FindingSource
    /// The SHA-256 of its content (decrypted, for an encrypted backup), in lower-case hex; nil
    /// when it was not read.
    public var sha256: String?
    /// Its size in bytes (a backup's `MBFile` `Size`).
    public var size: Int64
    /// The modification time, when the source has it.
    public var modified: Date?
    /// The status change time (`st_ctime`, `MBFile` `LastStatusChange`), when the source has it.
    public var changed: Date?
    /// The creation (birth) time, when the source has it: a backup's `MBFile` does, Linux's `stat` does not.
    public var created: Date?
    /// The mode, type bits included, when the source has it.
    public var mode: UInt32?
    /// The bytes the file system holds for it (`st_blocks` × 512), when the source has it: far
    /// below ``size`` for a sparse file.
    public var allocatedSize: Int64?
    /// Why ``sha256`` is nil when the file was not hashed: sparse, or above `--hash-limit`.
    public var hashSkipped: HashSkip?

    /// A file with these values.
    public init(source: FindingSource, sha256: String?, size: Int64, modified: Date?, changed: Date?, created: Date?, mode: UInt32?) {
        self.source = source
        self.sha256 = sha256
        self.size = size
        self.modified = modified
        self.changed = changed
        self.created = created
        self.mode = mode
    }
}

/// A backup scanned: its device, and how much of it could be read.
public struct BackupSummary: Sendable, Hashable {
    /// The backup folder as given, or, for one found below a folder given, its path below it
    /// as the walk spells paths.
    public var root: String
    /// Whether its files are encrypted.
    public var isEncrypted: Bool
    /// The device it was made of.
    public var device: BackupDevice
    /// Regular files its `Manifest.db` lists (or, unread, the files in its folders).
    public var fileCount: Int
    /// Files not read: an encrypted backup scanned without a password.
    public var unreadFileCount: Int
    /// What the backup lacked and what was read instead (no `Manifest.plist`), in sentences.
    public var warnings: [String] = []
    /// The list of its files: `Manifest.db`, or `Manifest.mbdb` before iOS 10.
    public var listName = "Manifest.db"
    /// Listed regular files whose stored copy is not in the folder: many in an incomplete copy.
    public var missingFileCount = 0
    /// The first few of them (`DOMAIN/relativePath`, in byte order), for a report that names a
    /// few instead of every one.
    public var missingFileExamples: [String] = []

    /// A summary with these values.
    public init(root: String, isEncrypted: Bool, device: BackupDevice, fileCount: Int, unreadFileCount: Int) {
        self.root = root
        self.isEncrypted = isEncrypted
        self.device = device
        self.fileCount = fileCount
        self.unreadFileCount = unreadFileCount
    }
}
