import AsyncHTTPClient
import NIOHTTP1
import NIOSSL
import ResumeDataCodec

/// How a download's connections open: the one answer to "the direct path or AsyncHTTPClient?",
/// given once for a request (``choose(for:configuration:settings:clients:)``) and carried out
/// for its first response and for every segment after it, so that all the connections of a
/// download take the same path.
///
/// The direct path (``DirectReceiver``: a thread and a socket of its own per connection) takes
/// every http and https request it can route; AsyncHTTPClient's receivers stay for what it does
/// not take (a proxy on the route, an IPv6 address with a zone, a system without it).
enum ConnectionOpener: Sendable {
    /// Through AsyncHTTPClient, on `client`.
    case client(HTTPClient, ResponseReceiver.Settings)
    #if os(Linux)
    /// On the direct path, with the download's settings (timeouts, bounds, TLS, the one rate
    /// limit of the download).
    case direct(DirectReceiver.Settings)
    #endif

    /// The direct path's route for `plan`, or nil when the request goes through AsyncHTTPClient:
    /// the direct path turned off, a proxy on the route (``ProxySettings/server(for:)``), a URL
    /// the direct path does not take (``DirectRoute``), or a header it cannot send (AsyncHTTPClient
    /// then reports it). No I/O: the tests decide it value by value.
    static func directRoute(for plan: RequestPlan, usesDirectPath: Bool, proxy: ProxySettings) -> DirectRoute? {
        guard usesDirectPath, proxy.server(for: plan.url) == nil, let route = DirectRoute(url: plan.url),
              (try? HTTP1Framing())?.request(route, headers: plan.headers) != nil
        else { return nil }
        return route
    }

    /// The path for a request to `plan`: direct where ``directRoute(for:usesDirectPath:proxy:)``
    /// gives a route (on Linux, and for https only with the clients' TLS context; when that
    /// cannot be loaded, AsyncHTTPClient says why), else the client for the request's proxy.
    static func choose(
        for plan: RequestPlan, configuration: DownloadConfiguration, settings: ResponseReceiver.Settings, clients: HTTPClientPool
    ) -> ConnectionOpener {
        #if os(Linux)
        if let route = Self.directRoute(for: plan, usesDirectPath: configuration.usesDirectPath, proxy: configuration.proxy) {
            let tls: NIOSSLContext? = route.usesTLS ? clients.directTLSContext() : nil
            if !route.usesTLS || tls != nil {
                return .direct(DirectReceiver.Settings(
                    connectTimeout: configuration.connectTimeout, responseTimeout: configuration.responseTimeout,
                    stallTimeout: configuration.stallTimeout, batchBytes: settings.batchBytes, rateLimit: settings.rateLimit,
                    headLimits: configuration.responseHeadLimits, tls: tls))
            }
        }
        #endif
        // The client for this request's proxy route (ProxySettings decides per URL).
        return .client(clients.client(for: plan.url), settings)
    }

    /// Sends `request` for connection `tag` (0: the first response), its events to `events`;
    /// the error when it cannot be sent (a URL or a header the path cannot carry, no descriptor
    /// for the connection), which counts as a failed connection.
    func open(
        _ request: RequestPlan, tag: Int, part: PartialFile, events: ResponseEvent.Queue
    ) -> Result<any SegmentReceiver, TransferError> {
        switch self {
        case .client(let client, let settings):
            var headers = HTTPHeaders()
            for field in request.headers { headers.add(name: field.name, value: field.value) }
            let sent: HTTPClient.Request
            do {
                sent = try HTTPClient.Request(url: request.url.url, method: .GET, headers: headers)
            } catch {
                return .failure(TransferError(transport: error))
            }
            let receiver = ResponseReceiver(eventLoop: client.eventLoopGroup.next(), tag: tag, part: part, settings: settings, events: events)
            // The connection and the receiver share one event loop, so no body buffer changes
            // thread before it is gathered into a batch.
            receiver.attach(client.execute(request: sent, delegate: receiver, eventLoop: .delegateAndChannel(on: receiver.eventLoop)))
            return .success(receiver)
        #if os(Linux)
        case .direct(let settings):
            // A segment has its first response's URL, so its route; checked again all the same.
            guard let route = DirectRoute(url: request.url), (try? HTTP1Framing())?.request(route, headers: request.headers) != nil else {
                return .failure(.connection(.other("internal: a request the direct path cannot send (\(request.url.url.absoluteString))")))
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
