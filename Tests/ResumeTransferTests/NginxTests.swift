import Foundation
import Testing

@testable import ResumeTransfer

@Suite(.serialized) struct NginxTests {
    static let big = testData(count: 64 << 20, seed: 64)
    static let medium = testData(count: 10 << 20, seed: 10)
    static let changed = testData(count: (10 << 20) + 777, seed: 20)

    @Test func downloads64MiBAndContinuesAPartialFile() async throws {
        try await withNginx { nginx, directory in
            try publish(Self.big, as: "big.bin", in: nginx.root, modified: Date(timeIntervalSince1970: 1_700_000_000))
            try await withDownloader { downloader in try await Self.bigDownloads(nginx, directory, downloader) }
        }
    }

    /// `--connections 4` against nginx: segments with If-Range, the file byte for byte; paused
    /// once one segment beyond the prefix is finished, and continued, every segment goes on.
    @Test func fourConnectionsFetchSegmentsAndContinueAfterAPause() async throws {
        try await withNginx { nginx, directory in
            try publish(Self.medium, as: "file.bin", in: nginx.root, modified: Date(timeIntervalSince1970: 1_700_000_000))
            var configuration = fastConfiguration()
            configuration.connections = 4
            configuration.minimumSegmentBytes = 256 << 10
            try await withDownloader(configuration) { downloader in
                let destination = directory + "/file.bin"
                try await pauseOnceASegmentIsFinished(downloader, nginx, tls: false, to: destination, size: Self.medium.count)
                let second = downloader.download(from: nginx.url("file.bin"), to: destination, expectedSHA256: sha256Hex(Self.medium))
                #expect(await second.result() == .completed)
                #expect(contents(destination).map(sha256Hex) == sha256Hex(Self.medium))
            }
        }
    }

    static func bigDownloads(_ nginx: Nginx, _ directory: String, _ downloader: Downloader) async throws {
        do {
            let whole = directory + "/whole.bin"
            let first = downloader.download(from: nginx.url("big.bin"), to: whole, expectedSHA256: sha256Hex(Self.big))
            #expect(await first.result() == .completed)
            #expect(contents(whole).map(sha256Hex) == sha256Hex(Self.big))

            // A partial file without a blob: HEAD, then Range from its end.
            let partial = directory + "/partial.bin"
            try Self.big.prefix(20_000_000).write(to: URL(fileURLWithPath: partial + ".part"))
            let second = downloader.download(from: nginx.url("big.bin"), to: partial)
            #expect(await second.result() == .completed)
            #expect(contents(partial).map(sha256Hex) == sha256Hex(Self.big))
        }
    }

    /// Pauses a download mid-way, changes the file on the server, and continues: nginx honours
    /// If-Range with the old ETag by sending the whole new file, which is what must end up on disk.
    /// curl -C - on the same partial file splices the new file's tail onto the old bytes.
    @Test func changedFileIsNeverSplicedUnlikeCurl() async throws {
        try await withNginx { nginx, directory in
            try publish(Self.medium, as: "file.bin", in: nginx.root, modified: Date(timeIntervalSince1970: 1_700_000_000))
            try await withDownloader { downloader in try await Self.spliceComparison(nginx, directory, downloader) }
        }
    }

