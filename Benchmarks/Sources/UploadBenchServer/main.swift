import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOPosix
import NIOResumableUpload
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

// The server of Benchmarks/upload_bench.py (issue 36):
//
//     UploadBenchServer FOLDER [PORT]
//
// Apple's resumable-upload server (NIOResumableUpload, configured as the upload tests'
// AppleUploadServer configures it) on 127.0.0.1, PORT or a free one. Requests that are not
// resumable uploads (a plain `PUT`, as `curl -T` sends) pass through Apple's handler to the
// same application handler, so both clients meet the same process, event loops and pipeline.
// The application writes each request's body to FOLDER/<path with '/' as '_'> (truncated at
// the request's head: a resumed upload keeps its one head, so it continues the same file).
//
// Standard output, one line per event, for the script to read:
//     listening PORT
//     head CONNECTION METHOD PATH offset=UPLOAD-OFFSET|-
//     closed CONNECTION METHOD body=BYTES          (body bytes that reached this connection)
//     stored PATH bytes=BYTES                      (the application saw the end of the body)

/// One line on standard output, written whole: the script reads lines as they come, so no
/// buffering, and lines from the event loops' threads never interleave.
func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    printLock.withLock { _ in
        var done = 0
        while done < bytes.count {
            let written = bytes[done...].withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            done += written
        }
    }
}

let printLock = Mutex(())

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    say("usage: UploadBenchServer FOLDER [PORT]")
    exit(2)
}
let folder = arguments[1]
let requestedPort = arguments.count > 2 ? Int(arguments[2]) ?? 0 : 0

/// Counts connections, so that the log's lines can be told apart.
let connections = Atomic<Int>(0)
/// Set once the listening port is known; every connection's handler is made with it.
let uploadContext = Mutex<HTTPResumableUploadContext?>(nil)

/// At the HTTP/1 level, before Apple's handler: every request head as it arrived (a resumed
/// upload's HEAD and PATCH included, which never reach the application) and the body bytes
/// of the connection, told when it closes.
final class Recorder: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    private let connection: Int
    private var method = "-"
    private var body = 0

    init(connection: Int) { self.connection = connection }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head(let head):
            self.method = head.method.rawValue
            let offset = head.headers["Upload-Offset"].first ?? "-"
            say("head \(self.connection) \(head.method.rawValue) \(head.uri) offset=\(offset)")
        case .body(let buffer):
            self.body += buffer.readableBytes
        case .end:
            break
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        say("closed \(self.connection) \(self.method) body=\(self.body)")
        context.fireChannelInactive()
    }
}

/// The application behind Apple's handler: writes the body to a file, answers 201 at its end.
final class FileStoringHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPRequestPart
    typealias OutboundIn = Never
    typealias OutboundOut = HTTPResponsePart
    private var descriptor: Int32 = -1
    private var path = ""
    private var stored = 0

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head(let request):
            self.closeFile()
            self.path = request.path ?? "/"
            self.stored = 0
            let name = String(self.path.map { $0 == "/" ? "_" : $0 })
            self.descriptor = Glibc.open("\(folder)/\(name)", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            if self.descriptor < 0 { say("error open \(name) errno=\(errno)") }
        case .body(let buffer):
            // Written on the event loop: /dev/shm is memory, and both clients pay the same.
            buffer.withUnsafeReadableBytes { raw in
                var done = 0
                while done < raw.count, self.descriptor >= 0 {
                    let written = Glibc.write(self.descriptor, raw.baseAddress.map { $0 + done }, raw.count - done)
                    if written < 0 {
                        if errno == EINTR { continue }
                        say("error write \(self.path) errno=\(errno)")
                        return
                    }
                    done += written
                }
            }
            self.stored += buffer.readableBytes
        case .end:
            self.closeFile()
            say("stored \(self.path) bytes=\(self.stored)")
            context.write(self.wrapOutboundOut(.head(HTTPResponse(status: .created))), promise: nil)
            context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.closeFile()
    }

    private func closeFile() {
        if self.descriptor >= 0 {
            _ = Glibc.close(self.descriptor)
            self.descriptor = -1
        }
    }
}

let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
            let index = connections.wrappingAdd(1, ordering: .relaxed).oldValue
            guard let context = uploadContext.withLock({ $0 }) else { throw ChannelError.ioOnClosedChannel }
            let sync = channel.pipeline.syncOperations
            try sync.configureHTTPServerPipeline()
            try sync.addHandler(Recorder(connection: index))
            try sync.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try sync.addHandler(HTTPResumableUploadHandler(context: context, handlers: [FileStoringHandler()]))
        }
    }
    .bind(host: "127.0.0.1", port: requestedPort)
    .get()
let port = channel.localAddress?.port ?? 0
uploadContext.withLock { $0 = HTTPResumableUploadContext(origin: "http://127.0.0.1:\(port)") }
say("listening \(port)")
try await channel.closeFuture.get()
