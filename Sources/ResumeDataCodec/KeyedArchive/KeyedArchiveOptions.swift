/// Limits on what a keyed-archive decoder accepts. Each bounds work or memory that the input
/// controls; the defaults are generous for resume data and safe against hostile archives.
public struct KeyedArchiveOptions: Sendable, Hashable {
    /// The largest `$objects` array accepted. Default 100,000 (a resume blob holds well under 100).
    public var maximumObjectCount: Int
    /// The deepest nesting of objects followed while decoding. Default 128; values above
    /// 300, the property-list readers' ceiling, act as that ceiling (decoding recurses once per
    /// level, so a deeper limit would let an archive overflow the stack).
    public var maximumDepth: Int
    /// The most values one decode may produce. An object referred to from several places is
    /// decoded once per reference, so a small archive of shared objects could otherwise expand
    /// exponentially. Default 1,000,000.
    public var maximumValueCount: Int
    /// The limits for reading the property list underneath.
    public var propertyListOptions: PropertyListReadOptions

    /// Creates options; every limit has a safe default.
    public init(
        maximumObjectCount: Int = 100_000,
        maximumDepth: Int = 128,
        maximumValueCount: Int = 1_000_000,
        propertyListOptions: PropertyListReadOptions = .default
    ) {
        self.maximumObjectCount = maximumObjectCount
        self.maximumDepth = maximumDepth
        self.maximumValueCount = maximumValueCount
        self.propertyListOptions = propertyListOptions
    }

    /// ``maximumDepth`` capped at `PropertyListReadOptions.depthCeiling`: the limit the decoder applies.
    var effectiveMaximumDepth: Int { min(maximumDepth, PropertyListReadOptions.depthCeiling) }

    /// The defaults.
    public static let `default` = KeyedArchiveOptions()
}
