import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOPosix
import NIOResumableUpload
import Synchronization

/// Apple's resumable-upload server (NIOResumableUpload, swift-nio-extras: interop 3, 5, 6) on a
/// loopback address of its own (``privateLoopbackAddress()``), as its own end-to-end tests run it, with the server's view recorded: the bytes
/// the application handler received for each path, and every request head.
///
/// `cuts` interrupts uploads from the server's side: connection *n* (from 0) is closed once
/// `cuts[n]` bytes of it have arrived (the head included), and only those bytes reach the server,
/// so what the server has is exactly known. Connections past the list are not cut.
final class AppleUploadServer: Sendable {
    fileprivate final class Record: Sendable {
        struct Values {
            var stored: [String: [UInt8]] = [:]
            var heads: [String] = []
            var connections = 0
            /// Bytes that reached the server on every connection, heads included.
            var received = 0
            /// The length of each connection's request head, its empty line included.
            var headLengths: [Int: Int] = [:]
        }
        let values = Mutex(Values())
        let context = Mutex<HTTPResumableUploadContext?>(nil)
    }

    private let channel: any Channel
    private let record: Record
    let host: String
    let port: Int

    var origin: String { "http://\(self.host):\(self.port)" }
    /// The bytes the application got for `path` (the upload as Apple's handler hands it on).
    func stored(_ path: String) -> [UInt8]? { self.record.values.withLock { $0.stored[path] } }
    /// The request lines and fields, in arrival order ("PATCH /resumable_upload/…").
    var heads: [String] { self.record.values.withLock { $0.heads } }
    var received: Int { self.record.values.withLock { $0.received } }
    /// The bytes of connection `index`'s request head (its empty line included).
    func headLength(ofConnection index: Int) -> Int? { self.record.values.withLock { $0.headLengths[index] } }

    static func start(cuts: [Int] = []) async throws -> AppleUploadServer {
        let record = Record()
        let host = privateLoopbackAddress()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    guard let context = record.context.withLock({ $0 }) else { throw ChannelError.ioOnClosedChannel }
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(Cutter(cuts: cuts, record: record))
                    try sync.configureHTTPServerPipeline()
                    try sync.addHandler(HeadRecorder(record: record))
                    try sync.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                    try sync.addHandler(HTTPResumableUploadHandler(context: context, handlers: [StoringHandler(record: record)]))
                }
            }
            .bind(host: host, port: 0)
            .get()
        let port = channel.localAddress?.port ?? 0
        record.context.withLock { $0 = HTTPResumableUploadContext(origin: "http://\(host):\(port)") }
        return AppleUploadServer(channel: channel, record: record, host: host, port: port)
    }

    private init(channel: any Channel, record: Record, host: String, port: Int) {
        self.channel = channel
        self.record = record
        self.host = host
        self.port = port
    }

    func stop() async {
        try? await self.channel.close()
    }

    /// Passes the first `cuts[N]` bytes of the Nth connection on, then closes it. Connections are
    /// numbered when their first bytes arrive and only when those begin an HTTP request: in a
    /// test run where hundreds of servers come and go on port 0, a client of another test may
    /// reach a port this server reused (a TLS hello, a connection that sends nothing), and it must
    /// not take the number, and so the cut, of this test's first request.
    private final class Cutter: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        private let cuts: [Int]
        private let record: Record
        private var connection: Int?
        private var limit: Int?
        private var seen = 0
        private var prefix: [UInt8]? = []

        init(cuts: [Int], record: Record) {
            self.cuts = cuts
            self.record = record
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = self.unwrapInboundIn(data)
            if self.connection == nil {
                guard let first = buffer.readableBytesView.first, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) else {
                    context.close(promise: nil)
                    return
                }
                let index = self.record.values.withLock { values -> Int in
                    defer { values.connections += 1 }
                    return values.connections
                }
                self.connection = index
                self.limit = index < self.cuts.count ? self.cuts[index] : nil
            }
            guard let connection = self.connection else { return }
            if let limit {
                guard self.seen < limit else { return }
                let kept = min(buffer.readableBytes, limit - self.seen)
                buffer = buffer.getSlice(at: buffer.readerIndex, length: kept) ?? ByteBuffer()
            }
            self.seen += buffer.readableBytes
            let count = buffer.readableBytes
            if var prefix = self.prefix {
                prefix += buffer.readableBytesView.prefix(8192)
                if let end = prefix.indices.dropLast(3).first(where: { prefix[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }) {
                    self.record.values.withLock { $0.headLengths[connection] = end + 4 }
                    self.prefix = nil
                } else {
                    self.prefix = prefix
                }
            }
            self.record.values.withLock { $0.received += count }
            context.fireChannelRead(self.wrapInboundOut(buffer))
            if let limit, self.seen >= limit { context.close(promise: nil) }
        }
    }

    private final class HeadRecorder: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias InboundOut = HTTPServerRequestPart
        private let record: Record

        init(record: Record) { self.record = record }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .head(let head) = self.unwrapInboundIn(data) {
                let text = "\(head.method.rawValue) \(head.uri)\n" + head.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
                self.record.values.withLock { $0.heads.append(text) }
            }
            context.fireChannelRead(data)
        }
    }

    /// The application behind Apple's handler: keeps the body, answers 201 at its end.
    private final class StoringHandler: ChannelDuplexHandler {
        typealias InboundIn = HTTPRequestPart
        typealias OutboundIn = Never
        typealias OutboundOut = HTTPResponsePart
        private let record: Record
        private var path: String?

        init(record: Record) { self.record = record }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch self.unwrapInboundIn(data) {
            case .head(let request):
                self.path = request.path
                if let path = request.path { self.record.values.withLock { $0.stored[path, default: []] += [] } }
            case .body(let body):
                if let path = self.path { self.record.values.withLock { $0.stored[path, default: []] += body.readableBytesView } }
            case .end:
                self.path = nil
                context.write(self.wrapOutboundOut(.head(HTTPResponse(status: .created))), promise: nil)
                context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}
