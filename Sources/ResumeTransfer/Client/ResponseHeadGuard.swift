import NIOCore
import NIOHTTP1

/// ``ResponseHeadLimits`` on AsyncHTTPClient's connections. The client's response decoder
/// forwards 1xx heads, which the client then skips for ever, and skips blank lines before a head
/// without counting them; so the guard is two handlers around that decoder: one after it
/// counts each decoded head (``ResponseHeadMeter``), one before it counts what arrives while
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

    private func fail(_ error: ResponseHeadLimits.Exceeded, context: ChannelHandlerContext) -> Bool {
        self.failed = true
        context.fireErrorCaught(error)
        context.close(promise: nil)
        return false
    }

    /// Before the decoder: the raw bytes of the heads. A read is refused when the bytes before
    /// it already passed the bound with no final head among them, so an answer whose heads keep
    /// to the bound is never refused, and an endless one stops within one read past it.
    private func admits(_ bytes: ByteBuffer, context: ChannelHandlerContext) -> Bool {
        guard !self.inBody else { return true }
        let limit = self.meter.limits.maximumHeadBytes
        guard self.unframedBytes <= limit else { return self.fail(.headBytes(limit), context: context) }
        self.unframedBytes += bytes.readableBytes
        return true
    }

    /// After the decoder: every head of an answer, against the meter.
    private func admits(_ part: HTTPClientResponsePart, context: ChannelHandlerContext) -> Bool {
        switch part {
        case .head(let head):
            do {
                guard try self.meter.count(head) else { return false }
            } catch {
                return self.fail(error, context: context)
            }
            self.inBody = true
        case .body:
            break
        case .end:
            self.inBody = false
            self.unframedBytes = 0
        }
        return true
    }

    /// One of the guard's two places in the pipeline, where `Part`s pass: each goes on if the
    /// guard admits it.
    final class Stage<Part>: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = Part
        typealias InboundOut = Part
        private let state: ResponseHeadGuard
        private let admits: (ResponseHeadGuard, Part, ChannelHandlerContext) -> Bool

        fileprivate init(_ state: ResponseHeadGuard, admits: @escaping (ResponseHeadGuard, Part, ChannelHandlerContext) -> Bool) {
            self.state = state
            self.admits = admits
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            // After a refusal the connection is closing; nothing more of it is an answer.
            guard !self.state.failed, self.admits(self.state, self.unwrapInboundIn(data), context) else { return }
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
            try pipeline.addHandler(Stage<ByteBuffer>(state) { $0.admits($1, context: $2) }, position: .before(decoder))
            try pipeline.addHandler(Stage<HTTPClientResponsePart>(state) { $0.admits($1, context: $2) }, position: .after(decoder))
        }
    }
}
