import Foundation
import Testing

/// A download and an upload say the same things on the wire (one TLS configuration, one
/// request-head builder), through the built binary over TLS: ALPN `http/1.1`, and a caller's
/// `Host` sent as given, once.
@Suite struct WireAgreementTests {
    @Test func downloadAndUploadOfferTheSameALPNAndSendTheCallersHost() async throws {
        let size = 4096
        let server = try await RawServer.start([
            [.text("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")],
            [.text("HTTP/1.1 104 Upload Resumption Supported\r\nUpload-Draft-Interop-Version: 6\r\nLocation: /up/1\r\n\r\n"), .drain(size),
             .text("HTTP/1.1 201 Created\r\nUpload-Complete: ?1\r\nContent-Length: 0\r\n\r\n")],
        ], tls: true)
        try await withTemporaryDirectory { folder in
            let origin = "https://\(server.host):\(server.port)"
            let common = ["--cacert", TestServer.certificateAuthorityFile, "-H", "Host: files.example.test", "--quiet"]
            let downloaded = try await runToolCapturing(["download", origin + "/raw.bin", "-o", "out.bin"] + common, in: folder)
            #expect(downloaded == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(folder + "/out.bin") == Data("hello".utf8))
            _ = try UploadTesting.write(UploadTesting.bytes(size), in: folder)
            let uploaded = try await runToolCapturing(["upload", "photo.bin", origin + "/files"] + common, in: folder)
            #expect(uploaded.status == 0, Comment(rawValue: uploaded.stderr + "\n" + server.journal))
            let requests = server.requests
            try #require(requests.count == 2, Comment(rawValue: server.journal))
            for request in requests {
                let hosts = request.split(separator: "\r\n").filter { $0.lowercased().hasPrefix("host:") }
                #expect(hosts == ["Host: files.example.test"], "\(request)")
            }
            #expect(server.negotiatedProtocols == [0: "http/1.1", 1: "http/1.1"])
        }
        await server.stop()
    }
}
