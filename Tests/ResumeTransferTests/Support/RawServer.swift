import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
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
        /// Wait until this many body bytes (after the request head) have arrived, keeping them
        /// (``bodies``); a resumable upload's server reads the body before it answers.
        case drain(Int)
    }

    fileprivate final class Log: Sendable {
        let state = Mutex<(requests: [String], connections: Int)>(([], 0))
        /// The body bytes each connection's `.drain` steps kept, by connection (from 0).
        let bodies = Mutex<[Int: [UInt8]]>([:])
        /// The protocol ALPN settled on, by connection (from 0), over TLS: the server offers
        /// `http/1.1` alone, so it is that exactly when the client offered it, and nil otherwise.
        let negotiated = Mutex<[Int: String?]>([:])
        /// How many connections have closed (either side).
        let closed = Mutex(0)
        /// What became of each connection, by connection (from 0): for a failure's message.
        let journal = Mutex<[Int: String]>([:])
        let started = ContinuousClock.now

        func note(_ connection: Int, _ text: String) {
            let (seconds, attoseconds) = (ContinuousClock.now - self.started).components
            let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
            self.journal.withLock { $0[connection, default: ""] += "[\(milliseconds) ms] \(text); " }
        }
    }

    private let channel: any Channel
    private let log: Log
    let host: String
    let port: Int

    var url: String { "http://\(self.host):\(self.port)/raw.bin" }
    /// `http://HOST:PORT`.
    var origin: String { "http://\(self.host):\(self.port)" }
    /// The request heads received, in order.
    var requests: [String] { self.log.state.withLock { $0.requests } }
    /// The protocol each TLS connection's ALPN settled on (``Log/negotiated``).
    var negotiatedProtocols: [Int: String?] { self.log.negotiated.withLock { $0 } }
    /// Waits (up to a minute) until every connection accepted so far has closed, so that
    /// ``requests`` holds every head a client sent on them: the server reads a connection's bytes
    /// before its close. A client under load may give up before it sends a head at all.
    func settle() async throws {
        for _ in 0..<3000 {
            let (accepted, closed) = (self.log.state.withLock { $0.connections }, self.log.closed.withLock { $0 })
            if closed >= accepted { return }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The body bytes connection `index` drained.
    func body(ofConnection index: Int) -> [UInt8] { self.log.bodies.withLock { $0[index] ?? [] } }
    /// Each connection's story (accepted from where, bytes in, head, close), one line each: a
    /// test that numbers connections shows it when it fails.
    var journal: String {
        self.log.journal.withLock { journal in
            journal.keys.sorted().map { "connection \($0): \(journal[$0] ?? "")" }.joined(separator: "\n")
        }
    }

    /// With `tls`, speaks https with tls/server.pem (127.0.0.1, signed by
    /// `TestServer.certificateAuthorityFile`). `host` is the address listened on: a test that
    /// numbers connections takes one of its own (``privateLoopbackAddress()``).
    static func start(_ scripts: [[Step]], tls: Bool = false, host: String = "127.0.0.1") async throws -> RawServer {
        let log = Log()
        let context: NIOSSLContext?
        if tls {
            let folder = URL(fileURLWithPath: TestServer.certificateAuthorityFile).deletingLastPathComponent().path
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMFile(folder + "/server.pem").map { .certificate($0) },
                privateKey: .privateKey(try NIOSSLPrivateKey(file: folder + "/server-key.pem", format: .pem)))
            configuration.applicationProtocols = ["http/1.1"]
            context = try NIOSSLContext(configuration: configuration)
        } else {
            context = nil
        }
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let index = log.state.withLock { state -> Int in
                        defer { state.connections += 1 }
                        return state.connections
                    }
                    let script = scripts.isEmpty ? [] : scripts[min(index, scripts.count - 1)]
                    if let context { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context)) }
                    try channel.pipeline.syncOperations.addHandler(RawHandler(script: script, log: log, connection: index))
                }
            }
            .bind(host: host, port: 0)
            .get()
        return RawServer(channel: channel, log: log, host: host)
    }

    private init(channel: any Channel, log: Log, host: String) {
        self.channel = channel
        self.log = log
        self.host = host
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
    private let connection: Int
    private var received: [UInt8] = []
    private var started = false
    /// Bytes that came after the head's read, for the journal.
    private var bodyTotal = 0
    /// Body bytes that arrived and no `.drain` step has taken yet.
    private var body: [UInt8] = []
    /// The `.drain` step waiting for bytes: how many it still wants, and the steps after it.
    private var draining: (wanted: Int, rest: ArraySlice<RawServer.Step>)?

    init(script: [RawServer.Step], log: RawServer.Log, connection: Int) {
        self.script = script
        self.log = log
        self.connection = connection
    }

    func channelActive(context: ChannelHandlerContext) {
        self.log.note(self.connection, "accepted from \(context.remoteAddress.map { "\($0)" } ?? "?")")
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.log.note(self.connection, "closed after \(self.received.count + self.bodyTotal) bytes in, head \(self.started ? "read" : "never complete")")
        self.log.closed.withLock { $0 += 1 }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        self.log.note(self.connection, "error \(error)")
        context.close(promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted(let negotiated) = event as? TLSUserEvent {
            self.log.negotiated.withLock { $0[self.connection] = .some(negotiated) }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !self.started else {
            self.bodyTotal += self.unwrapInboundIn(data).readableBytes
            self.body += self.unwrapInboundIn(data).readableBytesView
            self.continueDrain(context: context)
            return
        }
        self.received += self.unwrapInboundIn(data).readableBytesView
        guard let end = self.received.indices.dropLast(3).first(where: { self.received[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) })
        else { return }
        self.started = true
        let head = String(decoding: self.received[..<end], as: UTF8.self)
        self.body = Array(self.received[(end + 4)...])
        self.log.state.withLock { $0.requests.append(head) }
        self.log.note(self.connection, "head \(head.prefix(while: { $0 != "\r" }))")
        self.play(self.script[...], context: context)
    }

    private func continueDrain(context: ChannelHandlerContext) {
        guard let (wanted, rest) = self.draining else { return }
        let taken = min(wanted, self.body.count)
        let bytes = self.body.prefix(taken)
        self.log.bodies.withLock { $0[self.connection, default: []] += bytes }
        self.body.removeFirst(taken)
        if taken == wanted {
            self.draining = nil
            self.play(rest, context: context)
        } else {
            self.draining = (wanted - taken, rest)
        }
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
        case .drain(let count):
            self.draining = (count, rest)
            self.continueDrain(context: context)
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
