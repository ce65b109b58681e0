/// A file or folder that a scan could not read, or chose to skip, and why.
public struct ScanProblem: Error, Sendable, Hashable {
    /// The path as the walk spells it from the root it was given.
    public let path: String
    /// What went wrong, in a sentence: `cannot read the folder: Permission denied`.
    public let message: String

    /// A problem at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }
}
