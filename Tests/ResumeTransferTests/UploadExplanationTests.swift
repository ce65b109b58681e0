import Foundation
import Testing

@testable import ResumeDataCodec
@testable import ResumeReports
@testable import ResumeTransfer

/// `explain`'s model and renderer for upload blobs: the blob's checks from the validator's
/// findings, each answer the offset request can get, and the file given with `--file`.
@Suite struct UploadExplanationTests {
    static let resumeURL = "http://127.0.0.1:9/resumable_upload/7"

    static func blob(
        version: String = "6", resumeURL: String = resumeURL, requestURL: String = "http://127.0.0.1:9/files",
        headers: [(name: String, value: String)] = []
    ) throws -> UploadResumeData {
        try UploadResumeData.fileUpload(
            draftVersion: try #require(UploadDraftVersion(version)), resumeURL: try HTTPURL(validating: resumeURL),
            requestURL: try HTTPURL(validating: requestURL), method: "POST", headers: headers, file: "/private/var/mobile/a.bin")
    }

    /// A data body of `count` bytes in place of the file.
    static func dataBlob(_ count: Int) throws -> UploadResumeData {
        var upload = try blob()
        upload.entries.removeAll { $0.key == UploadResumeKey.uploadFile }
        return upload.replacing(UploadResumeKey.bodyType, with: .integer(0)).replacing(UploadResumeKey.uploadData, with: .data(Data(count: count)))
    }

