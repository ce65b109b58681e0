import Foundation
import ResumeDataCodec

/// Which proxy, if any, a request goes through: curl's rules, decided without I/O.
///
/// ```swift
/// var configuration = DownloadConfiguration()
/// configuration.proxy = try ProxySettings(environment: ProcessInfo.processInfo.environment)
/// configuration.proxy = try ProxySettings(proxy: "http://user:secret@proxy.lan:3128", noProxy: "localhost,.lan")
/// ```
///
/// An http proxy carries both http and https downloads through a `CONNECT` tunnel (AsyncHTTPClient
/// tunnels plain http too), so the proxy sees the host and port but not the bytes of an https
/// download. Credentials in the proxy's URL go to the proxy only, in `Proxy-Authorization`.
public struct ProxySettings: Sendable, Hashable {
    /// A proxy server.
    public struct Server: Sendable, Hashable, CustomStringConvertible {
        /// How the proxy is spoken to.
        public enum Kind: String, Sendable, Hashable {
            /// An HTTP proxy, through `CONNECT`.
            case http
            /// A SOCKS5 proxy (no authentication; the host name is passed to the proxy).
            case socks5
        }

        /// How the proxy is spoken to.
        public var kind: Kind
        /// Its host name or address (an IPv6 address without brackets).
        public var host: String
        /// Its port; 1080 when the URL names none, as curl.
        public var port: Int
        /// User name for `Proxy-Authorization: Basic` (http proxies only), percent-decoded.
        public var username: String?
        /// Password for `Proxy-Authorization: Basic`, percent-decoded.
        public var password: String?

        /// A proxy given by its parts.
        public init(kind: Kind, host: String, port: Int, username: String? = nil, password: String? = nil) {
            self.kind = kind
            self.host = host
            self.port = port
            self.username = username
            self.password = password
        }

        /// Reads a proxy URL as curl does: `[scheme://][user:password@]host[:port]`, scheme `http`
        /// (the default), `socks5` or `socks5h`.
        /// - Throws: ``TransferError/invalidProxy(_:)`` naming what is wrong; never echoes the password.
        public init(parsing text: String) throws(TransferError) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            let withScheme = trimmed.contains("://") ? trimmed : "http://" + trimmed
            guard let components = URLComponents(string: withScheme), let scheme = components.scheme?.lowercased() else {
                throw .invalidProxy("\(Self.redacted(text)) is not a proxy URL")
            }
            switch scheme {
            case "http": self.kind = .http
            case "socks5", "socks5h": self.kind = .socks5
            case "https": throw .invalidProxy("\(Self.redacted(text)): TLS to the proxy itself (https://) is not supported; use http://")
            default: throw .invalidProxy("\(Self.redacted(text)): unsupported proxy scheme \(scheme) (http, socks5 or socks5h)")
            }
            guard let host = components.host, !host.isEmpty else {
                throw .invalidProxy("\(Self.redacted(text)) names no host")
            }
            // URLComponents keeps the brackets of an IPv6 literal; a socket address has none.
            self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            let port = components.port ?? 1080
            guard (1 ... 65535).contains(port) else {
                throw .invalidProxy("\(Self.redacted(text)): port \(port) is not 1 to 65535")
            }
            self.port = port
            guard components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil else {
                throw .invalidProxy("\(Self.redacted(text)): a proxy URL has no path, query or fragment")
            }
            self.username = components.user.map { $0.removingPercentEncoding ?? $0 }
            self.password = components.password.map { $0.removingPercentEncoding ?? $0 }
            if self.kind == .socks5, self.username != nil {
                throw .invalidProxy("\(Self.redacted(text)): SOCKS5 with a user name and password is not supported")
            }
        }

        /// `http://proxy.lan:3128`, with the credentials left out.
        public var description: String {
            let shownHost = host.contains(":") ? "[\(host)]" : host
            return "\(kind.rawValue)://\(username == nil ? "" : "***@")\(shownHost):\(port)"
        }

