import Foundation
import NIOSSL
@testable import ResumeSystemCalls
import Synchronization
import Testing

@testable import ResumeTransfer

#if os(Linux)
import Glibc
#endif

/// Fails `pwrite` with `code` once `after` bytes went through it; a write that crosses the mark
/// is cut at it first (a short write, then the failure, as a disk filling up gives).
private final class WriteFault: Sendable {
    private let written = Mutex(0)
    let after: Int
    let code: Int32

    init(after: Int, code: Int32) {
        self.after = after
        self.code = code
    }

    func calls() -> FileSystemCalls {
        var calls = FileSystemCalls.system
        let real = calls.pwrite
        calls.pwrite = { descriptor, bytes, offset in
            let room = self.written.withLock { self.after - $0 }
            guard room > 0 else { return .failure(FileSystemCalls.Failure(self.code)) }
            let result = real(descriptor, UnsafeRawBufferPointer(rebasing: bytes[0..<min(room, bytes.count)]), offset)
            if case .success(let count) = result { self.written.withLock { $0 += count } }
            return result
        }
        return calls
    }
}

/// A TCP port for handshakes that do not end: it takes connections (into the kernel's backlog)
/// and never reads or answers them (`silent`), or reads each client's first bytes (the
/// ClientHello) and closes the connection, first answering as a plain-http server would
/// (`http`) or not (`close`).
private final class HandshakeBreaker: @unchecked Sendable {
    enum Answer {
        case silent
        case close
        case http
    }

    let port: Int
    private let descriptor: Int32
    /// Whether a thread accepts on the socket (and closes it when it ends).
    private let threaded: Bool

    init(_ answer: Answer) throws {
        guard let (descriptor, port) = boundLoopbackSocket(listening: true) else { throw POSIXError(.EADDRNOTAVAIL) }
        self.descriptor = descriptor
        self.port = port
        self.threaded = answer != .silent
        guard answer != .silent else { return }
        // Ends when deinit shuts the listening socket down (accept fails then), and only then
        // closes it: closed by deinit, its number could go to another test's listening socket
        // before this thread's next accept, which would then take that test's connection.
        Thread {
            let reply = Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
            while true {
                let client = accept(descriptor, nil, nil)
                if client < 0, [EINTR, ECONNABORTED, EMFILE, ENFILE].contains(errno) {
                    usleep(1_000)
                    continue
                }
                guard client >= 0 else {
                    close(descriptor)
                    return
                }
                var hello = [UInt8](repeating: 0, count: 4096)
                _ = recv(client, &hello, hello.count, 0)
                if answer == .http { _ = send(client, reply, reply.count, Int32(MSG_NOSIGNAL)) }
                close(client)
            }
        }.start()
    }

    deinit {
        shutdown(self.descriptor, Int32(SHUT_RDWR))
        if !self.threaded { close(self.descriptor) }
    }
}

/// https on the direct path (``DirectTLS`` under ``DirectReceiver``) against the in-process HTTPS
/// server: the certificate is handled as on AsyncHTTPClient's path, outcome for outcome, and the
/// engine's promises (exact continue, stall) hold through TLS. The direct path is the one whose
/// requests say `Connection: close`.
@Suite struct DirectTLSTests {
    private static let untrusted = TransferError.tls(
        "the server's certificate is not trusted (for a private certificate authority, trust it with --cacert FILE)")

    private func configuration(direct: Bool = true, trusting: Bool = true, retries: Int = 3) -> DownloadConfiguration {
        var configuration = fastConfiguration(retries: retries)
        configuration.usesDirectPath = direct
        // A handshake slower than a short timeout on a loaded machine timed out and was made
        // again: a second handshake the tests here count (SNI, trust), which are about what goes
        // out, not speed. The one test of the timeout sets its own.
        configuration.connectTimeout = .seconds(20)
        if trusting { configuration.certificateAuthorityFile = TestServer.certificateAuthorityFile }
        return configuration
    }

