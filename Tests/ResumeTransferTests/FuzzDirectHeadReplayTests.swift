import Foundation
import Testing

@_spi(Fuzzing) @testable import ResumeTransfer

/// Replays every input kept in FuzzTesting/FailCases/FuzzDirectHead (hand-made answers, and what
/// the fuzzer finds) through the check the harness runs (``DirectHeadCheck``, the library's), then
/// seeded random answers; and pins the reader's verdicts on the hand-made ones.
@Suite struct FuzzDirectHeadReplayTests {
    static let cases = FuzzReplay.cases("FuzzDirectHead")

    @Test func thereAreCases() {
        #expect(Self.cases.count >= 12)
    }

    @Test(arguments: cases)
    func replay(name: String) throws {
        let bytes = try FuzzReplay.bytes("FuzzDirectHead", name)
        #expect(DirectHeadCheck.check(bytes) == nil, "\(name)")
    }

    /// The reader's verdict on an answer fed whole, with the check's tight bounds.
    private func verdict(_ text: String) throws -> Result<(UInt, Int, [UInt8]), TransferError> {
        var reader = ResponseHeadReader(framing: try #require(DirectHeadCheck.framing()), limits: DirectHeadCheck.limits)
        let bytes = Array(text.utf8)
        let step = bytes.withUnsafeBytes { raw in Result { () throws(TransferError) in try reader.feed(raw) } }
        return step.flatMap { head in
            guard let head else { return .failure(.connection(.other("unfinished"))) }
            return .success((head.head.status.code, bytes.count - head.leftover.count, head.leftover))
        }
    }

    @Test func verdictsOnHandMadeAnswers() throws {
        let continued = try self.verdict("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 206 Partial Content\r\nContent-Length: 5\r\n\r\nabcde").get()
        #expect(continued.0 == 206)
        #expect(continued.1 == 76)
        #expect(continued.2 == Array("abcde".utf8))
        let blank = try self.verdict("\r\n\r\nHTTP/1.1 200 OK\r\n\r\nbody").get()
        #expect(blank.0 == 200)
        #expect(blank.2 == Array("body".utf8))
        let hints = String(repeating: "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n", count: 4) + "HTTP/1.1 200 OK\r\n\r\n"
        #expect(throws: TransferError.connection(.invalidResponse("the server sent more than 3 informational (1xx) responses before its answer"))) {
            try self.verdict(hints).get()
        }
        #expect(throws: TransferError.connection(.invalidResponse("a response header line is longer than 128 bytes"))) {
            try self.verdict("HTTP/1.1 200 OK\r\nX-Long: \(String(repeating: "x", count: 200))\r\n\r\n").get()
        }
        #expect(throws: TransferError.connection(.invalidResponse("the response head has more than 8 header fields"))) {
            try self.verdict("HTTP/1.1 200 OK\r\n" + String(repeating: "X-A: b\r\n", count: 9) + "\r\n").get()
        }
        #expect(throws: TransferError.connection(.invalidResponse("the response head is longer than 512 bytes"))) {
            try self.verdict("HTTP/1.1 200 OK\r\n" + String(repeating: "X-A: bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\r\n", count: 10) + "X")
                .get()
        }
    }

    /// The answers without a bound broken give their head (the check would agree with itself on a
    /// reader that refuses everything).
    @Test func wellFormedAnswersGiveTheirHead() throws {
        #expect(try self.verdict("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello").get().0 == 200)
        #expect(try self.verdict("HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\nrest").get().2 == Array("rest".utf8))
        #expect(try self.verdict("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n").get().2 == Array("5\r\n".utf8))
        #expect(throws: TransferError.connection(.other("unfinished"))) { try self.verdict("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n").get() }
    }

    @Test func bodyFramingOfHeads() throws {
        func framing(_ fields: [(String, String)]) throws(TransferError) -> ResponseHeadReader.BodyFraming {
            try ResponseHeadReader.bodyFraming(of: .init(version: .http1_1, status: .ok, headers: .init(fields)))
        }
        #expect(try framing([("Content-Length", "5")]) == .length(5))
        #expect(try framing([("Content-Length", "5"), ("content-length", "5")]) == .length(5))
        #expect(try framing([]) == .close)
        #expect(try framing([("Transfer-Encoding", "chunked"), ("Content-Length", "5")]) == .decoded)
        #expect(throws: TransferError.connection(.invalidResponse("invalid Content-Length: 5, 6"))) { try framing([("Content-Length", "5"), ("Content-Length", "6")]) }
        #expect(throws: TransferError.connection(.invalidResponse("invalid Content-Length: 99999999999999999999"))) {
            try framing([("Content-Length", "99999999999999999999")])
        }
        #expect(throws: TransferError.connection(.invalidResponse("invalid Content-Length: -1"))) { try framing([("Content-Length", "-1")]) }
    }

    /// Seeded random answers, raw and built from pieces of HTTP, through the same check.
    @Test func randomAnswersKeepEveryProperty() {
        var generator = FuzzReplay.Generator(state: 0xD1_2EC7)
        func next() -> UInt64 { generator.next() }
        let pieces = ["HTTP/1.1 200 OK\r\n", "HTTP/1.1 100 Continue\r\n", "HTTP/1.1 206 Partial Content\r\n", "\r\n", "\r\n\r\n",
                      "Content-Length: 12\r\n", "Content-Length: 1\r\n", "Transfer-Encoding: chunked\r\n", "X: y\r\n", "\n", "\r", ":",
                      "HTTP/1.0 304 Not Modified\r\n", "HTTP/1.1 101 Switching Protocols\r\n", "body", String(repeating: "z", count: 90)]
        for round in 0..<2000 {
            var answer: [UInt8] = [UInt8(truncatingIfNeeded: next())]
            for _ in 0..<Int(next() % 24) {
                if next() % 4 == 0 {
                    answer += (0..<Int(next() % 16)).map { _ in UInt8(truncatingIfNeeded: next()) }
                } else {
                    answer += Array(pieces[Int(next() % UInt64(pieces.count))].utf8)
                }
            }
            let broken = DirectHeadCheck.check(answer)
            #expect(broken == nil, "answer \(round): \(answer)")
            if broken != nil { return }
        }
    }
}
