/// Why a property list could not be read or written, and where.
///
/// Errors compare equal when their ``code`` is equal, so tests can match the kind of failure
/// without spelling out the message. The ``description`` reads like a compiler diagnostic:
/// `3:17: expected </string>, found </key>` for XML, `byte 0x1a4: object 12: …` for binary.
public struct PropertyListError: Error, Hashable, CustomStringConvertible, Sendable {
    /// A stable identifier for the kind of failure. New codes may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The identifier, e.g. `truncated`.
        public let name: String
        init(_ name: String) { self.name = name }
        /// The identifier.
        public var description: String { name }

        /// The input ends before a structure it announced.
        public static let truncated = Code("truncated")
        /// The input is not a property list in any format this library reads.
        public static let unknownFormat = Code("unknown-format")
        /// XML that is not well formed, as libxml2 reports it.
        public static let malformedXML = Code("malformed-xml")
        /// An element or object where the property-list grammar does not allow it.
        public static let unexpectedElement = Code("unexpected-element")
        /// The text of a `<integer>`, `<real>`, `<date>` or `<data>` element cannot be parsed.
        public static let invalidValue = Code("invalid-value")
        /// A number does not fit the type that must hold it.
        public static let integerOverflow = Code("integer-overflow")
        /// A dictionary has the same key twice.
        public static let duplicateKey = Code("duplicate-key")
        /// A dictionary key is not a string.
        public static let invalidKey = Code("invalid-key")
        /// The binary trailer is inconsistent (sizes, counts, offsets).
        public static let invalidTrailer = Code("invalid-trailer")
        /// An object reference or offset points outside the object table or the input.
        public static let referenceOutOfRange = Code("reference-out-of-range")
        /// A container contains itself.
        public static let cycle = Code("cycle")
        /// Bytes that are not valid UTF-8, UTF-16 or ASCII for the string type that holds them.
        public static let invalidString = Code("invalid-string")
        /// An unknown binary object marker.
        public static let unknownObjectType = Code("unknown-object-type")
        /// Nesting deeper than ``PropertyListReadOptions/maximumDepth``.
        public static let tooDeep = Code("too-deep")
        /// More objects than ``PropertyListReadOptions/maximumObjectCount``.
        public static let tooManyObjects = Code("too-many-objects")
        /// Input longer than ``PropertyListReadOptions/maximumInputSize``.
        public static let tooLarge = Code("too-large")
        /// A value that the target format cannot represent.
        public static let unrepresentable = Code("unrepresentable")
    }

    /// Where in the input the failure is.
    public enum Location: Hashable, Sendable {
        /// No position is known.
        case unknown
        /// A byte offset in binary input, with the index of the object being read when known.
        case byteOffset(Int, objectIndex: Int?)
        /// A 1-based line and column in XML input.
        case lineColumn(line: Int, column: Int)
    }

    /// The kind of failure.
    public var code: Code
    /// What is wrong, for people.
    public var reason: String
    /// Where in the input.
    public var location: Location
    /// The path of the value inside the property list, e.g. `$objects[1].NS.keys[3]`, when known.
    public var keyPath: String?

    /// Creates an error.
    package init(_ code: Code, _ reason: String, at location: Location = .unknown, keyPath: String? = nil) {
        self.code = code
        self.reason = reason
        self.location = location
        self.keyPath = keyPath
    }

    /// The position as a diagnostic prefix: `3:17` or `byte 0x1a4`, or `nil` when unknown.
    package var locationDescription: String? {
        switch location {
        case .unknown: nil
        case .lineColumn(let line, let column): "\(line):\(column)"
        case .byteOffset(let offset, _): "byte 0x\(String(offset, radix: 16))"
        }
    }

    /// The message without the position: object index, key path and reason.
    public var message: String {
        var parts: [String] = []
        if case .byteOffset(_, let objectIndex?) = location { parts.append("object \(objectIndex)") }
        if let keyPath { parts.append(keyPath) }
        parts.append(reason)
        return parts.joined(separator: ": ")
    }

    /// `position: message`, or the message alone when no position is known.
    public var description: String {
        guard let locationDescription else { return message }
        return "\(locationDescription): \(message)"
    }

    /// Errors are equal when their codes are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    /// Hashes the code, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