    private func withTLSServer<T>(
        _ data: Data = oneMiB, minimumTLSVersion: TLSVersion? = nil, maximumTLSVersion: TLSVersion? = nil,
        configuration: DownloadConfiguration, _ body: (TestServer, Downloader, String) async throws -> T
    ) async throws -> T {
        try await withServer(
            data, tls: true, minimumTLSVersion: minimumTLSVersion, maximumTLSVersion: maximumTLSVersion,
            configuration: configuration, body)
    }

    @Test(arguments: [true, false])
    func httpsReadsItsOwnSocketUnlessTurnedOff(direct: Bool) async throws {
        try await withTLSServer(configuration: self.configuration(direct: direct)) { server, downloader, directory in
            let destination = directory + "/file.bin"
            #expect(await downloader.download(from: server.url, to: destination).result() == .completed)
            #expect(contents(destination) == oneMiB)
            #expect(server.getRequests.count == 1)
            #expect(server.getRequests.first?.headers["connection"] == (direct ? "close" : nil))
            #expect(server.getRequests.first?.headers["host"] == "127.0.0.1:\(server.port)")
            // An IP address is no server name: no SNI, on either path; the certificate's
            // address is checked instead.
            #expect(server.serverNames == [nil])
        }
    }

    @Test(arguments: [true, false])
    func aNameGoesOutAsSNIAndTheCertificateMustCoverIt(direct: Bool) async throws {
        try await withTLSServer(configuration: self.configuration(direct: direct)) { server, downloader, directory in
            let url = server.url.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            #expect(await downloader.download(from: url, to: directory + "/file.bin").result() == .completed)
            #expect(contents(directory + "/file.bin") == oneMiB)
            #expect(server.serverNames == ["localhost"])
            #expect(server.getRequests.first?.headers["host"] == "localhost:\(server.port)")
            #expect(server.getRequests.first?.headers["connection"] == (direct ? "close" : nil))
        }
    }

    /// `127.1` is 127.0.0.1 to the resolver but a name to TLS (sent as SNI): swift-nio-ssl
    /// accepts the certificate for the address it reached, and both paths decide alike.
    @Test func aNameThatIsAnAddressToTheResolverIsDecidedAlikeOnBothPaths() async throws {
        for direct in [true, false] {
            try await withTLSServer(configuration: self.configuration(direct: direct, retries: 0)) { server, downloader, directory in
                let url = server.url.replacingOccurrences(of: "127.0.0.1", with: "127.1")
                #expect(await downloader.download(from: url, to: directory + "/file.bin").result() == .completed)
                #expect(server.serverNames == ["127.1"])
                #expect(server.getRequests.first?.headers["connection"] == (direct ? "close" : nil))
            }
        }
    }

    @Test(arguments: [true, false])
    func anUntrustedCertificateIsAFinalError(direct: Bool) async throws {
        let configuration = self.configuration(direct: direct, trusting: false)
        try await withTLSServer(configuration: configuration) { server, downloader, directory in
            let task = downloader.download(from: server.url, to: directory + "/file.bin")
            #expect(await task.result() == .failed(Self.untrusted))
            // Final: one handshake, no retry, no request, no file.
            #expect(server.serverNames.count == 1)
            #expect(server.getRequests.isEmpty)
            #expect(!exists(directory + "/file.bin"))
        }
    }

    @Test func insecureAcceptsTheCertificateOnTheDirectPath() async throws {
        var configuration = self.configuration(trusting: false)
        configuration.acceptsAnyCertificate = true
        try await withTLSServer(configuration: configuration) { server, downloader, directory in
            #expect(await downloader.download(from: server.url, to: directory + "/file.bin").result() == .completed)
            #expect(contents(directory + "/file.bin") == oneMiB)
            #expect(server.getRequests.first?.headers["connection"] == "close")
        }
    }

