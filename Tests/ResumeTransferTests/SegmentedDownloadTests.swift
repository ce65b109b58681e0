import Foundation
@testable import ResumeDataCodec
import Testing

@testable import ResumeTransfer

#if canImport(Glibc)
import Glibc
#endif

private let served = testData(count: 4 << 20, seed: 41)
private let replacement = testData(count: (4 << 20) - 999, seed: 42)

private func segmented(connections: Int = 4) -> DownloadConfiguration {
    var configuration = fastConfiguration(retries: 4)
    configuration.connections = connections
    configuration.minimumSegmentBytes = 64 << 10
    return configuration
}

/// The closed ranges (`bytes=N-M`) the server was asked for.
private func segmentRequests(_ server: TestServer) -> [TestServer.Request] {
    server.getRequests.filter { $0.headers["range"].map { !$0.hasSuffix("-") } ?? false }
}

/// `--connections`: segments fetched at once from the in-process server, against servers that
/// serve ranges, ignore them, cap connections, or change the file mid-way; and `kill -9` of the
/// built tool at random moments of a 4-connection download.
@Suite(.serialized) struct SegmentedDownloadTests {
    @Test func fourConnectionsFetchSegmentsEachWithIfRange() async throws {
        try await withServer(served, configuration: segmented()) { server, downloader, directory in
            // 1 MiB/s per response: one connection alone would take 4 s.
            server.throttle(bytesPerSecond: 1 << 20)
            let destination = directory + "/file.bin"
            let task = downloader.download(from: server.url, to: destination)
            #expect(await task.result() == .completed)
            #expect(contents(destination) == served)
            #expect(!exists(destination + ".part") && !exists(destination + ".resume"))
            let ranged = segmentRequests(server)
            #expect(ranged.count >= 3)
            for request in ranged { #expect(request.headers["if-range"] == server.file.etag) }
            // The first request is the plain one; every segment starts where no other did.
            #expect(server.getRequests.first?.headers["range"] == nil)
            let starts = ranged.compactMap { $0.headers["range"]?.dropFirst(6).split(separator: "-").first }
            #expect(Set(starts).count == starts.count)
        }
    }

    /// `--limit-rate` bounds the download, not each of its connections.
    @Test func theRateLimitHoldsForAllConnectionsTogether() async throws {
        var configuration = segmented()
        configuration.maximumBytesPerSecond = 1 << 20
        let data = testData(count: 3 << 20, seed: 44)
        try await withServer(data, configuration: configuration) { server, downloader, directory in
            let clock = ContinuousClock()
            let start = clock.now
            let task = downloader.download(from: server.url, to: directory + "/file.bin")
            #expect(await task.result() == .completed)
            let elapsed = clock.now - start
            #expect(contents(directory + "/file.bin") == data)
            #expect(segmentRequests(server).count >= 1)
            // 3 MiB at 1 MiB/s: the first chunk is free, so a little under 3 s; four connections
            // each at the limit would take under 1 s. The limiter's promise: at most 20 % over.
            let rate = Double(data.count) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) / Double(1 << 20)
            #expect(rate < 1.2, "\(rate) MiB/s")
        }
    }

    @Test func aServerIgnoringRangesGetsOneStream() async throws {
        try await withServer(served, configuration: segmented()) { server, downloader, directory in
            server.ignoreRanges()
            let task = downloader.download(from: server.url, to: directory + "/file.bin")
            #expect(await task.result() == .completed)
            #expect(contents(directory + "/file.bin") == served)
            #expect(server.getRequests.count == 1)
        }
    }

    @Test func aServerCappingConnectionsStillGivesTheFile() async throws {
        try await withServer(served, configuration: segmented()) { server, downloader, directory in
            server.throttle(bytesPerSecond: 2 << 20)
            server.capConnections(2)
            let task = downloader.download(from: server.url, to: directory + "/file.bin")
            #expect(await task.result() == .completed)
            #expect(contents(directory + "/file.bin") == served)
        }
    }

