import Foundation
import Testing

@testable import ResumeTransfer

/// Uploads through an in-process proxy, through the built binary: a `CONNECT` tunnel for http
/// and https (TLS inside the tunnel), SOCKS5, the proxy's credentials to the proxy only, and a
/// proxy that wants credentials it was not given. The URL's host does not resolve: only the
/// proxy, which tunnels every host to the server's address, can reach the server. Each file goes
/// in its creation request, so every tunnel is to the URL's host.
@Suite(.serialized) struct UploadProxyTests {
    static let size = 300_000

    @Test func anUploadGoesThroughTheProxysTunnelWithItsCredentialsToTheProxyOnly() async throws {
        let server = try await AppleUploadServer.start()
        let proxy = try await TestProxy.start(username: "uploader", password: "p w", tunnelHost: server.host)
        try await withTemporaryDirectory { folder in
            let bytes = UploadTesting.bytes(Self.size)
            _ = try UploadTesting.write(bytes, in: folder)
            let url = "http://upload.invalid:\(server.port)/files/photo.bin"
            let run = try await runToolCapturing(
                ["upload", "photo.bin", url, "--proxy", "http://uploader:p%20w@127.0.0.1:\(proxy.port)", "-H", "Authorization: Bearer s3cret"],
                in: folder)
            #expect(run.status == 0, Comment(rawValue: run.stderr))
            #expect(server.stored("/files/photo.bin").map { $0 == bytes } == true)
            let requests = proxy.requests
            #expect(!requests.isEmpty)
            let basic = "Basic " + Data("uploader:p w".utf8).base64EncodedString()
            for request in requests {
                #expect(request.method == "CONNECT" && request.target == "upload.invalid:\(server.port)")
                #expect(request.authorization == basic)
                // The server's credentials went inside the tunnel, never to the proxy.
                #expect(!request.headerNames.contains("authorization"))
            }
        }
        await proxy.stop()
        await server.stop()
    }

    /// https is tunnelled as is: the proxy sees the host and port, the server the request.
    @Test func httpsGoesThroughTheTunnelWithTLSInside() async throws {
        let server = try await RawServer.start([
            [.text("HTTP/1.1 104 Upload Resumption Supported\r\nUpload-Draft-Interop-Version: 6\r\nLocation: /up/1\r\n\r\n"),
             .drain(Self.size), .text("HTTP/1.1 201 Created\r\nUpload-Complete: ?1\r\nContent-Length: 0\r\n\r\n")],
        ], tls: true)
        let proxy = try await TestProxy.start()
        try await withTemporaryDirectory { folder in
            let bytes = UploadTesting.bytes(Self.size)
            _ = try UploadTesting.write(bytes, in: folder)
            let run = try await runToolCapturing(
                ["upload", "photo.bin", "https://upload.invalid:\(server.port)/files", "--insecure"],
                in: folder, environment: ["https_proxy": proxy.url])
            let story = Comment(rawValue: "\(run.stderr)\nserver:\n\(server.journal)")
            #expect(run.status == 0, story)
            #expect(proxy.requests.map(\.method) == ["CONNECT"])
            #expect(proxy.requests.first?.target == "upload.invalid:\(server.port)")
            #expect(server.requests.first?.hasPrefix("POST /files HTTP/1.1\r\nHost: upload.invalid:\(server.port)\r\n") == true, story)
            let same = server.body(ofConnection: 0) == bytes
            #expect(same, "the body differs")
        }
        await proxy.stop()
        await server.stop()
    }

    /// A name goes to the proxy to resolve, an IPv6 address as an address.
    @Test(arguments: ["upload.invalid", "[::1]"])
    func aSOCKS5ProxyCarriesTheUpload(host: String) async throws {
        let server = try await AppleUploadServer.start()
        let proxy = try await TestProxy.start(tunnelHost: server.host)
        try await withTemporaryDirectory { folder in
            let bytes = UploadTesting.bytes(Self.size)
            _ = try UploadTesting.write(bytes, in: folder)
            let run = try await runToolCapturing(
                ["upload", "photo.bin", "http://\(host):\(server.port)/files/photo.bin", "--proxy", "socks5h://127.0.0.1:\(proxy.port)"],
                in: folder)
            #expect(run.status == 0, Comment(rawValue: run.stderr))
            #expect(server.stored("/files/photo.bin").map { $0 == bytes } == true)
            #expect(!proxy.requests.isEmpty)
            #expect(proxy.requests.allSatisfy { $0.method == "SOCKS5" && $0.target == "\(host):\(server.port)" })
        }
        await proxy.stop()
        await server.stop()
    }

    /// A proxy that wants credentials stops the upload at once (not retried), in a download's words;
    /// `--noproxy` reaches the server directly.
    @Test func aProxyThatWantsCredentialsStopsTheUploadAndNoProxyGoesAroundIt() async throws {
        let server = try await AppleUploadServer.start()
        let proxy = try await TestProxy.start(username: "u", password: "p", tunnelHost: server.host)
        try await withTemporaryDirectory { folder in
            let bytes = UploadTesting.bytes(Self.size)
            _ = try UploadTesting.write(bytes, in: folder)
            let refused = try await runToolCapturing(
                ["upload", "photo.bin", "\(server.origin)/files/photo.bin", "--proxy", proxy.url], in: folder)
            #expect(refused == ToolResult(status: 1, stdout: "", stderr:
                "photo.bin: error: bad proxy: the proxy asks for credentials (407): give them in its URL, http://USER:PASSWORD@HOST:PORT\n"))
            #expect(proxy.requests.count == 1)
            #expect(server.stored("/files/photo.bin") == nil)

            let direct = try await runToolCapturing(
                ["upload", "photo.bin", "\(server.origin)/files/photo.bin", "--proxy", proxy.url, "--noproxy", server.host], in: folder)
            #expect(direct.status == 0, Comment(rawValue: direct.stderr))
            #expect(proxy.requests.count == 1)
            #expect(server.stored("/files/photo.bin").map { $0 == bytes } == true)
        }
        await proxy.stop()
        await server.stop()
    }

    /// Proxies that cannot reach the server, in a download's words: a SOCKS5 refusal and a 502
    /// to `CONNECT` are the proxy refusing the tunnel (retried as a broken connection is).
    @Test(arguments: ["socks5", "http"])
    func aProxyThatCannotReachTheServerIsARefusedTunnel(scheme: String) async throws {
        let proxy = try await TestProxy.start()
        try await withTemporaryDirectory { folder in
            _ = try UploadTesting.write(UploadTesting.bytes(1000), in: folder)
            // Nothing listens on port 1 of 127.0.0.1, where the proxy tunnels.
            let run = try await runToolCapturing(
                ["upload", "photo.bin", "http://upload.invalid:1/files", "--proxy", "\(scheme)://127.0.0.1:\(proxy.port)", "--retries", "0"],
                in: folder)
            #expect(run == ToolResult(status: 1, stdout: "", stderr:
                "photo.bin: error: gave up after 0 retries: connection failed: the proxy refused to open a tunnel to the server\n"))
            #expect(proxy.requests.map(\.target) == ["upload.invalid:1"])
        }
        await proxy.stop()
    }
}
