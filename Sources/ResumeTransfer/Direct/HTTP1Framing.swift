import NIOCore
import NIOEmbedded
import NIOHTTP1
import ResumeDataCodec

/// HTTP/1.1 on a socket the engine reads itself (``DirectReceiver``), framed by SwiftNIO's own
/// request encoder, header validator and response decoder (llhttp) on an `EmbeddedChannel`: the
/// bytes come from the socket by hand, the parsing stays the library's.
///
/// Not `Sendable`: it lives and dies on the receiver's thread.
final class HTTP1Framing {
    /// One part of the response, as the decoder gives it.
    enum Part {
        case head(HTTPResponseHead)
        case body(ByteBuffer)
        case end
    }

    private let channel: EmbeddedChannel

    init() throws {
        self.channel = EmbeddedChannel()
        // Outbound writes pass the decoder first (it notes the method, so it knows which
        // responses have no body), then the validator (no CR, LF or NUL in a header), then the
        // encoder. 1xx heads come out, to be counted (``ResponseHeadMeter``: the decoder only
        // ever gets whole heads that passed its byte bound, so its own limits are never the
        // ones that stop an answer); a leftover after the response is not ours.
        try self.channel.pipeline.syncOperations.addHandlers([
            HTTPRequestEncoder(),
            NIOHTTPRequestHeadersValidator(),
            ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .dropBytes, informationalResponseStrategy: .forward)),
        ])
    }

    /// An `EmbeddedChannel` and its pipeline hold each other until the channel is closed: without
    /// this, every connection's framing stayed in memory (LeakSanitizer, under FuzzDirectHead).
    deinit {
        _ = try? self.channel.finish(acceptAlreadyClosed: true)
    }

    /// The bytes of a `GET` for `route` with `headers` (``RequestHeadBuilder``: `Connection:
    /// close`, since this connection serves one response); nil when NIO refuses a header, so that
    /// AsyncHTTPClient, which refuses it too, reports it.
    func request(_ route: DirectRoute, headers fields: [HTTPHeaderField]) -> [UInt8]? {
        let head = RequestHeadBuilder.head(method: "GET", route: route, caller: fields)
        do {
            try self.channel.writeOutbound(HTTPClientRequestPart.head(head))
            try self.channel.writeOutbound(HTTPClientRequestPart.end(nil))
        } catch {
            return nil
        }
        var bytes: [UInt8] = []
        while let buffer = try? self.channel.readOutbound(as: ByteBuffer.self) {
            bytes += buffer.readableBytesView
        }
        return bytes
    }

    /// Decodes more response bytes.
    /// - Throws: the decoder's error (`HTTPParserError`, `NIOHTTPDecoderError`).
    func feed(_ bytes: UnsafeRawBufferPointer) throws -> [Part] {
        var buffer = self.channel.allocator.buffer(capacity: bytes.count)
        buffer.writeBytes(bytes)
        try self.channel.writeInbound(buffer)
        return try self.drain()
    }

    /// The connection closed: a body that runs to the close ends here, any other ends in an error.
    func feedEnd() throws -> [Part] {
        self.channel.pipeline.syncOperations.fireChannelInactive()
        try self.channel.throwIfErrorCaught()
        return try self.drain()
    }

    private func drain() throws -> [Part] {
        var parts: [Part] = []
        while let part = try self.channel.readInbound(as: HTTPClientResponsePart.self) {
            switch part {
            case .head(let head): parts.append(.head(head))
            case .body(let buffer): parts.append(.body(buffer))
            case .end: parts.append(.end)
            }
        }
        return parts
    }
}
