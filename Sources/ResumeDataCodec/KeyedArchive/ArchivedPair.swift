/// A key and value of an archived dictionary whose keys are not all strings
/// (``ArchivedValue/objectKeyedDictionary(_:)``): nsurlsessiond's `tasks.plist`, for one, keys its
/// tasks by `NSNumber` task number. Both sides are kept as decoded, in archive order.
public struct ArchivedPair: Sendable, Hashable {
    /// The key object: a number, a string, any archived value.
    public var key: ArchivedValue
    /// What the key holds.
    public var value: ArchivedValue

    /// Creates a pair.
    public init(key: ArchivedValue, value: ArchivedValue) {
        self.key = key
        self.value = value
    }

    /// The key as a key path spells it: a string as it is, any other key as it prints (`93`).
    public var keyText: String {
        key.stringValue ?? key.description
    }
}
