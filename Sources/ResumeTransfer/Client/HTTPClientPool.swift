import AsyncHTTPClient
import NIOCore
import NIOSSL
import ResumeDataCodec
import Synchronization

/// The HTTP clients of one ``Downloader``: one per proxy a request needs (AsyncHTTPClient sets
/// the proxy per client, and `NO_PROXY` or the scheme can route two requests of one download,
/// across a redirect, differently). The direct client is made at once; the others on first use.
final class HTTPClientPool: Sendable {
    private let base: HTTPClient.Configuration
    private let proxy: ProxySettings
    private let clients: Mutex<[ProxySettings.Server?: HTTPClient]>
    private let isShutDown = Atomic<Bool>(false)
    /// The direct path's TLS context, made on first use from the clients' own TLS settings;
    /// `.some(nil)` when they cannot be loaded (the client path then reports why).
    private let directTLS = Mutex<NIOSSLContext??>(nil)

    init(configuration: HTTPClient.Configuration, proxy: ProxySettings) {
        self.base = configuration
        self.proxy = proxy
        self.clients = Mutex([nil: HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)])
    }

    /// The client for a request to `url`, by ``ProxySettings/server(for:)``.
    func client(for url: HTTPURL) -> HTTPClient {
        let server = self.proxy.server(for: url)
        return self.clients.withLock { clients in
            if let client = clients[server] { return client }
            var configuration = self.base
            configuration.proxy = server.map(Self.proxy)
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            clients[server] = client
            return client
        }
    }

    /// The TLS context of an `https` download on the direct path (``DirectTLS``): the clients'
    /// configuration (trust roots, `--cacert`, `--insecure`) and their ALPN (HTTP/1.1 only), made
    /// once, since loading the system's trust roots is not free.
    func directTLSContext() -> NIOSSLContext? {
        self.directTLS.withLock { cached in
            if let cached { return cached }
            // The clients' own configuration (``TLSClientSettings``): ALPN and all.
            let configuration = self.base.tlsConfiguration ?? TLSClientSettings.configuration(certificateAuthorityFile: nil, acceptsAnyCertificate: false)
            let context = try? NIOSSLContext(configuration: configuration)
            cached = .some(context)
            return context
        }
    }

    /// A downloader dropped without ``shutdown()``: AsyncHTTPClient traps (in debug builds) on a
    /// client released while running, and a library must not end its host process for a
    /// forgotten call. Each client is shut down in the background instead; it keeps itself alive
    /// until that is done.
    deinit {
        guard !self.isShutDown.load(ordering: .acquiring) else { return }
        for client in self.clients.withLock({ Array($0.values) }) {
            _ = client.shutdown()
        }
    }

    /// Whether ``shutdown()`` was called.
    var hasShutDown: Bool { self.isShutDown.load(ordering: .acquiring) }

    /// Shuts every client down, once.
    func shutdown() async throws {
        guard !self.isShutDown.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let all = self.clients.withLock { Array($0.values) }
        var failure: (any Error)?
        for client in all {
            do { try await client.shutdown() } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }

    static func proxy(_ server: ProxySettings.Server) -> HTTPClient.Configuration.Proxy {
        switch server.kind {
        case .socks5:
            return .socksServer(host: server.host, port: server.port)
        case .http:
            let authorization = server.username.map { HTTPClient.Authorization.basic(username: $0, password: server.password ?? "") }
            return .server(host: server.host, port: server.port, authorization: authorization)
        }
    }
}
