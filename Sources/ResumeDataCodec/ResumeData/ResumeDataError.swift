/// Why a resume blob could not be read or written.
///
/// Errors compare equal when their ``code`` is equal. ``description`` reads like a diagnostic:
/// `byte 0x1a4: object 12: …`, `3:17: …`, or `NSURLSessionResumeCurrentRequest: $objects[3]: …`.
public struct ResumeDataError: Error, Hashable, CustomStringConvertible, Sendable {
    /// A stable identifier for the kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The identifier, e.g. `not-a-dictionary`.
        public let name: String
        init(_ name: String) { self.name = name }
        /// The identifier.
        public var description: String { name }

        /// The outer property list could not be parsed.
        public static let unreadable = Code("unreadable")
        /// The blob is the XOR-obscured format of recent Apple systems (spec §6). No longer
        /// thrown: that format is read now; kept so code matching it still compiles.
        public static let obscuredFormat = Code("obscured-format")
        /// The property list (or the archive's root) is not a dictionary.
        public static let notADictionary = Code("not-a-dictionary")
        /// The keyed archive around the dictionary is malformed.
        public static let invalidArchive = Code("invalid-archive")
        /// A request archive inside the blob is malformed.
        public static let invalidRequest = Code("invalid-request")
        /// The archived response inside the blob is malformed.
        public static let invalidResponse = Code("invalid-response")
        /// A value that the chosen container cannot hold.
        public static let unencodable = Code("unencodable")
        /// A partial file to rebuild from is missing or unreadable.
        public static let partialFile = Code("partial-file")
        /// Arguments that cannot make a valid blob (e.g. a URL that is not absolute).
        public static let invalidArgument = Code("invalid-argument")
    }

    /// The kind of failure.
    public var code: Code
    /// What is wrong, for people (includes the key path when one is known).
    public var reason: String
    /// Where in the outer blob, when the failure comes from parsing it.
    public var location: PropertyListError.Location

    /// Creates an error.
    package init(_ code: Code, _ reason: String, at location: PropertyListError.Location = .unknown) {
        self.code = code
        self.reason = reason
        self.location = location
    }

    /// `3:17` or `byte 0x1a4`, when a position is known.
    package var locationDescription: String? {
        PropertyListError(.truncated, "", at: location).locationDescription
    }

    /// The message, with the index of the object being read when known.
    public var message: String {
        if case .byteOffset(_, let objectIndex?) = location { return "object \(objectIndex): \(reason)" }
        return reason
    }

    /// `position: message`, or the message alone.
    public var description: String {
        guard let locationDescription else { return message }
        return "\(locationDescription): \(message)"
    }

    /// Errors are equal when their codes are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    /// Hashes the code, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

extension ResumeDataError {
    /// Wraps a parse failure of the outer blob, keeping its position.
    init(unreadable error: PropertyListError) {
        let reason = error.keyPath.map { "\($0): \(error.reason)" } ?? error.reason
        self.init(.unreadable, reason, at: error.location)
    }
}
