import Foundation
import Testing

@testable import ResumeTransfer

/// `download`'s options through the built binary against nginx (a server no one here wrote):
/// headers and user agent arriving, a list of URLs in parallel into a folder, `--json` events,
/// `--limit-rate`. nginx logs what it received in `probe.log` (see nginx/nginx.conf).
@Suite(.serialized) struct NginxCommandTests {
    static let files = (0..<5).map { testData(count: (1 << 20) + $0 * 1000, seed: UInt64(40 + $0)) }

    @Test func aListInParallelWithHeadersAndJSONEvents() async throws {
        try await withNginx { nginx, directory in
            for (index, data) in Self.files.enumerated() {
                try publish(data, as: "f\(index).bin", in: nginx.root, modified: Date(timeIntervalSince1970: 1_700_000_000))
            }
            let list = (0..<5).map { nginx.url("probe/f\($0).bin") }.joined(separator: "\n") + "\n"
            try Data(list.utf8).write(to: URL(fileURLWithPath: directory + "/urls.txt"))
            let result = try await runToolCapturing(
                ["download", "-i", "urls.txt", "-P", "out", "--parallel", "3", "--json", "-H", "X-Token: t0k", "--user-agent", "probe/1"],
                in: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr == "")
            for (index, data) in Self.files.enumerated() {
                #expect(contents(directory + "/out/f\(index).bin") == data, "f\(index).bin")
            }
            let events = try result.stdout.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
            for index in 0..<5 {
                let mine = events.filter { $0["file"] as? String == "out/f\(index).bin" }
                #expect(mine.first?["event"] as? String == "start")
                #expect(mine.first?["url"] as? String == nginx.url("probe/f\(index).bin"))
                #expect(mine.last?["event"] as? String == "done")
                #expect(mine.last?["bytes"] as? Int == Self.files[index].count)
                for progress in mine where progress["event"] as? String == "progress" {
                    #expect(progress["total"] as? Int == Self.files[index].count)
                    #expect((progress["bytes"] as? Int).map { $0 <= Self.files[index].count } == true)
                }
            }
            // nginx saw each GET once, with the header and the user agent, and no Range.
            let log = try String(contentsOfFile: directory + "/nginx/probe.log", encoding: .utf8)
            let gets = log.split(separator: "\n").filter { $0.hasPrefix("GET ") }
            #expect(gets.sorted() == (0..<5).map { "GET /probe/f\($0).bin HTTP/1.1|t0k|probe/1|-" }.sorted())
        }
    }

    @Test func limitRateAgainstNginx() async throws {
        try await withNginx { nginx, directory in
            let data = testData(count: 3 << 20, seed: 47)
            try publish(data, as: "r.bin", in: nginx.root, modified: Date(timeIntervalSince1970: 1_700_000_000))
            let clock = ContinuousClock()
            let start = clock.now
            let result = try await runToolCapturing(["download", nginx.url("r.bin"), "-o", "r.bin", "--limit-rate", "1M", "--quiet"], in: directory)
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            #expect(result == ToolResult(status: 0, stdout: "", stderr: ""))
            #expect(contents(directory + "/r.bin") == data)
            // The limiter's promise, as in DownloadOptionsTests: at most 20 % over the limit.
            let rate = Double(data.count) / seconds / Double(1 << 20)
            #expect(rate < 1.2, "\(rate) MiB/s over \(seconds) s")
        }
    }
}
