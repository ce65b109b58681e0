import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A TCP server on 127.0.0.1 that answers each connection with scripted bytes, for the answers
/// an HTTP server library will not give: a huge head, two Content-Lengths, a head in one-byte
/// pieces, a body that runs to the close, a chunked body, garbage.
///
/// Connection *n* (from 0) plays `scripts[n]`, the last script once they run out. A script
/// starts once the request head (up to its empty line) has arrived; after its last step the
/// connection is closed unless the script ends with ``Step/hold``.
final class RawServer: Sendable {
    enum Step: Sendable {
        case send([UInt8])
        case text(String)
        case pause(Duration)
        /// Keep the connection open without sending anything more.
        case hold
        /// Send the text again and again, as fast as the client reads, until it closes.
        case forever(String)
    }

    fileprivate final class Log: Sendable {
        let state = Mutex<(requests: [String], connections: Int)>(([], 0))
    }

    private let channel: any Channel
    private let log: Log
    let port: Int

    var url: String { "http://127.0.0.1:\(self.port)/raw.bin" }
    /// The request heads received, in order.
    var requests: [String] { self.log.state.withLock { $0.requests } }

    static func start(_ scripts: [[Step]]) async throws -> RawServer {
        let log = Log()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let index = log.state.withLock { state -> Int in
                        defer { state.connections += 1 }
                        return state.connections
                    }
                    let script = scripts.isEmpty ? [] : scripts[min(index, scripts.count - 1)]
                    try channel.pipeline.syncOperations.addHandler(RawHandler(script: script, log: log))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return RawServer(channel: channel, log: log)
    }

    private init(channel: any Channel, log: Log) {
        self.channel = channel
        self.log = log
        self.port = channel.localAddress?.port ?? 0
    }

    func stop() async {
        try? await self.channel.close()
    }
}

private final class RawHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let script: [RawServer.Step]
    private let log: RawServer.Log
    private var received: [UInt8] = []
    private var started = false

    init(script: [RawServer.Step], log: RawServer.Log) {
        self.script = script
        self.log = log
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !self.started else { return }
        self.received += self.unwrapInboundIn(data).readableBytesView
        guard let end = self.received.indices.dropLast(3).first(where: { self.received[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) })
        else { return }
        self.started = true
        let head = String(decoding: self.received[..<end], as: UTF8.self)
        self.log.state.withLock { $0.requests.append(head) }
        self.play(self.script[...], context: context)
    }

    private func play(_ steps: ArraySlice<RawServer.Step>, context: ChannelHandlerContext) {
        guard let step = steps.first else {
            context.close(promise: nil)
            return
        }
        let rest = steps.dropFirst()
        switch step {
        case .send(let bytes):
            context.writeAndFlush(self.wrapOutboundOut(ByteBuffer(bytes: bytes)), promise: nil)
            self.play(rest, context: context)
        case .text(let text):
            context.writeAndFlush(self.wrapOutboundOut(ByteBuffer(string: text)), promise: nil)
            self.play(rest, context: context)
        case .pause(let duration):
            let (seconds, attoseconds) = duration.components
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)) {
                let (handler, context) = loopBound.value
                handler.play(rest, context: context)
            }
        case .hold:
            break
        case .forever(let text):
            let chunk = ByteBuffer(string: String(repeating: text, count: max(1, 16_384 / max(text.utf8.count, 1))))
            self.sendForever(chunk, context: context)
        }
    }

    private func sendForever(_ chunk: ByteBuffer, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.writeAndFlush(self.wrapOutboundOut(chunk)).whenSuccess {
            let (handler, context) = loopBound.value
            handler.sendForever(chunk, context: context)
        }
    }
}
