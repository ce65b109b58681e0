import AsyncHTTPClient
import NIOHTTP1

/// How ``SegmentedTransfer`` opens the connection for one more segment: the way the first
/// response came, so that every segment of a download takes the same path.
///
/// The direct path (``DirectReceiver``: a thread and a socket of its own per connection) takes
/// every http and https segment it can route; AsyncHTTPClient's receivers stay for what it does
/// not take (a proxy on the route, an IPv6 address with a zone, a system without it), where the
/// first response came through AsyncHTTPClient too.
enum SegmentOpener: Sendable {
    /// Through AsyncHTTPClient, on `client`.
    case client(HTTPClient, ResponseReceiver.Settings)
    #if os(Linux)
    /// On the direct path, with the first response's settings (timeouts, bounds, TLS, the one
    /// rate limit of the download).
    case direct(DirectReceiver.Settings)
    #endif

    /// Sends `request` for connection `tag`, its events to `events`; the error when it cannot be
    /// sent (a URL or a header the path cannot carry), which counts as a failed connection.
    func open(
        _ request: RequestPlan, tag: Int, part: PartialFile, events: ResponseEvent.Queue
    ) -> Result<any SegmentReceiver, DownloadError> {
        switch self {
        case .client(let client, let settings):
            var headers = HTTPHeaders()
            for field in request.headers { headers.add(name: field.name, value: field.value) }
            let sent: HTTPClient.Request
            do {
                sent = try HTTPClient.Request(url: request.url.url, method: .GET, headers: headers)
            } catch {
                return .failure(DownloadError(transport: error))
            }
            let receiver = ResponseReceiver(eventLoop: client.eventLoopGroup.next(), tag: tag, part: part, settings: settings, events: events)
            // The connection and the receiver share one event loop, as for the first response.
            receiver.attach(client.execute(request: sent, delegate: receiver, eventLoop: .delegateAndChannel(on: receiver.eventLoop)))
            return .success(receiver)
        #if os(Linux)
        case .direct(let settings):
            // The same URL as the first response's, so the same route; checked again all the same.
            guard let route = DirectRoute(url: request.url), (try? HTTP1Framing())?.request(route, headers: request.headers) != nil else {
                return .failure(.connection(.other("internal: a segment request the direct path cannot send (\(request.url.url.absoluteString))")))
            }
            guard let receiver = DirectReceiver(tag: tag, part: part, settings: settings, events: events) else {
                return .failure(.connection(.systemCall("pipe", reason: "no descriptor for the connection's wake pipe")))
            }
            receiver.start(route: route, headers: request.headers)
            return .success(receiver)
        #endif
        }
    }
}
