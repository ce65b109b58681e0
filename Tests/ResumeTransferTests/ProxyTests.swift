import Foundation
import Testing

@testable import ResumeTransfer

/// Downloads through an in-process `CONNECT` proxy, through the built binary: `--proxy`, the
/// environment's variables, credentials for the proxy, `--noproxy`, and `resume` / `recover`.
@Suite struct ProxyTests {
    func withProxy(username: String? = nil, password: String? = nil, tls: Bool = false,
                   _ body: (TestServer, TestProxy, String) async throws -> Void) async throws {
        let server = try await TestServer.start(serving: oneMiB, tls: tls)
        let proxy = try await TestProxy.start(username: username, password: password, tunnelHost: server.host)
        do {
            try await withTemporaryDirectory { directory in try await body(server, proxy, directory) }
        } catch {
            await proxy.stop()
            await server.stop()
            throw error
        }
        await proxy.stop()
        await server.stop()
    }

    /// A host that does not resolve: only the proxy, which tunnels every host to the server's address, can reach it.
    func unresolvable(_ server: TestServer) -> String {
        "http://origin.invalid:\(server.port)/file.bin"
    }

    @Test func plainHTTPGoesThroughTheProxyGiven() async throws {
        try await withProxy { server, proxy, directory in
            let result = try await runToolCapturing(
                ["download", unresolvable(server), "-o", "out.bin", "--proxy", proxy.url, "--quiet"], in: directory)
            #expect(result == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/out.bin") == oneMiB)
            // AsyncHTTPClient may open a spare connection; every one is a CONNECT to the URL's host.
            #expect(!proxy.requests.isEmpty)
            #expect(proxy.requests.allSatisfy { $0.method == "CONNECT" && $0.target == "origin.invalid:\(server.port)" })
            #expect(server.getRequests.count == 1)
        }
    }

    @Test func theEnvironmentsProxyIsUsedAndNoProxySkipsIt() async throws {
        try await withProxy { server, proxy, directory in
            let result = try await runToolCapturing(
                ["download", unresolvable(server), "-o", "out.bin", "--quiet"], in: directory,
                environment: ["http_proxy": proxy.url, "no_proxy": "example.com"])
            #expect(result == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/out.bin") == oneMiB)
            let throughProxy = proxy.requests.count
            #expect(throughProxy >= 1)
            // HTTP_PROXY is not read (httpoxy): the direct request to an unresolvable host fails.
            let upper = try await runToolCapturing(
                ["download", unresolvable(server), "-o", "upper.bin", "--quiet", "--retries", "0"], in: directory,
                environment: ["HTTP_PROXY": proxy.url])
            #expect(upper.status == 1)
            #expect(proxy.requests.count == throughProxy)
            // no_proxy names the host: straight to the server, the proxy sees nothing.
            let direct = try await runToolCapturing(
                ["download", server.url, "-o", "direct.bin", "--quiet"], in: directory,
                environment: ["http_proxy": proxy.url, "no_proxy": "localhost,127.0.0.0/8"])
            #expect(direct == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/direct.bin") == oneMiB)
            #expect(proxy.requests.count == throughProxy)
            // --noproxy wins over no_proxy.
            let overridden = try await runToolCapturing(
                ["download", server.url, "-o", "again.bin", "--quiet", "--noproxy", "example.com"], in: directory,
                environment: ["http_proxy": proxy.url, "no_proxy": "127.0.0.1"])
            #expect(overridden == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(proxy.requests.count > throughProxy)
        }
    }

    @Test func httpsIsTunnelledAndTheServersCredentialsStayInsideTheTunnel() async throws {
        try await withProxy(tls: true) { server, proxy, directory in
            let result = try await runToolCapturing(
                ["download", server.url, "-o", "out.bin", "--cacert", TestServer.certificateAuthorityFile, "--quiet",
                 "-H", "Authorization: Bearer secret"],
                in: directory, environment: ["https_proxy": proxy.url, "http_proxy": "http://127.0.0.1:9"])
            #expect(result == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/out.bin") == oneMiB)
            #expect(!proxy.requests.isEmpty)
            #expect(proxy.requests.allSatisfy { $0.method == "CONNECT" && $0.target == "127.0.0.1:\(server.port)" })
            #expect(proxy.requests.allSatisfy { !$0.headerNames.contains("authorization") })
            #expect(server.getRequests.first?.headers["authorization"] == "Bearer secret")
        }
    }