    @Test(arguments: [TLSVersion.tlsv12, .tlsv13])
    func bothTLSVersionsServeTheDirectPath(version: TLSVersion) async throws {
        try await withTLSServer(minimumTLSVersion: version, maximumTLSVersion: version, configuration: self.configuration()) {
            server, downloader, directory in
            #expect(await downloader.download(from: server.url, to: directory + "/file.bin").result() == .completed)
            #expect(contents(directory + "/file.bin") == oneMiB)
            #expect(server.getRequests.first?.headers["connection"] == "close")
        }
    }

    @Test func aDroppedTLSConnectionContinuesAtTheExactByte() async throws {
        try await withTLSServer(configuration: self.configuration()) { server, downloader, directory in
            server.script([.dropAfter(300_000)])
            let destination = directory + "/file.bin"
            #expect(await downloader.download(from: server.url, to: destination).result() == .completed)
            #expect(contents(destination) == oneMiB)
            #expect(server.getRequests.map { $0.headers["range"] } == [nil, "bytes=300000-"])
            #expect(server.getRequests.allSatisfy { $0.headers["connection"] == "close" })
        }
    }

    @Test func aStalledTLSConnectionIsRetriedFromItsLastByte() async throws {
        var configuration = self.configuration()
        // The stall timer also runs through the response head: 400 ms was too short for a whole
        // `swift test` on two cores (once the first attempt ended before writing a byte); 2 s,
        // as the plain-http stall test.
        configuration.stallTimeout = .seconds(2)
        try await withTLSServer(configuration: configuration) { server, downloader, directory in
            server.script([.stallAfter(200_000)])
            let destination = directory + "/file.bin"
            #expect(await downloader.download(from: server.url, to: destination).result() == .completed)
            #expect(contents(destination) == oneMiB)
            #expect(server.getRequests.map { $0.headers["range"] } == [nil, "bytes=200000-"])
        }
    }

    /// IPv6 literals take the direct path too, plain and TLS. The test certificate names
    /// 127.0.0.1 and localhost, not ::1: trusted only with `--insecure`, refused alike on both
    /// paths otherwise.
    @Test(arguments: [false, true])
    func anIPv6LiteralTakesTheDirectPath(tls: Bool) async throws {
        var configuration = self.configuration(retries: 0)
        configuration.acceptsAnyCertificate = tls
        let server = try await TestServer.start(serving: oneMiB, tls: tls, host: "::1")
        defer { Task { await server.stop() } }
        #expect(server.url == "\(tls ? "https" : "http")://[::1]:\(server.port)/file.bin")
        try await withDownloader(configuration) { downloader in
            try await withTemporaryDirectory { directory in
                #expect(await downloader.download(from: server.url, to: directory + "/file.bin").result() == .completed)
                #expect(contents(directory + "/file.bin") == oneMiB)
                #expect(server.getRequests.first?.headers["connection"] == "close")
                #expect(server.getRequests.first?.headers["host"] == "[::1]:\(server.port)")
            }
        }
    }

    @Test func anIPv6AddressTheCertificateDoesNotNameIsRefusedAlikeOnBothPaths() async throws {
        let server = try await TestServer.start(serving: oneMiB, tls: true, host: "::1")
        defer { Task { await server.stop() } }
        var results: [DownloadState] = []
        for direct in [true, false] {
            try await withDownloader(self.configuration(direct: direct, retries: 0)) { downloader in
                try await withTemporaryDirectory { directory in
                    results.append(await downloader.download(from: server.url, to: directory + "/file.bin").result())
                }
            }
        }
        #expect(results.count == 2)
        #expect(results.first == results.last)
        #expect(results.first == .failed(.tls("the server's certificate is not valid for the address connected to (it was made for another name)")))
        #expect(server.getRequests.isEmpty)
    }

