import Foundation
@testable import ResumeDataCodec
import Testing

@testable import ResumeTransfer

/// The upload engine against scripted servers (``RawServer``): interop versions 7 and 8 as the
/// draft's text has them, which Apple's server does not speak, and the answers a hostile or broken
/// server gives. Every one ends in a bounded, named way.
@Suite struct UploadHostileServerTests {
    static let size = 256 << 10

    static func resumptionSupported(_ location: String, version: String = "6") -> String {
        "HTTP/1.1 104 Upload Resumption Supported\r\nUpload-Draft-Interop-Version: \(version)\r\nLocation: \(location)\r\n\r\n"
    }

    static func offset(_ offset: Int, version: String = "6", extra: String = "") -> String {
        "HTTP/1.1 204 No Content\r\nUpload-Draft-Interop-Version: \(version)\r\nUpload-Offset: \(offset)\r\nUpload-Complete: ?0\r\n\(extra)Cache-Control: no-store\r\n\r\n"
    }

    static func status(_ line: String, fields: String = "") -> String {
        "HTTP/1.1 \(line)\r\n\(fields)Content-Length: 0\r\n\r\n"
    }

    @Test(arguments: ["7", "8"])
    func draftVersionsSevenAndEightCreateAskAndAppend(version: String) async throws {
        let kept = 1000
        let server = try await RawServer.start([
            [.text(Self.resumptionSupported("/up/7", version: version)), .drain(kept)],
            [.text(Self.offset(kept, version: version, extra: "Upload-Limit: max-size=1000000000\r\n"))],
            [.drain(Self.size - kept), .text(Self.status("201 Created", fields: "Upload-Complete: ?1\r\nUpload-Offset: \(Self.size)\r\n"))],
        ], host: privateLoopbackAddress())
        try await withTemporaryDirectory { folder in
            let bytes = UploadTesting.bytes(Self.size)
            let file = try UploadTesting.write(bytes, in: folder)
            let url = "\(server.origin)/files/a.bin"
            let log = UploadEventLog()
            let outcome = try await UploadTesting.run(file, to: url, try UploadTesting.configuration(version), log: log)
            // What each side saw, should the numbering of connections not be the test's.
            let story = Comment(rawValue: "server:\n\(server.journal)\nclient: \(log.events.withLock { $0 })")
            #expect(outcome.status == 201, story)
            #expect(outcome.resumptions == 1, story)
            #expect(server.body(ofConnection: 0) == Array(bytes[..<kept]), story)
            #expect(server.body(ofConnection: 2) == Array(bytes[kept...]), story)
            let requests = server.requests
            try #require(requests.count == 3, story)
            #expect(requests[0].hasPrefix("POST /files/a.bin HTTP/1.1\r\n"))
            for field in ["Upload-Draft-Interop-Version: \(version)", "Upload-Complete: ?1", "Upload-Length: \(Self.size)", "Content-Length: \(Self.size)"] {
                #expect(requests[0].contains(field), "creation lacks \(field)")
            }
            #expect(requests[1].hasPrefix("HEAD /up/7 HTTP/1.1\r\n"))
            #expect(!requests[1].contains("Upload-Complete") && !requests[1].contains("Upload-Offset") && !requests[1].contains("Content-Length"))
            #expect(requests[2].hasPrefix("PATCH /up/7 HTTP/1.1\r\n"))
            for field in ["Upload-Offset: \(kept)", "Upload-Complete: ?1", "Content-Type: application/partial-upload", "Content-Length: \(Self.size - kept)"] {
                #expect(requests[2].contains(field), "append lacks \(field)")
            }
        }
        await server.stop()
    }

