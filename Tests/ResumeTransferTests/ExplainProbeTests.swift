import Foundation
import Testing

@testable import ResumeDataCodec
@testable import ResumeTransfer

/// `resumetool explain --probe` against the in-process server (each of Apple's conditions the
/// server decides) and nginx.
@Suite struct ExplainProbeTests {
    static let data = testData(count: 10_000, seed: 27)
    static let received = 1000

    /// A blob for `url` with `received` bytes in `directory/CFNetworkDownload_P.tmp`, written as
    /// `directory/app.resumedata`.
    static func writeBlob(
        url: String, entityTag: String?, lastModified: String?, in directory: String,
        headers: [String] = ["Authorization: Bearer secret", "X-App: 1"]
    ) throws {
        let partial = directory + "/CFNetworkDownload_P.tmp"
        try Self.data.prefix(Self.received).write(to: URL(fileURLWithPath: partial))
        let rebuilder = ResumeDataRebuilder(url: url, entityTag: entityTag, lastModified: lastModified,
                                            headers: try headers.map { try HTTPHeaderField(parsing: $0) })
        try rebuilder.rebuild(fromPartialFile: partial).encoded().write(to: URL(fileURLWithPath: directory + "/app.resumedata"))
    }

    static func explain(_ directory: String, _ extra: [String] = []) async throws -> (status: Int32?, json: [String: Any], stderr: String) {
        let result = try await runToolCapturing(["explain", "app.resumedata", "--tmp-dir", ".", "--probe", "--json"] + extra, in: directory)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        return (result.status, json, result.stderr)
    }

    static func codes(_ json: [String: Any], _ key: String) -> [String] {
        (json[key] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    static func outcome(_ json: [String: Any], _ check: String) -> String? {
        (json["checks"] as? [[String: Any]] ?? []).first { $0["code"] as? String == check }?["outcome"] as? String
    }

    @Test func theSameEntityContinues() async throws {
        try await withServer(Self.data) { server, _, directory in
            try Self.writeBlob(url: server.url, entityTag: server.file.etag, lastModified: server.file.lastModified, in: directory)
            let (status, json, stderr) = try await Self.explain(directory)
            #expect(status == 0)
            #expect(stderr == "")
            #expect(json["verdict"] as? String == "continue")
            #expect(json["offset"] as? Int == Self.received)
            #expect(Self.codes(json, "reasons") == [])
            #expect(Self.codes(json, "checks") == ["get", "validator", "ranges", "unchanged", "partial-file", "probe-head", "probe-range"])
            for check in ["get", "validator", "ranges", "unchanged", "partial-file", "probe-head", "probe-range"] {
                #expect(Self.outcome(json, check) == "pass", "\(check)")
            }
            let checks = try #require(json["checks"] as? [[String: Any]])
            #expect(checks[5]["message"] as? String
                == "HEAD → 200 from \(server.url); ETag: \(server.file.etag), Last-Modified: \(server.file.lastModified), Content-Length: 10000, Accept-Ranges: bytes")
            #expect(checks[6]["message"] as? String
                == "GET bytes=1000-1000 If-Range: \(server.file.etag) → 206 from \(server.url); ETag: \(server.file.etag), Last-Modified: \(server.file.lastModified), Content-Length: 1, Accept-Ranges: bytes, Content-Range: bytes 1000-1000/10000")
            // A HEAD, then one range with If-Range, each with the blob's headers (same origin).
            #expect(server.requests.map(\.method) == ["HEAD", "GET"])
            let range = try #require(server.getRequests.first)
            #expect(range.headers["range"] == "bytes=1000-1000")
            #expect(range.headers["if-range"] == server.file.etag)
            #expect(range.headers["authorization"] == "Bearer secret")
            #expect(range.headers["x-app"] == "1")
            #expect(server.requests.first?.headers["authorization"] == "Bearer secret")
        }
    }

    /// An empty `ETag` in a blob is no tag (the codec's `EntityTag` rule): the probe's range
    /// carries the `Last-Modified` in `If-Range`, as a resume does, where it once sent an empty one.
    @Test func anEmptyEntityTagIsNoValidator() async throws {
        try await withServer(Self.data) { server, _, directory in
            try Self.writeBlob(url: server.url, entityTag: "", lastModified: server.file.lastModified, in: directory)
            _ = try await Self.explain(directory)
            let range = try #require(server.getRequests.first)
            #expect(range.headers["range"] == "bytes=1000-1000")
            #expect(range.headers["if-range"] == server.file.lastModified)
        }
    }

