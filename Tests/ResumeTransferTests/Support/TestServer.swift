import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// An HTTP/1.1 server (port chosen by the system) that serves one file and can misbehave on
/// purpose, request by request. Plain http listens on a loopback address of its own
/// (``privateLoopbackAddress()``), so that no other test's stray connection reaches it and takes a
/// scripted answer or adds a request a test counts (fresh-clone CI runs failed so); https on
/// 127.0.0.1, the address its certificate names.
final class TestServer: Sendable {
    /// The file being served.
    struct File: Sendable {
        var data: Data
        var etag: String
        var lastModified: String
    }

    /// What to do for one GET.
    enum Behaviour: Sendable {
        /// Serve normally: honour Range and If-Range.
        case normal
        /// Serve the whole file with 200 whatever the Range.
        case ignoreRange
        /// Answer this status with these headers and an empty body.
        case status(Int, [(String, String)])
        /// Announce the response as usual, send this many body bytes, then close the connection.
        case dropAfter(Int)
        /// Announce the response as usual, send this many body bytes, then send nothing more.
        case stallAfter(Int)
        /// Answer 206 with a Content-Range starting somewhere else than asked.
        case wrongContentRange
        /// Answer 206 for the range asked, ignoring If-Range (a broken server).
        case ignoreIfRange
        /// Ignore Range (answer 200 for the whole file), send this many body bytes, then close.
        case ignoreRangeAndDropAfter(Int)
        /// Serve normally, this response alone at about this many bytes a second (one slow
        /// connection among fast ones).
        case throttledTo(Int)
    }

    /// A request as received.
    struct Request: Equatable, Sendable {
        var method: String
        var uri: String
        var headers: [String: String]
    }

    fileprivate struct State {
        var file: File
        var script: [Behaviour] = []
        var requests: [Request] = []
        var version = 1
        var rangesIgnored = false
        var bytesPerSecond: Int?
        var extraHeaders: [(String, String)] = []
        var holdBack = 0
        /// At most this many TCP connections at once; more are closed at once (a server that
        /// caps connections per client).
        var connectionCap: Int?
        var openConnections = 0
        /// The server name (SNI) of each TLS handshake, nil when the client sent none.
        var serverNames: [String?] = []
        /// Replace the file with this one after this many more body bytes were sent (a file that
        /// changes in the middle of a download).
        var replaceAfter: (bytes: Int, data: Data)?
    }

    private let core: ServerCore
    private let channel: any Channel
    let port: Int

    private let scheme: String

    /// The address it listens on.
    let host: String

    /// What a client sends as `Host`: the address (in brackets for IPv6) and the port.
    var authority: String { "\(self.host.contains(":") ? "[\(self.host)]" : self.host):\(self.port)" }

    var url: String { "\(self.scheme)://\(self.authority)/file.bin" }

    /// The test certificate authority that signed the HTTPS server's certificate (tls/ca.pem).
    static let certificateAuthorityFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("tls/ca.pem").path