    @Test func aFileLargerThanTheServersLimitStopsOnThe104() async throws {
        let server = try await RawServer.start([
            [.text("HTTP/1.1 104 Upload Resumption Supported\r\nUpload-Draft-Interop-Version: 6\r\nLocation: /up/1\r\nUpload-Limit: max-size=1000\r\n\r\n"), .hold],
        ], host: privateLoopbackAddress())
        try await withTemporaryDirectory { folder in
            let file = try UploadTesting.write(UploadTesting.bytes(Self.size), in: folder)
            let log = UploadEventLog()
            let error = try await UploadTesting.failure(file, to: "\(server.origin)/a", try UploadTesting.configuration("6"), log: log)
            #expect(error == .beyondServerLimit("the server takes uploads of at most 1000 bytes (Upload-Limit), and the file has 262144"))
            // Stopped at once: no second request, and no resume URL taken from the refusing 104.
            #expect(server.requests.count == 1)
            #expect(log.resumeURLs.isEmpty)
        }
        await server.stop()
    }

    @Test func aLimitOnTheOffsetAnswerStopsBeforeTheAppend() async throws {
        let kept = 1000
        let server = try await RawServer.start([
            [.text(Self.resumptionSupported("/up/1")), .drain(kept)],
            [.text(Self.offset(kept, extra: "Upload-Limit: max-size=2000\r\n"))],
        ], host: privateLoopbackAddress())
        try await withTemporaryDirectory { folder in
            let file = try UploadTesting.write(UploadTesting.bytes(Self.size), in: folder)
            let error = try await UploadTesting.failure(file, to: "\(server.origin)/a", try UploadTesting.configuration("6"))
            #expect(error == .beyondServerLimit("the server takes uploads of at most 2000 bytes (Upload-Limit), and the file has 262144"))
            // The creation and the offset request; no append.
            #expect(server.requests.map { String($0.prefix(5)) } == ["POST ", "HEAD "])
        }
        await server.stop()
    }

    /// A limit is checked where more bytes are about to go: an answer that says the upload is
    /// complete ends it, whatever limit it carries.
    @Test(arguments: [false, true])
    func aLimitOnACompletingAnswerIsNoRefusal(onTheOffsetAnswer: Bool) async throws {
        let limit = "Upload-Limit: max-size=1000, max-append-size=1\r\n"
        let complete = "Upload-Complete: ?1\r\nUpload-Offset: \(Self.size)\r\n\(limit)"
        let scripts: [[RawServer.Step]] = onTheOffsetAnswer
            ? [[.text(Self.resumptionSupported("/up/1")), .drain(Self.size)], [.text(Self.status("204 No Content", fields: complete))]]
            : [[.drain(Self.size), .text(Self.status("201 Created", fields: complete))]]
        let server = try await RawServer.start(scripts, host: privateLoopbackAddress())
        try await withTemporaryDirectory { folder in
            let file = try UploadTesting.write(UploadTesting.bytes(Self.size), in: folder)
            let outcome = try await UploadTesting.run(file, to: "\(server.origin)/a", try UploadTesting.configuration("6"))
            #expect(outcome.status == (onTheOffsetAnswer ? 204 : 201))
            #expect(server.requests.map { String($0.prefix(5)) } == (onTheOffsetAnswer ? ["POST ", "HEAD "] : ["POST "]))
        }
        await server.stop()
    }