    @Test func credentialsInTheProxyURLGoToTheProxy() async throws {
        try await withProxy(username: "ann", password: "p@ss:w") { server, proxy, directory in
            let host = "127.0.0.1:\(proxy.port)"
            let result = try await runToolCapturing(
                ["download", unresolvable(server), "-o", "out.bin", "--proxy", "http://ann:p%40ss%3Aw@\(host)", "--quiet"], in: directory)
            #expect(result == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/out.bin") == oneMiB)
            let withCredentials = proxy.requests.count
            #expect(withCredentials >= 1)
            #expect(proxy.requests.allSatisfy { $0.authorization == "Basic " + Data("ann:p@ss:w".utf8).base64EncodedString() })
            // Without them: 407, a clear error, no retry by the engine (retrying cannot help),
            // nothing kept. (AsyncHTTPClient itself tries the tunnel again within the connect timeout.)
            let refused = try await runToolCapturing(
                ["download", unresolvable(server), "-o", "no.bin", "--proxy", "http://\(host)", "--connect-timeout", "1", "--json"],
                in: directory)
            #expect(refused.status == 1)
            #expect(refused.stderr == "no.bin: error: bad proxy: the proxy asks for credentials (407): give them in its URL, http://USER:PASSWORD@HOST:PORT\n")
            let events = refused.stdout.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            }
            #expect(events.compactMap { $0["event"] as? String } == ["start", "failed"])
            #expect(proxy.requests.count > withCredentials)
            #expect(proxy.requests.dropFirst(withCredentials).allSatisfy { $0.authorization == nil })
            #expect(!exists(directory + "/no.bin") && !exists(directory + "/no.bin.part"))
        }
    }

    /// Issue 23: AsyncHTTPClient used to try a refused tunnel again by itself (6 connections for
    /// `--retries 0`, 11 for `--retries 2`) while the engine said it gave up after 0 retries; now
    /// each attempt is one connection, and the count the engine reports is the count made.
    @Test(arguments: [0, 2])
    func aRefusedTunnelIsOneConnectionPerAttempt(retries: Int) async throws {
        try await withProxy { server, proxy, directory in
            let url = unresolvable(server)
            await server.stop()
            let result = try await runToolCapturing(
                ["download", url, "-o", "out.bin", "--proxy", proxy.url, "--retries", "\(retries)"], in: directory)
            #expect(result.status == 1)
            #expect(result.stderr.hasSuffix(
                "out.bin: error: gave up after \(retries) retries: connection failed: the proxy refused to open a tunnel to the server\n"))
            #expect(proxy.requests.count == retries + 1)
            #expect(proxy.requests.allSatisfy { $0.method == "CONNECT" })
        }
    }

    @Test func badProxySettingsAreClearErrors() async throws {
        try await withTemporaryDirectory { directory in
            let option = try await runToolCapturing(["download", "http://example.com/f", "--proxy", "https://u:secret@p.lan"], in: directory)
            #expect(option.status == 64)
            #expect(option.stderr.hasPrefix("Error: --proxy: https://***@p.lan: TLS to the proxy itself (https://) is not supported; use http://\n"))
            let variable = try await runToolCapturing(["download", "http://example.com/f"], in: directory, environment: ["http_proxy": "ftp://p.lan"])
            #expect(variable == ToolResult(status: 1, stdout: "", stderr: "proxy: error: http_proxy: ftp://p.lan: unsupported proxy scheme ftp (http, socks5 or socks5h)\n"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        }
    }

    @Test func resumeAndRecoverTakeTheSameOptions() async throws {
        try await withProxy { server, proxy, directory in
            // Interrupted downloads to continue: the server drops after 300,000 bytes, no retry
            // (the partial file keeps what the last checkpoint counted).
            server.script([.dropAfter(300_000), .dropAfter(300_000)])
            for name in ["a.bin", "b.bin"] {
                let first = try await runToolCapturing(
                    ["download", unresolvable(server), "-o", name, "--proxy", proxy.url, "--retries", "0", "--quiet"], in: directory)
                #expect(first.status == 1)
                #expect((1...300_000).contains(fileSize(directory + "/\(name).part")))
            }
            let kept = fileSize(directory + "/a.bin.part")
            let resumed = try await runToolCapturing(
                ["resume", "a.bin.resume", "--proxy", proxy.url, "--json", "--limit-rate", "64M"], in: directory)
            #expect(resumed.status == 0, "\(resumed.stderr)")
            let events = resumed.stdout.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            }
            #expect(events.first?["event"] as? String == "start")
            #expect(events.first?["url"] as? String == unresolvable(server))
            #expect(events.last?["event"] as? String == "done")
            #expect(contents(directory + "/a.bin") == oneMiB)
            #expect(server.getRequests.last?.headers["range"] == "bytes=\(kept)-")

            let recovered = try await runToolCapturing(
                ["recover", ".", "--parallel", "2", "--quiet"], in: directory, environment: ["http_proxy": proxy.url])
            #expect(recovered == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/b.bin") == oneMiB)
            #expect(proxy.requests.count >= 4)
            #expect(proxy.requests.allSatisfy { $0.target == "origin.invalid:\(server.port)" })
        }
    }
}
