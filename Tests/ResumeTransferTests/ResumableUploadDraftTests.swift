import Foundation
@testable import ResumeDataCodec
@testable import ResumeTransfer
import Testing

/// The resumable-upload draft's rules, version by version and value by value.
@Suite struct ResumableUploadDraftTests {
    static func draft(_ number: String) throws -> ResumableUploadDraft {
        ResumableUploadDraft(try #require(UploadDraftVersion(number)))
    }

    static func fields(_ pairs: [(String, String)]) throws -> [HTTPHeaderField] {
        try pairs.map { try HTTPHeaderField(name: $0.0, value: $0.1) }
    }

    static func text(_ fields: [HTTPHeaderField]) -> [String] { fields.map(\.description) }

    @Test func creationSaysCompleteInEachVersionsWords() throws {
        #expect(Self.text(try Self.draft("3").creationFields(length: 10)) == ["Upload-Draft-Interop-Version: 3", "Upload-Incomplete: ?0"])
        #expect(Self.text(try Self.draft("5").creationFields(length: 10)) == ["Upload-Draft-Interop-Version: 5", "Upload-Complete: ?1"])
        #expect(Self.text(try Self.draft("6").creationFields(length: 10)) == ["Upload-Draft-Interop-Version: 6", "Upload-Complete: ?1"])
        #expect(Self.text(try Self.draft("7").creationFields(length: 10)) == ["Upload-Draft-Interop-Version: 7", "Upload-Complete: ?1", "Upload-Length: 10"])
        #expect(Self.text(try Self.draft("8").creationFields(length: nil)) == ["Upload-Draft-Interop-Version: 8", "Upload-Complete: ?1"])
    }

    @Test func offsetRetrievalSendsOnlyTheVersion() throws {
        #expect(Self.text(try Self.draft("6").offsetRetrievalFields()) == ["Upload-Draft-Interop-Version: 6"])
    }

    @Test func appendsCarryTheOffsetAndFromSixTheType() throws {
        #expect(Self.text(try Self.draft("3").appendFields(offset: 42, complete: true))
            == ["Upload-Draft-Interop-Version: 3", "Upload-Offset: 42", "Upload-Incomplete: ?0"])
        #expect(Self.text(try Self.draft("5").appendFields(offset: 42, complete: false))
            == ["Upload-Draft-Interop-Version: 5", "Upload-Offset: 42", "Upload-Complete: ?0"])
        #expect(Self.text(try Self.draft("6").appendFields(offset: 0, complete: true))
            == ["Upload-Draft-Interop-Version: 6", "Upload-Offset: 0", "Upload-Complete: ?1", "Content-Type: application/partial-upload"])
        #expect(Self.text(try Self.draft("8").appendFields(offset: -5, complete: true))[1] == "Upload-Offset: 0")
    }

    @Test func a104InTheVersionSpokenGivesTheLocation() throws {
        let draft = try Self.draft("6")
        #expect(draft.informational(status: 104, fields: try Self.fields([("Upload-Draft-Interop-Version", "6"), ("Location", "/resumable_upload/a-b")]))
            == .resumable(location: "/resumable_upload/a-b"))
        #expect(draft.informational(status: 104, fields: try Self.fields([("Upload-Draft-Interop-Version", "5"), ("Location", "/x")]))
            == .unusable(reason: "the server's 104 speaks interop version 5, not 6"))
        #expect(draft.informational(status: 104, fields: try Self.fields([("Location", "/x")]))
            == .unusable(reason: "the server's 104 speaks interop version (none), not 6"))
        #expect(draft.informational(status: 104, fields: try Self.fields([("Upload-Draft-Interop-Version", "6")]))
            == .unusable(reason: "the server's 104 has no Location: nowhere to resume the upload"))
        #expect(draft.informational(status: 100, fields: []) == .other)
        #expect(draft.informational(status: 103, fields: try Self.fields([("Location", "/x")])) == .other)
    }

    @Test(arguments: [
        ("6", 204, [("Upload-Offset", "100"), ("Upload-Complete", "?0")], ResumableUploadDraft.OffsetAnswer.incomplete(offset: 100)),
        ("6", 200, [("Upload-Offset", "100"), ("Upload-Complete", "?0")], .incomplete(offset: 100)),
        ("6", 204, [("Upload-Offset", "512"), ("Upload-Complete", "?1")], .complete(offset: 512)),
        ("6", 204, [("Upload-Complete", "?0")], .malformed(reason: "no Upload-Offset")),
        ("6", 204, [("Upload-Offset", "100")], .malformed(reason: "no Upload-Complete")),
        ("6", 204, [("Upload-Offset", "-1"), ("Upload-Complete", "?0")], .malformed(reason: "Upload-Offset: -1 is negative")),
        ("6", 204, [("Upload-Offset", "1.5"), ("Upload-Complete", "?0")], .malformed(reason: "Upload-Offset: \"1.5\" is not an integer")),
        ("6", 204, [("Upload-Offset", "9999999999999999"), ("Upload-Complete", "?0")], .malformed(reason: "Upload-Offset: \"9999999999999999\" is not a structured-field item")),
        ("6", 204, [("Upload-Offset", "100"), ("Upload-Complete", "true")], .malformed(reason: "Upload-Complete: \"true\" is not ?0 or ?1")),
        ("6", 204, [("Upload-Offset", "100;x=1"), ("Upload-Complete", "?0;y")], .incomplete(offset: 100)),
        ("3", 204, [("Upload-Offset", "100"), ("Upload-Incomplete", "?1")], .incomplete(offset: 100)),
        ("3", 204, [("Upload-Offset", "100")], .complete(offset: 100)),
        ("3", 200, [("Upload-Offset", "100"), ("Upload-Incomplete", "?1")], .refused(status: 200)),
        ("6", 404, [], .gone(status: 404)),
        ("6", 410, [], .gone(status: 410)),
        ("6", 503, [], .unavailable(status: 503)),
        ("6", 429, [], .unavailable(status: 429)),
        ("6", 400, [], .refused(status: 400)),
        ("6", 206, [("Upload-Offset", "1"), ("Upload-Complete", "?0")], .refused(status: 206)),
    ])
    func offsetAnswers(_ version: String, _ status: Int, _ fields: [(String, String)], _ answer: ResumableUploadDraft.OffsetAnswer) throws {
        #expect(try Self.draft(version).offsetAnswer(status: status, fields: try Self.fields(fields)) == answer)
    }

    @Test(arguments: [
        (201, [(String, String)](), ResumableUploadDraft.AppendAnswer.done),
        (204, [], .done),
        (409, [("Upload-Offset", "300")], .conflict(offset: 300)),
        (409, [("Upload-Offset", "x")], .conflict(offset: nil)),
        (409, [], .conflict(offset: nil)),
        (404, [], .gone(status: 404)),
        (502, [], .unavailable(status: 502)),
        (413, [], .refused(status: 413)),
        (302, [("Location", "/elsewhere")], .refused(status: 302)),
    ])
    func appendAnswers(_ status: Int, _ fields: [(String, String)], _ answer: ResumableUploadDraft.AppendAnswer) throws {
        #expect(try Self.draft("6").appendAnswer(status: status, fields: try Self.fields(fields)) == answer)
    }
}

/// The engine refuses upload resume data by name, before any request.
@Suite struct ResumeCheckpointUploadTests {
    @Test func anUploadBlobIsNotADownloadsCheckpoint() throws {
        let blob = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ResumeDataCodecTests/Fixtures/upload/upload-file-v6.resumedata")
        let error = try #require(throws: TransferError.self) { try ResumeCheckpoint.decode(try Data(contentsOf: blob)) }
        #expect(error == .invalidResumeData("upload resume data (a URLSession upload task's, draft 6), not a download's: resumetool cannot continue uploads yet; inspect shows where the upload continues"))
    }
}
