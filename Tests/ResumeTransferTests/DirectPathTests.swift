import Foundation
@testable import ResumeDataCodec
import Testing

@testable import ResumeTransfer

@Suite struct DirectRouteTests {
    @Test func plainHTTPURLsBecomeRoutes() throws {
        #expect(directRoute("http://example.com/a/b.iso?x=1&y=%20") == route("example.com", 80, "/a/b.iso?x=1&y=%20", "example.com"))
        #expect(directRoute("http://127.0.0.1:8080") == route("127.0.0.1", 8080, "/", "127.0.0.1:8080"))
        #expect(directRoute("HTTP://Example.com:80/%7Euser/") == route("Example.com", 80, "/%7Euser/", "Example.com"))
        #expect(directRoute("http://h/dir/file%20name.bin") == route("h", 80, "/dir/file%20name.bin", "h"))
    }

    @Test func ipv6LiteralsBecomeRoutesWithABracketedHost() throws {
        #expect(directRoute("http://[::1]:8080/file") == route("::1", 8080, "/file", "[::1]:8080"))
        #expect(directRoute("https://[2001:db8::5]/") == route("2001:db8::5", 443, "/", "[2001:db8::5]", tls: true))
    }

    @Test func httpsURLsBecomeTLSRoutes() throws {
        #expect(directRoute("https://example.com/a.iso") == route("example.com", 443, "/a.iso", "example.com", tls: true))
        #expect(directRoute("HTTPS://example.com:443/") == route("example.com", 443, "/", "example.com", tls: true))
        #expect(directRoute("https://127.0.0.1:8443") == route("127.0.0.1", 8443, "/", "127.0.0.1:8443", tls: true))
        // Port 80 is not https's default: named in Host.
        #expect(directRoute("https://h:80/x") == route("h", 80, "/x", "h:80", tls: true))
    }

    @Test(arguments: [
        "ftp://example.com/file", "http:///nohost", "http://[fe80::1%25eth0]:8080/file", "http://[::1/",
        "example.com/file", "", "http://exa mple.com/", "http://host:0/", "http://host:70000/",
    ])
    func otherURLsGoThroughTheClient(url: String) {
        #expect(directRoute(url) == nil)
    }

    private func route(_ host: String, _ port: Int, _ target: String, _ hostHeader: String, tls: Bool = false) -> DirectRoute? {
        guard var value = directRoute(tls ? "https://placeholder/" : "http://placeholder/") else { return nil }
        value.host = host
        value.port = port
        value.target = target
        value.hostHeader = hostHeader
        return value
    }
}