    @Test func aChangedFileRestarts() async throws {
        try await withServer(Self.data) { server, _, directory in
            try Self.writeBlob(url: server.url, entityTag: server.file.etag, lastModified: server.file.lastModified, in: directory)
            server.replaceFile(with: testData(count: 12_000, seed: 28))
            let (status, json, _) = try await Self.explain(directory)
            #expect(status == 1)
            #expect(json["verdict"] as? String == "restart")
            #expect(json["offset"] as? Int == 0)
            #expect(Self.codes(json, "reasons") == ["resource-changed"])
            #expect(Self.outcome(json, "unchanged") == "fail")
            let text = try await runToolCapturing(["explain", "app.resumedata", "--probe"], in: directory)
            #expect(text.stdout.hasPrefix("restart from zero: the file on the server changed\n"))
        }
    }

    @Test func aServerWithoutRangesRestarts() async throws {
        try await withServer(Self.data) { server, _, directory in
            try Self.writeBlob(url: server.url, entityTag: server.file.etag, lastModified: nil, in: directory)
            server.ignoreRanges()
            let (status, json, _) = try await Self.explain(directory)
            #expect(status == 1)
            #expect(json["verdict"] as? String == "restart")
            #expect(Self.codes(json, "reasons") == ["no-ranges"])
            #expect(Self.outcome(json, "ranges") == "fail")
            // The validators still match: the entity is the same, only ranges are refused.
            #expect(Self.outcome(json, "unchanged") == "pass")
        }
    }

