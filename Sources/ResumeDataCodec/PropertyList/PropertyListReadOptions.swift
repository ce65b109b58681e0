/// Limits on what a property-list reader accepts. Every one bounds work or memory that the input
/// controls; the defaults are generous for resume data and safe against hostile input.
public struct PropertyListReadOptions: Sendable, Hashable {
    /// The deepest nesting of arrays, sets and dictionaries accepted. Default 256.
    public var maximumDepth: Int
    /// The largest number of objects (binary) or elements (XML) accepted. Default 4,000,000.
    public var maximumObjectCount: Int
    /// The largest input accepted, in bytes. Default 256 MiB.
    public var maximumInputSize: Int
    /// Whether a dictionary may repeat a key, the last value winning (as Apple's, libplist's and
    /// Python's readers do). Default `false`: a repeated key is an error.
    public var allowsDuplicateKeys: Bool = false

    /// Creates options; every limit has a safe default.
    public init(maximumDepth: Int = 256, maximumObjectCount: Int = 4_000_000, maximumInputSize: Int = 256 << 20) {
        self.maximumDepth = maximumDepth
        self.maximumObjectCount = maximumObjectCount
        self.maximumInputSize = maximumInputSize
    }

    /// The defaults.
    public static let `default` = PropertyListReadOptions()
}