    /// The answer `status` with `fields` ("Name: value") to the offset request, read in interop 6.
    static func answer(_ status: Int, _ fields: [String]) throws -> UploadExplanation.Server {
        let parsed = try fields.map { try HTTPHeaderField(parsing: $0) }
        let draft = ResumableUploadDraft(try #require(UploadDraftVersion("6")))
        return .asked(.success(UploadProbe(url: try HTTPURL(validating: resumeURL), status: status, fields: parsed, draft: draft)))
    }

    static let blobChecks = """
        checks:
          pass    draft-version: 6 (as iOS 18.1 and later, macOS 15.1 and later write it)
          pass    resume-url: http://127.0.0.1:9/resumable_upload/7
          pass    original-request: POST http://127.0.0.1:9/files
          pass    body: file file:///private/var/mobile/a.bin

        """
    static let unmasked = """
          [upload-unmasked] the blob is a plain keyed archive (it starts "bplist00", or is XML): URLSession XORs its first 8 bytes with a constant before reading, so a device will not read it as it is

        """

    @Test func withoutProbeTheVerdictIsTheBlobsAlone() throws {
        let explanation = UploadExplanation(try Self.blob(), server: .notAsked)
        #expect(explanation.verdict == .continue)
        #expect(explanation.offset == nil)
        #expect(!explanation.serverUnreachable)
        #expect(ExplainReport.text(explanation, blob: "a.uploadresume") == """
            continue at the server's offset (the blob holds none: --probe asks the server)
            \(Self.blobChecks)  skipped file: give --file FILE to check the file to upload
              skipped server: the blob holds no offset, only the server knows it: --probe asks it
            reasons:
            \(Self.unmasked)
            """)
    }

    @Test func anIncompleteOffsetContinuesThere() throws {
        let server = try Self.answer(204, ["Upload-Offset: 1000", "Upload-Complete: ?0", "Cache-Control: no-store", "Upload-Limit: max-size=5000"])
        let explanation = UploadExplanation(try Self.blob(), server: server)
        #expect(explanation.verdict == .continue)
        #expect(explanation.offset == 1000)
        #expect(ExplainReport.text(explanation, blob: "a.uploadresume") == """
            continue at byte 1000 of the file
            \(Self.blobChecks)  skipped file: give --file FILE to check the file to upload
              pass    server: HEAD http://127.0.0.1:9/resumable_upload/7 → 204; Upload-Offset: 1000, Upload-Complete: ?0, Upload-Limit: max-size=5000
            reasons:
            \(Self.unmasked)  [server-offset] the server has the first 1000 bytes and waits for the rest
                fix: resumetool resume a.uploadresume --file FILE

            """)
        #expect(ExplainReport.json(explanation, blob: "a.uploadresume").contains("""
            {
              "kind": "upload",
              "verdict": "continue",
              "offset": 1000,
              "complete": false,
              "server": {
                "status": 204,
                "fields": {
                  "Upload-Offset": "1000",
                  "Upload-Complete": "?0",
                  "Upload-Limit": "max-size=5000"
                }
              },
              "reasons": [
            """))
        #expect(ExplainReport.json(explanation, blob: "a.uploadresume").contains("""
                {
                  "code": "server-offset",
                  "message": "the server has the first 1000 bytes and waits for the rest",
                  "fix": "resumetool resume a.uploadresume --file FILE"
                }
            """))
    }

    @Test func aForgottenUploadRestartsWithTheWholeFile() throws {
        let explanation = UploadExplanation(try Self.blob(), server: try Self.answer(404, []))
        #expect(explanation.verdict == .restart)
        #expect(explanation.offset == 0)
        #expect(ExplainReport.text(explanation, blob: "a.uploadresume") == """
            restart from zero: the server no longer has the upload (HTTP 404)
            \(Self.blobChecks)  skipped file: give --file FILE to check the file to upload
              fail    server: HEAD http://127.0.0.1:9/resumable_upload/7 → 404
            reasons:
            \(Self.unmasked)  [upload-gone] the server answered 404 to the offset request: it no longer has the upload; resume creates it again with the original request and sends the whole file
                fix: resumetool resume a.uploadresume --file FILE

            """)
        let json = ExplainReport.json(explanation, blob: "a.uploadresume")
        #expect(json.hasPrefix("{\n  \"kind\": \"upload\",\n  \"verdict\": \"restart\",\n  \"offset\": 0,\n  \"complete\": false,\n  \"server\": {\n    \"status\": 404,\n    \"fields\": {}\n  },"))
    }

    @Test func aCompleteUploadSaysSo() throws {
        let explanation = UploadExplanation(try Self.blob(), server: try Self.answer(204, ["Upload-Offset: 4096", "Upload-Complete: ?1"]))
        #expect(explanation.verdict == .continue)
        #expect(explanation.complete)
        #expect(explanation.summary == "complete: the server has the whole upload (4096 bytes); nothing is left to send")
        #expect(explanation.reasons.map(\.code) == ["upload-unmasked", "upload-complete"])
        // Complete at a length other than the file's: resume refuses it.
        let other = UploadExplanation(try Self.dataBlob(100), server: try Self.answer(204, ["Upload-Offset: 4096", "Upload-Complete: ?1"]))
        #expect(other.verdict == .fail)
        #expect(other.summary == "fail: the server's upload is complete at another length")
    }

    @Test(arguments: [
        (403, [String](), "fail: the server refuses the offset request (HTTP 403)", "offset-refused"),
        (204, ["Upload-Complete: ?0"], "fail: the server's answer breaks the draft", "malformed-answer"),
        (204, ["Upload-Offset: -3", "Upload-Complete: ?0"], "fail: the server's answer breaks the draft", "malformed-answer"),
    ])
    func answersThatBreakOrRefuseFail(status: Int, fields: [String], summary: String, code: String) throws {
        let explanation = UploadExplanation(try Self.blob(), server: try Self.answer(status, fields))
        #expect(explanation.verdict == .fail)
        #expect(explanation.offset == nil)
        #expect(explanation.summary == summary)
        #expect(explanation.reasons.last?.code == code)
        #expect(explanation.checks.last == .init(code: .server, outcome: .fail,
            message: "HEAD http://127.0.0.1:9/resumable_upload/7 → \(status)" + (fields.isEmpty ? "" : "; " + fields.joined(separator: ", "))))
    }

    @Test func aMalformedAnswerSaysWhy() throws {
        let explanation = UploadExplanation(try Self.blob(), server: try Self.answer(204, ["Upload-Offset: -3", "Upload-Complete: ?0"]))
        #expect(explanation.reasons.last?.message == "the server's offset answer breaks the draft: Upload-Offset: -3 is negative")
    }

    /// A 5xx tells nothing of the upload, as no answer: the verdict is the blob's (exit 3).
    @Test func anUnavailableOrUnreachableServerLeavesTheBlobsVerdict() throws {
        let busy = UploadExplanation(try Self.blob(), server: try Self.answer(503, ["Retry-After: 10"]))
        #expect(busy.verdict == .continue)
        #expect(busy.serverUnreachable)
        #expect(busy.summary == "continue at the server's offset, as far as the blob tells: the server could not be asked")
        #expect(busy.checks.last == .init(code: .server, outcome: .unknown, message: "HEAD http://127.0.0.1:9/resumable_upload/7 → 503; Retry-After: 10"))
        let down = UploadExplanation(try Self.blob(), server: .asked(.failure(.connection(.closedBeforeHead))))
        #expect(down.serverUnreachable)
        #expect(down.checks.last?.outcome == .unknown)
        #expect(down.checks.last?.message.hasPrefix("cannot ask the server: ") == true)
        #expect(down.reasons.last?.code == "probe-failed")
    }

    @Test func aDowngradeFailsOnTheBlobAlone() throws {
        let upload = try Self.blob(requestURL: "https://127.0.0.1:9/files")
        let explanation = UploadExplanation(upload, server: .withheld("the blob fails without it"))
        #expect(explanation.verdict == .fail)
        #expect(ExplainReport.text(explanation, blob: "a.uploadresume") == """
            fail: a resume URL URLSession refuses
            checks:
              pass    draft-version: 6 (as iOS 18.1 and later, macOS 15.1 and later write it)
              fail    resume-url: http://127.0.0.1:9/resumable_upload/7
              pass    original-request: POST https://127.0.0.1:9/files
              pass    body: file file:///private/var/mobile/a.bin
              skipped file: give --file FILE to check the file to upload
              skipped server: not asked: the blob fails without it
            reasons:
              [upload-resume-url] resumeURL: the upload began over https and would continue over http (http://127.0.0.1:9/resumable_upload/7): iOS 18.2 and later refuse the downgrade, and so does resumetool
                fix: resumetool edit a.uploadresume --url NEW_URL
            \(Self.unmasked)
            """)
    }

    @Test func theFileGivenIsCheckedAgainstTheBody() throws {
        let upload = try Self.dataBlob(4096)
        let differs = UploadExplanation(upload, server: .notAsked,
            file: .file(path: "b.bin", size: 4000, verdict: .differs("the file has 4000 bytes, and the blob's body (uploadData) has 4096")))
        #expect(differs.verdict == .fail)
        #expect(differs.summary == "fail: the file is not the upload's")
        #expect(differs.checks.contains(.init(code: .file, outcome: .fail, message: "b.bin: the file has 4000 bytes, and the blob's body (uploadData) has 4096")))
        let same = UploadExplanation(upload, server: .notAsked, file: .file(path: "b.bin", size: 4096, verdict: .matches))
        #expect(same.verdict == .continue)
        #expect(same.checks.contains(.init(code: .file, outcome: .pass, message: "b.bin has 4096 bytes, the blob's very body")))
        let missing = UploadExplanation(upload, server: .notAsked, file: .unusable(path: "b.bin", why: "it does not exist"))
        #expect(missing.verdict == .fail)
        #expect(missing.summary == "fail: the file cannot be read")
    }

    /// The server's offset and `Upload-Limit` against the body's size (a data body is the file).
    @Test func theServersOffsetAndLimitAreCheckedAgainstTheFile() throws {
        let beyond = UploadExplanation(try Self.dataBlob(100), server: try Self.answer(204, ["Upload-Offset: 200", "Upload-Complete: ?0"]))
        #expect(beyond.verdict == .fail)
        #expect(beyond.reasons.last?.message == "the server says it has 200 bytes of a 100-byte file: resume refuses to go on")
        let limited = UploadExplanation(try Self.dataBlob(4096), server: try Self.answer(204, ["Upload-Offset: 10", "Upload-Complete: ?0", "Upload-Limit: max-size=1000"]))
        #expect(limited.verdict == .fail)
        #expect(limited.reasons.last?.message == "the server takes uploads of at most 1000 bytes (Upload-Limit), and the file has 4096")
        let fits = UploadExplanation(try Self.dataBlob(4096), server: try Self.answer(204, ["Upload-Offset: 10", "Upload-Complete: ?0"]))
        #expect(fits.reasons.last?.message == "the server has the first 10 bytes and waits for the rest, 4086 to go")
    }

    /// nsurlsessiond's copy has no original request: a forgotten upload cannot be created again.
    @Test func aForgottenUploadWithoutARequestFails() throws {
        var upload = try Self.blob()
        upload.entries.removeAll { $0.key == UploadResumeKey.originalRequest }
        let explanation = UploadExplanation(upload, server: try Self.answer(410, []))
        #expect(explanation.verdict == .fail)
        #expect(explanation.summary == "fail: the server no longer has the upload (HTTP 410) and the blob cannot create it again")
    }
}
