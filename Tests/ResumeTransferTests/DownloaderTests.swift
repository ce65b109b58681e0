import Foundation
import NIOSSL
import Testing

@testable import ResumeTransfer

/// A fresh directory under /tmp, removed at the end.
func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    let path = NSTemporaryDirectory() + "resumetransfer-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

/// The stall timeout is long by default: under load a short one fires on a client that was only
/// not scheduled, and the retry's extra connection fails the tests that count connections (a
/// full-suite run beside two fuzzers: DirectTLSTests took 332 s instead of 2 s and saw one). Tests
/// of stalls give their own.
func fastConfiguration(retries: Int = 3, stall: Duration = .seconds(60)) -> DownloadConfiguration {
    var configuration = DownloadConfiguration()
    configuration.maximumRetries = retries
    configuration.initialBackoff = .milliseconds(10)
    configuration.maximumBackoff = .milliseconds(50)
    configuration.stallTimeout = stall
    configuration.checkpointBytes = 64 << 10
    return configuration
}

/// Runs `body` with a downloader that is shut down afterwards, whatever happens (an HTTP client
/// dropped without shutdown traps in debug builds).
func withDownloader<T>(
    _ configuration: DownloadConfiguration = fastConfiguration(), _ body: (Downloader) async throws -> T
) async throws -> T {
    let downloader = Downloader(configuration: configuration)
    do {
        let result = try await body(downloader)
        try await downloader.shutdown()
        return result
    } catch {
        try? await downloader.shutdown()
        throw error
    }
}

/// Runs `body` with a server serving `data` (over TLS with `tls`, between the TLS versions given)
/// and a downloader, shutting both down afterwards.
func withServer<T>(
    _ data: Data, tls: Bool = false, minimumTLSVersion: TLSVersion? = nil, maximumTLSVersion: TLSVersion? = nil,
    configuration: DownloadConfiguration = fastConfiguration(),
    _ body: (TestServer, Downloader, String) async throws -> T
) async throws -> T {
    let server = try await TestServer.start(
        serving: data, tls: tls, minimumTLSVersion: minimumTLSVersion, maximumTLSVersion: maximumTLSVersion)
    let downloader = Downloader(configuration: configuration)
    do {
        let result = try await withTemporaryDirectory { directory in
            try await body(server, downloader, directory)
        }
        try await downloader.shutdown()
        await server.stop()
        return result
    } catch {
        try? await downloader.shutdown()
        await server.stop()
        throw error
    }
}

func contents(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
}

func exists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
}

