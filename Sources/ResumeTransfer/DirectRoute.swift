import Foundation

/// Where a request goes when it skips AsyncHTTPClient and is read straight from a socket (see
/// ``DirectReceiver``), or nil when it must not: only plain `http` to a named host or an IPv4
/// address, with a request target free of spaces and control bytes. No I/O, so the tests decide
/// it value by value; whether a proxy or several connections rule the direct path out is the
/// caller's part (``DownloadTask``).
///
/// `http` and `https` (TLS through swift-nio-ssl on the receiver's thread, ``DirectTLS``); IPv6
/// literals go through AsyncHTTPClient: the direct path exists for the one case where the body
/// is the cost (a large file), and keeps nothing it does not need.
struct DirectRoute: Equatable, Sendable {
    /// The name or address to resolve.
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

    init?(url text: String) {
        // The same parse AsyncHTTPClient makes of the URL, so both paths send the same target.
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty, !host.contains(":")
        else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = url.port ?? defaultPort
        guard (1...65_535).contains(port) else { return nil }
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
        self.hostHeader = port == defaultPort ? host : "\(host):\(port)"
        self.usesTLS = scheme == "https"
    }
}
