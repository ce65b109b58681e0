/// Limits on what a property-list reader accepts. Every one bounds work or memory that the input
/// controls; the defaults are generous for resume data and safe against hostile input.
public struct PropertyListReadOptions: Sendable, Hashable {
    /// The deepest nesting of arrays, sets and dictionaries accepted. Default 256; values above
    /// 300 act as 300, the depth every reader stays within so that the stack cannot overflow.
    public var maximumDepth: Int
    /// The largest number of objects (binary) or elements (XML) accepted. Default 4,000,000.
    public var maximumObjectCount: Int
    /// The largest input accepted, in bytes. Default 256 MiB.
    public var maximumInputSize: Int
    /// What to do when a dictionary holds the same key twice. Default: keep the last value, as
    /// Apple's reader does; ``PropertyListReader/readDocument(_:)`` lists each as a warning.
    public var duplicateKeys: DuplicateKeyPolicy

    /// What a reader does with a key that appears twice in one dictionary.
    public enum DuplicateKeyPolicy: Sendable, Hashable {
        /// Fail with `PropertyListError.Code.duplicateKey` (strict reading: `--strict` in the
        /// CLI): no Apple writer makes such a file, so it was damaged or crafted.
        case reject
        /// Keep the key where it first appeared, with the last value, as CoreFoundation,
        /// Python's plistlib and libplist do, and report it as a warning. The default: a
        /// converter stricter than the system that wrote the file only gets in the way.
        case keepLast
    }

    /// Creates options; every limit has a safe default.
    public init(maximumDepth: Int = 256, maximumObjectCount: Int = 4_000_000, maximumInputSize: Int = 256 << 20,
                duplicateKeys: DuplicateKeyPolicy = .keepLast) {
        self.maximumDepth = maximumDepth
        self.maximumObjectCount = maximumObjectCount
        self.maximumInputSize = maximumInputSize
        self.duplicateKeys = duplicateKeys
    }

    /// The deepest nesting any reader accepts, whatever ``maximumDepth`` says (300). Reading,
    /// comparing, writing and even freeing a value recurse once per level, so a million-deep
    /// document read without a cap overflows the stack instead of failing cleanly. Measured in a
    /// debug build on a 512 KiB thread stack (Swift concurrency's on Linux): the binary reader
    /// overflows at about 700 levels and the keyed-archive decoder at about 1000; 300 leaves the
    /// caller more than half the stack.
    static let depthCeiling = 300

    /// ``maximumDepth`` capped at `depthCeiling`: the limit readers apply.
    var effectiveMaximumDepth: Int { min(maximumDepth, Self.depthCeiling) }

    /// The defaults.
    public static let `default` = PropertyListReadOptions()
    /// The defaults, but a key given twice is an error (`--strict` in the CLI).
    public static let strict = PropertyListReadOptions(duplicateKeys: .reject)
}
