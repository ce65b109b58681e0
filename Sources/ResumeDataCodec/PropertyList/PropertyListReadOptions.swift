/// Limits on what a property-list reader accepts. Every one bounds work or memory that the input
/// controls; the defaults are generous for resume data and safe against hostile input.
public struct PropertyListReadOptions: Sendable, Hashable {
    /// The deepest nesting of arrays, sets and dictionaries accepted. Default 256.
    public var maximumDepth: Int
    /// The largest number of objects (binary) or elements (XML) accepted. Default 4,000,000.
    public var maximumObjectCount: Int
    /// The largest input accepted, in bytes. Default 256 MiB.
    public var maximumInputSize: Int
    /// What to do when a dictionary holds the same key twice. Default: reject.
    public var duplicateKeys: DuplicateKeyPolicy

    /// What a reader does with a key that appears twice in one dictionary.
    public enum DuplicateKeyPolicy: Sendable, Hashable {
        /// Fail with ``PropertyListError/Code/duplicateKey``: the input is damaged or crafted,
        /// and which value an Apple device would use is not something to guess silently.
        case reject
        /// Keep the key where it first appeared, with the last value, as CoreFoundation,
        /// Python's plistlib and libplist do.
        case keepLast
    }

    /// Creates options; every limit has a safe default.
    public init(maximumDepth: Int = 256, maximumObjectCount: Int = 4_000_000, maximumInputSize: Int = 256 << 20,
                duplicateKeys: DuplicateKeyPolicy = .reject) {
        self.maximumDepth = maximumDepth
        self.maximumObjectCount = maximumObjectCount
        self.maximumInputSize = maximumInputSize
        self.duplicateKeys = duplicateKeys
    }

    /// The defaults.
    public static let `default` = PropertyListReadOptions()
}