/// Polls until the file has `size` bytes (the stalled server sent them all); gives up after 10 s.
func waitForSize(_ path: String, _ size: Int) async throws {
    for _ in 0..<1000 {
        if contents(path)?.count == size { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("\(path) never reached \(size) bytes")
}

func isDroppedConnection(_ state: DownloadState) -> Bool {
    guard case .failed(.retriesExhausted(.connection, attempts: 0)) = state else { return false }
    return true
}

let oneMiB = testData(count: 1 << 20, seed: 1)
let otherMiB = testData(count: (1 << 20) + 333, seed: 2)

@Suite struct DownloaderTests {
    @Test func downloadsAndCleansUp() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            let destination = directory + "/file.bin"
            let task = downloader.download(from: server.url, to: destination, expectedSHA256: sha256Hex(oneMiB))
            #expect(await task.result() == .completed)
            #expect(contents(destination).map(sha256Hex) == sha256Hex(oneMiB))
            #expect(!exists(destination + ".part"))
            #expect(!exists(destination + ".resume"))
            #expect(server.getRequests.count == 1)
            #expect(server.getRequests.first?.headers["accept-encoding"] == "identity")
            #expect(server.getRequests.first?.headers["range"] == nil)
        }
    }

    @Test func droppedConnectionContinuesWithRangeAndIfRange() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            server.script([.dropAfter(300_000)])
            let destination = directory + "/file.bin"
            let task = downloader.download(from: server.url, to: destination)
            #expect(await task.result() == .completed)
            #expect(contents(destination).map(sha256Hex) == sha256Hex(oneMiB))
            let gets = server.getRequests
            #expect(gets.count == 2)
            // Whatever reached the file before the close, and nothing beyond what the server sent.
            let resumedAt = try #require(gets.last?.headers["range"].flatMap { Int($0.dropFirst(6).dropLast()) })
            #expect(resumedAt > 0 && resumedAt <= 300_000)
            #expect(gets.last?.headers["if-range"] == server.file.etag)
            var events: [DownloadEvent] = []
            for await event in task.events { events.append(event) }
            #expect(events.contains { if case .retrying(1, _, _) = $0 { return true } else { return false } })
            #expect(events.last == .state(.completed))
        }
    }

    @Test func serverIgnoringRangesMeansStartingOver() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            server.script([.dropAfter(200_000), .ignoreRange])
            let destination = directory + "/file.bin"
            let task = downloader.download(from: server.url, to: destination)
            #expect(await task.result() == .completed)
            #expect(contents(destination) == oneMiB)
            // Said as what it is: the server ignored the range, the file did not change.
            var reasons: [RestartReason] = []
            for await case .restarted(let reason) in task.events { reasons.append(reason) }
            #expect(reasons == [.rangesIgnored])
        }
    }

    @Test func changedFileIsNeverSplicedAndRerunContinues() async throws {
        try await withServer(oneMiB, configuration: fastConfiguration(retries: 0)) { server, downloader, directory in
            server.script([.dropAfter(400_000)])
            let destination = directory + "/file.bin"
            let first = downloader.download(from: server.url, to: destination)
            let result = await first.result()
            #expect(isDroppedConnection(result))
            #expect(!exists(destination))
            // The client may see the close before the last buffered bytes: the checkpoint counts
            // exactly what reached the partial file, no more.
            let partSize = try #require(contents(destination + ".part")?.count)
            #expect(partSize > 0 && partSize <= 400_000)
            let blob = try #require(contents(destination + ".resume"))
            #expect(try ResumeCheckpoint.decode(blob).checkpoint.bytesReceived == Int64(partSize))

            server.replaceFile(with: otherMiB)
            let second = downloader.download(from: server.url, to: destination)
            #expect(await second.result() == .completed)
            #expect(contents(destination) == otherMiB)
            let gets = server.getRequests
            #expect(gets.count == 2)
            #expect(gets.last?.headers["range"] == "bytes=\(partSize)-")
        }
    }

    @Test func brokenServerIgnoringIfRangeIsCaughtByTheETag() async throws {
        try await withServer(oneMiB, configuration: fastConfiguration(retries: 0)) { server, downloader, directory in
            server.script([.dropAfter(400_000)])
            let destination = directory + "/file.bin"
            #expect(isDroppedConnection(await downloader.download(from: server.url, to: destination).result()))
            let partSize = try #require(contents(destination + ".part")?.count)
            server.replaceFile(with: otherMiB)
            server.script([.ignoreIfRange])
            let second = downloader.download(from: server.url, to: destination)
            #expect(await second.result() == .completed)
            #expect(contents(destination) == otherMiB)
            let gets = server.getRequests
            #expect(gets.count == 3)
            #expect(gets[1].headers["range"] == "bytes=\(partSize)-")
            #expect(gets[2].headers["range"] == nil)
        }
    }

    @Test func completePartialFileFinishesOn416() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            let destination = directory + "/file.bin"
            try oneMiB.write(to: URL(fileURLWithPath: destination + ".part"))
            let checkpoint = DownloadCheckpoint(
                originalURL: server.url, currentURL: server.url, bytesReceived: Int64(oneMiB.count), entityTag: server.file.etag)
            try ResumeCheckpoint.encode(checkpoint, partialPath: destination + ".part").write(to: URL(fileURLWithPath: destination + ".resume"))
            let task = downloader.download(from: server.url, to: destination)
            #expect(await task.result() == .completed)
            #expect(contents(destination) == oneMiB)
            #expect(server.getRequests.map { $0.headers["range"] } == ["bytes=\(oneMiB.count)-"])
            #expect(!exists(destination + ".resume"))
        }
    }

    @Test func wrongContentRangeStartsOver() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            server.script([.dropAfter(250_000), .wrongContentRange])
            let destination = directory + "/file.bin"
            let task = downloader.download(from: server.url, to: destination)
            #expect(await task.result() == .completed)
            #expect(contents(destination) == oneMiB)
            let ranges = server.getRequests.map { $0.headers["range"] }
            #expect(ranges.count == 3)
            #expect(ranges.first == .some(nil))
            #expect(ranges.last == .some(nil))
            // Resumed where the dropped connection left it (at most the 250,000 bytes sent).
            let resumedAt = ranges.count == 3 ? ranges[1].flatMap { Int($0.dropFirst(6).dropLast()) } : nil
            #expect(resumedAt.map { $0 > 0 && $0 <= 250_000 } == true)
        }
    }

    @Test func stallIsRetried() async throws {
        try await withServer(oneMiB, configuration: fastConfiguration(stall: .seconds(2))) { server, downloader, directory in
            server.script([.stallAfter(100_000)])
            let destination = directory + "/file.bin"
            let task = downloader.download(from: server.url, to: destination)
            #expect(await task.result() == .completed)
            #expect(contents(destination) == oneMiB)
            #expect(server.getRequests.map { $0.headers["range"] } == [nil, "bytes=100000-"])
            var reasons: [TransferError] = []
            for await event in task.events {
                if case .retrying(_, _, let reason) = event { reasons.append(reason) }
            }
            #expect(reasons == [.stalled])
        }
    }

    @Test func serviceUnavailableWaitsForRetryAfter() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            server.script([.status(503, [("Retry-After", "1")])])
            let destination = directory + "/file.bin"
            let clock = ContinuousClock()
            let start = clock.now
            let task = downloader.download(from: server.url, to: destination)
            #expect(await task.result() == .completed)
            #expect(clock.now - start >= .seconds(1))
            #expect(contents(destination) == oneMiB)
            var delays: [Duration] = []
            for await event in task.events {
                if case .retrying(_, let delay, let reason) = event {
                    delays.append(delay)
                    #expect(reason == .unexpectedStatus(503))
                }
            }
            #expect(delays == [.seconds(1)])
        }
    }

    @Test func notFoundFailsAndLeavesNoDestination() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            server.script([.status(404, [])])
            let destination = directory + "/file.bin"
            let task = downloader.download(from: server.url, to: destination)
            #expect(await task.result() == .failed(.unexpectedStatus(404)))
            #expect(!exists(destination))
            #expect(!exists(destination + ".part"))
            #expect(!exists(destination + ".resume"))
            #expect(task.state == .failed(.unexpectedStatus(404)))
        }
    }

    @Test func checksumMismatchNeverReachesTheDestination() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            let destination = directory + "/file.bin"
            let wrong = String(repeating: "0", count: 64)
            let task = downloader.download(from: server.url, to: destination, expectedSHA256: wrong)
            #expect(await task.result() == .failed(.checksumMismatch(expected: wrong, actual: sha256Hex(oneMiB))))
            #expect(!exists(destination))
            #expect(!exists(destination + ".part"))
            #expect(!exists(destination + ".resume"))
        }
    }

    @Test func redirectIsFollowed() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            server.script([.status(302, [("Location", "/moved/file.bin")])])
            let destination = directory + "/file.bin"
            let task = downloader.download(from: server.url, to: destination)
            #expect(await task.result() == .completed)
            #expect(contents(destination) == oneMiB)
            #expect(server.getRequests.map(\.uri) == ["/file.bin", "/moved/file.bin"])
        }
    }

    @Test func partialFileWithoutBlobContinuesAfterTheOverlapMatches() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            let destination = directory + "/file.bin"
            try oneMiB.prefix(123_456).write(to: URL(fileURLWithPath: destination + ".part"))
            let task = downloader.download(from: server.url, to: destination)
            #expect(await task.result() == .completed)
            #expect(contents(destination) == oneMiB)
            // One GET from 64 KiB before the partial end; no HEAD, and nothing proven by it alone.
            #expect(server.requests.map(\.method) == ["GET"])
            #expect(server.requests.last?.headers["range"] == "bytes=57920-")
            var restarted = false
            for await case .restarted in task.events { restarted = true }
            #expect(!restarted)
        }
    }

    @Test func completeDestinationIsLeftAlone() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            let destination = directory + "/file.bin"
            try Data("done".utf8).write(to: URL(fileURLWithPath: destination))
            let task = downloader.download(from: server.url, to: destination)
            #expect(await task.result() == .completed)
            #expect(contents(destination) == Data("done".utf8))
            #expect(server.requests.isEmpty)
        }
    }

    @Test func pauseReturnsTheBlobAndRerunFinishes() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            server.script([.stallAfter(200_000)])
            let destination = directory + "/file.bin"
            let task = downloader.download(from: server.url, to: destination)
            try await waitForSize(destination + ".part", 200_000)
            let blob = try #require(await task.pause())
            #expect(task.state == .paused)
            let decoded = try ResumeCheckpoint.decode(blob)
            #expect(decoded.checkpoint.bytesReceived == 200_000)
            #expect(decoded.checkpoint.entityTag == server.file.etag)
            #expect(decoded.tempFileName == "file.bin.part")
            #expect(decoded.localPath == destination + ".part")
            #expect(!exists(destination))

            let again = downloader.download(from: server.url, to: destination)
            #expect(await again.result() == .completed)
            #expect(contents(destination) == oneMiB)
            #expect(server.getRequests.last?.headers["range"] == "bytes=200000-")
        }
    }

    @Test func cancelCanRemoveTheFiles() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            server.script([.stallAfter(100_000)])
            let destination = directory + "/file.bin"
            let task = downloader.download(from: server.url, to: destination)
            try await waitForSize(destination + ".part", 100_000)
            await task.cancel(removeFile: true)
            #expect(task.state == .cancelled)
            #expect(!exists(destination + ".part"))
            #expect(!exists(destination + ".resume"))
            #expect(!exists(destination))
        }
    }

    @Test func queueRespectsTheLimitAndRecoverContinuesEverything() async throws {
        var configuration = fastConfiguration(retries: 0)
        configuration.maximumConcurrentDownloads = 1
        try await withServer(oneMiB, configuration: configuration) { server, downloader, directory in
            // Both GETs are scripted up front: the queue starts the second one as soon as the
            // first pauses, which may be before a script set after `pause()` returns.
            server.script([.stallAfter(50_000), .dropAfter(70_000)])
            let first = downloader.download(from: server.url, to: directory + "/a.bin")
            let second = downloader.download(from: server.url, to: directory + "/b.bin")
            try await waitForSize(directory + "/a.bin.part", 50_000)
            #expect(second.state == .queued)
            _ = await first.pause()
            let result = await second.result()
            #expect(isDroppedConnection(result))
            let secondPart = try #require(contents(directory + "/b.bin.part")?.count)

            let recovered = try downloader.recover(in: directory)
            #expect(recovered.map(\.destination) == [directory + "/a.bin", directory + "/b.bin"])
            for task in recovered { #expect(await task.result() == .completed) }
            #expect(contents(directory + "/a.bin") == oneMiB)
            #expect(contents(directory + "/b.bin") == oneMiB)
            #expect(Set(server.getRequests.suffix(2).map { $0.headers["range"] }) == ["bytes=50000-", "bytes=\(secondPart)-"])
        }
    }

    @Test func unwritableDestinationFailsClearly() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            let destination = directory + "/missing/file.bin"
            let task = downloader.download(from: server.url, to: destination)
            #expect(await task.result() == .failed(.disk("open \(destination).part: No such file or directory")))
            #expect(server.requests.isEmpty)
        }
    }
}

