import Foundation
import NIOCore
import NIOExtras
import NIOHTTP1
import NIOSOCKS
import ResumeDataCodec

/// A tunnel through a proxy to the server, opened on a connection to the proxy before an
/// upload's own handlers are added: an http proxy's `CONNECT` (with `Proxy-Authorization: Basic`
/// when the proxy's URL has credentials), or SOCKS5 (the host name passed to the proxy). Inside
/// it the exchange is the one of a direct connection, TLS to the server included, so the proxy
/// sees the host and port of an https upload, never its bytes.
///
/// AsyncHTTPClient tunnels downloads the same way, but its pipeline cannot carry an upload (it
/// hides the draft's 104s), so the upload opens its own tunnel, with the handlers swift-nio-extras
/// keeps for it (`NIOHTTP1ProxyConnectHandler`, `SOCKSClientHandler`) rather than its own code.
enum ProxyTunnel {
    /// Opens the tunnel on `channel`, connected to `proxy`, to `route`'s host and port, within
    /// `timeout`.
    /// - Throws: what the handlers throw (a refusal, a 407, a timeout), for ``TransferError/init(transport:)``.
    static func open(on channel: any Channel, through proxy: ProxySettings.Server, to route: DirectRoute, timeout: Duration) async throws {
        let promise = channel.eventLoop.makePromise(of: Void.self)
        let deadline = NIODeadline.now() + timeout.timeAmount
        switch proxy.kind {
        case .http:
            let credential = try proxy.username.map { username throws(HTTPHeaderField.Problem) in
                try HTTPHeaderField.basic("Proxy-Authorization", login: "\(username):\(proxy.password ?? "")")
            }
            let headers = HTTPHeaders(credential.map { [($0.name, $0.value)] } ?? [])
            // An IPv6 address goes in brackets in the CONNECT target, as in a URL.
            let host = route.host.contains(":") ? "[\(route.host)]" : route.host
            try await Self.add(on: channel, completing: promise) { sync in
                try sync.addHandler(HTTPRequestEncoder(), name: Self.encoder)
                try sync.addHandler(ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .forwardBytes)), name: Self.decoder)
                try sync.addHandler(NIOHTTP1ProxyConnectHandler(
                    targetHost: host, targetPort: route.port, headers: headers, deadline: deadline, promise: promise))
            }
            try await promise.futureResult.get()
            // The connection is the server's from here: the proxy's HTTP handlers go (the
            // CONNECT handler has removed itself).
            try await channel.pipeline.removeHandler(name: Self.encoder).get()
            try await channel.pipeline.removeHandler(name: Self.decoder).get()
        case .socks5:
            // A name goes to the proxy to resolve (socks5h's way, which SOCKS5 servers take for
            // socks5 too); an IPv6 address as an address, since it is no name.
            let target: SOCKSAddress = if route.host.contains(":"), let address = try? SocketAddress(ipAddress: route.host, port: route.port) {
                .address(address)
            } else {
                .domain(route.host, port: route.port)
            }
            try await Self.add(on: channel, completing: promise) { sync in
                try sync.addHandler(SOCKSClientHandler(targetAddress: target))
                try sync.addHandler(TunnelWaiter(promise: promise), name: Self.waiter)
            }
            // SOCKSClientHandler has no deadline of its own.
            let expiry = channel.eventLoop.scheduleTask(deadline: deadline) { promise.fail(Failure.timedOut) }
            defer { expiry.cancel() }
            try await promise.futureResult.get()
            // Once established, SOCKSClientHandler passes bytes through: it stays.
            try await channel.pipeline.removeHandler(name: Self.waiter).get()
        }
    }

    /// Adds the tunnel's handlers on the channel's event loop; when that fails, `promise` is
    /// failed too (a promise left open is a leak NIO traps on in debug builds).
    private static func add(
        on channel: any Channel, completing promise: EventLoopPromise<Void>,
        _ handlers: @escaping @Sendable (ChannelPipeline.SynchronousOperations) throws -> Void
    ) async throws {
        do {
            try await channel.eventLoop.submit { try handlers(channel.pipeline.syncOperations) }.get()
        } catch {
            promise.fail(error)
            throw error
        }
    }

    /// A SOCKS handshake that did not end within the connect timeout, or a connection that
    /// ended before it did.
    enum Failure: Error, Equatable {
        case timedOut
        case closed
    }

    private static let encoder = "proxy-request-encoder"
    private static let decoder = "proxy-response-decoder"
    private static let waiter = "proxy-tunnel-waiter"
}

/// Completes `promise` when the SOCKS handshake is done, or fails it when the connection ends or
/// errs first.
private final class TunnelWaiter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let promise: EventLoopPromise<Void>

    init(promise: EventLoopPromise<Void>) {
        self.promise = promise
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is SOCKSProxyEstablishedEvent {
            self.promise.succeed(())
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        self.promise.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.promise.fail(ProxyTunnel.Failure.closed)
        context.fireChannelInactive()
    }
}
