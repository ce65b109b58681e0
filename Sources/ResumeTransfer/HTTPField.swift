/// One request or response header, in the order it was sent.
public struct HTTPField: Hashable, Sendable {
    /// The header name as written; compared case-insensitively by lookups.
    public var name: String
    /// The header value.
    public var value: String

    /// Creates a header field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension [HTTPField] {
    /// The first value of the header `name`, compared case-insensitively.
    func value(of name: String) -> String? {
        let wanted = name.lowercased()
        return self.first { $0.name.lowercased() == wanted }?.value
    }
}
