import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// An HTTP `CONNECT` proxy on 127.0.0.1 for the proxy tests, which speaks SOCKS5 (no
/// authentication, a request with `CONNECT`'s command) to a client that opens with version 5. Whatever host a client asks for, the
/// tunnel goes to 127.0.0.1 at the port asked, so a URL with an unresolvable host proves the
/// request went through the proxy. It records every request head it gets and can demand
/// `Proxy-Authorization`.
final class TestProxy: Sendable {
    /// One request head the proxy received.
    struct Request: Equatable, Sendable {
        var method: String
        var target: String
        var authorization: String?
        /// Every header name, lowercased, in order.
        var headerNames: [String]
    }

    private let core: ProxyCore
    private let channel: any Channel
    let port: Int

    var url: String { "http://127.0.0.1:\(self.port)" }
    var requests: [Request] { self.core.requests.withLock { $0 } }

    /// With `username` and `password`, a request without the matching `Proxy-Authorization:
    /// Basic` gets 407. Tunnels go to `tunnelHost` (a server bound to another loopback address).
    static func start(username: String? = nil, password: String? = nil, tunnelHost: String = "127.0.0.1") async throws -> TestProxy {
        let required = username.map { "Basic " + Data("\($0):\(password ?? "")".utf8).base64EncodedString() }
        let core = ProxyCore(requiredAuthorization: required, tunnelHost: tunnelHost)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ProxyHandler(core: core))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return TestProxy(core: core, channel: channel)
    }

    private init(core: ProxyCore, channel: any Channel) {
        self.core = core
        self.channel = channel
        self.port = channel.localAddress?.port ?? 0
    }

    func stop() async {
        try? await self.channel.close()
    }
}

private final class ProxyCore: Sendable {
    let requests = Mutex<[TestProxy.Request]>([])
    let requiredAuthorization: String?
    let tunnelHost: String

    init(requiredAuthorization: String?, tunnelHost: String) {
        self.tunnelHost = tunnelHost
        self.requiredAuthorization = requiredAuthorization
    }
}