    /// With `tls`, serves https with tls/server.pem (127.0.0.1, signed by ``certificateAuthorityFile``),
    /// speaking only the TLS versions between `minimumTLSVersion` and `maximumTLSVersion` when given;
    /// `certificate` names another pair in tls/ (`NAME.pem`, `NAME-key.pem`).
    static func start(
        serving data: Data, tls: Bool = false, minimumTLSVersion: TLSVersion? = nil, maximumTLSVersion: TLSVersion? = nil,
        host: String? = nil, certificate: String = "server"
    ) async throws -> TestServer {
        let host = host ?? (tls ? "127.0.0.1" : privateLoopbackAddress())
        let file = File(data: data, etag: "\"v1-\(data.count)\"", lastModified: "Sun, 01 Nov 2026 10:00:01 GMT")
        let core = ServerCore(file: file)
        let context: NIOSSLContext?
        if tls {
            let folder = URL(fileURLWithPath: Self.certificateAuthorityFile).deletingLastPathComponent().path
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMFile(folder + "/\(certificate).pem").map { .certificate($0) },
                privateKey: .privateKey(try NIOSSLPrivateKey(file: folder + "/\(certificate)-key.pem", format: .pem)))
            if let minimumTLSVersion { configuration.minimumTLSVersion = minimumTLSVersion }
            if let maximumTLSVersion { configuration.maximumTLSVersion = maximumTLSVersion }
            // Called with the ClientHello's values: the name the client asked for (SNI).
            configuration.sslContextCallback = { values, promise in
                core.state.withLock { $0.serverNames.append(values.serverHostname) }
                promise.succeed(NIOSSLContextConfigurationOverride())
            }
            context = try NIOSSLContext(configuration: configuration)
        } else {
            context = nil
        }
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context)) }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(Handler(core: core))
                }
            }
            .bind(host: host, port: 0)
            .get()
        return TestServer(core: core, channel: channel, scheme: tls ? "https" : "http", host: host)
    }

    private init(core: ServerCore, channel: any Channel, scheme: String, host: String) {
        self.core = core
        self.channel = channel
        self.scheme = scheme
        self.host = host
        self.port = channel.localAddress?.port ?? 0
    }

    func stop() async {
        try? await self.channel.close()
    }

    var file: File { self.core.state.withLock { $0.file } }
    var requests: [Request] { self.core.state.withLock { $0.requests } }
    var getRequests: [Request] { self.requests.filter { $0.method == "GET" } }
    var serverNames: [String?] { self.core.state.withLock { $0.serverNames } }

    /// Behaviours for the next GETs, in order; `.normal` after they run out.
    func script(_ behaviours: [Behaviour]) {
        self.core.state.withLock { $0.script = behaviours }
    }

    /// Serve ranges as 200 from now on (a server without range support).
    func ignoreRanges() {
        self.core.state.withLock { $0.rangesIgnored = true }
    }

    /// Send bodies at about this rate from now on (nil: as fast as possible).
    func throttle(bytesPerSecond: Int?) {
        self.core.state.withLock { $0.bytesPerSecond = bytesPerSecond }
    }

    /// From now on, throttled responses stop (without ending) `bytes` before the end of the file,
    /// so no client can finish until this is set back to 0.
    func holdBack(_ bytes: Int) {
        self.core.state.withLock { $0.holdBack = bytes }
    }

    /// The connections open now (accepted and not yet closed by either side).
    var openConnections: Int { self.core.state.withLock { $0.openConnections } }

    /// From now on, at most `count` connections at once (nil: no cap); others are closed at once.
    func capConnections(_ count: Int?) {
        self.core.state.withLock { $0.connectionCap = count }
    }

    /// The file is replaced with `data` once `bytes` more body bytes have been sent (in
    /// throttled responses), while downloads are running.
    func replaceFile(with data: Data, afterSending bytes: Int) {
        self.core.state.withLock { $0.replaceAfter = (bytes, data) }
    }

    /// Headers added to every response from now on (e.g. Content-Disposition).
    func addHeaders(_ headers: [(String, String)]) {
        self.core.state.withLock { $0.extraHeaders = headers }
    }

    /// Serve the same bytes under these validators from now on.
    func setValidators(etag: String, lastModified: String) {
        self.core.state.withLock { state in
            state.file.etag = etag
            state.file.lastModified = lastModified
        }
    }

    /// Replace the file with new content, a new ETag and a new Last-Modified.
    func replaceFile(with data: Data) {
        self.core.state.withLock { $0.replace(with: data) }
    }

}

extension TestServer.State {
    mutating func replace(with data: Data) {
        self.version += 1
        self.file = TestServer.File(
            data: data, etag: "\"v\(self.version)-\(data.count)\"",
            lastModified: "Sun, 01 Nov 2026 10:00:0\(self.version % 10) GMT")
    }
}

/// The mutable part shared between the test and the channel handlers.
private final class ServerCore: Sendable {
    let state: Mutex<TestServer.State>