    @Test(arguments: [401, 403, 410])
    func aRefusalMeansTheURLExpired(_ code: Int) async throws {
        try await withServer(Self.data) { server, _, directory in
            try Self.writeBlob(url: server.url, entityTag: server.file.etag, lastModified: nil, in: directory)
            server.script([.status(code, []), .status(code, [])])
            let (status, json, _) = try await Self.explain(directory)
            #expect(status == 1)
            #expect(json["verdict"] as? String == "fail")
            #expect(json["offset"] is NSNull)
            let reasons = try #require(json["reasons"] as? [[String: Any]])
            #expect(reasons.count == 1)
            #expect(reasons.first?["code"] as? String == "url-expired")
            #expect(reasons.first?["message"] as? String
                == "the server answered \(code) to the range request: the URL has likely expired (signed URLs do)")
            #expect(reasons.first?["fix"] as? String == "resumetool edit app.resumedata --url NEW_URL")
            let text = try await runToolCapturing(["explain", "app.resumedata", "--probe"], in: directory)
            #expect(text.stdout.hasPrefix("fail: the URL has likely expired (HTTP \(code))\n"))
        }
    }

    @Test func aMissingFileFails() async throws {
        try await withServer(Self.data) { server, _, directory in
            try Self.writeBlob(url: server.url, entityTag: server.file.etag, lastModified: nil, in: directory)
            server.script([.status(404, [])])
            let (status, json, _) = try await Self.explain(directory)
            #expect(status == 1)
            #expect(Self.codes(json, "reasons") == ["not-found"])
        }
    }

    @Test func anOffsetPastTheEndRestarts() async throws {
        try await withServer(Self.data.prefix(500)) { server, _, directory in
            try Self.writeBlob(url: server.url, entityTag: server.file.etag, lastModified: nil, in: directory)
            let (status, json, _) = try await Self.explain(directory)
            #expect(status == 1)
            #expect(Self.codes(json, "reasons") == ["offset-past-end"])
        }
    }

    /// A hostile byte count cannot make the range's end overflow.
    @Test func theLargestByteCountIsProbedWithoutATrap() async throws {
        try await withServer(Self.data) { server, _, directory in
            try Self.writeBlob(url: server.url, entityTag: server.file.etag, lastModified: nil, in: directory)
            let path = directory + "/app.resumedata"
            var resume = try ResumeData(data: try #require(contents(path)))
            resume.bytesReceived = .max
            try resume.encoded().write(to: URL(fileURLWithPath: path))
            let result = try await runToolCapturing(["explain", "app.resumedata", "--probe", "--json"], in: directory)
            #expect(result.status == 1)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            // The current request's Range still says the old count; the partial file beside the
            // blob (looked for there by default, as resume does) is far shorter.
            #expect(Self.codes(json, "reasons") == ["range-mismatch", "temp-file-size", "offset-past-end"])
            #expect(server.getRequests.first?.headers["range"] == "bytes=9223372036854775806-9223372036854775806")
        }
    }

    /// Credentials go only to the blob's origin: a redirect to another port (another origin)
    /// gets the other headers but not Authorization.
    @Test func credentialsStayWithTheOrigin() async throws {
        let other = try await TestServer.start(serving: Self.data)
        defer { Task { await other.stop() } }
        try await withServer(Self.data) { server, _, directory in
            try Self.writeBlob(url: server.url, entityTag: server.file.etag, lastModified: nil, in: directory)
            server.script([.status(302, [("Location", other.url)])])
            let (status, json, _) = try await Self.explain(directory)
            #expect(status == 0)
            #expect(json["verdict"] as? String == "continue")
            let checks = try #require(json["checks"] as? [[String: Any]])
            #expect((checks.last?["message"] as? String)?.contains("→ 206 from \(other.url);") == true)
            #expect(server.getRequests.first?.headers["authorization"] == "Bearer secret")
            let redirected = try #require(other.getRequests.first)
            #expect(redirected.headers["authorization"] == nil)
            #expect(redirected.headers["x-app"] == "1")
            #expect(redirected.headers["range"] == "bytes=1000-1000")
        }
        await other.stop()
    }

    @Test func redirectsAreBounded() async throws {
        try await withServer(Self.data) { server, _, directory in
            try Self.writeBlob(url: server.url, entityTag: server.file.etag, lastModified: nil, in: directory)
            server.script(Array(repeating: .status(302, [("Location", server.url)]), count: 12))
            let (status, json, _) = try await Self.explain(directory)
            // The offline verdict stands; the probe says why it could not tell.
            #expect(status == 0)
            let checks = try #require(json["checks"] as? [[String: Any]])
            #expect(checks.last?["message"] as? String == "the range request failed: more than 10 redirects")
            #expect(checks.last?["outcome"] as? String == "unknown")
            #expect(server.getRequests.count == 11)
        }
    }

    /// A server that cannot be asked is no "continue": the verdict says it is the blob's alone,
    /// and the exit status (3) says the probe failed.
    @Test func anUnreachableServerIsSaidSoAndExits3() async throws {
        try await withTemporaryDirectory { directory in
            try await withRefusingLoopbackPort { port in
                // By name: an address refused through AsyncHTTPClient (the probe's path) is not named.
                try Self.writeBlob(url: "http://localhost:\(port)/file.bin", entityTag: "\"t\"", lastModified: nil, in: directory)
                let result = try await runToolCapturing(["explain", "app.resumedata", "--tmp-dir", ".", "--probe"], in: directory)
                #expect(result.status == 3)
                #expect(result.stdout.hasPrefix("continue at byte \(Self.received), as far as the blob tells: the server could not be asked\n"), "\(result.stdout)")
                #expect(result.stdout.contains("  [probe-failed] the server could not be asked: connection failed: connect to localhost port \(port): Connection refused\n"), "\(result.stdout)")
            }
        }
    }

    @Test func httpsTrustsOnlyWhatItIsTold() async throws {
        let server = try await TestServer.start(serving: Self.data, tls: true)
        defer { Task { await server.stop() } }
        try await withTemporaryDirectory { directory in
            try Self.writeBlob(url: server.url, entityTag: server.file.etag, lastModified: nil, in: directory)
            let trusted = try await Self.explain(directory, ["--cacert", TestServer.certificateAuthorityFile])
            #expect(trusted.status == 0)
            #expect(Self.outcome(trusted.json, "probe-range") == "pass")
            let untrusted = try await Self.explain(directory)
            #expect(Self.outcome(untrusted.json, "probe-head") == "unknown")
            #expect(Self.codes(untrusted.json, "reasons") == ["probe-failed"])
            #expect(untrusted.status == 3)
            let checks = try #require(untrusted.json["checks"] as? [[String: Any]])
            #expect(checks[5]["message"] as? String
                == "HEAD failed: TLS failed: the server's certificate is not trusted (for a private certificate authority, trust it with --cacert FILE)")
            #expect(checks[6]["message"] as? String == "not sent: the HEAD could not reach the server")
            let insecure = try await Self.explain(directory, ["--insecure"])
            #expect(Self.outcome(insecure.json, "probe-range") == "pass")
            #expect(insecure.stderr == "--insecure: warning: server certificates are not checked: anyone on the path can read and change these downloads\n")
        }
        await server.stop()
    }

    @Test func nginxServesTheSameEntityThenAnother() async throws {
        try await withNginx { nginx, directory in
            let modified = Date(timeIntervalSince1970: 1_700_000_000)
            try publish(Self.data, as: "e.bin", in: nginx.root, modified: modified)
            // nginx's ETag is "<mtime in hex>-<size in hex>".
            let etag = "\"\(String(1_700_000_000, radix: 16))-\(String(Self.data.count, radix: 16))\""
            try Self.writeBlob(url: nginx.url("e.bin"), entityTag: etag, lastModified: "Tue, 14 Nov 2023 22:13:20 GMT", in: directory)
            let same = try await Self.explain(directory)
            #expect(same.status == 0, "\(same.json)")
            #expect(same.json["verdict"] as? String == "continue")
            #expect(Self.outcome(same.json, "unchanged") == "pass")
            #expect(Self.outcome(same.json, "ranges") == "pass")

            try publish(testData(count: 11_000, seed: 29), as: "e.bin", in: nginx.root, modified: modified.addingTimeInterval(60))
            let changed = try await Self.explain(directory)
            #expect(changed.status == 1)
            #expect(changed.json["verdict"] as? String == "restart")
            #expect(Self.codes(changed.json, "reasons") == ["resource-changed"])
        }
    }
}
