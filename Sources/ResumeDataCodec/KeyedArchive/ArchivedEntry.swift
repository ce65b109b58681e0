/// A key and what it holds, in the order the archive has them: an object's field
/// (``ArchivedObject/Field``) or an entry of an archived dictionary
/// (``ArchivedValue/DictionaryEntry``). Kept as a list, not a dictionary, so that the order and
/// any repeated key a device wrote survive a round trip.
public struct ArchivedEntry<Value: Sendable & Hashable>: Sendable, Hashable {
    /// The key.
    public var key: String
    /// What the key holds.
    public var value: Value

    /// Creates an entry.
    init(key: String, value: Value) {
        self.key = key
        self.value = value
    }
}
