/// Why the codec could not read or write something: the kind of failure (``code``), what is
/// wrong (``reason``), and where (``location`` in the input, ``keyPath`` inside the value).
///
/// ``PropertyListError``, ``KeyedArchiveError`` and ``ResumeDataError`` are this type, each with
/// its own `Domain` and so its own codes; the shape, the text and the comparison are the same.
///
/// Errors compare equal when their ``code`` is equal, so tests can match the kind of failure
/// without spelling out the message. The ``description`` reads like a compiler diagnostic: the
/// position, the object index, the key path and the reason, those known, joined by `: `
/// (`byte 0x1a4: object 12: …`, `3:17: root.items[2]: …`, `$objects[12].NS.keys[3]: …`).
public struct CodecError<Domain>: Error, Hashable, CustomStringConvertible, Sendable {
    /// A stable identifier for the kind of failure of this domain.
    public typealias Code = DiagnosticCode<Domain>
    /// Where in the input the failure is.
    public typealias Location = CodecErrorLocation

    /// The kind of failure.
    public var code: Code
    /// What is wrong, for people.
    public var reason: String
    /// Where in the input, when known.
    public var location: Location
    /// The path of the value at fault, e.g. `$objects[1].NS.keys[3]`, when known.
    public var keyPath: String?
    /// The error underneath, for errors that wrap another (``CodecError/underlying``).
    /// Stored as an existential, as a `CodecError` cannot hold one of its own kind inline.
    var cause: (any Error & Sendable)?

    /// Creates an error; an empty key path (the top of a value) counts as none.
    init(_ code: Code, _ reason: String, at location: Location = .unknown, keyPath: String? = nil) {
        self.code = code
        self.reason = reason
        self.location = location
        self.keyPath = keyPath?.isEmpty == true ? nil : keyPath
    }

    /// The position as a diagnostic prefix: `3:17` or `byte 0x1a4`, or `nil` when unknown.
    package var locationDescription: String? {
        location.prefix
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
