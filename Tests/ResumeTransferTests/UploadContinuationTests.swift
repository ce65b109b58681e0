import Foundation
import Testing

@testable import ResumeDataCodec
@testable import ResumeTransfer

/// How an upload blob becomes the upload's continuation (``UploadContinuation``), value by value,
/// and the offset answer's rules (``ResumableUploadDraft/OffsetAnswer/refusal(fileSize:limit:)``)
/// that the engine stops on and `explain --probe` says.
@Suite struct UploadContinuationTests {
    static func field(_ name: String, _ value: String) throws -> HTTPHeaderField {
        try HTTPHeaderField(name: name, value: value)
    }

    /// A blob as `upload` writes it, with `headers` archived in the original request.
    static func blob(version: String = "6", headers: [(name: String, value: String)] = []) throws -> UploadResumeData {
        try UploadResumeData.fileUpload(
            draftVersion: try #require(UploadDraftVersion(version)), resumeURL: try HTTPURL(validating: "https://up.example/resumable/7"),
            requestURL: try HTTPURL(validating: "https://api.example/files"), method: "PUT", headers: headers, file: "/private/var/mobile/a.bin")
    }

    @Test func aBlobWithItsRequestContinuesThereWithItsMethodAndHeaders() throws {
        let continuation = try UploadContinuation(try Self.blob(version: "5", headers: [("X-App", "1"), ("Accept", "*/*")]))
        #expect(continuation.resumeURL.string == "https://up.example/resumable/7")
        #expect(continuation.draft.description == "5")
        #expect(continuation.origin.string == "https://api.example/files")
        #expect(continuation.createsAgain)
        #expect(continuation.creation?.method == "PUT")

        // A field given replaces the archived one of the same name (whatever its case); the others stay.
        let configuration = continuation.configuration(UploadConfiguration(), adding: [try Self.field("x-app", "2"), try Self.field("Authorization", "Bearer t")])
        #expect(configuration.draft.version.description == "5")
        #expect(configuration.creationMethod == "PUT")
        #expect(configuration.headers.map { "\($0.name): \($0.value)" } == ["Accept: */*", "x-app: 2", "Authorization: Bearer t"])
    }

    /// nsurlsessiond's copy has no original request: the resume URL is the origin, the upload
    /// cannot be created again, and the engine's own method and headers stay.
    @Test func aBlobWithoutItsRequestContinuesAtTheResumeURLOnly() throws {
        var upload = try Self.blob()
        upload.entries.removeAll { $0.key == UploadResumeKey.originalRequest }
        let continuation = try UploadContinuation(upload)
        #expect(continuation.creation == nil)
        #expect(!continuation.createsAgain)
        #expect(continuation.origin.string == "https://up.example/resumable/7")
        let configuration = continuation.configuration(UploadConfiguration(creationMethod: "POST"), adding: [try Self.field("Authorization", "Bearer t")])
        #expect(configuration.creationMethod == "POST")
        #expect(configuration.headers.map(\.name) == ["Authorization"])
    }

    /// An archived field that breaks the header rule is left out, not sent.
    @Test func anArchivedFieldThatBreaksTheRuleIsLeftOut() throws {
        let continuation = try UploadContinuation(try Self.blob(headers: [("Bad Name", "x"), ("X-Ok", "1"), ("X-Bad", "a\r\nInjected: 1")]))
        #expect(continuation.creation?.headers.map(\.name) == ["X-Ok"])
    }

