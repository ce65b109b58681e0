import Foundation
import NIOHTTP1
import Testing

@testable import ResumeTransfer

/// The meter that applies ``ResponseHeadLimits``, value by value.
@Suite struct ResponseHeadMeterTests {
    private let limits = ResponseHeadLimits(maximumHeadBytes: 200, maximumFields: 3, maximumLineBytes: 20, maximumInformational: 2)

    @Test func aFinalHeadWithinTheBoundsPassesAndTheMeterStartsOver() throws {
        var meter = ResponseHeadMeter(limits: self.limits)
        #expect(try meter.count(head(100)) == false)
        #expect(meter.informational == 1)
        #expect(meter.bytes == 25)  // "HTTP/1.1 100 Continue\r\n\r\n"
        #expect(try meter.count(head(200, [("A", "b")])) == true)
        #expect(meter.bytes == 0)
        #expect(meter.informational == 0)
    }

    @Test func theSizeOfAHeadIsItsHTTP11Spelling() throws {
        var meter = ResponseHeadMeter(limits: self.limits)
        _ = try meter.count(head(103, [("Link", "</a>")]))
        // "HTTP/1.1 103 \r\n" (15: NIO has no reason phrase for 103) + "Link: </a>\r\n" (12) + "\r\n" (2)
        #expect(meter.bytes == 29)
        _ = try meter.count(head(100), bytes: 7)
        #expect(meter.bytes == 36)
    }

    @Test func eachBoundIsItsOwnError() throws {
        var meter = ResponseHeadMeter(limits: self.limits)
        #expect(throws: ResponseHeadLimits.Exceeded.fields(3)) {
            try meter.count(head(200, [("A", "1"), ("B", "2"), ("C", "3"), ("D", "4")]))
        }
        #expect(throws: ResponseHeadLimits.Exceeded.lineBytes(20)) {
            try meter.count(head(200, [("X", String(repeating: "v", count: 18))]))
        }
        #expect(try meter.count(head(200, [("X", String(repeating: "v", count: 17))])) == true)
        _ = try meter.count(head(100))
        _ = try meter.count(head(100))
        #expect(throws: ResponseHeadLimits.Exceeded.informational(2)) { try meter.count(head(100)) }
    }

    @Test func everyHeadOfOneAnswerCountsTowardsTheByteBound() throws {
        var meter = ResponseHeadMeter(limits: self.limits)
        _ = try meter.count(head(100), bytes: 150)
        #expect(throws: Never.self) { try meter.checkPending(50) }
        #expect(throws: ResponseHeadLimits.Exceeded.headBytes(200)) { try meter.checkPending(51) }
        #expect(throws: ResponseHeadLimits.Exceeded.headBytes(200)) { try meter.count(head(200), bytes: 51) }
        #expect(throws: ResponseHeadLimits.Exceeded.headBytes(200)) { try meter.countWithoutHead(bytes: 51) }
        try meter.countWithoutHead(bytes: 50)
        #expect(meter.bytes == 200)
    }

    @Test func theMessagesSayWhichBound() {
        #expect(ResponseHeadLimits.Exceeded.headBytes(81_920).description == "the response head is longer than 81920 bytes")
        #expect(ResponseHeadLimits.Exceeded.fields(512).description == "the response head has more than 512 header fields")
        #expect(ResponseHeadLimits.Exceeded.lineBytes(16_384).description == "a response header line is longer than 16384 bytes")
        #expect(ResponseHeadLimits.Exceeded.informational(16).description
            == "the server sent more than 16 informational (1xx) responses before its answer")
    }

    private func head(_ code: Int, _ fields: [(String, String)] = []) -> HTTPResponseHead {
        HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: code), headers: HTTPHeaders(fields))
    }
}

/// Every bound of an answer's head on both paths: the engine's own socket (``DirectReceiver``)
/// and AsyncHTTPClient's (``ResponseHeadGuard``), against a raw server that sends what no HTTP
/// library would. Each ends with the bound's own error, not a timeout (the response timeout is
/// a minute here).
@Suite struct ResponseHeadBoundsOnBothPathsTests {
    static let paths = [true, false]

    @Test(arguments: paths)
    func endlessInformationalResponsesStopAtTheCount(direct: Bool) async throws {
        let state = try await self.download(direct: direct, [.forever("HTTP/1.1 100 Continue\r\n\r\n")])
        #expect(state == failure("the server sent more than 16 informational (1xx) responses before its answer"))
    }

    @Test(arguments: paths)
    func largeInformationalResponsesStopAtTheByteBound(direct: Bool) async throws {
        let filler = "X-Filler: " + String(repeating: "a", count: 10_000) + "\r\n"
        let state = try await self.download(direct: direct, [.forever("HTTP/1.1 103 Early Hints\r\n" + filler + filler + "\r\n")])
        #expect(state == failure("the response head is longer than 81920 bytes"))
    }

