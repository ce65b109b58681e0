#if os(Linux)
import NIOCore
import NIOEmbedded
import NIOSSL
import NIOTLS

import Glibc

/// TLS for the direct path (``DirectReceiver``): swift-nio-ssl's own client handler (BoringSSL,
/// the same ``NIOSSLContext`` settings as AsyncHTTPClient's connections: trust roots, `--cacert`,
/// `--insecure`, SNI, hostname verification, TLS 1.2 and 1.3) on an `EmbeddedChannel`. The
/// receiver moves the bytes: encrypted bytes from the socket go in (``feed(_:)``), the
/// handshake's and the request's encrypted bytes come out (``outbound()``), and the plaintext
/// comes out in one buffer per batch (``takePlaintext()``), which is written to the file as it
/// is: one receive copy, one decryption, one write copy, as curl pays (the kernel has no kTLS to
/// splice through).
///
/// Not `Sendable`: it lives and dies on the receiver's thread.
final class DirectTLS {
    private let channel: EmbeddedChannel
    /// The server ended its side with close_notify: an end of the stream that is not a cut.
    private(set) var closedByServer = false
    /// The handshake is done (the certificate accepted); the request has gone out with the
    /// next ``outbound()``.
    private(set) var handshakeDone = false

    /// - Parameters:
    ///   - serverHostname: the name for SNI and for the certificate's check; nil for an IP
    ///     address, which is checked against the certificate's addresses (`peer`).
    ///   - peer: the address connected to.
    init(context: NIOSSLContext, serverHostname: String?, peer: SocketAddress) throws {
        self.channel = EmbeddedChannel()
        try self.channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverHostname))
        try self.channel.pipeline.syncOperations.addHandler(
            SessionWatcher(
                handshakeDone: { [weak self] in self?.handshakeDone = true },
                closed: { [weak self] in self?.closedByServer = true }))
        // Active: the handler starts the handshake (its ClientHello is the first outbound bytes),
        // and the address is the one hostname verification compares an IP address with.
        self.channel.connect(to: peer, promise: nil)
    }

    /// The name to send as SNI and check the certificate against: nil for an IP address (as
    /// AsyncHTTPClient does).
    static func serverHostname(for host: String) -> String? {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1 { return nil }
        return host
    }

    /// Plaintext to send; it goes out encrypted once the handshake is done (``outbound()``).
    func write(_ bytes: [UInt8]) throws {
        var buffer = self.channel.allocator.buffer(capacity: bytes.count)
        buffer.writeBytes(bytes)
        // Not writeOutbound, which waits for the write's promise: the handler holds the write
        // until the handshake is done.
        self.channel.pipeline.syncOperations.writeAndFlush(NIOAny(buffer), promise: nil)
        try self.channel.throwIfErrorCaught()
    }

    /// The encrypted bytes waiting to be sent.
    func outbound() -> [ByteBuffer] {
        var buffers: [ByteBuffer] = []
        while let buffer = try? self.channel.readOutbound(as: ByteBuffer.self) { buffers.append(buffer) }
        return buffers
    }

    /// Hands received encrypted bytes to BoringSSL; the plaintext gathers until
    /// ``takePlaintext()``.
    /// - Throws: the handshake's or the record layer's error (``TransferError/init(transport:)``
    ///   says it as for AsyncHTTPClient's connections).
    func feed(_ bytes: ByteBuffer) throws {
        guard self.channel.isActive else { return }
        self.channel.pipeline.syncOperations.fireChannelRead(NIOAny(bytes))
        try self.channel.throwIfErrorCaught()
    }

    /// The plaintext decrypted since the last call (nil: none).
    func takePlaintext() throws -> ByteBuffer? {
        if self.channel.isActive { self.channel.pipeline.syncOperations.fireChannelReadComplete() }
        try self.channel.throwIfErrorCaught()
        var first: ByteBuffer?
        while let buffer = try self.channel.readInbound(as: ByteBuffer.self) {
            if first == nil { first = buffer } else { first?.writeImmutableBuffer(buffer) }
        }
        return first
    }

    /// Ends the session without waiting for the server's close_notify: the socket closes next,
    /// and the handler's pending close timer is run at once so that the pipeline is torn down.
    func close() {
        if self.channel.isActive { self.channel.close(promise: nil) }
        self.channel.embeddedEventLoop.advanceTime(by: .hours(1))
        _ = try? self.channel.throwIfErrorCaught()
        _ = self.outbound()
    }
}

/// Notes that the TLS handler finished the handshake, and that it closed the channel (the
/// server's close_notify, or a failure).
private final class SessionWatcher: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    private let handshakeDone: () -> Void
    private let closed: () -> Void

    init(handshakeDone: @escaping () -> Void, closed: @escaping () -> Void) {
        self.handshakeDone = handshakeDone
        self.closed = closed
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? TLSUserEvent, case .handshakeCompleted = event { self.handshakeDone() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.closed()
        context.fireChannelInactive()
    }
}
#endif
