import AsyncHTTPClient
import Foundation
import ResumeDataCodec
@testable import ResumeTransfer
import Testing

/// A library must not end its host process for a forgotten call: a downloader released without
/// `shutdown()` shuts its clients down in the background (AsyncHTTPClient traps, in debug builds
/// such as this test's, on a client released while running), and `withDownloader` shuts down
/// whatever its body does.
@Suite struct DownloaderLifetimeTests {
    @Test func aDownloaderReleasedWithoutShutdownDoesNotEndTheProcess() async throws {
        let data = testData(count: 200_000, seed: 61)
        let server = try await TestServer.start(serving: data)
        try await withTemporaryDirectory { directory in
            weak var pool: HTTPClientPool?
            weak var client: HTTPClient?
            do {
                let downloader = Downloader(configuration: fastConfiguration())
                pool = downloader.clients
                client = downloader.clients.client(for: try #require(HTTPURL(server.url)))
                let state = await downloader.download(from: server.url, to: directory + "/out.bin").result()
                #expect(state == .completed)
                #expect(!downloader.clients.hasShutDown)
            }
            // The pool went with the downloader, and its client's background shutdown ends on its
            // own: the client is released only once shut down (AsyncHTTPClient traps, in debug
            // builds, on a client released while running), and the process is still here.
            #expect(pool == nil)
            try await waitUntil("the client's background shutdown ends and releases it") { client == nil }
            #expect(contents(directory + "/out.bin") == data)
        }
        await server.stop()
    }

    @Test func withDownloaderShutsDownAfterItsBody() async throws {
        let data = testData(count: 200_000, seed: 62)
        let server = try await TestServer.start(serving: data)
        try await withTemporaryDirectory { directory in
            nonisolated(unsafe) var kept: Downloader?
            let state = try await Downloader.withDownloader(configuration: fastConfiguration()) { downloader in
                kept = downloader
                return await downloader.download(from: server.url, to: directory + "/out.bin").result()
            }
            #expect(state == .completed)
            #expect(contents(directory + "/out.bin") == data)
            #expect(try #require(kept).clients.hasShutDown)

            struct Stop: Error {}
            await #expect(throws: Stop.self) {
                try await Downloader.withDownloader(configuration: fastConfiguration()) { downloader in
                    kept = downloader
                    #expect(!downloader.clients.hasShutDown)
                    throw Stop()
                }
            }
            #expect(try #require(kept).clients.hasShutDown)
        }
        await server.stop()
    }
}
