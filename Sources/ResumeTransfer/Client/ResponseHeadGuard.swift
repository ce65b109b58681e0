import NIOCore
import NIOHTTP1

/// ``ResponseHeadLimits`` on AsyncHTTPClient's connections. The client's response decoder
/// forwards 1xx heads, which the client then skips for ever, and skips blank lines before a head
/// without counting them; so the guard is two handlers around that decoder: ``Heads`` after it
/// counts each decoded head (``ResponseHeadMeter``), ``Bytes`` before it counts what arrives while
/// no final head has come. Either fails the request with ``ResponseHeadLimits/Exceeded`` and
/// closes the connection. The client has no other way in: its connection initializer is the only
/// hook it offers, so the guard is added there (``install(on:limits:)``).
///
/// Not `Sendable`: both handlers share it on the connection's event loop.
final class ResponseHeadGuard {
    private var meter: ResponseHeadMeter
    /// Bytes received since the last answer ended, while its final head has not come.
    private var unframedBytes = 0
    private var inBody = false
    private var failed = false

    private init(limits: ResponseHeadLimits) {
        self.meter = ResponseHeadMeter(limits: limits)
    }

    private func fail(_ error: ResponseHeadLimits.Exceeded, context: ChannelHandlerContext) {
        self.failed = true
        context.fireErrorCaught(error)
        context.close(promise: nil)
    }

    /// Before the decoder: the raw bytes of the heads. A read is refused when the bytes before
    /// it already passed the bound with no final head among them, so an answer whose heads keep
    /// to the bound is never refused, and an endless one stops within one read past it.
    final class Bytes: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        fileprivate let state: ResponseHeadGuard

        fileprivate init(_ state: ResponseHeadGuard) {
            self.state = state
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !self.state.failed else { return }
            if !self.state.inBody {
                let limit = self.state.meter.limits.maximumHeadBytes
                guard self.state.unframedBytes <= limit else {
                    return self.state.fail(.headBytes(limit), context: context)
                }
                self.state.unframedBytes += self.unwrapInboundIn(data).readableBytes
            }
            context.fireChannelRead(data)
        }
    }

    /// After the decoder: every head of an answer, against the meter.
    final class Heads: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPClientResponsePart
        typealias InboundOut = HTTPClientResponsePart
        fileprivate let state: ResponseHeadGuard

        fileprivate init(_ state: ResponseHeadGuard) {
            self.state = state
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            // After a refusal the connection is closing; nothing more of it is an answer.
            guard !self.state.failed else { return }
            switch self.unwrapInboundIn(data) {
            case .head(let head):
                do {
                    guard try self.state.meter.count(head) else { return }
                } catch {
                    return self.state.fail(error, context: context)
                }
                self.state.inBody = true
            case .body:
                break
            case .end:
                self.state.inBody = false
                self.state.unframedBytes = 0
            }
            context.fireChannelRead(data)
        }
    }

    /// Adds the guard around the response decoder of an HTTP/1.1 connection of AsyncHTTPClient;
    /// the client calls this before it sends anything on the connection.
    static func install(on channel: any Channel, limits: ResponseHeadLimits) -> EventLoopFuture<Void> {
        channel.eventLoop.submit {
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPResponseDecoder>.self)
            let state = ResponseHeadGuard(limits: limits)
            try pipeline.addHandler(Bytes(state), position: .before(decoder))
            try pipeline.addHandler(Heads(state), position: .after(decoder))
        }
    }
}