    @Test(arguments: paths)
    func anEndlessHeadStopsAtTheByteBound(direct: Bool) async throws {
        let state = try await self.download(direct: direct, [.text("HTTP/1.1 200 OK\r\n"), .forever("X-A: b\r\n")])
        // The direct path counts before the head ends, the client's decoder while parsing it;
        // both bounds are 80 KiB and said in the same words.
        #expect(state == failure("the response head is longer than 81920 bytes"))
    }

    @Test(arguments: paths)
    func tooManyFieldsAreRefused(direct: Bool) async throws {
        let fields = String(repeating: "X-A: b\r\n", count: 600)
        let state = try await self.download(direct: direct, [.text("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n" + fields + "\r\nx"), .hold])
        #expect(state == failure("the response head has more than 512 header fields"))
    }

    @Test(arguments: paths)
    func aLongLineIsRefused(direct: Bool) async throws {
        let line = "X-Long: " + String(repeating: "v", count: 20_000) + "\r\n"
        let state = try await self.download(direct: direct, [.text("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n" + line + "\r\nx"), .hold])
        #expect(state == failure("a response header line is longer than 16384 bytes"))
    }

    @Test(arguments: paths)
    func aFewInformationalResponsesBeforeTheAnswerAreFine(direct: Bool) async throws {
        let early = String(repeating: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </s.css>\r\n\r\n", count: 8)
        let state = try await self.download(direct: direct, [.text(early + "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"), .hold])
        #expect(state == .completed)
    }

    @Test(arguments: paths)
    func theBoundsAreTheConfigurations(direct: Bool) async throws {
        var limits = ResponseHeadLimits()
        limits.maximumInformational = 2
        let early = String(repeating: "HTTP/1.1 100 Continue\r\n\r\n", count: 3)
        let state = try await self.download(direct: direct, [.text(early + "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"), .hold], limits: limits)
        #expect(state == failure("the server sent more than 2 informational (1xx) responses before its answer"))
    }

    @Test(arguments: paths)
    func blankLinesBeforeAHeadCount(direct: Bool) async throws {
        let state = try await self.download(direct: direct, [.forever("\r\n\r\n")])
        #expect(isConnectionFailure(state))
    }

    // MARK: helpers

    private func failure(_ message: String) -> DownloadState {
        .failed(.retriesExhausted(last: .connection(.invalidResponse(message)), attempts: 0))
    }

    private func isConnectionFailure(_ state: DownloadState) -> Bool {
        if case .failed(.retriesExhausted(last: .connection, attempts: 0)) = state { return true }
        return false
    }

    private func download(direct: Bool, _ script: [RawServer.Step], limits: ResponseHeadLimits = ResponseHeadLimits()) async throws -> DownloadState {
        let server = try await RawServer.start([script])
        var configuration = fastConfiguration(retries: 0, stall: .seconds(60))
        configuration.responseTimeout = .seconds(60)
        configuration.usesDirectPath = direct
        configuration.responseHeadLimits = limits
        let state = try await withDownloader(configuration) { downloader in
            try await withTemporaryDirectory { directory in
                await downloader.download(from: server.url, to: directory + "/raw.bin").result()
            }
        }
        await server.stop()
        return state
    }
}

/// The bounds through the built binary: `--retries 0` against a server that sends `100 Continue`
/// for ever ends at once with the bound's words, with one connection and with two (both on the
/// direct path; the client path's bound is `direct: false` above).
@Suite struct ResponseHeadBoundsThroughTheBinaryTests {
    @Test(arguments: [[], ["--connections", "2"]])
    func endlessInformationalResponsesEndTheDownload(extra: [String]) async throws {
        let server = try await RawServer.start([[.forever("HTTP/1.1 100 Continue\r\n\r\n")]])
        let result = try await withTemporaryDirectory { directory in
            try await runToolCapturing(["download", server.url, "-o", "out.bin", "--retries", "0"] + extra, in: directory)
        }
        await server.stop()
        #expect(result.status == 1)
        #expect(result.stderr.hasSuffix(
            "out.bin: error: gave up after 0 retries: connection failed: the server sent more than 16 informational (1xx) responses before its answer\n"))
    }

    @Test func resumeSaysItKeepsTheBlobItWasGiven() async throws {
        let help = try await withTemporaryDirectory { directory in try await runToolCapturing(["resume", "--help"], in: directory) }
        #expect(help.status == 0)
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("The partial file and the blob given are inputs, left byte for byte as they were (they may be evidence, or an app's)"))
        #expect(!text.contains("the blob and partial file are removed"))
    }
}
