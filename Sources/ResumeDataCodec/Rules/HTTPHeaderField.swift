import Foundation

/// A request header field as a user gives it (`Name: value`): the one rule for the headers this
/// package puts into a request archive or sends, and the one list of the headers that carry
/// credentials.
///
/// A header comes from the command line or from a library caller, and ends up on a request line
/// that a device or the transfer engine sends, so it must not be able to smuggle a second header:
/// - the name is an HTTP token (letters, digits and ``tokenSymbols``), never empty;
/// - the value holds no CR, LF or NUL (blanks at both ends are dropped when parsing a line).
public struct HTTPHeaderField: Sendable, Hashable, CustomStringConvertible {
    /// The name as given; HTTP compares names without regard to case.
    public let name: String
    /// The value.
    public let value: String

    /// The symbols an HTTP token may hold besides letters and digits.
    public static let tokenSymbols = "!#$%&'*+-.^_`|~"

    /// The headers that identify the user: sent, kept or carried over only for the origin
    /// (scheme, host, port) they were given for.
    public static let credentialNames = ["Authorization", "Cookie", "Proxy-Authorization"]

    /// Why a header is not acceptable.
    public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// A line without a colon: the text as given.
        case notNameAndValue(String)
        /// A name that is empty or not an HTTP token.
        case invalidName(String)
        /// A value with CR, LF or NUL: the header's name.
        case lineBreakInValue(name: String)

        /// `'X' is not 'Name: value'`, `'X Y' is not a header name (…)`, `the value of X holds a line break or NUL`.
        public var description: String {
            switch self {
            // Control characters are shown escaped: a CR/LF must not end the line it is printed on.
            case .notNameAndValue(let text): "'\(VisibleText.escaping(text))' is not 'Name: value'"
            case .invalidName(let name): "'\(VisibleText.escaping(name))' is not a header name (letters, digits and \(HTTPHeaderField.tokenSymbols) only)"
            case .lineBreakInValue(let name): "the value of \(name) holds a line break or NUL"
            }
        }
    }

    /// Checks a name and a value against the rule.
    /// - Throws: ``Problem``: `invalidName`, `lineBreakInValue`.
    public init(name: String, value: String) throws(Problem) {
        try Self.checkName(name)
        guard !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else {
            throw .lineBreakInValue(name: name)
        }
        self.name = name
        self.value = value
    }

    /// `NAME: Basic …` for `login` (`USER:PASSWORD`; RFC 7617: in UTF-8, base64), the one
    /// spelling of a Basic login, for `Authorization` and for a proxy's `Proxy-Authorization`.
    /// - Throws: ``Problem/invalidName(_:)`` for a name that is not a token (base64 holds no line break).
    public static func basic(_ name: String, login: String) throws(Problem) -> HTTPHeaderField {
        try HTTPHeaderField(name: name, value: "Basic " + Data(login.utf8).base64EncodedString())
    }

    /// Parses `Name: value`: the name is everything before the first colon, the value everything
    /// after it without the spaces and tabs at both ends.
    /// - Throws: ``Problem``, the first rule the line breaks.
    public init(parsing line: String) throws(Problem) {
        guard let colon = line.firstIndex(of: ":") else { throw .notNameAndValue(line) }
        var value = line[line.index(after: colon)...]
        while let first = value.first, first == " " || first == "\t" { value.removeFirst() }
        while let last = value.last, last == " " || last == "\t" { value.removeLast() }
        try self.init(name: String(line[..<colon]), value: String(value))
    }

    /// Checks a header name alone (one to remove, say).
    /// - Throws: ``Problem/invalidName(_:)``.
    public static func checkName(_ name: String) throws(Problem) {
        guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else { throw .invalidName(name) }
    }

    /// Whether `name` is one of ``credentialNames``, without regard to case.
    public static func isCredential(_ name: String) -> Bool {
        credentialNames.contains { $0.equalsIgnoringASCIICase(name) }
    }

    /// `Name: value`.
    public var description: String { "\(name): \(value)" }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            tokenSymbols.utf8.contains(byte)
        }
    }
}
