import Foundation
import Testing

@testable import ResumeDataCodec
@testable import ResumeTransfer

/// `explain --probe` predicts what `resume` does, through the built binary against six servers:
/// its verdict is `continue` exactly when `resume` goes on from the partial file with a ranged
/// request (``ResumeJudgement`` decides both).
@Suite struct ResumeAgreementTests {
    static let data = testData(count: 300_000, seed: 91)
    static let received = 200_000
    static let lastModified = "Sun, 01 Nov 2026 10:00:01 GMT"

    /// One server, and the blob's validators against it.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// The blob's validators (`nil`: the server's own).
        var entityTag: String?
        var lastModified: String?
        /// What the server serves under which validators.
        var served: Data = ResumeAgreementTests.data
        var serverETag: String?
        var ignoresRanges = false
        /// Whether the download continues.
        var continues: Bool
        var testDescription: String { self.name }
    }

    static let cases: [Case] = [
        Case(name: "the same entity", continues: true),
        Case(name: "the same strong ETag, another Last-Modified", lastModified: "Sat, 31 Oct 2026 09:00:00 GMT", continues: true),
        Case(name: "another ETag", entityTag: "\"old-tag\"", continues: false),
        Case(name: "ranges ignored", ignoresRanges: true, continues: false),
        Case(name: "a weak ETag only", entityTag: "W/\"w1\"", lastModified: "", serverETag: "W/\"w1\"", continues: true),
        Case(name: "a file shorter than the partial file", served: data.prefix(150_000), continues: false),
    ]

    @Test(arguments: cases)
    func explainPredictsWhatResumeDoes(_ setup: Case) async throws {
        try await withServer(setup.served) { server, _, directory in
            if let tag = setup.serverETag { server.setValidators(etag: tag, lastModified: Self.lastModified) }
            if setup.ignoresRanges { server.ignoreRanges() }
            let file = server.file
            let partial = directory + "/CFNetworkDownload_A.tmp"
            try Self.data.prefix(Self.received).write(to: URL(fileURLWithPath: partial))
            let rebuilder = ResumeDataRebuilder(
                url: server.url, entityTag: setup.entityTag ?? file.etag,
                lastModified: setup.lastModified.map { $0.isEmpty ? nil : $0 } ?? file.lastModified)
            try rebuilder.rebuild(fromPartialFile: partial).encoded().write(to: URL(fileURLWithPath: directory + "/app.resumedata"))

            let explained = try await runToolCapturing(["explain", "app.resumedata", "--tmp-dir", ".", "--probe", "--json"], in: directory)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(explained.stdout.utf8)) as? [String: Any], "\(explained)")
            let verdict = try #require(json["verdict"] as? String)
            let probed = server.requests.count

            let resumed = try await runToolCapturing(["resume", "app.resumedata", "--tmp-dir", ".", "-o", "out.bin"], in: directory)
            #expect(resumed.status == 0, "\(resumed)")
            #expect(contents(directory + "/out.bin") == setup.served)
            let gets = server.getRequests.dropFirst(server.requests.prefix(probed).filter { $0.method == "GET" }.count)
            // Continued: one GET, ranged, and no word of starting over.
            let continued = gets.count == 1 && gets.first?.headers["range"] != nil && !resumed.stderr.contains("starting over")
            #expect(continued == setup.continues, "resume: \(resumed.stderr); requests: \(gets.map(\.headers))")
            #expect((verdict == "continue") == continued, "explain said \(verdict): \(explained.stdout)")
        }
    }

    /// When a validator proves another file, the warning says which, with both values.
    @Test func aRestartSaysWhichValidatorDiffered() async throws {
        try await withServer(Self.data) { server, _, directory in
            let partial = directory + "/CFNetworkDownload_A.tmp"
            try Self.data.prefix(Self.received).write(to: URL(fileURLWithPath: partial))
            let rebuilder = ResumeDataRebuilder(url: server.url, entityTag: "\"old-tag\"", lastModified: nil)
            try rebuilder.rebuild(fromPartialFile: partial).encoded().write(to: URL(fileURLWithPath: directory + "/app.resumedata"))
            let resumed = try await runToolCapturing(["resume", "app.resumedata", "--tmp-dir", ".", "-o", "out.bin"], in: directory)
            #expect(resumed.status == 0)
            #expect(resumed.stderr.contains(
                "out.bin: warning: the server's ETag is \(server.file.etag), the partial file's was \"old-tag\"\n"
                    + "out.bin: the server's file is not the partial one; starting over\n"), "\(resumed.stderr)")
        }
    }
}