    @Test func appendsAreCutToTheServersMaximumAppendSize() async throws {
        let kept = 1000
        let piece = 100_000
        let limit = "Upload-Limit: max-append-size=\(piece)\r\n"
        let partial = { (offset: Int) in Self.status("204 No Content", fields: "Upload-Complete: ?0\r\nUpload-Offset: \(offset)\r\n") }
        let server = try await RawServer.start([
            [.text(Self.resumptionSupported("/up/1")), .drain(kept)],
            [.text(Self.offset(kept, extra: limit))],
            [.drain(piece), .text(partial(kept + piece))],
            [.text(Self.offset(kept + piece, extra: limit))],
            [.drain(piece), .text(partial(kept + 2 * piece))],
            [.text(Self.offset(kept + 2 * piece, extra: limit))],
            [.drain(Self.size - kept - 2 * piece), .text(Self.status("201 Created", fields: "Upload-Complete: ?1\r\n"))],
        ], host: privateLoopbackAddress())
        try await withTemporaryDirectory { folder in
            let bytes = UploadTesting.bytes(Self.size)
            let file = try UploadTesting.write(bytes, in: folder)
            let log = UploadEventLog()
            let outcome = try await UploadTesting.run(file, to: "\(server.origin)/a", try UploadTesting.configuration("6"), log: log)
            #expect(outcome.status == 201)
            #expect(outcome.resumptions == 3)
            #expect(log.offsets == [Int64(kept), Int64(kept + piece), Int64(kept + 2 * piece)])
            let requests = server.requests
            try #require(requests.count == 7)
            #expect(requests.map { String($0.prefix(5)) } == ["POST ", "HEAD ", "PATCH", "HEAD ", "PATCH", "HEAD ", "PATCH"])
            for (index, (offset, length, complete)) in [(2, (kept, piece, "?0")), (4, (kept + piece, piece, "?0")), (6, (kept + 2 * piece, Self.size - kept - 2 * piece, "?1"))] {
                for field in ["Upload-Offset: \(offset)", "Content-Length: \(length)", "Upload-Complete: \(complete)"] {
                    #expect(requests[index].contains(field), "request \(index) lacks \(field)")
                }
                #expect(server.body(ofConnection: index) == Array(bytes[offset..<offset + length]))
            }
            #expect(server.body(ofConnection: 0) == Array(bytes[..<kept]))
        }
        await server.stop()
    }

