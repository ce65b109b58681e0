/// How a connection failed, in the same terms whichever transport carried the request
/// (AsyncHTTPClient or the direct path), so a caller can tell a refused connection from a cut
/// body without reading words; ``description`` is the one place they are put into words.
public enum TransportFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// No address of `host` accepted a connection at `port`; `reason` is the last one's.
    case cannotConnect(host: String, port: Int, reason: String)
    /// A system call on the connection failed: `call` says what it was doing (`connect`,
    /// `send`, `receive`, `poll`), `reason` why, in the system's words.
    case systemCall(String, reason: String)
    /// The server closed the connection before the TLS handshake ended.
    case closedDuringHandshake
    /// The server closed the connection before the response head ended.
    case closedBeforeHead
    /// The server closed the connection in the middle of the body, `remaining` bytes short of
    /// the length it stated (nil: it stated none).
    case closedBeforeEnd(remaining: Int64?)
    /// The server closed a TLS connection without ending TLS (`close_notify`) while its body was
    /// delimited by the close, so its end cannot be told from a cut.
    case closedWithoutTLSEnd
    /// The proxy refused to open a tunnel (`CONNECT`) to the server.
    case proxyRefusedTunnel
    /// The answer is not HTTP/1.1 as the engine reads it, or breaks one of the response-head
    /// bounds: the words say which.
    case invalidResponse(String)
    /// Anything else, in the words of whatever failed.
    case other(String)

    /// The failure in words, as both transports report it.
    public var description: String {
        switch self {
        case .cannotConnect(let host, let port, let reason): "connect to \(host) port \(port): \(reason)"
        case .systemCall(let call, let reason): "\(call): \(reason)"
        case .closedDuringHandshake: "the server closed the connection during the TLS handshake"
        case .closedBeforeHead: "the server closed the connection before the response head"
        case .closedBeforeEnd(nil): "the server closed the connection before the end of the body"
        case .closedBeforeEnd(let remaining?): "the server closed the connection \(remaining) bytes before the end of the body"
        case .closedWithoutTLSEnd: "the server closed the connection without ending TLS (close_notify): the body may be cut short"
        case .proxyRefusedTunnel: "the proxy refused to open a tunnel to the server"
        case .invalidResponse(let text), .other(let text): text
        }
    }
}
