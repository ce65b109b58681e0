import OrderedCollections

/// A property-list dictionary: string keys, each once, in the order they were read or inserted.
///
/// Order matters for output (Apple's keyed archives and resume dictionaries have a set key order)
/// but not for equality: like `NSDictionary`, two dictionaries with the same entries are equal
/// whatever their order.
public struct PropertyListDictionary: Sendable, Hashable, RandomAccessCollection {
    /// One key and its value.
    public typealias Element = (key: String, value: PropertyListValue)

    private var storage: OrderedDictionary<String, PropertyListValue>

    /// Creates an empty dictionary.
    public init() { storage = [:] }

    /// Creates a dictionary from entries in order; returns `nil` if a key repeats.
    public init?(entries: some Sequence<(String, PropertyListValue)>) {
        storage = [:]
        for (key, value) in entries {
            guard storage.updateValue(value, forKey: key) == nil else { return nil }
        }
    }

    /// The keys in order.
    public var keys: [String] { Array(storage.keys) }

    /// The values in key order.
    public var values: [PropertyListValue] { Array(storage.values) }

    /// The value for a key; setting `nil` removes it. A new key goes at the end.
    public subscript(key: String) -> PropertyListValue? {
        get { storage[key] }
        set { storage[key] = newValue }
    }

    /// Sets the value of a key, returning the old value. A new key goes at the end.
    @discardableResult
    public mutating func updateValue(_ value: PropertyListValue, forKey key: String) -> PropertyListValue? {
        storage.updateValue(value, forKey: key)
    }

    /// Removes a key, returning its value.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> PropertyListValue? {
        storage.removeValue(forKey: key)
    }

    /// Makes room for `minimumCapacity` entries, so a reader that knows the count allocates once.
    mutating func reserveCapacity(_ minimumCapacity: Int) { storage.reserveCapacity(minimumCapacity) }

    /// The keys in order, sharing the dictionary's storage of them.
    var orderedKeys: OrderedSet<String> { storage.keys }

    /// A dictionary of `keys`, which must be unique, and their values in the same order, sharing
    /// the storage of `keys`: a reader that meets many dictionaries with the same keys keeps them once.
    init(uniqueKeys keys: OrderedSet<String>, values: ContiguousArray<PropertyListValue>) {
        storage = OrderedDictionary(uncheckedUniqueKeys: keys, values: values)
    }

    /// The position of a key, if present.
    public func index(forKey key: String) -> Int? { storage.index(forKey: key) }

    /// The same entries with keys in the order Apple's XML writer uses (by UTF-16 code units,
    /// as `CFStringCompare` without options orders them).
    public func sortedByKey() -> PropertyListDictionary {
        var copy = self
        copy.storage.sort { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }
        return copy
    }

    /// The first position.
    public var startIndex: Int { 0 }
    /// One past the last position.
    public var endIndex: Int { storage.count }
    /// The entry at a position.
    public subscript(position: Int) -> Element {
        let entry = storage.elements[position]
        return (entry.key, entry.value)
    }

    /// Same entries, in any order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.storage.count == rhs.storage.count else { return false }
        for (key, value) in lhs.storage where rhs.storage[key] != value { return false }
        return true
    }

    /// Hashes the entries without regard to order, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for (key, value) in storage {
            var entryHasher = Hasher()
            entryHasher.combine(key)
            entryHasher.combine(value)
            combined ^= entryHasher.finalize()
        }
        hasher.combine(storage.count)
        hasher.combine(combined)
    }
}

extension PropertyListDictionary: ExpressibleByDictionaryLiteral {
    /// Creates a dictionary with keys in the order written; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
        storage = [:]
        for (key, value) in elements { storage[key] = value }
    }
}
