import Foundation

/// An absolute http or https URL with a host: the one rule for which URLs this package downloads,
/// rebuilds a blob for, edits a blob to, or passes in `validate`.
///
/// A URL comes from the command line, a list file, a blob or a server's `Location` header, all
/// of them untrusted. It must:
/// - hold no control character (CR, LF, NUL, TAB or any other below 0x20, and DEL): a CR/LF in a
///   URL must never reach a request line or a log; nor a space, which no URL holds unescaped
///   (Foundation on Linux accepts one in a path);
/// - parse as a URL (Foundation's `URLComponents`, and `URL`, which the HTTP client parses with);
/// - have the scheme `http` or `https` (any case);
/// - have a host, and a port from 1 to 65535 when it names one.
public struct HTTPURL: Sendable, Hashable, CustomStringConvertible {
    /// The URL as given.
    public let string: String
    /// `http` or `https`, in lower case.
    public let scheme: String
    /// The host, in lower case (an IPv6 literal in its brackets, as Foundation gives it).
    public let host: String
    /// The port named in the URL, else 80 for http and 443 for https.
    public let port: Int
    /// The URL as Foundation parses it.
    public let url: URL

    /// Why a string is not an ``HTTPURL``.
    public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// A byte below 0x20, or DEL, at this UTF-8 offset.
        case controlCharacter(offset: Int)
        /// An unescaped space at this UTF-8 offset.
        case space(offset: Int)
        /// Not a URL at all (a space, a bad percent escape, a bad IPv6 literal…).
        case malformed
        /// No scheme: a relative reference, or a bare path.
        case notAbsolute
        /// A scheme other than http and https (in lower case).
        case unsupportedScheme(String)
        /// `http://` or `http:/path`: nothing names a server.
        case noHost
        /// A port of 0 or above 65535.
        case invalidPort

        /// The reason, to follow "… is not an absolute http or https URL: ".
        public var description: String {
            switch self {
            case .controlCharacter(let offset): "it holds a control character at byte \(offset)"
            case .space(let offset): "it holds a space at byte \(offset)"
            case .malformed: "it is not a valid URL"
            case .notAbsolute: "it has no scheme"
            case .unsupportedScheme(let scheme): "its scheme is \"\(scheme)\""
            case .noHost: "it names no host"
            case .invalidPort: "its port is not from 1 to 65535"
            }
        }
    }

    /// Checks `string` against the rule.
    /// - Throws: ``Problem``, the first rule it breaks.
    public init(validating string: String) throws(Problem) {
        if let index = string.utf8.firstIndex(where: { $0 <= 0x20 || $0 == 0x7F }) {
            let offset = string.utf8.distance(from: string.utf8.startIndex, to: index)
            throw string.utf8[index] == 0x20 ? .space(offset: offset) : .controlCharacter(offset: offset)
        }
        guard let components = URLComponents(string: string), let url = URL(string: string) else { throw .malformed }
        guard let scheme = components.scheme?.lowercased() else { throw .notAbsolute }
        guard scheme == "http" || scheme == "https" else { throw .unsupportedScheme(scheme) }
        guard let host = components.host, !host.isEmpty else { throw .noHost }
        if let port = components.port, !(1...65_535).contains(port) { throw .invalidPort }
        self.string = string
        self.url = url
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = components.port ?? (scheme == "https" ? 443 : 80)
    }

    /// The URL, or `nil` when `string` breaks the rule.
    public init?(_ string: String) {
        guard let url = try? HTTPURL(validating: string) else { return nil }
        self = url
    }

    /// The whole message for a string that breaks the rule: `"ftp://x" is not an absolute http or
    /// https URL: its scheme is "ftp"`, with control characters shown escaped.
    public static func message(for string: String, _ problem: Problem) -> String {
        "\"\(VisibleText.escaping(string))\" is not an absolute http or https URL: \(problem)"
    }

    /// ``message(for:_:)`` when `string` breaks the rule, else `nil`.
    public static func problemMessage(for string: String) -> String? {
        do {
            _ = try HTTPURL(validating: string)
            return nil
        } catch {
            return message(for: string, error)
        }
    }

    /// Whether `other` has the same origin (scheme, host and port): what must stay the same for
    /// credentials to go with a request.
    public func hasSameOrigin(as other: HTTPURL) -> Bool {
        scheme == other.scheme && host == other.host && port == other.port
    }

    /// The URL as a log or a line of progress shows it: a password in its user information
    /// replaced by `***`, the user kept, as curl keeps passwords out of what it prints. A
    /// transcript of a transfer is pasted into bug reports; the URL given is still what is
    /// requested and what a checkpoint records.
    public var shown: String {
        let bytes = Array(string.utf8)
        guard let separator = bytes.firstRange(of: Array("://".utf8)) else { return string }
        let authorityStart = separator.upperBound
        let authorityEnd = bytes[authorityStart...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        guard let at = bytes[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")),
              let colon = bytes[authorityStart..<at].firstIndex(of: UInt8(ascii: ":")) else { return string }
        return String(decoding: bytes[..<(colon + 1)] + Array("***".utf8) + bytes[at...], as: UTF8.self)
    }

    /// The user information as `USER:PASSWORD`, percent-escapes decoded, as curl sends it for
    /// Basic authorization; nil when the URL names no user.
    public var login: String? {
        guard let components = URLComponents(string: string), let user = components.user else { return nil }
        return user + ":" + (components.password ?? "")
    }

    /// `scheme://host:port`, the origin as people read it.
    public var origin: String { "\(scheme)://\(host):\(port)" }

    /// The URL as given.
    public var description: String { string }
}