@Suite struct HTTP1FramingTests {
    @Test func theRequestIsAGETThatClosesTheConnection() throws {
        let framing = try HTTP1Framing()
        let route = try #require(directRoute("http://127.0.0.1:8080/file.bin?v=2"))
        let bytes = try #require(framing.request(route, headers: fields([
            "Range": "bytes=100-", "If-Range": "\"v1\"", "Connection": "keep-alive",
        ])))
        #expect(String(decoding: bytes, as: UTF8.self) == """
            GET /file.bin?v=2 HTTP/1.1\r
            Host: 127.0.0.1:8080\r
            Range: bytes=100-\r
            If-Range: "v1"\r
            Connection: close\r
            \r

            """)
    }

    @Test func aHostGivenByTheCallerIsKept() throws {
        let framing = try HTTP1Framing()
        let route = try #require(directRoute("http://127.0.0.1/"))
        let bytes = try #require(framing.request(route, headers: fields(["host": "files.example"])))
        // First, as RFC 9112 (3.2) asks, and once (``RequestHeadBuilder``, as an upload's).
        #expect(String(decoding: bytes, as: UTF8.self) == "GET / HTTP/1.1\r\nHost: files.example\r\nConnection: close\r\n\r\n")
    }

    @Test(arguments: ["a\r\nInjected: 1", "a\nb", "a\rb", "a\u{0}b"])
    func aHeaderThatWouldSplitTheRequestIsRefused(value: String) {
        // The type refuses them before any framing sees them.
        #expect(throws: HTTPHeaderField.Problem.lineBreakInValue(name: "X-Token")) { try HTTPHeaderField(name: "X-Token", value: value) }
        #expect(throws: HTTPHeaderField.Problem.invalidName("Bad Name")) { try HTTPHeaderField(name: "Bad Name", value: "v") }
    }

    @Test func theDecoderGivesInformationalHeadsToCountAndDecodesChunks() throws {
        let framing = try HTTP1Framing()
        let route = try #require(directRoute("http://127.0.0.1/"))
        _ = try #require(framing.request(route, headers: []))
        let text = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
        let parts = try Array(text.utf8).withUnsafeBytes { try framing.feed($0) }
        // The 1xx head comes out alone (no end), for ResponseHeadMeter to count.
        guard parts.count == 4, case .head(let early) = parts[0], case .head(let head) = parts[1],
              case .body(let body) = parts[2], case .end = parts[3]
        else {
            Issue.record("unexpected parts \(parts)")
            return
        }
        #expect(early.status.code == 100)
        #expect(head.status.code == 200)
        #expect(String(buffer: body) == "hello")
    }
}

/// Downloads through the direct path (``DirectReceiver``): the same engine tests as everywhere
/// run on it for plain http, and these cover what only it does.
@Suite struct DirectPathTests {
    @Test(arguments: [true, false])
    func plainHTTPReadsItsOwnSocketUnlessTurnedOff(direct: Bool) async throws {
        var configuration = fastConfiguration()
        configuration.usesDirectPath = direct
        try await withServer(oneMiB, configuration: configuration) { server, downloader, directory in
            let destination = directory + "/file.bin"
            #expect(await downloader.download(from: server.url, to: destination).result() == .completed)
            #expect(contents(destination) == oneMiB)
            // The direct path asks the server to close the connection; AsyncHTTPClient keeps it.
            #expect(server.getRequests.first?.headers["connection"] == (direct ? "close" : nil))
            #expect(server.getRequests.first?.headers["host"] == server.authority)
            #expect(server.getRequests.first?.headers["accept-encoding"] == "identity")
        }
    }

    /// Every segment goes the way the first response went (``ConnectionOpener``).
    @Test(arguments: [true, false])
    func severalConnectionsTakeTheDirectPathUnlessTurnedOff(direct: Bool) async throws {
        var configuration = fastConfiguration()
        configuration.connections = 2
        // Two halves of 512 KiB, neither split again: the requests are exactly known.
        configuration.minimumSegmentBytes = 512 << 10
        configuration.usesDirectPath = direct
        try await withServer(oneMiB, configuration: configuration) { server, downloader, directory in
            let destination = directory + "/file.bin"
            #expect(await downloader.download(from: server.url, to: destination).result() == .completed)
            #expect(contents(destination) == oneMiB)
            #expect(server.getRequests.map { $0.headers["range"] } == [nil, "bytes=524288-1048575"])
            #expect(server.getRequests.allSatisfy { $0.headers["connection"] == (direct ? "close" : nil) })
        }
    }

    @Test func aDroppedConnectionContinuesAtTheExactByte() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            server.script([.dropAfter(300_000)])
            let destination = directory + "/file.bin"
            #expect(await downloader.download(from: server.url, to: destination).result() == .completed)
            #expect(contents(destination) == oneMiB)
            // Every byte that arrived before the close was written and counted.
            #expect(server.getRequests.map { $0.headers["range"] } == [nil, "bytes=300000-"])
        }
    }

    @Test func pausedWhileReceivingThenContinued() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            // The server sends all but the last 300,000 bytes and then nothing, so however late
            // a loaded machine runs this test, the download is still under way when it pauses.
            server.throttle(bytesPerSecond: 500_000)
            server.holdBack(300_000)
            let destination = directory + "/file.bin"
            let task = downloader.download(from: server.url, to: destination)
            // Paused once bytes are arriving (a loaded machine may take a while to start).
            for _ in 0..<3000 where (contents(destination + ".part")?.count ?? 0) < 100_000 {
                try await Task.sleep(for: .milliseconds(20))
            }
            let blob = try #require(await task.pause())
            #expect(await task.result() == .paused)
            let checkpoint = try ResumeCheckpoint.decode(blob).checkpoint
            let size = try #require(contents(destination + ".part")?.count)
            #expect(checkpoint.bytesReceived == Int64(size))
            #expect(size > 0 && size < oneMiB.count)
            #expect(contents(destination + ".part") == oneMiB.prefix(size))
            server.throttle(bytesPerSecond: nil)
            server.holdBack(0)
            #expect(await downloader.download(from: server.url, to: destination).result() == .completed)
            #expect(contents(destination) == oneMiB)
            #expect(server.getRequests.last?.headers["range"] == "bytes=\(size)-")
        }
    }

    // MARK: answers no HTTP library writes

    @Test func oneBytePiecesMakeTheSameFile() async throws {
        let body = Array(testData(count: 3000, seed: 7))
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: 3000\r\nETag: \"p\"\r\n\r\n".utf8)
        let (state, file, _) = try await download(from: [(head + body).map { .send([$0]) }])
        #expect(state == .completed)
        #expect(file == Data(body))
    }

    @Test func anInformationalHeadBeforeTheAnswerIsSkipped() async throws {
        let (state, file, _) = try await download(from: [[.text("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")]])
        #expect(state == .completed)
        #expect(file == Data("hello".utf8))
    }

    @Test func aChunkedBodyIsDecoded() async throws {
        let answer = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
        let (state, file, _) = try await download(from: [[.text(answer)]])
        #expect(state == .completed)
        #expect(file == Data("hello world".utf8))
    }

    @Test func aBodyThatRunsToTheCloseIsKept() async throws {
        let (state, file, _) = try await download(from: [[.text("HTTP/1.1 200 OK\r\n\r\nall of it"), .pause(.milliseconds(50))]])
        #expect(state == .completed)
        #expect(file == Data("all of it".utf8))
    }

    @Test func aShortBodyIsContinuedWithRangeAndIfRange() async throws {
        let first = "HTTP/1.1 200 OK\r\nContent-Length: 10\r\nETag: \"x\"\r\nAccept-Ranges: bytes\r\n\r\n0123"
        let second = "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 4-9/10\r\nContent-Length: 6\r\nETag: \"x\"\r\n\r\n456789"
        let (state, file, server) = try await download(from: [[.text(first)], [.text(second)]], retries: 1)
        #expect(state == .completed)
        #expect(file == Data("0123456789".utf8))
        let again = try #require(server.requests.last?.lowercased())
        #expect(again.contains("\r\nrange: bytes=4-\r\n"))
        #expect(again.contains("\r\nif-range: \"x\"\r\n"))
    }

    @Test func aHugeHeadIsRefused() async throws {
        let answer = "HTTP/1.1 200 OK\r\nX-Filler: " + String(repeating: "a", count: 100_000) + "\r\n\r\n"
        let (state, _, _) = try await download(from: [[.text(answer), .hold]])
        #expect(state == .failed(.retriesExhausted(last: .connection(.invalidResponse("the response head is longer than 81920 bytes")), attempts: 0)))
    }

    @Test func aServerClosingBeforeItsHeadIsAConnectionFailure() async throws {
        let (state, _, _) = try await download(from: [[]])
        #expect(state == .failed(.retriesExhausted(last: .connection(.closedBeforeHead), attempts: 0)))
    }

    @Test func aBodyCutShortIsAConnectionFailureAndItsBytesAreKept() async throws {
        let (state, _, _, directory) = try await downloadKeepingFiles(
            from: [[.text("HTTP/1.1 200 OK\r\nContent-Length: 10\r\nETag: \"x\"\r\n\r\n0123")]]
        ) { directory in
            #expect(contents(directory + "/raw.bin.part") == Data("0123".utf8))
        }
        #expect(state == .failed(.retriesExhausted(last: .connection(.closedBeforeEnd(remaining: 6)), attempts: 0)))
        #expect(!exists(directory))
    }

    /// A name whose port nobody listens on, and a name that does not resolve, are said alike on
    /// both paths (AsyncHTTPClient's own words were "Connection errors: …" and "DNS error:
    /// SocketAddressError.UnknownHost: … for host …, port 443"). An address (no name) refused
    /// through AsyncHTTPClient says "connect: Connection refused": its error names no address.
    @Test(arguments: [true, false])
    func aRefusedConnectionAndAnUnknownNameAreSaidAlikeOnBothPaths(direct: Bool) async throws {
        var configuration = fastConfiguration(retries: 0)
        configuration.usesDirectPath = direct
        try await withRefusingLoopbackPort { port in
            try await withDownloader(configuration) { downloader in
                try await withTemporaryDirectory { directory in
                    let refused = await downloader.download(from: "http://localhost:\(port)/f", to: directory + "/a").result()
                    #expect(refused == .failed(.retriesExhausted(last: .connection(.cannotConnect(host: "localhost", port: port, reason: "Connection refused")), attempts: 0)))
                }
            }
        }
        // A name that does not resolve is final at once, as in curl and wget: five retries allowed,
        // none made (the error is not retriesExhausted).
        configuration = fastConfiguration(retries: 5)
        configuration.usesDirectPath = direct
        try await withDownloader(configuration) { downloader in
            try await withTemporaryDirectory { directory in
                let unknown = await downloader.download(from: "http://no-such-host.invalid/f", to: directory + "/b").result()
                guard case .failed(.cannotResolve(let host, let reason)) = unknown else {
                    Issue.record("unexpected \(unknown)")
                    return
                }
                #expect(host == "no-such-host.invalid")
                // The resolver's reason depends on the machine's network ("Name or service not
                // known", "Temporary failure in name resolution"); the words around it do not.
                #expect(TransferError.cannotResolve(host: host, reason: reason).description
                    == "connection failed: cannot resolve no-such-host.invalid: \(reason)")
                #expect(!reason.contains("SocketAddressError"))
                #expect(!reason.isEmpty)
            }
        }
    }

    /// A server that closes the connection before its answer ended is said alike on both paths,
    /// with how far the answer got (AsyncHTTPClient's own words were "HTTPClientError.
    /// remoteConnectionClosed" and "stream ended at an unexpected time").
    @Test(arguments: [true, false], [
        ("", TransportFailure.closedBeforeHead, "the server closed the connection before the response head"),
        ("HTTP/1.1 200 OK\r\nContent-Le", .closedBeforeHead, "the server closed the connection before the response head"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123", .closedBeforeEnd(remaining: 6),
         "the server closed the connection 6 bytes before the end of the body"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel", .closedBeforeEnd(remaining: nil),
         "the server closed the connection before the end of the body"),
    ])
    func anEarlyCloseIsSaidAlikeOnBothPaths(direct: Bool, cut: (answer: String, failure: TransportFailure, message: String)) async throws {
        var configuration = fastConfiguration(retries: 0)
        configuration.usesDirectPath = direct
        let (state, _, _) = try await download(from: [cut.answer.isEmpty ? [] : [.text(cut.answer)]], configuration: configuration)
        #expect(state == .failed(.retriesExhausted(last: .connection(cut.failure), attempts: 0)))
        #expect(cut.failure.description == cut.message)
    }

    @Test(arguments: [
        ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", "invalid response from the server"),
        ("HELLO WORLD\r\n\r\n", "invalid response from the server"),
        ("HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\nhello", "invalid response from the server"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n", "invalid body from the server"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel", "the server closed the connection before the end of the body"),
    ])
    func malformedAnswersFailCleanly(answer: String, reason: String) async throws {
        let (state, file, _) = try await download(from: [[.text(answer)]])
        guard case .failed(.retriesExhausted(last: .connection(let failure), attempts: 0)) = state else {
            Issue.record("unexpected \(state)")
            return
        }
        #expect(failure.description.hasPrefix(reason))
        #expect(file == nil)
    }

    @Test func aServerThatGoesQuietMidBodyStalls() async throws {
        let configuration = fastConfiguration(retries: 0, stall: .milliseconds(300))
        let (state, _, _) = try await download(
            from: [[.text("HTTP/1.1 200 OK\r\nContent-Length: 10\r\nETag: \"x\"\r\n\r\n0123"), .hold]], configuration: configuration)
        #expect(state == .failed(.retriesExhausted(last: .stalled, attempts: 0)))
    }

    @Test func aHeadThatNeverComesTimesOut() async throws {
        var configuration = fastConfiguration(retries: 0, stall: .seconds(30))
        configuration.responseTimeout = .milliseconds(300)
        let (state, _, _) = try await download(from: [[.hold]], configuration: configuration)
        #expect(state == .failed(.retriesExhausted(last: .timedOut, attempts: 0)))
    }

    /// A caller's header is an `HTTPHeaderField`, checked when it is made; a blob's is checked
    /// when the blob is read, so neither reaches a request line with a CR or LF in it.
    @Test func aHeaderThatWouldSplitTheRequestNeverReachesTheServer() async throws {
        #expect(throws: HTTPHeaderField.Problem.lineBreakInValue(name: "X-Token")) {
            try HTTPHeaderField(name: "X-Token", value: "a\r\nInjected: 1")
        }
        let server = try await RawServer.start([[.text("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")]])
        try await withDownloader(fastConfiguration(retries: 0)) { downloader in
            try await withTemporaryDirectory { directory in
                var resume = ResumeData(container: .keyedArchive)
                resume.downloadURL = server.url
                resume.bytesReceived = 0
                let request = URLRequestArchive(url: try #require(URL(string: server.url)), headers: [(name: "X-Token", value: "a\r\nInjected: 1")])
                try resume.setRequest(request, .original)
                let blob = try resume.encoded(as: .keyedArchive)
                #expect(throws: TransferError.invalidResumeData("a request header: the value of X-Token holds a line break or NUL")) {
                    try downloader.resume(resumeData: blob, to: directory + "/raw.bin")
                }
            }
        }
        #expect(server.requests.isEmpty)
        await server.stop()
    }

    // MARK: helpers

    private func download(
        from scripts: [[RawServer.Step]], retries: Int = 0, configuration: DownloadConfiguration? = nil
    ) async throws -> (DownloadState, Data?, RawServer) {
        let (state, file, server, _) = try await self.downloadKeepingFiles(from: scripts, retries: retries, configuration: configuration) { _ in }
        return (state, file, server)
    }

    private func downloadKeepingFiles(
        from scripts: [[RawServer.Step]], retries: Int = 0, configuration: DownloadConfiguration? = nil,
        inspect: (String) throws -> Void
    ) async throws -> (DownloadState, Data?, RawServer, String) {
        let server = try await RawServer.start(scripts)
        var configuration = configuration ?? fastConfiguration(retries: retries)
        configuration.responseTimeout = min(configuration.responseTimeout, .seconds(10))
        let result = try await withDownloader(configuration) { downloader in
            try await withTemporaryDirectory { directory -> (DownloadState, Data?, String) in
                let destination = directory + "/raw.bin"
                let state = await downloader.download(from: server.url, to: destination).result()
                try inspect(directory)
                return (state, contents(destination), directory)
            }
        }
        await server.stop()
        return (result.0, result.1, server, result.2)
    }
}

/// The route for `text` when the codec's `HTTPURL` accepts it, as the engine makes one.
private func directRoute(_ text: String) -> DirectRoute? {
    HTTPURL(text).flatMap(DirectRoute.init(url:))
}
