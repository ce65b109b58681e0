import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension DownloadError {
    /// The download's error for what AsyncHTTPClient, NIO or NIOSSL threw: a read timeout is a
    /// stall, a deadline or connect timeout is ``timedOut``, a proxy's refusal and an untrusted
    /// certificate or one for another host name get a message that says what to do, anything else is ``connection(_:)``.
    init(transport error: any Error) {
        if let error = error as? HTTPClientError {
            switch error {
            case .readTimeout:
                self = .stalled
                return
            case .deadlineExceeded, .connectTimeout:
                self = .timedOut
                return
            case .proxyAuthenticationRequired:
                self = .invalidProxy("the proxy asks for credentials (407): give them in its URL, http://USER:PASSWORD@HOST:PORT")
                return
            case .invalidProxyResponse:
                self = .connection("the proxy refused to open a tunnel to the server")
                return
            default: break
            }
        }
        if let error = error as? HTTPParserError, error == .headerOverflow {
            // The client's decoder met its own per-head bound (NIO's default, the same 80 KiB as
            // ResponseHeadLimits) before ResponseHeadGuard saw a head: said in the same words.
            self = .connection(ResponseHeadLimits.Exceeded.headBytes(NIOHTTPDecoderLimitConfiguration().maxHeaderListSize).description)
            return
        }
        if let error = error as? NIOSSLError, case .handshakeFailed(.sslError(let stack)) = error, stack.contains(.eofDuringHandshake) {
            // A close in the middle of the handshake is a connection that broke, retried as
            // one, in the direct path's words.
            self = .connection(Self.closedDuringHandshake)
            return
        }
        if let error = error as? NIOConnectionError {
            if let resolving = error.dnsAError ?? error.dnsAAAAError {
                let reason = (resolving as? SocketAddressError.UnknownHost)?.errorDescription ?? String(describing: resolving)
                self = .cannotResolve(host: error.host, reason: reason)
                return
            }
            self = .connection(Self.connectionMessage(error))
            return
        }
        if let error = error as? IOError {
            self = .connection(Self.systemCallMessage(error.description, errno: error.errnoCode))
            return
        }
        if let error = error as? NIOSSLError, case .handshakeFailed(let reason) = error {
            // BoringSSL's text names a source file of the build; the reason alone is what helps.
            let text = String(describing: reason)
            if text.contains("CERTIFICATE_VERIFY_FAILED") {
                self = .tls("the server's certificate is not trusted (for a private certificate authority, trust it with --cacert FILE)")
                return
            }
            let short = text.range(of: "OPENSSL_internal:").map { text[$0.upperBound...].prefix { $0 != " " } }
            if short == "WRONG_VERSION_NUMBER" {
                // What answers a ClientHello with something that is not TLS, most often an http
                // server at an https URL.
                self = .tls("the server did not answer in TLS (WRONG_VERSION_NUMBER): does it serve http rather than https?")
                return
            }
            self = .tls("handshake failed: \(short.map(String.init) ?? text)")
            return
        }
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            // A certificate for another name (or address) is as final as an untrusted one: a
            // retry meets the same certificate. swift-nio-ssl's text names the name looked for
            // ("<none>" for an address, which it compares with the connected one).
            let text = String(describing: error)
            let name = text.range(of: "Couldn't find ").flatMap { start in
                text.range(of: " in certificate", range: start.upperBound..<text.endIndex).map { String(text[start.upperBound..<$0.lowerBound]) }
            }.flatMap { $0.isEmpty || $0 == "<none>" ? nil : $0 }
            self = .tls("the server's certificate is not valid for \(name ?? "the address connected to") (it was made for another name)")
            return
        }
        self = .connection(String(describing: error))
    }

    /// A name that does not resolve, on either path.
    static func cannotResolve(_ host: String, _ reason: String) -> String {
        "cannot resolve \(host): \(reason)"
    }

    /// A server that cannot be connected to, on either path.
    static func cannotConnect(_ host: String, port: Int, _ reason: String) -> String {
        "connect to \(host) port \(port): \(reason)"
    }

    /// NIO's failed connection (the last address's error; a name that did not resolve is
    /// ``DownloadError/cannotResolve(host:reason:)``) in the direct path's words.
    private static func connectionMessage(_ error: NIOConnectionError) -> String {
        guard let last = error.connectionErrors.last?.error else { return cannotConnect(error.host, port: error.port, "no address") }
        let reason = (last as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? String(describing: last)
        return cannotConnect(error.host, port: error.port, reason)
    }

    /// A server that closed the connection before the TLS handshake ended, on either path.
    static let closedDuringHandshake = "the server closed the connection during the TLS handshake"

    /// A server that closed the connection before the response head ended, on either path.
    static let closedBeforeHead = "the server closed the connection before the response head"

    /// A server that closed the connection in the middle of the body, on either path: `remaining`
    /// bytes short of the length it stated (nil: it stated none).
    static func closedBeforeEnd(remaining: Int64?) -> String {
        guard let remaining else { return "the server closed the connection before the end of the body" }
        return "the server closed the connection \(remaining) bytes before the end of the body"
    }

    /// AsyncHTTPClient's and NIO's ways of saying that the connection closed in the middle of an
    /// answer; the receiver, which knows how far the answer got, says it as the direct path does.
    static func isEarlyClose(_ error: any Error) -> Bool {
        if let error = error as? HTTPClientError, error == .remoteConnectionClosed { return true }
        if let error = error as? HTTPParserError, error == .invalidEOFState { return true }
        return false
    }

    /// NIO's description of a failed system call (`read(descriptor:pointer:size:): Connection
    /// reset by peer) (errno: 104)`) said as the direct path says its own: `receive: Connection
    /// reset by peer`.
    static func systemCallMessage(_ description: String, errno: CInt) -> String {
        var call = description.prefix { $0 != "(" && $0 != ":" }
        while call.last == " " { call = call.dropLast() }
        let verb: Substring
        if call.hasPrefix("read") || call.hasPrefix("recv") {
            verb = "receive"
        } else if call.hasPrefix("write") || call.hasPrefix("send") {
            verb = "send"
        } else if call.hasPrefix("connect") || call == "connection reset" {
            // NIO's words for a connect that failed ("connection reset (error set)").
            verb = "connect"
        } else {
            verb = call.isEmpty ? "system call" : call
        }
        return "\(verb): \(String(cString: strerror(errno)))"
    }

    /// The text of a ``disk(_:)`` error, else the description: what a disk failure reports when
    /// the checkpoint writer or a truncation failed.
    var diskMessage: String {
        if case .disk(let message) = self { return message }
        return self.description
    }
}
