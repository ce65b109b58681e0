import Foundation
import Testing
@testable import ResumeDataCodec

/// ``ResumeData/edited(_:)``: the library side of `resumetool edit`.
@Suite struct ResumeDataEditTests {
    static let newURL = "https://cdn.example.org/file.bin?sig=9"

    static func withCredentials() throws -> ResumeData {
        let url = try #require(URL(string: "https://example.com/file.bin"))
        var resume = try ResumeDataTestSupport.modern()
        var original = URLRequestArchive(url: url, headers: [("Authorization", "Bearer a"), ("cookie", "c=1"), ("X-Other", "o")])
        original.items[19] = .reference(.dictionary(
            (original.items[19].value?.dictionaryEntries ?? []) + [.init(key: "__hhaa__", value: .string("YnBsaXN0"))]))
        try resume.setRequest(original, .original)
        try resume.setRequest(URLRequestArchive(url: url, headers: [("Proxy-Authorization", "Basic p"), ("Range", "bytes=4096-")]), .current)
        return resume
    }

    @Test func anotherOriginDropsCredentialsAndTheHiddenCopy() throws {
        let resume = try Self.withCredentials()
        let result = try resume.edited(ResumeDataEdit(url: try HTTPURL(validating: Self.newURL)))
        // In the order found: the current request first.
        #expect(result.droppedHeaders == ["Proxy-Authorization", "Authorization", "cookie"])
        #expect(result.droppedHiddenHeaderCopy)
        #expect(result.changedRequests == [.current, .original])
        #expect(result.resume.downloadURL == Self.newURL)
        let original = try #require(result.resume.originalRequest)
        #expect(original.headers.map(\.name) == ["X-Other"])
        #expect(original.hiddenHeaderArchive == nil)
        #expect(result.resume.currentRequest?.headers.map(\.name) == ["Range"])
        #expect(try ResumeData(data: try result.encoded()) == result.resume)
    }

    @Test func theSameOriginKeepsEverything() throws {
        let resume = try Self.withCredentials()
        let result = try resume.edited(ResumeDataEdit(url: try HTTPURL(validating: "HTTPS://example.com/other.bin")))
        #expect(result.droppedHeaders == [])
        #expect(!result.droppedHiddenHeaderCopy)
        #expect(result.resume.originalRequest?.hiddenHeaderArchive == "YnBsaXN0")
        #expect(result.resume.originalRequest?.headers.count == 3)
    }

    @Test func settingReplacesInPlaceWhateverTheCase() throws {
        let resume = try Self.withCredentials()
        var edit = ResumeDataEdit(url: try HTTPURL(validating: Self.newURL))
        edit.settingHeaders = [try HTTPHeaderField(name: "COOKIE", value: "c=2"), try HTTPHeaderField(name: "x-other", value: "p")]
        let result = try resume.edited(edit)
        #expect(result.droppedHeaders == ["Proxy-Authorization", "Authorization"])
        #expect(result.resume.originalRequest?.headers.map { "\($0.name): \($0.value)" } == ["COOKIE: c=2", "x-other: p"])
        // A credential given again keeps its place.
        #expect(result.resume.originalRequest?.headers.first?.name == "COOKIE")
        #expect(result.resume.currentRequest?.headers.map { "\($0.name): \($0.value)" } == ["Range: bytes=4096-", "COOKIE: c=2", "x-other: p"])
    }

    @Test func untouchedRequestsKeepTheirBytes() throws {
        let resume = try Self.withCredentials()
        let result = try resume.edited(ResumeDataEdit(removingHeaders: ["Proxy-Authorization"]))
        #expect(result.changedRequests == [.current])
        #expect(result.resume.entries[ResumeDataKey.originalRequest] == resume.entries[ResumeDataKey.originalRequest])
        #expect(result.resume.downloadURL == resume.downloadURL)
        let nothing = try resume.edited(ResumeDataEdit())
        #expect(nothing.resume == resume)
        #expect(ResumeDataEdit().isEmpty)
    }

    @Test func aBlobWithoutRequestsGetsTheURLInItsDownloadURL() throws {
        var resume = ResumeData(container: .xml)
        resume.bytesReceived = 1
        let result = try resume.edited(ResumeDataEdit(url: try HTTPURL(validating: Self.newURL)))
        #expect(result.resume.downloadURL == Self.newURL)
        #expect(result.changedRequests == [])
    }

    @Test func badArgumentsAreErrors() throws {
        let resume = try Self.withCredentials()
        #expect(throws: ResumeDataError(.invalidArgument, "")) {
            try resume.edited(ResumeDataEdit(removingHeaders: ["Bad Name"]))
        }
        var both = ResumeDataEdit(removingHeaders: ["x-a"])
        both.settingHeaders = [try HTTPHeaderField(parsing: "X-A: 1")]
        do {
            _ = try resume.edited(both)
            Issue.record("no error")
        } catch let error as ResumeDataError {
            #expect(error.code == .invalidArgument)
            #expect(error.message == "the header X-A is both set and removed")
        } catch {
            Issue.record("unexpected \(error)")
        }
        var broken = resume
        broken.entries[ResumeDataKey.currentRequest] = .string("not data")
        #expect(throws: ResumeDataError(.invalidRequest, "")) {
            try broken.edited(ResumeDataEdit(url: try HTTPURL(validating: Self.newURL)))
        }
    }

    @Test func theHeaderRule() throws {
        #expect(try HTTPHeaderField(parsing: "X-A: \t v \t").value == "v")
        #expect(throws: HTTPHeaderField.Problem.notNameAndValue("novalue")) { try HTTPHeaderField(parsing: "novalue") }
        #expect(throws: HTTPHeaderField.Problem.invalidName("")) { try HTTPHeaderField(parsing: ": v") }
        #expect(throws: HTTPHeaderField.Problem.lineBreakInValue(name: "X")) { try HTTPHeaderField(name: "X", value: "a\0b") }
        #expect(HTTPHeaderField.Problem.invalidName("a\nb").description
            == #"'a\nb' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)"#)
        #expect(try HTTPHeaderField.basic("Authorization", login: "user:p\u{e4}ss") == HTTPHeaderField(name: "Authorization", value: "Basic dXNlcjpww6Rzcw=="))
        #expect(try HTTPHeaderField.basic("Proxy-Authorization", login: "u:").value == "Basic dTo=")
        #expect(throws: HTTPHeaderField.Problem.invalidName("a b")) { try HTTPHeaderField.basic("a b", login: "u:p") }
        #expect(HTTPHeaderField.isCredential("PROXY-authorization"))
        #expect(!HTTPHeaderField.isCredential("X-Authorization"))
        let a = try HTTPURL(validating: "http://h.example/x"), b = try HTTPURL(validating: "http://H.example:80/y")
        #expect(a.hasSameOrigin(as: b))
        #expect(!a.hasSameOrigin(as: try HTTPURL(validating: "https://h.example/x")))
        #expect(a.origin == "http://h.example:80")
    }
}
