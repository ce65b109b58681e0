import Foundation
import Testing

@testable import ResumeDataCodec
@testable import ResumeTransfer

/// `resumetool rebuild` given neither --etag nor --last-modified asks the server with a HEAD, as
/// `explain --probe` asks it, unless --offline; a blob without a validator is always a warning.
@Suite struct RebuildHeadTests {
    static let data = testData(count: 10_000, seed: 35)
    static let warning = "the blob has no validator (ETag or Last-Modified): a device restarts it from zero; give --etag or --last-modified"

    static func rebuild(_ url: String, in directory: String, _ extra: [String] = []) async throws -> (ToolResult, ResumeData?) {
        try Self.data.prefix(1000).write(to: URL(fileURLWithPath: directory + "/part.tmp"))
        let result = try await runToolCapturing(
            ["rebuild", "--partial", "part.tmp", "--url", url, "-o", "app.resumedata"] + extra, in: directory)
        let blob = contents(directory + "/app.resumedata").flatMap { try? ResumeData(data: $0) }
        return (result, blob)
    }

    @Test func theServersValidatorsAreTaken() async throws {
        try await withServer(Self.data) { server, _, directory in
            let (result, blob) = try await Self.rebuild(server.url, in: directory, ["--header", "Authorization: Bearer secret"])
            #expect(result == ToolResult(status: 0, stdout: "", stderr: """
                part.tmp: note: took ETag \(server.file.etag) and Last-Modified \(server.file.lastModified) from the server (HEAD): \
                they vouch for the partial file only if the file has not changed since it was downloaded

                """))
            #expect(blob?.entityTag == server.file.etag)
            #expect(blob?.serverDownloadDate == server.file.lastModified)
            #expect(blob?.bytesReceived == 1000)
            // One HEAD with the blob's headers, as explain --probe sends it.
            #expect(server.requests.map(\.method) == ["HEAD"])
            #expect(server.requests.first?.headers["authorization"] == "Bearer secret")
        }
    }

    @Test func givenValidatorsOrOfflineAskNothing() async throws {
        try await withServer(Self.data) { server, _, directory in
            let (given, blob) = try await Self.rebuild(server.url, in: directory, ["--last-modified", server.file.lastModified])
            #expect(given == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(blob?.serverDownloadDate == server.file.lastModified)
            let (offline, bare) = try await Self.rebuild(server.url, in: directory, ["--offline"])
            #expect(offline == ToolResult(status: 0, stdout: "", stderr: "part.tmp: warning: \(Self.warning) (--offline)\n"))
            #expect(bare?.entityTag == nil && bare?.serverDownloadDate == nil)
            #expect(server.requests.isEmpty)
        }
    }

    @Test func aServerWithoutValidatorsIsAWarning() async throws {
        let server = try await RawServer.start([[.text("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")]])
        try await withTemporaryDirectory { directory in
            let (result, blob) = try await Self.rebuild(server.url, in: directory)
            #expect(result == ToolResult(status: 0, stdout: "", stderr: """
                part.tmp: warning: the server sent neither ETag nor Last-Modified; \(Self.warning)

                """))
            #expect(blob != nil && blob?.entityTag == nil && blob?.serverDownloadDate == nil)
        }
        #expect(server.requests.count == 1)
        #expect(server.requests.first?.hasPrefix("HEAD ") == true)
        await server.stop()
    }

    /// The blob is still written; the status says the server could not be asked, as explain's.
    @Test func anUnreachableServerIsThree() async throws {
        let server = try await RawServer.start([[.text("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")]])
        let url = server.url
        await server.stop()
        try await withTemporaryDirectory { directory in
            let (result, blob) = try await Self.rebuild(url, in: directory)
            #expect(result.status == 3)
            #expect(result.stderr.hasPrefix("part.tmp: warning: could not ask the server for a validator ("), "\(result)")
            #expect(result.stderr.hasSuffix("); \(Self.warning)\n"), "\(result)")
            #expect(blob?.bytesReceived == 1000)
        }
    }
}
