/// A dictionary by path, a path matching only its own bytes (``PathKey``): what scan remembers of
/// evidence by path (members, rows, findings, folders) is looked up as the file system would.
struct PathMap<Value> {
    private var storage: [PathKey: Value] = [:]

    init() {}

    subscript(path: String) -> Value? {
        get { storage[PathKey(path)] }
        set { storage[PathKey(path)] = newValue }
    }

    subscript(path: String, default value: @autoclosure () -> Value) -> Value {
        get { storage[PathKey(path), default: value()] }
        _modify { yield &storage[PathKey(path), default: value()] }
    }

    var count: Int { storage.count }
    var isEmpty: Bool { storage.isEmpty }
    var values: Dictionary<PathKey, Value>.Values { storage.values }

    /// The paths, in no order.
    var keys: [String] { storage.keys.map(\.path) }

    mutating func removeAll() { storage.removeAll() }

    @discardableResult
    mutating func removeValue(forKey path: String) -> Value? {
        storage.removeValue(forKey: PathKey(path))
    }

    @discardableResult
    mutating func updateValue(_ value: Value, forKey path: String) -> Value? {
        storage.updateValue(value, forKey: PathKey(path))
    }
}

extension PathMap: Sequence {
    func makeIterator() -> some IteratorProtocol<(key: String, value: Value)> {
        storage.lazy.map { (key: $0.key.path, value: $0.value) }.makeIterator()
    }
}

extension PathMap: ExpressibleByDictionaryLiteral {
    init(dictionaryLiteral elements: (String, Value)...) {
        for (path, value) in elements { storage[PathKey(path)] = value }
    }
}

extension PathMap: Sendable where Value: Sendable {}

extension PathMap: Equatable where Value: Equatable {}

/// A set of paths, a path matching only its own bytes (``PathKey``).
struct PathSet: Sendable, ExpressibleByArrayLiteral {
    private var storage: Set<PathKey> = []

    init(_ paths: some Sequence<String>) {
        storage = Set(paths.map(PathKey.init))
    }

    init(arrayLiteral elements: String...) {
        self.init(elements)
    }

    func contains(_ path: String) -> Bool { storage.contains(PathKey(path)) }

    mutating func insert(_ path: String) { storage.insert(PathKey(path)) }

    var count: Int { storage.count }
}