    init(file: TestServer.File) {
        self.state = Mutex(TestServer.State(file: file))
    }

    var bytesPerSecond: Int? { self.state.withLock { $0.bytesPerSecond } }
    var extraHeaders: [(String, String)] { self.state.withLock { $0.extraHeaders } }
    var holdBack: Int { self.state.withLock { $0.holdBack } }

    /// False when the connection is over the cap (it is closed then).
    func connectionOpened() -> Bool {
        self.state.withLock { state in
            if let cap = state.connectionCap, state.openConnections >= cap { return false }
            state.openConnections += 1
            return true
        }
    }

    func connectionClosed() {
        self.state.withLock { $0.openConnections -= 1 }
    }

    /// Counts body bytes sent, for ``TestServer/replaceFile(with:afterSending:)``.
    func sent(_ count: Int) {
        self.state.withLock { state in
            guard let (left, data) = state.replaceAfter else { return }
            if count >= left {
                state.replaceAfter = nil
                state.replace(with: data)
            } else {
                state.replaceAfter = (left - count, data)
            }
        }
    }

    func next(for request: TestServer.Request) -> (TestServer.File, TestServer.Behaviour) {
        self.state.withLock { state in
            state.requests.append(request)
            guard request.method == "GET" else { return (state.file, .normal) }
            var behaviour = state.script.isEmpty ? TestServer.Behaviour.normal : state.script.removeFirst()
            if state.rangesIgnored, case .normal = behaviour { behaviour = .ignoreRange }
            return (state.file, behaviour)
        }
    }
}

