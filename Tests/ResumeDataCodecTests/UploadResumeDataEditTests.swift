import Foundation
import Testing
@testable import ResumeDataCodec

/// ``UploadResumeData/edited(_:)``: the library side of `resumetool edit` on an upload blob.
@Suite struct UploadResumeDataEditTests {
    static let headers = ["Content-Type", "Authorization", "User-Agent"]

    static func fileUpload() throws -> UploadResumeData { try UploadResumeDataTests.read("upload-file-v6") }

    /// The entries other than `changed`, which must be the same values in the same places.
    static func unchanged(_ upload: UploadResumeData, except changed: Set<String>) -> [ArchivedValue.DictionaryEntry] {
        upload.entries.filter { !changed.contains($0.key) }
    }

    @Test func aNewResumeURLKeepsTheMaskAndEveryOtherEntryInOrder() throws {
        let upload = try Self.fileUpload()
        let result = try upload.edited(UploadResumeDataEdit(resumeURL: try HTTPURL(validating: "https://eu.uploads.example.com/resumable_upload/9")))
        #expect(result.upload.entries.map(\.key) == ["draftVersion", "resumeURL", "originalRequest", "bodyType", "uploadFile"])
        #expect(result.upload.resumeURL?.absoluteString == "https://eu.uploads.example.com/resumable_upload/9")
        #expect(Self.unchanged(result.upload, except: ["resumeURL"]) == Self.unchanged(upload, except: ["resumeURL"]))
        // The resume URL is where the server moved the upload: the request's credentials stay.
        #expect(result.droppedHeaders == [])
        #expect(!result.changedRequest)
        let bytes = try result.encoded()
        #expect(bytes.prefix(8) == (try UploadResumeDataTests.bytes("upload-file-v6")).prefix(8))
        let again = try #require(try UploadResumeData.read(bytes))
        #expect(again.mask == UploadResumeDataTests.standInMask)
        #expect(again == result.upload)
    }

    @Test func headersAreSetAndRemovedInTheOriginalRequest() throws {
        let upload = try Self.fileUpload()
        let edit = UploadResumeDataEdit(
            settingHeaders: [try HTTPHeaderField(parsing: "content-type: image/png"), try HTTPHeaderField(parsing: "X-Trace: 7")],
            removingHeaders: ["user-agent"])
        let result = try upload.edited(edit)
        #expect(result.changedRequest)
        #expect(result.droppedHeaders == [])
        let request = try #require(try result.upload.originalRequest())
        #expect(request.headers.map { "\($0.name): \($0.value)" } == ["content-type: image/png", "Authorization: Bearer s3cr3t-t0k3n", "X-Trace: 7"])
        #expect(request.urlString == "https://uploads.example.com/photos")
        #expect(request.method == "POST")
        #expect(Self.unchanged(result.upload, except: ["originalRequest"]) == Self.unchanged(upload, except: ["originalRequest"]))
        #expect(result.upload.entries.map(\.key) == upload.entries.map(\.key))
        let again = try #require(try UploadResumeData.read(try result.encoded()))
        #expect(again.mask == UploadResumeDataTests.standInMask)
        #expect(try again.originalRequest() == request)
    }

    @Test func aRequestURLOnTheSameOriginKeepsTheCredentials() throws {
        let result = try Self.fileUpload().edited(UploadResumeDataEdit(requestURL: try HTTPURL(validating: "https://uploads.example.com:443/photos/v2")))
        let request = try #require(try result.upload.originalRequest())
        #expect(request.urlString == "https://uploads.example.com:443/photos/v2")
        #expect(request.headers.map(\.name) == Self.headers)
        #expect(result.droppedHeaders == [])
        #expect(result.upload.resumeURL?.absoluteString == UploadResumeDataTests.resumeURL)
    }

