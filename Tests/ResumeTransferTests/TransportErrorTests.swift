import AsyncHTTPClient
import NIOCore
import NIOSSL
import Testing

@testable import ResumeTransfer

#if canImport(Glibc)
import Glibc
#endif

/// What AsyncHTTPClient's, NIO's and NIOSSL's errors become (``TransferError/init(transport:)``),
/// value by value: the words the direct path uses for the same failures.
@Suite struct TransportErrorTests {
    @Test(arguments: [
        ("read(descriptor:pointer:size:)", ECONNRESET, "receive: Connection reset by peer"),
        ("readv(descriptor:iovecs:)", ECONNRESET, "receive: Connection reset by peer"),
        ("recvmsg", ETIMEDOUT, "receive: Connection timed out"),
        ("write(descriptor:pointer:size:)", EPIPE, "send: Broken pipe"),
        ("writev(descriptor:iovecs:)", ECONNRESET, "send: Connection reset by peer"),
        ("sendmsg", EPIPE, "send: Broken pipe"),
        ("connect(descriptor:addr:size:)", ECONNREFUSED, "connect: Connection refused"),
        ("connection reset (error set)", ECONNREFUSED, "connect: Connection refused"),
        ("shutdown", ENOTCONN, "shutdown: Transport endpoint is not connected"),
        ("", EIO, "system call: Input/output error"),
    ] as [(String, CInt, String)])
    func aFailedSystemCallIsSaidAsTheDirectPathSaysIt(call: String, code: CInt, message: String) {
        let failure = TransportFailure.systemCall(String(message.prefix { $0 != ":" }), reason: String(cString: strerror(code)))
        #expect(TransferError(transport: IOError(errnoCode: code, reason: call)) == .connection(failure))
        #expect(failure.description == message)
    }

    @Test func aCloseDuringTheHandshakeIsABrokenConnection() {
        let error = NIOSSLError.handshakeFailed(.sslError([.eofDuringHandshake]))
        #expect(TransferError(transport: error) == .connection(.closedDuringHandshake))
    }

    /// ResponseHeadGuard's verdict on AsyncHTTPClient's path is the failure the direct path's
    /// reader reports for the same bound.
    @Test func aBrokenHeadBoundIsTheSameFailureOnBothPaths() {
        #expect(TransferError(transport: ResponseHeadLimits.Exceeded.headBytes(81920))
            == .connection(.invalidResponse("the response head is longer than 81920 bytes")))
        #expect(TransferError(transport: ResponseHeadLimits.Exceeded.fields(512))
            == .connection(.invalidResponse("the response head has more than 512 header fields")))
    }

    /// Every failure's words, from the one function that has them.
    @Test(arguments: [
        (TransportFailure.cannotConnect(host: "h.test", port: 81, reason: "Connection refused"), "connect to h.test port 81: Connection refused"),
        (.systemCall("receive", reason: "Connection reset by peer"), "receive: Connection reset by peer"),
        (.closedDuringHandshake, "the server closed the connection during the TLS handshake"),
        (.closedBeforeHead, "the server closed the connection before the response head"),
        (.closedBeforeEnd(remaining: 6), "the server closed the connection 6 bytes before the end of the body"),
        (.closedBeforeEnd(remaining: nil), "the server closed the connection before the end of the body"),
        (.closedWithoutTLSEnd, "the server closed the connection without ending TLS (close_notify): the body may be cut short"),
        (.proxyRefusedTunnel, "the proxy refused to open a tunnel to the server"),
        (.invalidResponse("invalid Content-Length: -1"), "invalid Content-Length: -1"),
        (.other("closed"), "closed"),
    ])
    func eachFailureHasItsWords(failure: TransportFailure, words: String) {
        #expect(failure.description == words)
        #expect(TransferError.connection(failure).description == "connection failed: " + words)
    }

    @Test func timeoutsAreStallsOrTimeOuts() {
        #expect(TransferError(transport: HTTPClientError.readTimeout) == .stalled)
        #expect(TransferError(transport: HTTPClientError.connectTimeout) == .timedOut)
        #expect(TransferError(transport: HTTPClientError.deadlineExceeded) == .timedOut)
    }
}
