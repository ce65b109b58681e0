import Foundation
@testable import ResumeDataCodec
import Testing

@testable import ResumeTransfer

#if canImport(Glibc)
import Glibc
#endif

private let served = testData(count: 4 << 20, seed: 51)

/// 4 connections, 64 KiB the smallest half of a split (the files here are small), over TLS
/// trusting the tests' CA when `tls`.
private func fourConnections(tls: Bool = false, retries: Int = 4) -> DownloadConfiguration {
    var configuration = fastConfiguration(retries: retries)
    configuration.connections = 4
    configuration.minimumSegmentBytes = 64 << 10
    if tls { configuration.certificateAuthorityFile = TestServer.certificateAuthorityFile }
    return configuration
}

/// The first byte a `Range: bytes=N-M` request asked for (nil without a closed range).
private func rangeStart(_ request: TestServer.Request) -> Int64? {
    guard let value = request.headers["range"], !value.hasSuffix("-") else { return nil }
    return value.dropFirst(6).split(separator: "-").first.flatMap { Int64($0) }
}

/// `--connections N` on the direct path (``ConnectionOpener/direct(_:)``): every segment on a socket
/// and a thread of its own, over http and https, with the answers a segment can get wrong.
@Suite(.serialized) struct DirectSegmentsTests {
    @Test(arguments: [false, true])
    func fourDirectConnectionsGiveTheServersFile(tls: Bool) async throws {
        try await withServer(served, tls: tls, configuration: fourConnections(tls: tls)) { server, downloader, directory in
            // 1 MiB/s per response: one connection alone would take 4 s.
            server.throttle(bytesPerSecond: 1 << 20)
            let destination = directory + "/file.bin"
            #expect(await downloader.download(from: server.url, to: destination).result() == .completed)
            #expect(contents(destination) == served)
            #expect(!exists(destination + ".part") && !exists(destination + ".resume"))
            let requests = server.getRequests
            // The direct path asks each server connection to close; AsyncHTTPClient would keep it.
            #expect(requests.allSatisfy { $0.headers["connection"] == "close" })
            #expect(requests.first.map(rangeStart) == .some(nil))
            let starts = requests.compactMap(rangeStart)
            // The first response keeps the first quarter; the others start at the other three.
            #expect(Array(starts.prefix(3)).sorted() == [1 << 20, 2 << 20, 3 << 20])
            #expect(Set(starts).count == starts.count)
            for request in requests.dropFirst() { #expect(request.headers["if-range"] == server.file.etag) }
        }
    }

    /// A segment answered with the whole file (200), or with bytes from somewhere else than
    /// asked (206 with another Content-Range): refused before a byte is written, and its range
    /// fetched again by another connection.
    @Test(arguments: [TestServer.Behaviour.ignoreRange, .wrongContentRange])
    func aSegmentAnsweredWrongIsRefusedAndFetchedAgain(answer: TestServer.Behaviour) async throws {
        try await withServer(served, configuration: fourConnections()) { server, downloader, directory in
            // The second request is the first segment request, whichever piece it is.
            server.script([.normal, answer])
            let destination = directory + "/file.bin"
            #expect(await downloader.download(from: server.url, to: destination).result() == .completed)
            #expect(contents(destination) == served)
            let requests = server.getRequests
            #expect(requests.allSatisfy { $0.headers["connection"] == "close" })
            let refused = try #require(requests.dropFirst().first.flatMap(rangeStart))
            // Asked for again, from its first byte: nothing of the wrong answer was kept.
            #expect(requests.dropFirst(2).compactMap(rangeStart).contains(refused))
        }
    }

    /// A connection that dies mid-segment: its bytes are kept, and the rest of its segment is
    /// asked for from the exact byte after them.
    @Test(arguments: [false, true])
    func aConnectionDyingMidSegmentIsContinuedAtItsExactByte(tls: Bool) async throws {
        try await withServer(served, tls: tls, configuration: fourConnections(tls: tls)) { server, downloader, directory in
            server.script([.normal, .dropAfter(100_000)])
            let destination = directory + "/file.bin"
            #expect(await downloader.download(from: server.url, to: destination).result() == .completed)
            #expect(contents(destination) == served)
            let requests = server.getRequests
            let dropped = try #require(requests.dropFirst().first.flatMap(rangeStart))
            #expect(requests.dropFirst(2).compactMap(rangeStart).contains(dropped + 100_000))
        }
    }

    /// One slow connection among fast ones: once the others are done, what it has left is split
    /// and fetched by new connections (it is told to stop earlier), so it does not hold the end.
    @Test(arguments: [false, true])
    func aSlowConnectionsRestIsSplitAgain(tls: Bool) async throws {
        try await withServer(served, tls: tls, configuration: fourConnections(tls: tls)) { server, downloader, directory in
            // The first response (which keeps the first quarter) at 256 KiB/s, the others at full speed.
            server.script([.throttledTo(256 << 10)])
            let destination = directory + "/file.bin"
            #expect(await downloader.download(from: server.url, to: destination).result() == .completed)
            #expect(contents(destination) == served)
            let starts = server.getRequests.compactMap(rangeStart)
            // Requests beyond the first three segments start inside the first quarter: the slow
            // connection's rest, split again.
            let resplit = starts.filter { $0 > 0 && $0 < 1 << 20 }
            #expect(!resplit.isEmpty, "\(starts)")
            #expect(Set(starts).count == starts.count)
        }
    }

    /// Cancelled while four connections write: every thread has stopped writing when the call
    /// returns (the file no longer changes, while the server, no longer throttled, would send a
    /// still-reading connection the rest at once, until it has seen every connection closed), and
    /// the blob it leaves continues to the server's file.
    @Test(arguments: [false, true])
    func cancelledWhileFourConnectionsWriteThenContinued(tls: Bool) async throws {
        try await withServer(served, tls: tls, configuration: fourConnections(tls: tls)) { server, downloader, directory in
            server.throttle(bytesPerSecond: 256 << 10)
            // Every response stops 64 KiB short, so a machine that runs this test late still
            // cancels a download under way.
            server.holdBack(64 << 10)
            let destination = directory + "/file.bin"
            let task = downloader.download(from: server.url, to: destination)
            try await waitForAtLeast(destination + ".part", 3 << 20)
            await task.cancel(removeFile: false)
            #expect(task.state == .cancelled)
            let part = try #require(contents(destination + ".part"))
            server.throttle(bytesPerSecond: nil)
            server.holdBack(0)
            try await waitUntil("the server sees every connection closed") { server.openConnections == 0 }
            #expect(contents(destination + ".part") == part)
            let checkpoint = try ResumeCheckpoint.decode(try #require(contents(destination + ".resume"))).checkpoint
            #expect(part.prefix(Int(checkpoint.bytesReceived)) == served.prefix(Int(checkpoint.bytesReceived)))
            for range in checkpoint.finishedRanges {
                let bounds = Int(range.lowerBound)..<Int(range.upperBound)
                #expect(part[bounds] == served[bounds], "range \(range)")
            }
            #expect(await downloader.download(from: server.url, to: destination).result() == .completed)
            #expect(contents(destination) == served)
        }
    }

    /// The rule that lets a segment's end move while its thread writes (``DirectReceiver/claim(from:count:)``
    /// and ``DirectReceiver/shrink(to:)``), value by value, without a connection.
    @Test func aSegmentsEndMovesOnlyPastWhatItsThreadClaimed() async throws {
        try await withTemporaryDirectory { directory in
            let part = try PartialFile(path: directory + "/file.part")
            let events = ResponseEvent.Queue()
            let settings = DirectReceiver.Settings(
                connectTimeout: .seconds(2), responseTimeout: .seconds(2), stallTimeout: .seconds(2), batchBytes: 1 << 16)
            let receiver = try #require(DirectReceiver(tag: 3, part: part, settings: settings, events: events))
            // Before the head is answered nothing is written, so nothing can be handed over.
            #expect(await receiver.shrink(to: 500) == nil)
            #expect(receiver.claim(from: 0, count: 10) == 10)
            receiver.accept(at: 100, verifying: 0, upTo: 1000)
            #expect(receiver.limit == 1000)
            #expect(receiver.claim(from: 100, count: 300) == 300)
            // Below what the thread may be writing: the end moves to the claimed end instead.
            #expect(await receiver.shrink(to: 200) == 400)
            #expect(receiver.limit == 400)
            #expect(receiver.claim(from: 400, count: 10) == 0)
            // Not below the limit: nothing to hand over.
            #expect(await receiver.shrink(to: 400) == nil)
            #expect(await receiver.shrink(to: 999) == nil)
            // A claim ends at the limit; once settled (the thread waits), only the written bytes hold the end.
            #expect(receiver.claim(from: 150, count: 1000) == 250)
            #expect(await receiver.shrink(to: 160) == nil)
            receiver.settle(at: 180)
            #expect(await receiver.shrink(to: 160) == 180)
            #expect(await receiver.shrink(to: 170) == nil)
            #expect(receiver.claim(from: 175, count: 100) == 5)
            receiver.stop(reason: .cancelled)
            receiver.settle(at: 170)
            #expect(await receiver.shrink(to: 170) == nil)
            // Without a limit (one stream to the end) there is no segment to shrink.
            let whole = try #require(DirectReceiver(tag: 4, part: part, settings: settings, events: events))
            whole.accept(at: 0, verifying: 0, upTo: nil)
            #expect(whole.claim(from: 0, count: 1 << 40) == 1 << 40)
            #expect(await whole.shrink(to: 10) == nil)
            // Their threads close the wake pipes: each fails to connect to a port nobody listens on.
            try await withRefusingLoopbackPort { closed in
                let route = try #require(HTTPURL("http://127.0.0.1:\(closed)/file.bin").flatMap(DirectRoute.init(url:)))
                receiver.start(route: route, headers: [])
                whole.start(route: route, headers: [])
                var ends: [Int: ResponseEvent] = [:]
                while ends.count < 2 {
                    let (tag, event) = await events.next()
                    if event.isLast { ends[tag] = event }
                }
                #expect(ends[3] == .failed(.cancelled))
                if case .failed(.connection(.cannotConnect(let host, let port, _)))? = ends[4] {
                    #expect(host == "127.0.0.1" && port == closed)
                } else {
                    Issue.record("\(String(describing: ends[4]))")
                }
            }
        }
    }
}

/// `--connections 4` on the direct path against nginx, over http and https: the file byte for
/// byte, and after a pause mid-way every segment continues.
@Suite(.serialized) struct NginxDirectSegmentsTests {
    static let medium = testData(count: 10 << 20, seed: 52)

    @Test(arguments: [false, true])
    func fourConnectionsGiveTheServersFileAndContinueAfterAPause(tls: Bool) async throws {
        try await withNginx { nginx, directory in
            try publish(Self.medium, as: "file.bin", in: nginx.root, modified: Date(timeIntervalSince1970: 1_700_000_000))
            var configuration = fourConnections(tls: tls)
            configuration.minimumSegmentBytes = 256 << 10
            try await withDownloader(configuration) { downloader in
                let whole = directory + "/whole.bin"
                #expect(await downloader.download(from: nginx.url("file.bin", tls: tls), to: whole).result() == .completed)
                #expect(contents(whole).map(sha256Hex) == sha256Hex(Self.medium))

                // Paused once a segment beyond the prefix is finished, then continued.
                let destination = directory + "/file.bin"
                try await pauseOnceASegmentIsFinished(downloader, nginx, tls: tls, to: destination, size: Self.medium.count)
                let second = downloader.download(from: nginx.url("file.bin", tls: tls), to: destination, expectedSHA256: sha256Hex(Self.medium))
                #expect(await second.result() == .completed)
                #expect(contents(destination).map(sha256Hex) == sha256Hex(Self.medium))
            }
        }
    }
}