    @Test func aFloodOfInformationalAnswersIsStoppedAtTheCount() async throws {
        let flood = String(repeating: Self.resumptionSupported("/up/1"), count: 40)
        let server = try await RawServer.start([[.text(flood)]], host: privateLoopbackAddress())
        try await withTemporaryDirectory { folder in
            let file = try UploadTesting.write(UploadTesting.bytes(Self.size), in: folder)
            let error = try await UploadTesting.failure(file, to: "\(server.origin)/a", try UploadTesting.configuration("6", retries: 1))
            #expect(error == .transfer(.retriesExhausted(
                last: .connection(.invalidResponse("the server sent more than 16 informational (1xx) responses before its answer")), attempts: 1)))
            // The creation, then one offset request at the resume URL the first 104 named.
            #expect(server.requests.count == 2)
            #expect(server.requests.last?.hasPrefix("HEAD /up/1 ") == true)
        }
        await server.stop()
    }

    @Test func anOffsetBeyondTheFileStops() async throws {
        let server = try await RawServer.start([[.text(Self.resumptionSupported("/up/1"))], [.text(Self.offset(Self.size + 1))]], host: privateLoopbackAddress())
        try await withTemporaryDirectory { folder in
            let file = try UploadTesting.write(UploadTesting.bytes(Self.size), in: folder)
            let error = try await UploadTesting.failure(file, to: "\(server.origin)/a", try UploadTesting.configuration("6"))
            #expect(error == .offsetBeyondFile(offset: Int64(Self.size + 1), size: Int64(Self.size)))
            #expect(error.description == "the server says it has 262145 bytes of a 262144-byte file: refusing to go on")
            #expect(server.requests.count == 2)
            // The checkpoint stays for a later run.
            #expect(FileManager.default.fileExists(atPath: file + ".uploadresume"))
        }
        await server.stop()
    }

    /// A 104 may send the rest of the upload to any host (the draft allows it, and the resume
    /// URL is followed as a redirect is): the last line says where the bytes went, not only the
    /// URL given.
    @Test func theLastLineNamesTheHostTheRestWentTo() async throws {
        let kept = 1000
        let other = try await RawServer.start([
            [.text(Self.offset(kept))],
            [.drain(Self.size - kept), .text(Self.status("201 Created", fields: "Upload-Complete: ?1\r\nUpload-Offset: \(Self.size)\r\n"))],
        ], host: privateLoopbackAddress())
        let given = try await RawServer.start([[.text(Self.resumptionSupported("\(other.origin)/up/1")), .drain(kept)]], host: privateLoopbackAddress())
        try await withTemporaryDirectory { folder in
            _ = try UploadTesting.write(UploadTesting.bytes(Self.size), in: folder)
            let run = try await runToolCapturing(["upload", "photo.bin", "\(given.origin)/files"], in: folder)
            let story = Comment(rawValue: "\(run.stderr)\ngiven:\n\(given.journal)\nother:\n\(other.journal)")
            #expect(run.status == 0, story)
            // What the creation request put on the wire before the server closed depends on the
            // socket's buffers: the count of bytes sent is not the test's.
            #expect(run.stderr.contains(
                "photo.bin: uploaded to \(given.origin)/files, the rest to \(other.origin)/up/1 (the server's resume URL, on another origin) (HTTP 201, "), story)
            #expect(run.stderr.hasSuffix(", continued 1 time)\n"), story)
            #expect(other.requests.count == 2, story)
        }
        await other.stop()
        await given.stop()
    }

    /// A 2xx to the request that sent the rest must carry the file's length as its offset, if
    /// any: the creation's answer and an append's alike.
    @Test(arguments: [Self.size + 1, Self.size - 1])
    func aFinalAnswerAtAnotherOffsetStops(claimed: Int) async throws {
        let final = Self.status("201 Created", fields: "Upload-Complete: ?1\r\nUpload-Offset: \(claimed)\r\n")
        let created = try await RawServer.start([[.text(Self.resumptionSupported("/up/1")), .drain(Self.size), .text(final)]], host: privateLoopbackAddress())
        let appended = try await RawServer.start([
            [.text(Self.resumptionSupported("/up/1")), .drain(1000)], [.text(Self.offset(1000))], [.drain(Self.size - 1000), .text(final)],
        ], host: privateLoopbackAddress())
        for (server, requests) in [(created, 1), (appended, 3)] {
            try await withTemporaryDirectory { folder in
                let file = try UploadTesting.write(UploadTesting.bytes(Self.size), in: folder)
                let error = try await UploadTesting.failure(file, to: "\(server.origin)/a", try UploadTesting.configuration("6"))
                #expect(error == .completeAtOtherLength(offset: Int64(claimed), size: Int64(Self.size)))
                #expect(server.requests.count == requests)
                #expect(FileManager.default.fileExists(atPath: file + ".uploadresume"))
            }
            await server.stop()
        }
    }

    /// `Upload-Offset` twice is a list under RFC 9651, not an Item: refused, not its first taken.
    @Test(arguments: ["Upload-Offset: 1000\r\nUpload-Offset: 2000\r\n", "Upload-Offset: 1000\r\nUpload-Offset: 1000\r\n"])
    func aRepeatedOffsetIsRefused(fields: String) async throws {
        let answer = "HTTP/1.1 204 No Content\r\nUpload-Draft-Interop-Version: 6\r\n\(fields)Upload-Complete: ?0\r\n\r\n"
        let server = try await RawServer.start([[.text(Self.resumptionSupported("/up/1")), .drain(1000)], [.text(answer)]], host: privateLoopbackAddress())
        try await withTemporaryDirectory { folder in
            let file = try UploadTesting.write(UploadTesting.bytes(Self.size), in: folder)
            let error = try await UploadTesting.failure(file, to: "\(server.origin)/a", try UploadTesting.configuration("6"))
            let value = fields.contains("2000") ? "1000, 2000" : "1000, 1000"
            #expect(error == .malformedAnswer("Upload-Offset: \"\(value)\" is not a structured-field item"))
            #expect(server.requests.count == 2)
        }
        await server.stop()
    }

    @Test func anOffsetBeyondWhatWasSentStops() async throws {
        let size = 1 << 20
        let server = try await RawServer.start([[.text(Self.resumptionSupported("/up/1"))], [.text(Self.offset(size - 1))]], host: privateLoopbackAddress())
        try await withTemporaryDirectory { folder in
            let file = try UploadTesting.write(UploadTesting.bytes(size), in: folder)
            var configuration = try UploadTesting.configuration("6", chunk: 64 << 10)
            configuration.bytesPerSecond = 128 << 10
            let error = try await UploadTesting.failure(file, to: "\(server.origin)/a", configuration)
            guard case .offsetBeyondSent(let offset, let sent) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(offset == Int64(size - 1))
            // Paced at 128 KiB/s, the body is nowhere near its end when the server's close is seen.
            #expect(sent < offset)
            #expect(server.requests.count == 2)
        }
        await server.stop()
    }

    @Test func endlessConflictsEndWithTheRetryBudget() async throws {
        let conflict = Self.status("409 Conflict", fields: "Upload-Offset: 0\r\n")
        let server = try await RawServer.start([[.text(Self.resumptionSupported("/up/1"))]] + Array(repeating: [[.text(Self.offset(0))], [.text(conflict)]], count: 3).flatMap { $0 }, host: privateLoopbackAddress())
        try await withTemporaryDirectory { folder in
            let file = try UploadTesting.write(UploadTesting.bytes(Self.size), in: folder)
            let error = try await UploadTesting.failure(file, to: "\(server.origin)/a", try UploadTesting.configuration("6", retries: 2))
            #expect(error == .transfer(.retriesExhausted(last: .unexpectedStatus(409), attempts: 2)))
            // The creation, then HEAD and PATCH three times: the first offset was progress.
            #expect(server.requests.map { String($0.prefix(5)) } == ["POST ", "HEAD ", "PATCH", "HEAD ", "PATCH", "HEAD ", "PATCH"])
        }
        await server.stop()
    }

    @Test func aForgottenUploadIsCreatedAgainAWhileOnly() async throws {
        let gone = Self.status("404 Not Found")
        let server = try await RawServer.start([
            [.text(Self.resumptionSupported("/up/1"))], [.text(gone)], [.text(Self.resumptionSupported("/up/2"))], [.text(gone)],
        ], host: privateLoopbackAddress())
        try await withTemporaryDirectory { folder in
            let file = try UploadTesting.write(UploadTesting.bytes(Self.size), in: folder)
            let log = UploadEventLog()
            let error = try await UploadTesting.failure(file, to: "\(server.origin)/a", try UploadTesting.configuration("6", retries: 5), log: log)
            #expect(error == .tooManyRestarts(2))
            #expect(server.requests.map { String($0.prefix(9)) } == ["POST /a H", "HEAD /up/", "POST /a H", "HEAD /up/"])
            #expect(log.events.withLock { $0.filter { $0 == .restarting(status: 404) }.count } == 1)
            #expect(log.resumeURLs == ["\(server.origin)/up/1", "\(server.origin)/up/2"])
        }
        await server.stop()
    }

    @Test func credentialsGoOnlyToTheOriginalOrigin() async throws {
        let elsewhere = try await RawServer.start([[.text(Self.offset(0))], [.text(Self.status("400 Bad Request"))]], host: privateLoopbackAddress())
        let origin = try await RawServer.start([[.text(Self.resumptionSupported("\(elsewhere.origin)/up/1"))]], host: privateLoopbackAddress())
        let same = try await RawServer.start([[.text(Self.resumptionSupported("/up/1"))], [.text(Self.offset(0))], [.text(Self.status("400 Bad Request"))]], host: privateLoopbackAddress())
        try await withTemporaryDirectory { folder in
            let file = try UploadTesting.write(UploadTesting.bytes(Self.size), in: folder)
            let headers = [("Authorization", "Bearer s3cret"), ("Cookie", "id=1"), ("X-Trace", "t1")]
            let moved = try await UploadTesting.failure(file, to: "\(origin.origin)/a", try UploadTesting.configuration("6", headers: headers))
            #expect(moved == .transfer(.unexpectedStatus(400)))
            #expect(origin.requests.first?.contains("Authorization: Bearer s3cret\r\n") == true)
            #expect(origin.requests.first?.contains("Cookie: id=1\r\n") == true)
            #expect(elsewhere.requests.count == 2)
            for request in elsewhere.requests {
                #expect(!request.lowercased().contains("authorization") && !request.lowercased().contains("cookie"))
                #expect(request.contains("X-Trace: t1\r\n"))
            }
            // The blob on disk never holds them either.
            let blob = try #require(try UploadCheckpoint.beside(file: file).blob())
            let archived = try #require(try blob.originalRequest()).headers.map(\.name)
            #expect(archived == ["X-Trace"])
            try UploadCheckpoint.beside(file: file).remove()

            let kept = try await UploadTesting.failure(file, to: "\(same.origin)/a", try UploadTesting.configuration("6", headers: headers))
            #expect(kept == .transfer(.unexpectedStatus(400)))
            #expect(same.requests.count == 3)
            #expect(same.requests.allSatisfy { $0.contains("Authorization: Bearer s3cret\r\n") })
        }
        await elsewhere.stop()
        await origin.stop()
        await same.stop()
    }

    @Test func aServerThatNeverAnswersStalls() async throws {
        let server = try await RawServer.start([[.text(Self.resumptionSupported("/up/1"))], [.hold]], host: privateLoopbackAddress())
        try await withTemporaryDirectory { folder in
            let file = try UploadTesting.write(UploadTesting.bytes(Self.size), in: folder)
            var configuration = try UploadTesting.configuration("6", retries: 1)
            configuration.stallTimeout = .seconds(2)
            let error = try await UploadTesting.failure(file, to: "\(server.origin)/a", configuration)
            #expect(error == .transfer(.retriesExhausted(last: .stalled, attempts: 1)))
            // On a loaded machine the 2 s stall timer may fire before a head is even sent, so
            // how many heads arrived is not this test's to say; what did arrive began with the
            // creation, and the two attempts are all there were.
            try await server.settle()
            let requests = server.requests
            #expect(requests.count <= 2, "\(server.journal)")
            #expect(requests.first.map { $0.hasPrefix("POST ") } ?? true, "\(server.journal)")
        }
        await server.stop()
    }

    @Test func anHTTPSUploadRefusesAnHTTPResumeURL() async throws {
        let server = try await RawServer.start([[.text(Self.resumptionSupported("http://127.0.0.1:9/up/1"))]], tls: true)
        try await withTemporaryDirectory { folder in
            let file = try UploadTesting.write(UploadTesting.bytes(Self.size), in: folder)
            var configuration = try UploadTesting.configuration("6", retries: 1)
            configuration.certificateAuthorityFile = TestServer.certificateAuthorityFile
            let log = UploadEventLog()
            let error = try await UploadTesting.failure(file, to: "https://127.0.0.1:\(server.port)/a", configuration, log: log)
            guard case .transfer(.retriesExhausted(_, attempts: 1)) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            // The first attempt's 104 is always read and refused. The retry's connection may be
            // closed by the scripted server (it has one answer) before its request is read on a
            // loaded machine, so how many refusals follow is the machine's, not the client's.
            let refusal = "the 104's Location cannot be used: refusing a redirect from https to http://127.0.0.1:9/up/1: a transfer begun over https never goes on over plain http"
            #expect(log.refusals.first == refusal)
            #expect(log.refusals.allSatisfy { $0 == refusal })
            #expect(log.resumeURLs.isEmpty)
            // Nothing to resume at: every request the server read created the upload again (never
            // a HEAD or PATCH), and no blob was kept.
            let requests = server.requests.map { String($0.prefix(7)) }
            #expect(requests.first == "POST /a")
            #expect(requests.allSatisfy { $0 == "POST /a" })
            #expect(!FileManager.default.fileExists(atPath: file + ".uploadresume"))
        }
        await server.stop()
    }
}
