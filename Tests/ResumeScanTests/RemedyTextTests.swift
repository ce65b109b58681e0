@testable import ResumeDataCodec
import Testing
@testable import ResumeReports

/// ``RemedyText``, the one place a ``Remedy`` becomes a `resumetool` command: every case, value
/// by value, with plain and quoted blob names and URLs.
@Suite struct RemedyTextTests {
    static let url = HTTPURL("https://example.com/x.zip?a=1&b=2")

    @Test(arguments: [
        (Remedy.repair(.ios10), "app.resumedata", "resumetool repair app.resumedata --target ios10"),
        (.repair(.ios11), "app.resumedata", "resumetool repair app.resumedata --target ios11"),
        (.repair(nil), "my blob", "resumetool repair 'my blob'"),
        (.relocateTempFile, "it's", #"resumetool relocate 'it'\''s' --temp-file NAME (the partial file's name now)"#),
        (.editURL, "<stdin>", "resumetool edit '<stdin>' --url NEW_URL"),
        (.rebuild(url: HTTPURL("https://example.com/x.zip"), validator: .entityTag), "b",
         "resumetool rebuild --partial PARTIAL --url https://example.com/x.zip --etag 'ETAG'"),
        (.rebuild(url: url, validator: .lastModified), "b",
         "resumetool rebuild --partial PARTIAL --url 'https://example.com/x.zip?a=1&b=2' --last-modified 'DATE' (the server's Last-Modified)"),
        (.rebuild(url: nil, validator: .entityTag), "b", "resumetool rebuild --partial PARTIAL --url URL --etag 'ETAG'"),
    ])
    func commands(_ remedy: Remedy, _ blob: String, _ expected: String) {
        #expect(RemedyText.command(remedy, blob: blob) == expected)
    }

    /// A finding's message and line as validate, inspect and scan print them: the advice added
    /// after the library's words, and nothing added where there is no remedy.
    @Test func findingsGetTheirAdvice() {
        let ios11 = ResumeDataFinding(.error, .ios11ByteRange, "a truncated file", key: "NSURLSessionResumeByteRange", remedy: .repair(.ios11))
        #expect(RemedyText.message(of: ios11) == "a truncated file: run `resumetool repair --target ios11` to remove it")
        #expect(RemedyText.line(of: ios11)
            == "error[ios11-byte-range] NSURLSessionResumeByteRange: a truncated file: run `resumetool repair --target ios11` to remove it")
        let ios10 = ResumeDataFinding(.error, .ios10RequestArchive, "error -3003", remedy: .repair(.ios10))
        #expect(RemedyText.line(of: ios10) == "error[ios10-request-archive]: error -3003: run `resumetool repair --target ios10`")
        let plain = ResumeDataFinding(.warning, .tempFileSize, "shorter")
        #expect(RemedyText.message(of: plain) == "shorter")
        #expect(RemedyText.line(of: plain) == plain.description)
        #expect(RemedyText.message(of: ResumeDataFinding(.note, .duplicateKey, "twice", remedy: .repair(nil))) == "twice: run `resumetool repair`")
        #expect(RemedyText.message(of: ResumeDataFinding(.error, .invalidURL, "bad", remedy: .editURL)) == "bad: run `resumetool edit BLOB --url NEW_URL`")
    }
}
