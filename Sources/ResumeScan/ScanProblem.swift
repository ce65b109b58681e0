/// A file or folder that a scan could not read, or chose to skip, and why.
public struct ScanProblem: Error, Sendable, Hashable {
    /// The path as the walk spells it from the root it was given.
    public let path: String
    /// What went wrong, in a sentence: `cannot read the folder: Permission denied`.
    public let message: String
    /// What kind of problem it is, for a report that says some kinds together.
    package var kind: Kind = .other

    /// The kinds a report treats apart from the rest.
    package enum Kind: Sendable, Hashable {
        case other
        /// A backup lists the file, but its stored copy is not in the folder: in an incomplete
        /// copy there are thousands, which a text report counts in one line.
        case storedFileMissing
    }

    /// A problem at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    init(path: String, message: String, kind: Kind) {
        self.path = path
        self.message = message
        self.kind = kind
    }
}
