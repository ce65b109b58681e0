import ResumeTransfer

/// A `-H 'Name: value'` argument, checked as curl would not: a name must be an HTTP token and a
/// value may not hold CR, LF or NUL, so no argument can smuggle a second header or a request line.
enum HeaderArgument {
    /// The field, or why the text is not one.
    static func parse(_ text: String) -> Result<HTTPField, HeaderError> {
        guard let colon = text.firstIndex(of: ":") else { return .failure(HeaderError("'\(text)' is not 'Name: value'")) }
        let name = String(text[..<colon])
        let value = String(text[text.index(after: colon)...]).trimmingLeadingAndTrailingBlanks()
        guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else {
            return .failure(HeaderError("'\(name)' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)"))
        }
        guard !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else {
            return .failure(HeaderError("the value of \(name) holds a line break or NUL"))
        }
        return .success(HTTPField(name: name, value: value))
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

/// Why a `-H` argument was refused.
struct HeaderError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension String {
    /// Without the spaces and tabs at both ends (what HTTP calls optional whitespace).
    func trimmingLeadingAndTrailingBlanks() -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = self.firstIndex(where: { !blank($0) }), let last = self.lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[first...last])
    }
}