    static func spliceComparison(_ nginx: Nginx, _ directory: String, _ downloader: Downloader) async throws {
        do {
            let destination = directory + "/file.bin"
            let task = downloader.download(from: nginx.url("slow/file.bin"), to: destination)
            try await waitForAtLeast(destination + ".part", 2 << 20)
            let blob = try #require(await task.pause())
            var paused = try ResumeCheckpoint.decode(blob).checkpoint
            #expect(paused.bytesReceived >= 2 << 20 && paused.bytesReceived < Int64(Self.medium.count))
            #expect(paused.entityTag == "\"6553f100-a00000\"")
            #expect(paused.currentURL.string == nginx.url("slow/file.bin"))
            let partialBytes = try #require(contents(destination + ".part")).prefix(Int(paused.bytesReceived))
            #expect(partialBytes == Self.medium.prefix(Int(paused.bytesReceived)))
            // Continue from the unthrottled location (same file, same ETag) to keep the test quick.
            paused.currentURL = checkedURL(nginx.url("file.bin"))
            try ResumeCheckpoint.encode(paused, partialPath: destination + ".part").write(to: URL(fileURLWithPath: destination + ".resume"))

            // Unchanged file: a real 206 continues it.
            let unchanged = directory + "/unchanged.bin"
            try partialBytes.write(to: URL(fileURLWithPath: unchanged + ".part"))
            try ResumeCheckpoint.encode(paused, partialPath: unchanged + ".part").write(to: URL(fileURLWithPath: unchanged + ".resume"))
            #expect(await downloader.download(from: nginx.url("file.bin"), to: unchanged).result() == .completed)
            #expect(contents(unchanged) == Self.medium)

            try publish(Self.changed, as: "file.bin", in: nginx.root, modified: Date(timeIntervalSince1970: 1_700_000_100))

            let curl = directory + "/curl.bin"
            try partialBytes.write(to: URL(fileURLWithPath: curl))
            #expect(try runCurl(["-s", "-C", "-", "-o", curl, nginx.url("file.bin")]) == 0)
            let spliced = try #require(contents(curl))
            #expect(spliced.count == Self.changed.count)
            #expect(spliced != Self.changed, "curl -C - did not splice; the comparison proves nothing")
            #expect(spliced.prefix(partialBytes.count) == partialBytes)

            let resumed = downloader.download(from: nginx.url("file.bin"), to: destination)
            #expect(await resumed.result() == .completed)
            #expect(contents(destination).map(sha256Hex) == sha256Hex(Self.changed))
        }
    }
}

/// Downloads a file of `size` bytes (10 MiB) with four connections from `/last-quarter-first/`,
/// where the last quarter's segment comes at once and the rest at 128 KiB/s, and pauses once the
/// checkpoint on disk counts that segment whole. The wait has seconds of margin whatever the load:
/// the other three segments take over ten more. The blob left is made to continue from the
/// unthrottled location (same file, same ETag), so the rest is quick.
func pauseOnceASegmentIsFinished(_ downloader: Downloader, _ nginx: Nginx, tls: Bool, to destination: String, size: Int) async throws {
    let lastQuarter = Int64(size) * 3 / 4..<Int64(size)
    let first = downloader.download(from: nginx.url("last-quarter-first/file.bin", tls: tls), to: destination)
    var finished = false
    for _ in 0..<1500 where !finished {
        if let blob = contents(destination + ".resume"), let saved = try? ResumeCheckpoint.decode(blob).checkpoint {
            finished = saved.finishedRanges.contains(lastQuarter)
        }
        if !finished { try await Task.sleep(for: .milliseconds(10)) }
    }
    #expect(finished, "the last quarter's segment was never counted whole")
    let blob = try #require(await first.pause())
    var paused = try ResumeCheckpoint.decode(blob).checkpoint
    #expect(paused.bytesReceived < Int64(size) / 4)
    #expect(paused.finishedRanges.contains(lastQuarter))
    paused.currentURL = checkedURL(nginx.url("file.bin", tls: tls))
    try ResumeCheckpoint.encode(paused, partialPath: destination + ".part").write(to: URL(fileURLWithPath: destination + ".resume"))
}

func waitForAtLeast(_ path: String, _ size: Int) async throws {
    for _ in 0..<1500 {
        if let current = FileManager.default.attributesOfItemIfAny(path)?[.size] as? Int, current >= size { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("\(path) never reached \(size) bytes")
}

extension FileManager {
    func attributesOfItemIfAny(_ path: String) -> [FileAttributeKey: Any]? {
        try? self.attributesOfItem(atPath: path)
    }
}

struct CurlMissing: Error, CustomStringConvertible {
    var description: String { "curl is not installed; the splice comparison needs it (apt-get install curl)" }
}

func runCurl(_ arguments: [String]) throws -> Int32 {
    guard let curl = ["/usr/bin/curl", "/usr/local/bin/curl"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
        throw CurlMissing()
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: curl)
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}