    /// A chain the client trusts (`--cacert`) for a DNS name it did not ask for: the server's
    /// certificate names only elsewhere.invalid, the URL says localhost. Refused alike on both
    /// paths, before any request is sent; the name went out as SNI all the same.
    @Test func aTrustedCertificateForAnotherNameIsRefusedAlikeOnBothPaths() async throws {
        let server = try await TestServer.start(serving: oneMiB, tls: true, certificate: "elsewhere")
        defer { Task { await server.stop() } }
        let authority = URL(fileURLWithPath: TestServer.certificateAuthorityFile).deletingLastPathComponent().path + "/elsewhere-ca.pem"
        let url = server.url.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        var results: [DownloadState] = []
        for direct in [true, false] {
            var configuration = self.configuration(direct: direct, trusting: false)
            configuration.certificateAuthorityFile = authority
            try await withDownloader(configuration) { downloader in
                try await withTemporaryDirectory { directory in
                    results.append(await downloader.download(from: url, to: directory + "/file.bin").result())
                    #expect((try? FileManager.default.contentsOfDirectory(atPath: directory)) == [])
                }
            }
        }
        #expect(results.count == 2)
        #expect(results.first == results.last)
        #expect(results.first == .failed(.tls("the server's certificate is not valid for localhost (it was made for another name)")))
        // Final: one handshake per path, no retry, no request.
        #expect(server.getRequests.isEmpty)
        #expect(server.serverNames == ["localhost", "localhost"])
    }

    /// Each receive on the direct https path asks for a whole write batch (at least a TLS
    /// record), while BoringSSL is handed at most 256 KiB of it before the plaintext is written:
    /// bytes received beyond that wait for the next batch (a batch smaller than a record leaves
    /// some every time), and the file is the server's, byte for byte.
    @Test(arguments: [1 << 20, 5_000])
    func aReceiveAsksForABatchAndTLSTakesItAPieceAtATime(batch: Int) async throws {
        let served = testData(count: 3 << 20, seed: 81)
        let server = try await TestServer.start(serving: served, tls: true)
        defer { Task { await server.stop() } }
        let asks = Mutex<[Int]>([])
        let writes = Mutex<[Int]>([])
        var calls = FileSystemCalls.system
        let recv = calls.sockets.recv
        calls.sockets.recv = { socket, buffer in
            asks.withLock { $0.append(buffer.count) }
            return recv(socket, buffer)
        }
        let pwrite = calls.pwrite
        calls.pwrite = { descriptor, bytes, offset in
            writes.withLock { $0.append(bytes.count) }
            return pwrite(descriptor, bytes, offset)
        }
        try await withTemporaryDirectory { directory in
            var configuration = self.configuration()
            configuration.writeBatchBytes = batch
            let destination = directory + "/f.bin"
            let downloader = Downloader(configuration: configuration, calls: calls)
            #expect(await downloader.download(from: server.url, to: destination).result() == .completed)
            try await downloader.shutdown()
            #expect(contents(destination) == served)
        }
        #expect(Set(asks.withLock { $0 }) == [max(batch, 16 * 1024 + 64)])
        // A piece of at most min(batch, 256 KiB) encrypted bytes, plus a record BoringSSL held
        // from the piece before, decrypts to at most this much.
        let largest = try #require(writes.withLock { $0.max() })
        #expect(largest <= min(batch, 256 << 10) + (16 << 10))
    }

    /// Connecting is TCP and TLS (``DownloadConfiguration/connectTimeout``): a server that takes
    /// the connection and never answers the ClientHello is a connect timeout on both paths, not a
    /// stall (which the stall timer, shorter than the response timeout here, would make of it).
    @Test(arguments: [true, false])
    func aHandshakeThatNeverEndsIsAConnectTimeoutOnBothPaths(direct: Bool) async throws {
        let listener = try HandshakeBreaker(.silent)
        var configuration = self.configuration(direct: direct, retries: 0)
        configuration.connectTimeout = .milliseconds(300)
        configuration.stallTimeout = .seconds(60)
        configuration.responseTimeout = .seconds(120)
        try await withDownloader(configuration) { downloader in
            try await withTemporaryDirectory { directory in
                let state = await downloader.download(from: "https://127.0.0.1:\(listener.port)/f.bin", to: directory + "/f.bin").result()
                #expect(state == .failed(.retriesExhausted(last: .timedOut, attempts: 0)))
                #expect(!exists(directory + "/f.bin.part"))
            }
        }
    }