/// Reads one request head; for an accepted `CONNECT`, connects to the tunnel host and relays bytes
/// both ways until either side closes.
private final class ProxyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum Phase {
        case head
        case connecting
        case relaying(any Channel)
        case closed
    }

    private let core: ProxyCore
    private var phase = Phase.head
    private var head = ByteBuffer()
    private var pending: [ByteBuffer] = []
    private var greeted = false

    init(core: ProxyCore) {
        self.core = core
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = self.unwrapInboundIn(data)
        switch self.phase {
        case .relaying(let peer):
            peer.writeAndFlush(buffer, promise: nil)
        case .connecting:
            self.pending.append(buffer)
        case .closed:
            break
        case .head:
            self.head.writeBuffer(&buffer)
            let bytes = Array(self.head.readableBytesView)
            if bytes.first == 5 { return self.socks(bytes, context: context) }
            guard let end = Self.endOfHead(bytes) else {
                if bytes.count > 16_384 { context.close(promise: nil) }
                return
            }
            let text = String(decoding: bytes[..<end], as: UTF8.self)
            if end + 4 < bytes.count {
                self.pending.append(ByteBuffer(bytes: bytes[(end + 4)...]))
            }
            self.handle(head: text, context: context)
        }
    }

    private func handle(head: String, context: ChannelHandlerContext) {
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.first?.split(separator: " ").map(String.init) ?? []
        var authorization: String?
        var names: [String] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            names.append(line[..<colon].lowercased())
            if line[..<colon].lowercased() == "proxy-authorization" {
                authorization = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        let method = requestLine.first ?? ""
        let target = requestLine.count > 1 ? requestLine[1] : ""
        self.core.requests.withLock { $0.append(.init(method: method, target: target, authorization: authorization, headerNames: names)) }
        if let required = self.core.requiredAuthorization, authorization != required {
            self.answer("407 Proxy Authentication Required", extra: "Proxy-Authenticate: Basic realm=\"test\"\r\n", context: context)
            return
        }
        guard method == "CONNECT", let colon = target.lastIndex(of: ":"), let port = Int(target[target.index(after: colon)...]) else {
            self.answer("405 Method Not Allowed", extra: "", context: context)
            return
        }
        self.tunnel(to: port, context: context, established: Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8)) { handler, context in
            handler.answer("502 Bad Gateway", extra: "", context: context)
        }
    }

    /// SOCKS5 (RFC 1928): the greeting is answered with "no authentication", then the request
    /// (command 1, an IPv4 or IPv6 address or a domain name) is recorded as `SOCKS5 HOST:PORT`.
    private func socks(_ bytes: [UInt8], context: ChannelHandlerContext) {
        guard bytes.count >= 2 else { return }
        let greeting = 2 + Int(bytes[1])
        if !self.greeted {
            guard bytes.count >= greeting else { return }
            self.greeted = true
            context.writeAndFlush(self.wrapOutboundOut(ByteBuffer(bytes: [5, 0])), promise: nil)
        }
        let request = bytes.dropFirst(greeting).map { $0 }
        guard request.count >= 5 else { return }
        let host: String
        let end: Int
        switch request[3] {
        case 1:
            end = 4 + 4 + 2
            guard request.count >= end else { return }
            host = request[4..<8].map(String.init).joined(separator: ".")
        case 3:
            end = 5 + Int(request[4]) + 2
            guard request.count >= end else { return }
            host = String(decoding: request[5..<(end - 2)], as: UTF8.self)
        case 4:
            end = 4 + 16 + 2
            guard request.count >= end else { return }
            // Recorded as a URL writes it: [::1].
            let address = (try? SocketAddress(packedIPAddress: ByteBuffer(bytes: request[4..<20]), port: 0))?.ipAddress ?? "?"
            host = "[\(address)]"
        default:
            self.phase = .closed
            context.close(promise: nil)
            return
        }
        let port = Int(request[end - 2]) << 8 | Int(request[end - 1])
        self.core.requests.withLock { $0.append(.init(method: "SOCKS5", target: "\(host):\(port)", authorization: nil, headerNames: [])) }
        if request.count > end { self.pending.append(ByteBuffer(bytes: request[end...])) }
        self.tunnel(to: port, context: context, established: [5, 0, 0, 1, 0, 0, 0, 0, 0, 0]) { handler, context in
            handler.phase = .closed
            context.writeAndFlush(handler.wrapOutboundOut(ByteBuffer(bytes: [5, 5, 0, 1, 0, 0, 0, 0, 0, 0])), promise: nil)
            context.close(promise: nil)
        }
    }

    /// Connects to the tunnel host at `port`; answers `established` and relays, or calls `refused`.
    private func tunnel(to port: Int, context: ChannelHandlerContext, established: [UInt8], refused: @escaping @Sendable (ProxyHandler, ChannelHandlerContext) -> Void) {
        self.phase = .connecting
        let client = context.channel
        let loopBoundSelf = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        ClientBootstrap(group: context.eventLoop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(RelayHandler(to: client))
                }
            }
            .connect(host: self.core.tunnelHost, port: port)
            .whenComplete { result in
                let handler = loopBoundSelf.value
                let context = loopBoundContext.value
                switch result {
                case .failure:
                    refused(handler, context)
                case .success(let peer):
                    context.writeAndFlush(handler.wrapOutboundOut(ByteBuffer(bytes: established)), promise: nil)
                    for buffer in handler.pending { peer.write(buffer, promise: nil) }
                    peer.flush()
                    handler.pending = []
                    handler.phase = .relaying(peer)
                }
            }
    }

    private func answer(_ status: String, extra: String, context: ChannelHandlerContext) {
        self.phase = .closed
        let response = "HTTP/1.1 \(status)\r\n\(extra)Content-Length: 0\r\nConnection: close\r\n\r\n"
        let channel = context.channel
        context.writeAndFlush(self.wrapOutboundOut(ByteBuffer(string: response))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if case .relaying(let peer) = self.phase { closeAfterPendingWrites(peer) }
        self.phase = .closed
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private static func endOfHead(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }
}

/// The server side of a tunnel: what the server sends goes back to the client.
private final class RelayHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let client: any Channel

    init(to client: any Channel) {
        self.client = client
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        self.client.writeAndFlush(self.unwrapInboundIn(data), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        closeAfterPendingWrites(self.client)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// Closes `channel` once what was written to it has gone out: a plain close drops pending writes,
/// which would cut the end of a body short. Writes complete in order, so an empty one's
/// completion means every earlier one is done.
private func closeAfterPendingWrites(_ channel: any Channel) {
    channel.writeAndFlush(ByteBuffer()).whenComplete { _ in channel.close(promise: nil) }
}