    @Test func aFileChangedMidDownloadRestartsEverythingFromZero() async throws {
        var configuration = segmented()
        configuration.stallTimeout = .seconds(1)
        try await withServer(served, configuration: configuration) { server, downloader, directory in
            // The first connection stalls, so its segment is asked for again after the file
            // changed (once 512 KiB of the others' segments went out): If-Range then fails.
            server.script([.stallAfter(100_000)])
            server.throttle(bytesPerSecond: 1 << 20)
            server.replaceFile(with: replacement, afterSending: 512 << 10)
            let task = downloader.download(from: server.url, to: directory + "/file.bin")
            var reasons: [RestartReason] = []
            for await case .restarted(let reason) in task.events { reasons.append(reason) }
            #expect(await task.result() == .completed)
            #expect(reasons == [.fileChanged])
            #expect(contents(directory + "/file.bin") == replacement)
        }
    }

    /// Paused mid-way: the blob is Apple resume data counting the contiguous prefix, the other
    /// finished ranges in its own key and on disk; the next run fetches only what is missing.
    @Test func pausedSegmentsLeaveAValidBlobAndContinue() async throws {
        try await withServer(served, configuration: segmented()) { server, downloader, directory in
            // 256 KiB/s per response: the whole file takes about 4 s over four connections.
            server.throttle(bytesPerSecond: 256 << 10)
            let destination = directory + "/file.bin"
            let task = downloader.download(from: server.url, to: destination)
            try await waitForAtLeast(destination + ".part", 3 << 20)
            // Paused once a checkpoint on disk counts a prefix and another finished range, so
            // that the blob the pause writes has both to show.
            try await waitUntil("a checkpoint with a prefix and a finished range") {
                guard let written = contents(destination + ".resume"),
                      let checkpoint = try? ResumeCheckpoint.decode(written).checkpoint else { return false }
                return checkpoint.bytesReceived > 0 && !checkpoint.finishedRanges.isEmpty
            }
            let blob = try #require(await task.pause())
            let resume = try ResumeData(data: blob)
            let decoded = try ResumeCheckpoint.decode(blob).checkpoint
            let prefix = try #require(resume.bytesReceived)
            #expect(prefix == decoded.bytesReceived)
            #expect(prefix < Int64(served.count))
            let ranges = decoded.finishedRanges
            #expect(!ranges.isEmpty)
            let part = try #require(contents(destination + ".part"))
            #expect(part.prefix(Int(prefix)) == served.prefix(Int(prefix)))
            for range in ranges {
                let bounds = Int(range.lowerBound)..<Int(range.upperBound)
                #expect(part[bounds] == served[bounds], "range \(range)")
            }
            let before = server.getRequests.count
            server.throttle(bytesPerSecond: nil)
            let again = downloader.download(from: server.url, to: destination)
            let state = await again.result()
            #expect(state == .completed)
            #expect(contents(destination) == served)
            // No request of the second run starts inside a range the blob said was finished.
            for request in server.getRequests.dropFirst(before) {
                guard let value = request.headers["range"], let start = Int64(value.dropFirst(6).split(separator: "-").first ?? "")
                else { continue }
                #expect(!ranges.contains { $0.contains(start) }, "\(value) re-fetches a finished range")
            }
        }
    }

