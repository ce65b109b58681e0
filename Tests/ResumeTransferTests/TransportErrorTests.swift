import AsyncHTTPClient
import NIOCore
import NIOSSL
import Testing

@testable import ResumeTransfer

#if canImport(Glibc)
import Glibc
#endif

/// What AsyncHTTPClient's, NIO's and NIOSSL's errors become (``DownloadError/init(transport:)``),
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
        #expect(DownloadError(transport: IOError(errnoCode: code, reason: call)) == .connection(message))
    }

    @Test func aCloseDuringTheHandshakeIsABrokenConnection() {
        let error = NIOSSLError.handshakeFailed(.sslError([.eofDuringHandshake]))
        #expect(DownloadError(transport: error) == .connection("the server closed the connection during the TLS handshake"))
    }

    @Test func timeoutsAreStallsOrTimeOuts() {
        #expect(DownloadError(transport: HTTPClientError.readTimeout) == .stalled)
        #expect(DownloadError(transport: HTTPClientError.connectTimeout) == .timedOut)
        #expect(DownloadError(transport: HTTPClientError.deadlineExceeded) == .timedOut)
    }
}