        /// The URL as given, with any password replaced by `***`, for messages.
        static func redacted(_ text: String) -> String {
            guard let at = text.lastIndex(of: "@") else { return text }
            let start = text.range(of: "://")?.upperBound ?? text.startIndex
            guard start <= at else { return text }
            return String(text[..<start]) + "***" + String(text[at...])
        }
    }

    /// The proxy for `http://` URLs.
    public var http: Server?
    /// The proxy for `https://` URLs.
    public var https: Server?
    /// Hosts reached directly (curl's `NO_PROXY`): `*` for all; a name matches itself and every
    /// name under it (`example.com` and `.example.com` both match `a.example.com`); an IP address
    /// matches itself; an IPv4 block `10.0.0.0/8` matches the addresses in it.
    public var noProxy: [String]

    /// No proxy at all (the library's default: it reads no environment by itself).
    public init() {
        self.http = nil
        self.https = nil
        self.noProxy = []
    }

    /// One proxy for every download (curl's `--proxy`), except the hosts in `noProxy`
    /// (comma-separated). An empty `proxy` means none, as in curl.
    /// - Throws: ``TransferError/invalidProxy(_:)``.
    public init(proxy: String, noProxy: String = "") throws(TransferError) {
        let server = proxy.trimmingCharacters(in: .whitespaces).isEmpty ? nil : try Server(parsing: proxy)
        self.http = server
        self.https = server
        self.noProxy = Self.noProxyList(noProxy)
    }

    /// The settings curl takes from the environment: `http_proxy` (lowercase only: a web server
    /// sets `HTTP_PROXY` from a request's `Proxy:` header, the "httpoxy" hole), `https_proxy` or
    /// `HTTPS_PROXY`, then `all_proxy` or `ALL_PROXY` for either, and `no_proxy` or `NO_PROXY`.
    /// Empty values count as unset.
    /// - Throws: ``TransferError/invalidProxy(_:)`` naming the variable.
    public init(environment: [String: String]) throws(TransferError) {
        func server(_ names: String...) throws(TransferError) -> Server? {
            guard let found = Self.firstSet(names, in: environment) else { return nil }
            do {
                return try Server(parsing: found.value)
            } catch {
                throw .invalidProxy("\(found.name): \(error.proxyMessage)")
            }
        }
        self.http = try server("http_proxy", "all_proxy", "ALL_PROXY")
        self.https = try server("https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY")
        self.noProxy = Self.noProxyList(environment: environment)
    }

    /// A `NO_PROXY` value split as curl splits it: at commas and blanks, empty entries dropped.
    public static func noProxyList(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init)
    }

    /// The hosts `no_proxy`, or else `NO_PROXY`, lists; a blank value counts as unset, as in
    /// ``init(environment:)``. For a caller that takes the proxy from elsewhere (curl's
    /// `--proxy`) but still honours the environment's exceptions.
    public static func noProxyList(environment: [String: String]) -> [String] {
        firstSet(["no_proxy", "NO_PROXY"], in: environment).map { noProxyList($0.value) } ?? []
    }

    /// The first of `names` the environment sets to something other than blanks: curl's rule,
    /// for the proxies and for `no_proxy` alike.
    private static func firstSet(_ names: [String], in environment: [String: String]) -> (name: String, value: String)? {
        for name in names {
            if let value = environment[name], !value.trimmingCharacters(in: .whitespaces).isEmpty { return (name, value) }
        }
        return nil
    }

    /// The proxy a request to `url` goes through, or `nil` for a direct connection.
    public func server(for url: HTTPURL) -> Server? {
        let server = url.scheme == "https" ? self.https : self.http
        guard let server, !self.bypasses(host: url.host) else { return nil }
        return server
    }

    /// ``server(for:)-(HTTPURL)`` for a URL given as text; `nil` for text that `HTTPURL`'s rule
    /// refuses (no request goes there).
    public func server(for url: String) -> Server? {
        HTTPURL(url).flatMap { self.server(for: $0) }
    }

    /// Whether `host` (lowercase, an IPv6 address in brackets as URLs write it) is in ``noProxy``.
    func bypasses(host rawHost: String) -> Bool {
        let host = Self.bare(rawHost.lowercased())
        let address = IPv4Address(host)
        for rawEntry in self.noProxy {
            let entry = rawEntry.lowercased()
            if entry == "*" { return true }
            if let slash = entry.firstIndex(of: "/") {
                if let address, let block = IPv4Address(String(entry[..<slash])),
                   let bits = Int(entry[entry.index(after: slash)...]), (0 ... 32).contains(bits),
                   address.value >> (32 - bits) == block.value >> (32 - bits) || bits == 0 {
                    return true
                }
                continue
            }
            var name = Self.bare(entry)
            if name.hasPrefix(".") { name.removeFirst() }
            while name.hasSuffix(".") { name.removeLast() }
            guard !name.isEmpty else { continue }
            let trimmedHost = host.hasSuffix(".") ? String(host.dropLast()) : host
            if trimmedHost == name || (address == nil && trimmedHost.hasSuffix("." + name)) { return true }
        }
        return false
    }

    private static func bare(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// A dotted IPv4 address, for `NO_PROXY` blocks; hand-written because Foundation on Linux
    /// has no address parser, and inet_pton would be the only I/O-free C call in this file.
    struct IPv4Address {
        var value: UInt32

        init?(_ text: String) {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 4 else { return nil }
            var value: UInt32 = 0
            for part in parts {
                guard (1 ... 3).contains(part.count), part.allSatisfy(\.isASCII), let byte = UInt8(part) else { return nil }
                value = value << 8 | UInt32(byte)
            }
            self.value = value
        }
    }
}

extension TransferError {
    /// The message of an ``invalidProxy(_:)``, for wrapping with the variable's name.
    var proxyMessage: String {
        if case .invalidProxy(let message) = self { return message }
        return description
    }
}