    /// `kill -9` of `resumetool download --connections 4` at random moments, over http and
    /// https (each connection on the direct path): every rerun continues every segment, and the
    /// end result is the server's file, byte for byte.
    @Test(arguments: [false, true])
    func sigkillDuringFourConnectionsGivesTheServersFile(tls: Bool) async throws {
        let data = testData(count: 6 << 20, seed: 43)
        let server = try await TestServer.start(serving: data, tls: tls)
        defer { Task { await server.stop() } }
        server.throttle(bytesPerSecond: 1 << 20)
        server.holdBack(256 << 10)
        try await withTemporaryDirectory { directory in
            let arguments = ["download", server.url, "-o", "file.bin", "--quiet", "--connections", "4", "--checkpoint-bytes", "131072"]
                + (tls ? ["--cacert", TestServer.certificateAuthorityFile] : [])
            let destination = directory + "/file.bin"
            var generator = SystemRandomNumberGenerator()
            var killed = 0
            for iteration in 0..<6 {
                let before = fileSize(destination + ".part")
                let moment = Duration.milliseconds(Int.random(in: 0...300, using: &generator))
                let run = try await runToolCapturing(
                    arguments, in: directory, after: moment, when: { fileSize(destination + ".part") > before })
                if run.status == nil { killed += 1 }
                #expect(!exists(destination), "iteration \(iteration): a destination before the end")
                // What the blob claims is on disk and is the server's.
                if let blob = contents(destination + ".resume"), let part = contents(destination + ".part") {
                    let checkpoint = try ResumeCheckpoint.decode(blob).checkpoint
                    #expect(part.prefix(Int(checkpoint.bytesReceived)) == data.prefix(Int(checkpoint.bytesReceived)))
                    for range in checkpoint.finishedRanges where Int(range.upperBound) <= part.count {
                        let bounds = Int(range.lowerBound)..<Int(range.upperBound)
                        #expect(part[bounds] == data[bounds], "iteration \(iteration): range \(range)")
                    }
                }
            }
            #expect(killed == 6)
            server.holdBack(0)
            server.throttle(bytesPerSecond: nil)
            #expect(try await runTool(arguments, in: directory) == 0)
            #expect(contents(destination).map(sha256Hex) == sha256Hex(data))
            #expect(!exists(destination + ".part"))
            #expect(!exists(destination + ".resume"))
        }
    }

    /// A segmented download's blob handed to a device: `convert` and `repair` refuse it, naming
    /// `--trim-partial`, which cuts the partial file to the counted prefix and drops the key.
    @Test func convertAndRepairForADeviceTrimOrRefuse() async throws {
        try await withTemporaryDirectory { directory in
            var checkpoint = DownloadCheckpoint(originalURL: "http://127.0.0.1:1/f", currentURL: "http://127.0.0.1:1/f", bytesReceived: 100, entityTag: "\"e\"")
            checkpoint.finishedRanges = [500..<1000]
            try ResumeCheckpoint.encode(checkpoint, partialPath: directory + "/f.part").write(to: URL(fileURLWithPath: directory + "/f.resume"))
            try served.prefix(1000).write(to: URL(fileURLWithPath: directory + "/f.part"))
            for command in ["convert", "repair"] {
                let extra = command == "convert" ? ["--to", "xml"] : []
                let refused = try await runToolCapturing([command, "f.resume"] + extra + ["-o", "out.plist"], in: directory)
                #expect(refused.status == 1)
                #expect(refused.stderr.contains("`resumetool \(command) f.resume --trim-partial PARTIAL-FILE …`"), "\(refused.stderr)")
                #expect(!exists(directory + "/out.plist"))
                #expect(fileSize(directory + "/f.part") == 1000)
            }
            let short = try await runToolCapturing(["convert", "f.resume", "--to", "xml", "-o", "out.plist", "--trim-partial", "missing.part"], in: directory)
            #expect(short.status == 1)
            let trimmed = try await runToolCapturing(["convert", "f.resume", "--to", "xml", "-o", "out.plist", "--trim-partial", "f.part"], in: directory)
            #expect(trimmed.status == 0, "\(trimmed.stderr)")
            #expect(contents(directory + "/f.part") == served.prefix(100))
            let resume = try ResumeData(data: try #require(contents(directory + "/out.plist")))
            #expect(resume.bytesReceived == 100)
            #expect(resume.entries[ResumeCheckpoint.finishedRangesKey] == nil)
            // Our own blob still works: ranges past the cut file are dropped, not trusted.
            #expect(try ResumeCheckpoint.decode(try #require(contents(directory + "/f.resume"))).checkpoint.finishedRanges == [500..<1000])
        }
    }
}