private final class Handler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let core: ServerCore
    private var head: HTTPRequestHead?

    private var counted = false

    init(core: ServerCore) {
        self.core = core
    }

    func channelActive(context: ChannelHandlerContext) {
        if self.core.connectionOpened() {
            self.counted = true
        } else {
            context.close(promise: nil)
        }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if self.counted { self.core.connectionClosed() }
        self.counted = false
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head = self.head else { return }
            var headers: [String: String] = [:]
            for (name, value) in head.headers { headers[name.lowercased()] = value }
            let request = TestServer.Request(method: head.method.rawValue, uri: head.uri, headers: headers)
            let (file, behaviour) = self.core.next(for: request)
            self.respond(context: context, request: request, file: file, behaviour: behaviour)
        }
    }

    private func respond(context: ChannelHandlerContext, request: TestServer.Request, file: TestServer.File, behaviour: TestServer.Behaviour) {
        var headers = HTTPHeaders()
        headers.add(name: "ETag", value: file.etag)
        headers.add(name: "Last-Modified", value: file.lastModified)
        switch behaviour {
        case .ignoreRange, .ignoreRangeAndDropAfter: break
        default: headers.add(name: "Accept-Ranges", value: "bytes")
        }
        for (name, value) in self.core.extraHeaders { headers.add(name: name, value: value) }
        let size = file.data.count

        if case .status(let code, let extra) = behaviour {
            for (name, value) in extra { headers.add(name: name, value: value) }
            headers.add(name: "Content-Length", value: "0")
            self.send(context: context, status: .init(statusCode: code), headers: headers, body: nil, then: .end)
            return
        }

        var start = 0
        var partial = false
        var last = size - 1
        if let range = request.headers["range"], let (requested, upTo) = Self.rangeBounds(range) {
            if let upTo { last = min(upTo, size - 1) }
            let ifRange = request.headers["if-range"]
            let validatorMatches = ifRange == nil || ifRange == file.etag || ifRange == file.lastModified
            switch behaviour {
            case .ignoreRange, .ignoreRangeAndDropAfter:
                break
            case .ignoreIfRange:
                start = requested
                partial = true
            default:
                if validatorMatches {
                    start = requested
                    partial = true
                }
            }
        }
        if partial && start >= size {
            headers.add(name: "Content-Range", value: "bytes */\(size)")
            headers.add(name: "Content-Length", value: "0")
            self.send(context: context, status: .rangeNotSatisfiable, headers: headers, body: nil, then: .end)
            return
        }
        var bodyStart = start
        if case .wrongContentRange = behaviour, partial {
            bodyStart = max(start - 100, 0)
        }
        if !partial { last = size - 1 }
        if partial {
            headers.add(name: "Content-Range", value: "bytes \(bodyStart)-\(last)/\(size)")
        }
        headers.add(name: "Content-Length", value: String(last + 1 - bodyStart))
        let status: HTTPResponseStatus = partial ? .partialContent : .ok
        if request.method == "HEAD" {
            self.send(context: context, status: status, headers: headers, body: nil, then: .end)
            return
        }
        var body = file.data[file.data.startIndex + bodyStart..<file.data.startIndex + last + 1]
        switch behaviour {
        case .dropAfter(let count), .ignoreRangeAndDropAfter(let count):
            body = body.prefix(count)
            self.send(context: context, status: status, headers: headers, body: body, then: .close)
        case .stallAfter(let count):
            body = body.prefix(count)
            self.send(context: context, status: status, headers: headers, body: body, then: .nothing)
        default:
            var rate = self.core.bytesPerSecond
            if case .throttledTo(let own) = behaviour { rate = own }
            if let rate {
                let stopAt = max(body.count - self.core.holdBack, 0)
                self.sendThrottled(context: context, status: status, headers: headers, body: Data(body), rate: rate, stopAt: stopAt)
            } else {
                self.send(context: context, status: status, headers: headers, body: body, then: .end)
            }
        }
    }

    /// Sends the body in slices every 20 ms, so a client can be interrupted mid-transfer.
    private func sendThrottled(
        context: ChannelHandlerContext, status: HTTPResponseStatus, headers: HTTPHeaders, body: Data, rate: Int, stopAt: Int
    ) {
        context.write(self.wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        let slice = max(rate / 50, 1024)
        let core = self.core
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        @Sendable func sendSlice(from offset: Int) {
            let context = bound.value
            guard context.channel.isActive else { return }
            let end = min(offset + slice, stopAt)
            guard end > offset else {
                // Held back: flushed what was allowed and stays silent.
                context.flush()
                return
            }
            var buffer = context.channel.allocator.buffer(capacity: end - offset)
            buffer.writeBytes(body[body.startIndex + offset..<body.startIndex + end])
            core.sent(end - offset)
            context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(buffer))), promise: nil)
            if end == body.count {
                context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)), promise: nil)
                return
            }
            context.flush()
            context.eventLoop.scheduleTask(in: .milliseconds(20)) { sendSlice(from: end) }
        }
        sendSlice(from: 0)
    }

    private enum Ending {
        case end
        case close
        case nothing
    }

    private func send(context: ChannelHandlerContext, status: HTTPResponseStatus, headers: HTTPHeaders, body: Data?, then ending: Ending) {
        context.write(self.wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        if let body, !body.isEmpty {
            var buffer = context.channel.allocator.buffer(capacity: body.count)
            buffer.writeBytes(body)
            context.write(self.wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        switch ending {
        case .end:
            context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
        case .close:
            context.flush()
            context.close(promise: nil)
        case .nothing:
            context.flush()
        }
    }

    /// N and M of `bytes=N-M` (M nil for `bytes=N-`).
    private static func rangeBounds(_ value: String) -> (Int, Int?)? {
        guard value.hasPrefix("bytes=") else { return nil }
        let parts = value.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = Int(parts[0]) else { return nil }
        if parts[1].isEmpty { return (start, nil) }
        guard let end = Int(parts[1]), end >= start else { return nil }
        return (start, end)
    }
}

/// Deterministic test content (xorshift, eight bytes per step so debug builds stay quick).
func testData(count: Int, seed: UInt64) -> Data {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    var words = [UInt64](repeating: 0, count: (count + 7) / 8)
    for index in words.indices {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        words[index] = state
    }
    return words.withUnsafeBytes { Data($0.prefix(count)) }
}

func sha256Hex(_ data: Data) -> String {
    SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
}
