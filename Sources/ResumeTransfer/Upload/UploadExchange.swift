import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import ResumeDataCodec

/// One request of a resumable upload and its answer, on a connection of its own (SwiftNIO,
/// TLS through swift-nio-ssl for `https`). AsyncHTTPClient hides informational responses, and
/// the draft's `104 Upload Resumption Supported` is the one that names the resume URL, so the
/// pipeline is NIO's own encoder and its decoder with `informationalResponseStrategy: .forward`.
///
/// Every head, 1xx ones included, counts against ``ResponseHeadLimits`` (``ResponseHeadMeter``):
/// a server that sends 104s for ever is stopped at the count bound. The answer's body is read and
/// dropped, at most ``maximumAnswerBody`` bytes of it (the draft's answers carry none worth
/// keeping; a problem document is not shown).
///
/// The body goes out one chunk at a time, each write awaited: at most one chunk of the file is
/// in memory per connection, whatever the file's size.
final class UploadExchange: Sendable {
    /// What the server says, in order.
    enum Event: Sendable, Equatable {
        /// A 1xx head.
        case informational(status: Int, fields: [HTTPHeaderField])
        /// The final head; the answer's body is read and dropped after it.
        case final(status: Int, fields: [HTTPHeaderField])
    }

    /// The most bytes of an answer's body read before the connection is closed.
    static let maximumAnswerBody = 64 * 1024

    private let channel: any Channel
    /// The server's heads, then the end of the answer (or why it never came).
    let events: AsyncThrowingStream<Event, any Error>

    private init(channel: any Channel, events: AsyncThrowingStream<Event, any Error>) {
        self.channel = channel
        self.events = events
    }

    /// Connects to `route` (TLS with `tls` when the route is `https`), through `proxy` when one is
    /// given: a tunnel (`CONNECT`, or SOCKS5) to the server's host and port, inside which the
    /// exchange is the same, TLS included, as AsyncHTTPClient tunnels a download.
    /// - Throws: ``TransferError``: `connection`, `tls`, `timedOut` or `invalidProxy`.
    static func connect(
        to route: DirectRoute, via proxy: ProxySettings.Server? = nil, tls: NIOSSLContext?, group: any EventLoopGroup,
        limits: ResponseHeadLimits, connectTimeout: Duration, stallTimeout: Duration
    ) async throws(TransferError) -> UploadExchange {
        let (events, continuation) = AsyncThrowingStream<Event, any Error>.makeStream()
        let serverHostname = DirectTLS.serverHostname(for: route.host)
        // The handlers that speak to the server: at once on a direct connection, once the tunnel
        // reaches the server through a proxy.
        let speakToServer: @Sendable (any Channel) throws -> Void = { channel in
            let sync = channel.pipeline.syncOperations
            if route.usesTLS, let tls {
                try sync.addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverHostname))
            }
            try sync.addHandler(HTTPRequestEncoder())
            try sync.addHandler(NIOHTTPRequestHeadersValidator())
            try sync.addHandler(ByteToMessageHandler(
                HTTPResponseDecoder(leftOverBytesStrategy: .dropBytes, informationalResponseStrategy: .forward)))
            try sync.addHandler(AnswerReader(limits: limits, continuation: continuation))
        }
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(connectTimeout.timeAmount)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // No byte either way for this long: the server is gone without a word.
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(allTimeout: stallTimeout.timeAmount))
                    if proxy == nil { try speakToServer(channel) }
                }
            }
        do {
            let channel = try await bootstrap.connect(host: proxy?.host ?? route.host, port: proxy?.port ?? route.port).get()
            if let proxy {
                do {
                    try await ProxyTunnel.open(on: channel, through: proxy, to: route, timeout: connectTimeout)
                    try await channel.eventLoop.submit { try speakToServer(channel) }.get()
                } catch {
                    channel.close(promise: nil)
                    throw error
                }
            }
            return UploadExchange(channel: channel, events: events)
        } catch {
            continuation.finish()
            throw TransferError(transport: error)
        }
    }

    /// Sends the request head.
    func send(_ head: HTTPRequestHead) async throws(TransferError) {
        try await self.write(.head(head))
    }

    /// Sends one chunk of the body and waits until the socket took it. `written` runs on the
    /// event loop as soon as it has, before any answer read after it is handed on: what was
    /// written when the final answer came is then known exactly, not raced.
    func send(_ chunk: ByteBuffer, written: @escaping @Sendable () -> Void) async throws(TransferError) {
        do {
            try await self.channel.writeAndFlush(HTTPClientRequestPart.body(.byteBuffer(chunk))).map(written).get()
        } catch {
            throw TransferError(transport: error)
        }
    }

    /// Ends the request.
    func end() async throws(TransferError) {
        try await self.write(.end(nil))
    }

    func close() {
        self.channel.close(promise: nil)
    }

    private func write(_ part: HTTPClientRequestPart) async throws(TransferError) {
        do {
            try await self.channel.writeAndFlush(part).get()
        } catch {
            throw TransferError(transport: error)
        }
    }
}

/// The inbound end of an ``UploadExchange``'s pipeline: heads become events, each counted.
private final class AnswerReader: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private var meter: ResponseHeadMeter
    private let continuation: AsyncThrowingStream<UploadExchange.Event, any Error>.Continuation
    private var bodyBytes = 0
    private var finished = false
    private var sawFinal = false

    init(limits: ResponseHeadLimits, continuation: AsyncThrowingStream<UploadExchange.Event, any Error>.Continuation) {
        self.meter = ResponseHeadMeter(limits: limits)
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !self.finished else { return }
        switch self.unwrapInboundIn(data) {
        case .head(let head):
            let isFinal: Bool
            do {
                isFinal = try self.meter.count(head)
            } catch {
                return self.fail(context: context, TransferError.connection(.invalidResponse(error.description)))
            }
            let fields = HTTPHeaderField.fields(of: head.headers)
            let status = Int(head.status.code)
            self.sawFinal = self.sawFinal || isFinal
            self.continuation.yield(isFinal ? .final(status: status, fields: fields) : .informational(status: status, fields: fields))
        case .body(let buffer):
            self.bodyBytes += buffer.readableBytes
            if self.bodyBytes > UploadExchange.maximumAnswerBody {
                // Nothing of a longer body is used: the answer's head is what counts.
                self.finish(context: context)
            }
        case .end:
            self.finish(context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !self.finished {
            self.finished = true
            self.continuation.finish(throwing: TransferError.connection(self.sawFinal ? .closedBeforeEnd(remaining: nil) : .closedBeforeHead))
        }
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            return self.fail(context: context, .stalled)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        self.fail(context: context, TransferError(transport: error))
    }

    private func finish(context: ChannelHandlerContext) {
        self.finished = true
        self.continuation.finish()
        context.close(promise: nil)
    }

    private func fail(context: ChannelHandlerContext, _ error: TransferError) {
        guard !self.finished else { return }
        self.finished = true
        self.continuation.finish(throwing: error)
        context.close(promise: nil)
    }
}