    /// What the validator calls an error, the continuation refuses first, naming the key: the
    /// one judgement `validate`, `explain` and `resume --file` share.
    @Test func aBlobThatCannotBeContinuedSaysWhy() throws {
        let blob = try Self.blob()
        func refusal(_ upload: UploadResumeData) -> String? {
            do {
                _ = try UploadContinuation(upload)
                return nil
            } catch {
                guard case .refused(let text) = error else { return "\(error)" }
                return text
            }
        }
        var noURL = blob
        noURL.entries.removeAll { $0.key == UploadResumeKey.resumeURL }
        #expect(refusal(noURL) == "resumeURL: missing: there is nowhere to continue the upload")
        let fileURL = blob.replacing(UploadResumeKey.resumeURL, with: .url(ArchivedURL(relativeString: "file:///etc/passwd")))
        #expect(refusal(fileURL)?.hasPrefix("resumeURL: ") == true, "\(refusal(fileURL) ?? "accepted")")
        let unknown = blob.replacing(UploadResumeKey.draftVersion, with: .string("9\u{202E}"))
        #expect(refusal(unknown)?.hasPrefix("draftVersion: ") == true, "\(refusal(unknown) ?? "accepted")")
        #expect(UploadContinuation.Problem.draftVersion("9\u{202E}").description
            == "draftVersion \"9\\u{202e}\" is not an interop version this tool speaks (3 to 8)")
        var noVersion = blob
        noVersion.entries.removeAll { $0.key == UploadResumeKey.draftVersion }
        #expect(refusal(noVersion)?.hasPrefix("draftVersion: ") == true, "\(refusal(noVersion) ?? "accepted")")
        #expect(UploadContinuation.Problem.draftVersion(nil).description == "draftVersion (none) is not an interop version this tool speaks (3 to 8)")
        let broken = blob.replacing(UploadResumeKey.originalRequest, with: .string("not a request"))
        #expect(refusal(broken) != nil)
        for body in [ArchivedValue.integer(5), .integer(-1), .string("1")] {
            let hostile = blob.replacing(UploadResumeKey.bodyType, with: body)
            #expect(refusal(hostile)?.hasPrefix("bodyType: ") == true, "\(body): \(refusal(hostile) ?? "accepted")")
        }
        let notFile = blob.replacing(UploadResumeKey.uploadFile, with: .url(ArchivedURL(relativeString: "https://example.com/x")))
        #expect(refusal(notFile)?.hasPrefix("uploadFile: ") == true, "\(refusal(notFile) ?? "accepted")")
        // A stream's length no Upload-Length can carry: what validate calls an error is refused.
        for length in [Int64(-5), Int64.max] {
            let stream = blob.replacing(UploadResumeKey.bodyType, with: .integer(2))
                .replacing(UploadResumeKey.streamLength, with: .integer(PropertyListInteger(length)))
            #expect(refusal(stream)?.hasPrefix("streamLength: \(length)") == true, "\(length): \(refusal(stream) ?? "accepted")")
        }
    }

    @Test func theOffsetAnswersRulesValueByValue() throws {
        typealias Answer = ResumableUploadDraft.OffsetAnswer
        let limit = UploadLimit(maximumSize: 1000)
        // Within the file, no limit: nothing to refuse.
        #expect(Answer.incomplete(offset: 0).refusal(fileSize: 100, limit: nil) == nil)
        #expect(Answer.incomplete(offset: 100).refusal(fileSize: 100, limit: nil) == nil)
        // One byte beyond the file's end.
        #expect(Answer.incomplete(offset: 101).refusal(fileSize: 100, limit: nil) == .offsetBeyondFile(offset: 101, size: 100))
        // Beyond the file is said before a limit the file is also outside.
        #expect(Answer.incomplete(offset: 5000).refusal(fileSize: 4096, limit: limit) == .offsetBeyondFile(offset: 5000, size: 4096))
        #expect(Answer.incomplete(offset: 10).refusal(fileSize: 4096, limit: limit)
            == .beyondServerLimit("the server takes uploads of at most 1000 bytes (Upload-Limit), and the file has 4096"))
        #expect(Answer.incomplete(offset: 10).refusal(fileSize: 1000, limit: limit) == nil)
        // Complete: at the file's length (or without saying one) is done, whatever the limit.
        #expect(Answer.complete(offset: 4096).refusal(fileSize: 4096, limit: limit) == nil)
        #expect(Answer.complete(offset: nil).refusal(fileSize: 4096, limit: nil) == nil)
        #expect(Answer.complete(offset: 4095).refusal(fileSize: 4096, limit: nil) == .completeAtOtherLength(offset: 4095, size: 4096))
        #expect(Answer.complete(offset: 4097).refusal(fileSize: 4096, limit: nil) == .completeAtOtherLength(offset: 4097, size: 4096))
        // The other answers are the engine's rounds, not refusals of the offset.
        for other: Answer in [.gone(status: 404), .unavailable(status: 503), .refused(status: 403), .malformed(reason: "x")] {
            #expect(other.refusal(fileSize: 1, limit: limit) == nil)
        }
    }
}