@Suite struct DownloaderEdgeTests {
    @Test func existingDestinationIsCheckedAgainstTheExpectedHash() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            let destination = directory + "/file.bin"
            try oneMiB.write(to: URL(fileURLWithPath: destination))
            let good = downloader.download(from: server.url, to: destination, expectedSHA256: sha256Hex(oneMiB).uppercased())
            #expect(await good.result() == .completed)
            #expect(good.existingFile == .matchesChecksum)
            let wrong = String(repeating: "a", count: 64)
            let bad = downloader.download(from: server.url, to: destination, expectedSHA256: wrong)
            #expect(await bad.result() == .failed(.checksumMismatch(expected: wrong, actual: sha256Hex(oneMiB))))
            #expect(contents(destination) == oneMiB)
            #expect(server.requests.isEmpty)
        }
    }

    @Test func blobLeftAfterTheFinalRenameIsCleanedUp() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            let destination = directory + "/file.bin"
            try oneMiB.write(to: URL(fileURLWithPath: destination))
            let checkpoint = DownloadCheckpoint(originalURL: server.url, currentURL: server.url, bytesReceived: 5, entityTag: server.file.etag)
            try ResumeCheckpoint.encode(checkpoint, partialPath: destination + ".part").write(to: URL(fileURLWithPath: destination + ".resume"))
            let task = downloader.download(from: server.url, to: destination)
            #expect(await task.result() == .completed)
            #expect(task.existingFile == .finishedEarlier)
            #expect(!exists(destination + ".resume"))
            #expect(server.requests.isEmpty)
        }
    }

    @Test func partialFileShorterThanTheBlobSaysStartsOver() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            let destination = directory + "/file.bin"
            try oneMiB.prefix(1000).write(to: URL(fileURLWithPath: destination + ".part"))
            let checkpoint = DownloadCheckpoint(originalURL: server.url, currentURL: server.url, bytesReceived: 5000, entityTag: server.file.etag)
            try ResumeCheckpoint.encode(checkpoint, partialPath: destination + ".part").write(to: URL(fileURLWithPath: destination + ".resume"))
            let task = downloader.download(from: server.url, to: destination)
            #expect(await task.result() == .completed)
            #expect(contents(destination) == oneMiB)
            #expect(server.getRequests.map { $0.headers["range"] } == [nil])
        }
    }

    @Test func partialFileLongerThanTheBlobSaysIsCutBack() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            let destination = directory + "/file.bin"
            // Bytes after the checkpoint may never have been flushed: they are not trusted.
            var part = oneMiB.prefix(3000)
            part.append(Data(repeating: 0xEE, count: 2000))
            try part.write(to: URL(fileURLWithPath: destination + ".part"))
            let checkpoint = DownloadCheckpoint(originalURL: server.url, currentURL: server.url, bytesReceived: 3000, entityTag: server.file.etag)
            try ResumeCheckpoint.encode(checkpoint, partialPath: destination + ".part").write(to: URL(fileURLWithPath: destination + ".resume"))
            let task = downloader.download(from: server.url, to: destination)
            #expect(await task.result() == .completed)
            #expect(contents(destination) == oneMiB)
            // The first request proves the cut; a starved machine may add a retry after a stall
            // (5 s without a byte), which continues from wherever that attempt got.
            #expect(server.getRequests.first?.headers["range"] == "bytes=3000-")
        }
    }

    @Test func invalidURLFailsWithoutRetrying() async throws {
        try await withDownloader { downloader in
            try await withTemporaryDirectory { directory in
                for url in ["ftp://127.0.0.1/x", "http:///x", "not a url"] {
                    let task = downloader.download(from: url, to: directory + "/x")
                    #expect(await task.result() == .failed(.invalidURL(url)))
                    #expect(!exists(directory + "/x.part"))
                }
            }
        }
    }

    @Test func twoDownloadsOfOneFileDoNotInterleave() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            server.script([.stallAfter(10_000)])
            let destination = directory + "/file.bin"
            let first = downloader.download(from: server.url, to: destination)
            try await waitForSize(destination + ".part", 10_000)
            let second = downloader.download(from: server.url, to: destination)
            #expect(await second.result() == .failed(.inUse(destination + ".part")))
            await first.cancel(removeFile: false)
            #expect(first.state == .cancelled)
            #expect(try ResumeCheckpoint.decode(try #require(contents(destination + ".resume"))).checkpoint.bytesReceived == 10_000)
        }
    }
}
