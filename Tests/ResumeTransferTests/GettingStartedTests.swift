import Foundation
@testable import ResumeDataCodec
@testable import ResumeTransfer
import Testing

/// The snippets of the DocC article `GettingStarted.md` (Documentation.docc), with what they claim
/// checked against the in-process server: its URL and a temporary folder stand for the article's
/// `http://127.0.0.1:8080/big.iso` and `/tmp`. A plain (not `@testable`) import in this file, so
/// every call must be public API, as it is for a reader of the article.
@Suite struct GettingStartedTests {
    @Test func downloadAFile() async throws {
        let server = try await TestServer.start(serving: oneMiB)
        do {
            try await downloadAFile(from: server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private func downloadAFile(from server: TestServer) async throws {
        try await withTemporaryDirectory { directory in
            let downloader = Downloader()
            let task = downloader.download(
                from: server.url, to: directory + "/big.iso",
                headers: [try HTTPHeaderField(name: "Authorization", value: "Bearer secret")])
            var written: [Int64] = []
            var totals: Set<Int64> = []
            for await event in task.events {
                if case .progress(let progress) = event {
                    written.append(progress.bytesWritten)
                    totals.insert(progress.totalBytes ?? -1)
                }
            }
            let state = await task.result()
            try await downloader.shutdown()
            #expect(state == .completed)
            #expect(contents(directory + "/big.iso") == oneMiB)
            #expect(written.last == Int64(oneMiB.count))
            #expect(totals == [Int64(oneMiB.count)])
            #expect(server.getRequests.map { $0.headers["authorization"] } == ["Bearer secret"])
        }
    }

    @Test func chooseTheSettings() async throws {
        var configuration = DownloadConfiguration()
        configuration.maximumConcurrentDownloads = 2
        configuration.maximumRetries = 3
        configuration.stallTimeout = .seconds(20)
        configuration.maximumBytesPerSecond = 2 << 20
        let limited = Downloader(configuration: configuration)
        try await limited.shutdown()
        #expect(limited.configuration.maximumConcurrentDownloads == 2)
        #expect(limited.configuration.maximumRetries == 3)
        #expect(limited.configuration.stallTimeout == .seconds(20))
        #expect(limited.configuration.maximumBytesPerSecond == 2_097_152)
    }

    @Test func pauseResumeAndRecover() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            server.script([.stallAfter(200_000)])
            let task = downloader.download(from: server.url, to: directory + "/big.iso")
            try await waitForSize(directory + "/big.iso.part", 200_000)
            let paused = await task.pause()
            #expect(paused != nil)
            #expect(contents(directory + "/big.iso.resume") == paused)
            let continued = try downloader.resume(blobAt: directory + "/big.iso.resume")
            #expect(continued.destination == directory + "/big.iso")
            #expect(await continued.result() == .completed)
            #expect(contents(directory + "/big.iso") == oneMiB)
            #expect(server.getRequests.last?.headers["range"] == "bytes=200000-")

            server.script([.stallAfter(300_000)])
            let other = downloader.download(from: server.url, to: directory + "/other.iso")
            try await waitForSize(directory + "/other.iso.part", 300_000)
            _ = await other.pause()
            let recovered = try downloader.recover(in: directory)
            #expect(recovered.map(\.destination) == [directory + "/other.iso"])
            for task in recovered { #expect(await task.result() == .completed) }
            #expect(contents(directory + "/other.iso") == oneMiB)
        }
    }
}
