import NIOHTTP1
import ResumeDataCodec

/// The request head the engine's own HTTP/1.1 framing sends (a download on the direct path, and
/// every request of an upload), built here alone so that they treat a caller's fields alike.
///
/// `Host` is the caller's when given (curl's habit: a name-based virtual host behind an address)
/// and the URL's otherwise, first; then the caller's fields, less those the framing or the
/// engine decides; then the engine's own; then the body's length and `Connection: close` (one
/// request per connection: an interruption is always a whole request lost). Which credentials a
/// caller's fields may carry to this origin is ``TrustPolicy``'s, decided before.
enum RequestHeadBuilder {
    /// Fields only the framing writes.
    static let framingFields: Set<String> = ["content-length", "transfer-encoding", "connection", "expect"]

    static func head(
        method: String, route: DirectRoute, caller: [HTTPHeaderField], engine: [HTTPHeaderField] = [], bodyLength: Int64? = nil
    ) -> HTTPRequestHead {
        var headers = HTTPHeaders()
        let decided = Self.framingFields.union(engine.map { $0.name.lowercased() })
        if let host = caller.first(where: { $0.name.lowercased() == "host" }) {
            headers.add(name: "Host", value: host.value)
        } else {
            headers.add(name: "Host", value: route.hostHeader)
        }
        for field in caller where field.name.lowercased() != "host" && !decided.contains(field.name.lowercased()) {
            headers.add(name: field.name, value: field.value)
        }
        for field in engine { headers.add(name: field.name, value: field.value) }
        if let bodyLength { headers.add(name: "Content-Length", value: String(bodyLength)) }
        headers.add(name: "Connection", value: "close")
        return HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: route.target, headers: headers)
    }
}
