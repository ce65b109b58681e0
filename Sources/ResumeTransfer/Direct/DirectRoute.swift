import Foundation
import ResumeDataCodec
#if canImport(Glibc)
import Glibc
#endif

/// Where a request goes when it skips AsyncHTTPClient and is read straight from a socket (see
/// ``DirectReceiver``), or nil when it must not: only plain `http` to a named host or an IPv4
/// address, with a request target free of spaces and control bytes. No I/O, so the tests decide
/// it value by value; whether a proxy rules the direct path out is the
/// caller's part (``DownloadTask``).
///
/// `http` and `https` (TLS through swift-nio-ssl on the receiver's thread, ``DirectTLS``), to a
/// name, an IPv4 address or an IPv6 literal (`[::1]`; one with a zone goes through
/// AsyncHTTPClient).
struct DirectRoute: Equatable, Sendable {
    /// The name or address to resolve (an IPv6 address without its brackets).
    var host: String
    /// The TCP port (80 unless the URL names one).
    var port: Int
    /// The request target: the percent-encoded path (`/` when empty) and query, as
    /// AsyncHTTPClient writes it.
    var target: String
    /// The `Host` header: the host, with the port when it is not the scheme's default.
    var hostHeader: String
    /// `https`: the bytes go through TLS.
    var usesTLS = false

    /// The route for a URL the codec's `HTTPURL` rule accepted (scheme, host and port are its
    /// verdict), or nil for one the direct path does not take (an IPv6 literal with a zone).
    init?(url checked: HTTPURL) {
        // Foundation's parse, kept in the HTTPURL: the one AsyncHTTPClient makes of the URL, so
        // both paths send the same target and the host as written.
        let url = checked.url
        guard let host = url.host, !host.isEmpty, !host.contains(":") || Self.isIPv6Address(host) else { return nil }
        let scheme = checked.scheme
        let defaultPort = scheme == "https" ? 443 : 80
        let port = checked.port
        var target = url.path.isEmpty
            ? "/" : (URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path)
        if target.isEmpty { target = "/" }
        if let query = url.query { target += "?" + query }
        // A target with a space or a control byte would split the request line.
        guard target.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }),
              host.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "/") })
        else { return nil }
        self.host = host
        self.port = port
        self.target = target
        // An IPv6 address goes in brackets, as in the URL (and as AsyncHTTPClient sends it).
        let named = host.contains(":") ? "[\(host)]" : host
        self.hostHeader = port == defaultPort ? named : "\(named):\(port)"
        self.usesTLS = scheme == "https"
    }

    /// A plain IPv6 address (no zone: `%` is refused), as `URL.host` gives it, without brackets.
    private static func isIPv6Address(_ host: String) -> Bool {
        #if canImport(Glibc)
        var address = in6_addr()
        return inet_pton(AF_INET6, host, &address) == 1
        #else
        return false
        #endif
    }
}
