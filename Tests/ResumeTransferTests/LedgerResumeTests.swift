import Foundation
import Testing

/// A download that nsurlsessiond left half done, finished from its ledger row:
/// `rebuild --from-task`, then `resume` against the in-process server.
@Suite struct LedgerResumeTests {
    static let generator = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("LedgerFixtures/make_ledger.py").path
    static let ledger = "private/var/mobile/Library/com.apple.nsurlsessiond/tasks.sqlite"
    static let downloads = "private/var/mobile/Containers/Data/Application/8F9C2B1E-4D3A-4C2B-9E1F-0A1B2C3D4E5F/Library/Caches/com.apple.nsurlsessiond/Downloads/com.example.player"
    static let partialName = "CFNetworkDownload_Serve1.tmp"
    static let received = 300_000

    /// A ledger in `directory/extraction` whose task 7 was downloading `server.url`, with the
    /// first ``received`` bytes of `data` as its partial file; validators as the server sends them.
    private func makeLedger(in directory: String, server: TestServer, data: Data) throws {
        let whole = directory + "/whole.bin"
        try data.write(to: URL(fileURLWithPath: whole))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", Self.generator, directory + "/extraction", "--version", "3", "--scenario", "serve",
            "--url", server.url, "--etag", "\"v1-\(data.count)\"", "--last-modified", "Sun, 01 Nov 2026 10:00:01 GMT",
            "--received", String(Self.received), "--expected", String(data.count), "--partial-bytes", whole,
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        try FileManager.default.removeItem(atPath: whole)
    }

    private func rebuild(in directory: String) async throws -> ToolResult {
        try await runToolCapturing([
            "rebuild", "--from-task", "extraction/" + Self.ledger, "--task", "7",
            "--session", "com.example.player.background",
            "--partial", "extraction/" + Self.downloads + "/" + Self.partialName, "-o", "task.resume",
        ], in: directory)
    }

    @Test func aRebuiltTaskResumesToTheSameBytes() async throws {
        let data = testData(count: 1 << 20, seed: 26)
        try await withServer(data) { server, _, directory in
            try makeLedger(in: directory, server: server, data: data)
            let tasks = try await runToolCapturing(["tasks", "--csv", "extraction/" + Self.ledger], in: directory)
            #expect(tasks.status == 0)
            #expect(tasks.stderr == "")
            #expect(tasks.stdout.contains(",\(server.url),,200,\"\"\"v1-1048576\"\"\",\"Sun, 01 Nov 2026 10:00:01 GMT\",1048576,,,,300000,1048576,"))

            let rebuilt = try await rebuild(in: directory)
            #expect(rebuilt == ToolResult(status: 0, stdout: "", stderr: ""))
            let validated = try await runToolCapturing(["validate", "--tmp-dir", "extraction/" + Self.downloads, "task.resume"], in: directory)
            #expect(validated == ToolResult(status: 0, stdout: "task.resume: ok\n", stderr: ""))

            let resumed = try await runToolCapturing([
                "resume", "task.resume", "--tmp-dir", "extraction/" + Self.downloads, "-o", "episode.bin", "--quiet",
            ], in: directory)
            #expect(resumed == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/episode.bin") == data)
            #expect(server.getRequests.count == 1)
            #expect(server.getRequests.last?.headers["range"] == "bytes=\(Self.received)-")
            #expect(server.getRequests.last?.headers["if-range"] == "\"v1-\(data.count)\"")
            // The request carries the headers the device's request had.
            #expect(server.getRequests.last?.headers["user-agent"] == "DownloadFileDemo/1 CFNetwork/808.1.4 Darwin/16.0.0")
        }
    }

    @Test func aChangedETagRestartsFromZero() async throws {
        let data = testData(count: 1 << 20, seed: 27)
        let replacement = testData(count: (1 << 20) + 1234, seed: 28)
        try await withServer(data) { server, _, directory in
            try makeLedger(in: directory, server: server, data: data)
            let rebuilt = try await rebuild(in: directory)
            #expect(rebuilt == ToolResult(status: 0, stdout: "", stderr: ""))
            server.replaceFile(with: replacement)
            let resumed = try await runToolCapturing([
                "resume", "task.resume", "--tmp-dir", "extraction/" + Self.downloads, "-o", "episode.bin", "--quiet",
            ], in: directory)
            #expect(resumed.status == 0)
            #expect(contents(directory + "/episode.bin") == replacement)
            // Asked to continue under the old ETag; the server sent the new file whole instead.
            #expect(server.getRequests.first?.headers["range"] == "bytes=\(Self.received)-")
            #expect(server.getRequests.first?.headers["if-range"] == "\"v1-\(data.count)\"")
        }
    }

    @Test func aTaskWithoutValidatorsGivesABlobThatSaysSo() async throws {
        let data = testData(count: 4096, seed: 29)
        try await withServer(data) { server, _, directory in
            let whole = directory + "/whole.bin"
            try data.write(to: URL(fileURLWithPath: whole))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            // No --etag and no --last-modified: the archived response has neither header.
            process.arguments = [
                "python3", Self.generator, directory + "/extraction", "--version", "2", "--scenario", "serve",
                "--url", server.url, "--received", "1000", "--expected", "4096", "--partial-bytes", whole,
            ]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let rebuilt = try await rebuild(in: directory)
            #expect(rebuilt == ToolResult(status: 0, stdout: "", stderr: """
                extraction/\(Self.ledger): warning: task 7 of session com.example.player.background: neither an entity tag nor a server date: a device won't resume, and no one can prove the server's file is unchanged

                """))
            let validated = try await runToolCapturing(["validate", "--tmp-dir", "extraction/" + Self.downloads, "task.resume"], in: directory)
            #expect(validated.status == 1)
            #expect(validated.stdout.contains("[missing-validator]"))
        }
    }
}
