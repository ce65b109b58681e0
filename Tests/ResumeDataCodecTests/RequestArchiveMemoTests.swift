import Foundation
import Testing
@testable import ResumeDataCodec

/// Decoded requests are remembered per archive bytes, never returned stale, and not part of the value.
@Suite struct RequestArchiveMemoTests {
    private let first = URLRequestArchive(url: URL(fileURLWithPath: "/"), headers: [("Range", "bytes=10-")])

    private func resume(_ url: String) throws -> ResumeData {
        var resume = ResumeData()
        try resume.setRequest(URLRequestArchive(url: try #require(URL(string: url))), .current)
        return resume
    }

    @Test func aChangedCopyDecodesItsOwnRequest() throws {
        let original = try resume("https://example.com/a")
        #expect(try original.request(.current)?.urlString == "https://example.com/a")
        var copy = original
        #expect(try copy.request(.current)?.urlString == "https://example.com/a")
        try copy.setRequest(URLRequestArchive(url: try #require(URL(string: "https://example.com/b"))), .current)
        #expect(try copy.request(.current)?.urlString == "https://example.com/b")
        #expect(try original.request(.current)?.urlString == "https://example.com/a")
        // The kinds have their own slots.
        try copy.setRequest(URLRequestArchive(url: try #require(URL(string: "https://example.com/c"))), .original)
        #expect(try copy.request(.original)?.urlString == "https://example.com/c")
        #expect(try copy.request(.current)?.urlString == "https://example.com/b")
    }

    @Test func failuresAreRememberedAndRethrown() throws {
        var resume = ResumeData()
        resume.entries[ResumeDataKey.currentRequest] = .data(Data("bplist00 not really".utf8))
        let firstError = #expect(throws: ResumeDataError.self) { try resume.request(.current) }
        let secondError = #expect(throws: ResumeDataError.self) { try resume.request(.current) }
        #expect(firstError?.code == .invalidRequest)
        #expect(firstError?.description == secondError?.description)
        #expect(resume.currentRequest == nil)
    }

    @Test func theMemoIsNotPartOfTheValue() throws {
        let decoded = try resume("https://example.com/a")
        _ = try decoded.request(.current)
        let untouched = try resume("https://example.com/a")
        #expect(decoded == untouched)
        #expect(decoded.hashValue == untouched.hashValue)
        var other = untouched
        other.entries["ZZUnknownKey"] = "kept"
        #expect(other != untouched)
    }

    @Test func decodingFromManyTasksAgrees() async throws {
        let resume = try resume("https://example.com/shared")
        let urls = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<32 { group.addTask { resume.currentRequest?.urlString } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(urls == Array(repeating: "https://example.com/shared", count: 32))
    }

    @Test func headerNamesAndRangesCompareAsHTTPDoes() {
        #expect(first.headerValue("rAnGe") == "bytes=10-")
        #expect(first.headerValue("Rang") == nil)
        #expect("Range".equalsIgnoringASCIICase("RANGE"))
        #expect(!"É".equalsIgnoringASCIICase("é"), "only ASCII letters fold")
        #expect("BYTES=5-".hasPrefixIgnoringASCIICase("bytes="))
        #expect(!"byte".hasPrefixIgnoringASCIICase("bytes="))
        #expect(ResumeDataValidator.rangeStart(" \tbytes=10-\t ") == 10)
        #expect(ResumeDataValidator.rangeStart("BYTES=5-") == 5)
        #expect(ResumeDataValidator.rangeStart("bytes=5-7") == nil)
        #expect(ResumeDataValidator.rangeStart("bytes=-") == nil)
        #expect(ResumeDataValidator.rangeStart("items=5-") == nil)
    }
}
