/// Why a keyed archive could not be decoded or encoded, and which object was at fault.
///
/// The ``description`` puts the key path first, the way a compiler names a source position:
/// `$objects[12].NS.keys[3]: UID 40 out of range (38 objects)`. Errors compare equal when their
/// ``code`` is equal, so tests can match the kind of failure without spelling out the message.
public struct KeyedArchiveError: Error, Hashable, CustomStringConvertible, Sendable {
    /// A stable identifier for the kind of failure. New codes may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The identifier, e.g. `uid-out-of-range`.
        public let name: String
        init(_ name: String) { self.name = name }
        /// The identifier.
        public var description: String { name }

        /// The bytes are not a property list; ``KeyedArchiveError/underlying`` says why.
        public static let propertyList = Code("property-list")
        /// The property list is not an NSKeyedArchiver archive (`$archiver`, `$version` wrong or missing).
        public static let notAnArchive = Code("not-an-archive")
        /// `$top` is missing, has other than one key, or does not hold a UID.
        public static let invalidTop = Code("invalid-top")
        /// `$objects` is missing, not an array, or does not start with `"$null"`.
        public static let invalidObjects = Code("invalid-objects")
        /// A UID points past the end of `$objects`.
        public static let uidOutOfRange = Code("uid-out-of-range")
        /// An object contains itself through UIDs.
        public static let cycle = Code("cycle")
        /// An object dictionary has no `$class`.
        public static let missingClass = Code("missing-class")
        /// `$class` does not point at a class description (`$classname`, `$classes`).
        public static let invalidClass = Code("invalid-class")
        /// A class chain names a class twice, or a class refers to itself.
        public static let classChainLoop = Code("class-chain-loop")
        /// `NS.keys` and `NS.objects` have different lengths.
        public static let lengthMismatch = Code("length-mismatch")
        /// The root object is nil (UID 0).
        public static let nullRoot = Code("null-root")
        /// A value has the wrong type for where it is.
        public static let unexpectedType = Code("unexpected-type")
        /// A key that must be present is not.
        public static let missingKey = Code("missing-key")
        /// An object is not of the class the caller asked for.
        public static let unexpectedClass = Code("unexpected-class")
        /// More objects than ``KeyedArchiveOptions/maximumObjectCount``.
        public static let tooManyObjects = Code("too-many-objects")
        /// Objects nested deeper than ``KeyedArchiveOptions/maximumDepth``.
        public static let tooDeep = Code("too-deep")
        /// Shared objects expand to more than ``KeyedArchiveOptions/maximumValueCount`` values.
        public static let tooManyValues = Code("too-many-values")
        /// A value that cannot be written where it was asked to go.
        public static let unrepresentable = Code("unrepresentable")
        /// A rename would overwrite a key that is already present.
        public static let keyConflict = Code("key-conflict")
    }

    /// The kind of failure.
    public var code: Code
    /// What is wrong, for people.
    public var reason: String
    /// The object and key at fault, e.g. `$objects[12].NS.keys[3]`, when known.
    public var keyPath: String?
    /// The property-list error underneath, for ``Code/propertyList``.
    public var underlying: PropertyListError?

    /// Creates an error; an empty key path (the top of a value) counts as none.
    package init(_ code: Code, _ reason: String, keyPath: String? = nil) {
        self.code = code
        self.reason = reason
        self.keyPath = keyPath?.isEmpty == true ? nil : keyPath
    }

    /// Wraps a property-list error, keeping its position text in the reason.
    package init(_ underlying: PropertyListError) {
        self.code = .propertyList
        self.reason = underlying.description
        self.keyPath = nil
        self.underlying = underlying
    }

    /// `keyPath: reason`, or the reason alone.
    public var description: String {
        guard let keyPath else { return reason }
        return "\(keyPath): \(reason)"
    }

    /// Errors are equal when their codes are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    /// Hashes the code, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
