/// A zip or tar extraction scanned: its format, and how much of it could be read.
public struct ArchiveSummary: Sendable, Hashable {
    /// The archive file as given.
    public var root: String
    /// libarchive's name for its format (`ZIP 2.0 (deflation)`, `POSIX pax interchange format`).
    public var format: String
    /// Members read, of every kind (folders and links too).
    public var memberCount: Int
    /// Regular members read: the files of the extraction.
    public var fileCount: Int
    /// Whether the archive was read to its end; false when it is truncated or was refused on the
    /// way (a bomb, too many members): what was found before is still reported.
    public var isComplete: Bool
    /// What an examiner should know that is not an error: a member that has an earlier one's
    /// name (unpacking leaves the later, which is what is reported).
    public var warnings: [String] = []

    /// A summary with these values.
    public init(root: String, format: String, memberCount: Int, fileCount: Int, isComplete: Bool) {
        self.root = root
        self.format = format
        self.memberCount = memberCount
        self.fileCount = fileCount
        self.isComplete = isComplete
    }
}