    @Test func aRequestURLOnAnotherOriginDropsTheCredentialsUnlessGivenAgain() throws {
        let moved = try HTTPURL(validating: "https://eu.uploads.example.com/photos")
        let dropped = try Self.fileUpload().edited(UploadResumeDataEdit(requestURL: moved))
        #expect(dropped.droppedHeaders == ["Authorization"])
        #expect(!dropped.droppedHiddenHeaderCopy)
        let request = try #require(try dropped.upload.originalRequest())
        #expect(request.urlString == "https://eu.uploads.example.com/photos")
        #expect(request.headers.map(\.name) == ["Content-Type", "User-Agent"])

        let kept = try Self.fileUpload().edited(UploadResumeDataEdit(requestURL: moved, settingHeaders: [try HTTPHeaderField(parsing: "authorization: Bearer eu")]))
        #expect(kept.droppedHeaders == [])
        // Given again, it keeps its place with the new value.
        #expect(try kept.upload.originalRequest()?.headers.map { "\($0.name): \($0.value)" } == [
            "Content-Type: image/heic", "authorization: Bearer eu", "User-Agent: Photos/1 CFNetwork/3826.400.120 Darwin/24.3.0",
        ])
    }

    @Test func anotherOriginDropsCFNetworksHiddenCopyToo() throws {
        var request = URLRequestArchive(url: try #require(URL(string: "https://uploads.example.com/photos")), method: "POST",
                                        headers: [("Cookie", "c=1"), ("X-Other", "o")])
        request.items[19] = .reference(.dictionary(
            (request.items[19].value?.dictionaryEntries ?? []) + [.init(key: "__hhaa__", value: .string("YnBsaXN0"))]))
        let upload = try Self.fileUpload().replacing(UploadResumeKey.originalRequest, with: .object(request.archivedObject()))
        let result = try upload.edited(UploadResumeDataEdit(requestURL: try HTTPURL(validating: "http://uploads.example.com/photos")))
        #expect(result.droppedHeaders == ["Cookie"])
        #expect(result.droppedHiddenHeaderCopy)
        let edited = try #require(try result.upload.originalRequest())
        #expect(edited.headers.map(\.name) == ["X-Other"])
        #expect(edited.hiddenHeaderArchive == nil)
    }

    @Test func aNewUploadFileIsAFileURL() throws {
        let upload = try Self.fileUpload()
        let result = try upload.edited(UploadResumeDataEdit(uploadFile: "/private/var/mobile/tmp/IMG 0043.heic"))
        #expect(result.upload[UploadResumeKey.uploadFile]?.urlValue?.absoluteString == "file:///private/var/mobile/tmp/IMG%200043.heic")
        #expect(result.upload.entries.map(\.key) == upload.entries.map(\.key))
        #expect(Self.unchanged(result.upload, except: ["uploadFile"]) == Self.unchanged(upload, except: ["uploadFile"]))
        #expect(UploadResumeDataValidator().findings(for: result.upload).isEmpty)
    }

    @Test func aBlobWithoutItsRequestTakesNoHeaderButANewResumeURL() throws {
        let taskInfo = try UploadResumeDataTests.read("upload-taskinfo-v6")
        for edit in [UploadResumeDataEdit(settingHeaders: [try HTTPHeaderField(parsing: "X-Trace: 7")]),
                     UploadResumeDataEdit(removingHeaders: ["Authorization"]),
                     UploadResumeDataEdit(requestURL: try HTTPURL(validating: "https://uploads.example.com/v2"))] {
            let error = try #require(throws: ResumeDataError.self) { try taskInfo.edited(edit) }
            #expect(error.code == .notEditable)
            #expect(error.message == "the blob has no originalRequest (nsurlsessiond's own copy keeps none): there is no request whose URL or headers could change")
        }
        let moved = try taskInfo.edited(UploadResumeDataEdit(resumeURL: try HTTPURL(validating: "https://uploads.example.com/resumable_upload/2")))
        #expect(moved.upload.resumeURL?.absoluteString == "https://uploads.example.com/resumable_upload/2")
        #expect(moved.upload.entries.map(\.key) == taskInfo.entries.map(\.key))
    }

    @Test func aBodyThatIsNotAFileTakesNoUploadFile() throws {
        let data = try UploadResumeDataTests.read("upload-data-v5")
        let error = try #require(throws: ResumeDataError.self) { try data.edited(UploadResumeDataEdit(uploadFile: "/tmp/a.bin")) }
        #expect(error.code == .notEditable)
        #expect(error.message == "the body is data (bodyType 0), not a file (bodyType 1): there is no uploadFile to change")
        let stream = try UploadResumeDataTests.read("upload-stream-v3")
        let streamError = try #require(throws: ResumeDataError.self) { try stream.edited(UploadResumeDataEdit(uploadFile: "/tmp/a.bin")) }
        #expect(streamError.message == "the body is stream (bodyType 2), not a file (bodyType 1): there is no uploadFile to change")
    }

    @Test func badArgumentsAreInvalidArguments() throws {
        let upload = try Self.fileUpload()
        let relative = try #require(throws: ResumeDataError.self) { try upload.edited(UploadResumeDataEdit(uploadFile: "tmp/a.bin")) }
        #expect(relative.code == .invalidArgument)
        #expect(relative.message == "the file to upload must be an absolute path: tmp/a.bin")
        let both = try #require(throws: ResumeDataError.self) {
            try upload.edited(UploadResumeDataEdit(settingHeaders: [try HTTPHeaderField(parsing: "X-A: 1")], removingHeaders: ["x-a"]))
        }
        #expect(both.code == .invalidArgument)
        #expect(both.message == "the header X-A is both set and removed")
        let badName = try #require(throws: ResumeDataError.self) { try upload.edited(UploadResumeDataEdit(removingHeaders: ["Bad Name"])) }
        #expect(badName.code == .invalidArgument)
    }

    @Test func anEmptyEditChangesNothing() throws {
        let upload = try Self.fileUpload()
        #expect(UploadResumeDataEdit().isEmpty)
        let result = try upload.edited(UploadResumeDataEdit())
        #expect(result.upload == upload)
        #expect(try result.encoded() == (try upload.encoded()))
    }
}
