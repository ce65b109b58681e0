import AsyncHTTPClient
import NIOCore
import NIOExtras
import NIOSOCKS
import NIOHTTP1
import NIOPosix
import NIOSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension TransferError {
    /// The download's error for what AsyncHTTPClient, NIO or NIOSSL threw: a read timeout is a
    /// stall, a deadline or connect timeout is ``timedOut``, a proxy's refusal and an untrusted
    /// certificate or one for another host name get a message that says what to do, anything
    /// else is ``connection(_:)`` with the ``TransportFailure`` the direct path reports for it.
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
                self = .proxyWantsCredentials
                return
            case .invalidProxyResponse:
                self = .connection(.proxyRefusedTunnel)
                return
            default: break
            }
        }
        if let error = error as? NIOHTTP1ProxyConnectHandler.Error {
            // An upload's own tunnel (ProxyTunnel), in a download's words.
            // Its errors compare by kind, not by where they were made.
            if error == .proxyAuthenticationRequired() {
                self = .proxyWantsCredentials
            } else if error == .httpProxyHandshakeTimeout() {
                self = .timedOut
            } else {
                self = .connection(.proxyRefusedTunnel)
            }
            return
        }
        if let error = error as? ProxyTunnel.Failure {
            self = error == .timedOut ? .timedOut : .connection(.proxyRefusedTunnel)
            return
        }
        if Self.isSOCKSError(error) {
            // A SOCKS proxy that could not reach the server, or broke its protocol.
            self = .connection(.proxyRefusedTunnel)
            return
        }
        if let error = error as? HTTPParserError, error == .headerOverflow {
            // The client's decoder met its own per-head bound (NIO's default, the same 80 KiB as
            // ResponseHeadLimits) before ResponseHeadGuard saw a head: said in the same words.
            self = .connection(.invalidResponse(
                ResponseHeadLimits.Exceeded.headBytes(NIOHTTPDecoderLimitConfiguration().maxHeaderListSize).description))
            return
        }
        if let exceeded = error as? ResponseHeadLimits.Exceeded {
            // ResponseHeadGuard's verdict: the direct path's reader reports the same bound so.
            self = .connection(.invalidResponse(exceeded.description))
            return
        }
        if let error = error as? HTTPParserError {
            // An answer the decoder cannot read, as the direct path's reader reports one.
            self = .connection(.invalidResponse(String(describing: error)))
            return
        }
        if let error = error as? NIOSSLError, case .handshakeFailed(.sslError(let stack)) = error, stack.contains(.eofDuringHandshake) {
            // A close in the middle of the handshake is a connection that broke, retried as
            // one, in the direct path's words.
            self = .connection(.closedDuringHandshake)
            return
        }
        if let error = error as? NIOConnectionError {
            if let resolving = error.dnsAError ?? error.dnsAAAAError {
                let reason = (resolving as? SocketAddressError.UnknownHost)?.errorDescription ?? String(describing: resolving)
                self = .cannotResolve(host: error.host, reason: reason)
                return
            }
            self = .connection(Self.connectionFailure(error))
            return
        }
        if let error = error as? IOError {
            self = .connection(Self.systemCallFailure(error.description, errno: error.errnoCode))
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
        self = .connection(.other(String(describing: error)))
    }

    /// NIO's failed connection (the last address's error; a name that did not resolve is
    /// ``TransferError/cannotResolve(host:reason:)``) as the direct path reports it.
    private static func connectionFailure(_ error: NIOConnectionError) -> TransportFailure {
        guard let last = error.connectionErrors.last?.error else { return .cannotConnect(host: error.host, port: error.port, reason: "no address") }
        let reason = (last as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? String(describing: last)
        return .cannotConnect(host: error.host, port: error.port, reason: reason)
    }

    /// AsyncHTTPClient's and NIO's ways of saying that the connection closed in the middle of an
    /// answer; the receiver, which knows how far the answer got, says it as the direct path does.
    static func isEarlyClose(_ error: any Error) -> Bool {
        if let error = error as? HTTPClientError, error == .remoteConnectionClosed { return true }
        if let error = error as? HTTPParserError, error == .invalidEOFState { return true }
        return false
    }

    /// NIO's description of a failed system call (`read(descriptor:pointer:size:): Connection
    /// reset by peer) (errno: 104)`) as the direct path reports its own: a `receive` that failed
    /// with `Connection reset by peer`.
    static func systemCallFailure(_ description: String, errno: CInt) -> TransportFailure {
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
        return .systemCall(String(verb), reason: String(cString: strerror(errno)))
    }

    /// The text of a ``disk(_:)`` error, else the description: what a disk failure reports when
    /// the checkpoint writer or a truncation failed.
    var diskMessage: String {
        if case .disk(let message) = self { return message }
        return self.description
    }

    /// NIOSOCKS's errors: one type each, under the `SOCKSError` namespace.
    private static func isSOCKSError(_ error: any Error) -> Bool {
        error is SOCKSError.ConnectionFailed || error is SOCKSError.NoValidAuthenticationMethod
            || error is SOCKSError.InvalidAuthenticationSelection || error is SOCKSError.InvalidProtocolVersion
            || error is SOCKSError.InvalidReservedByte || error is SOCKSError.InvalidAddressType
            || error is SOCKSError.InvalidServerState || error is SOCKSError.InvalidClientState || error is SOCKSError.UnexpectedRead
    }
}