    /// A handshake the server breaks after the ClientHello, said alike on both paths: a close is a
    /// broken connection, retried as one (AsyncHTTPClient's was a final "handshake failed:
    /// sslError([Error:  EOF during handshake])"); an answer in HTTP, which is what an https URL
    /// for a plain-http server meets, is a final TLS error that says what is likely wrong.
    @Test(arguments: [true, false], [false, true])
    func aBrokenHandshakeIsSaidAlikeOnBothPaths(direct: Bool, answeredInHTTP: Bool) async throws {
        let listener = try HandshakeBreaker(answeredInHTTP ? .http : .close)
        let expected: DownloadState = answeredInHTTP
            ? .failed(.tls("the server did not answer in TLS (WRONG_VERSION_NUMBER): does it serve http rather than https?"))
            : .failed(.retriesExhausted(last: .connection(.closedDuringHandshake), attempts: 1))
        try await withDownloader(self.configuration(direct: direct, retries: 1)) { downloader in
            try await withTemporaryDirectory { directory in
                let state = await downloader.download(from: "https://127.0.0.1:\(listener.port)/f.bin", to: directory + "/f.bin").result()
                #expect(state == expected)
                #expect(!exists(directory + "/f.bin.part"))
            }
        }
    }

    /// A disk that fills up in the middle of an https body (a short write, then ENOSPC): a final
    /// error naming the partial file, on both paths, and a valid partial download left behind.
    @Test(arguments: [true, false])
    func aFullDiskInTheMiddleOfAnHTTPSBodyEndsTheAttemptAndTheNextRunFinishes(direct: Bool) async throws {
        let served = testData(count: 4 << 20, seed: 78)
        let server = try await TestServer.start(serving: served, tls: true)
        defer { Task { await server.stop() } }
        try await withTemporaryDirectory { directory in
            var configuration = fastConfiguration(retries: 2)
            configuration.usesDirectPath = direct
            configuration.certificateAuthorityFile = TestServer.certificateAuthorityFile
            configuration.checkpointBytes = 256 << 10
            let destination = directory + "/f.bin"
            let fault = WriteFault(after: 1 << 20, code: ENOSPC)
            let downloader = Downloader(configuration: configuration, calls: fault.calls())
            let state = await downloader.download(from: server.url, to: destination).result()
            try await downloader.shutdown()
            // A full disk is not retried; the error names the file whose write failed: the
            // partial file, or the checkpoint when the timer wrote one just as the disk filled
            // (the fault counts the bytes of both).
            guard case .failed(.disk(let message)) = state else {
                Issue.record("expected a disk failure, got \(state)")
                return
            }
            let full = String(cString: strerror(ENOSPC))
            #expect(["write \(destination).part: \(full)", "write \(destination).resume: \(full)"].contains(message))
            #expect(server.getRequests.count == 1)
            let blob = try Data(contentsOf: URL(fileURLWithPath: destination + ".resume"))
            let claimed = Int(try ResumeCheckpoint.decode(blob).checkpoint.bytesReceived)
            let part = try #require(contents(destination + ".part"))
            // Whether a checkpoint landed before the disk filled is the checkpoint timer's
            // business; whatever the blob claims is in the file.
            #expect(claimed <= part.count)
            #expect(part.count <= 1 << 20)
            #expect(part.prefix(claimed) == served.prefix(claimed))

            let again = Downloader(configuration: configuration)
            #expect(await again.download(from: server.url, to: destination).result() == .completed)
            try await again.shutdown()
            #expect(contents(destination) == served)
            #expect(server.getRequests.last?.headers["range"] == (claimed > 0 ? "bytes=\(claimed)-" : nil))
        }
    }
}
