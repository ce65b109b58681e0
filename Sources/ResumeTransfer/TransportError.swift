import AsyncHTTPClient
import NIOHTTP1
import NIOSSL

extension DownloadError {
    /// The download's error for what AsyncHTTPClient, NIO or NIOSSL threw: a read timeout is a
    /// stall, a deadline or connect timeout is ``timedOut``, a proxy's refusal and an untrusted
    /// certificate get a message that says what to do, anything else is ``connection(_:)``.
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
        if let error = error as? NIOSSLError, case .handshakeFailed(let reason) = error {
            // BoringSSL's text names a source file of the build; the reason alone is what helps.
            let text = String(describing: reason)
            if text.contains("CERTIFICATE_VERIFY_FAILED") {
                self = .tls("the server's certificate is not trusted (for a private certificate authority, trust it with --cacert FILE)")
                return
            }
            let short = text.range(of: "OPENSSL_internal:").map { text[$0.upperBound...].prefix { $0 != " " } }
            self = .tls("handshake failed: \(short.map(String.init) ?? text)")
            return
        }
        self = .connection(String(describing: error))
    }

    /// The text of a ``disk(_:)`` error, else the description: what a disk failure reports when
    /// the checkpoint writer or a truncation failed.
    var diskMessage: String {
        if case .disk(let message) = self { return message }
        return self.description
    }
}
