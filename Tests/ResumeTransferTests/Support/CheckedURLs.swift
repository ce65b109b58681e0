@testable import ResumeDataCodec
import Testing

@testable import ResumeTransfer

/// A URL as a test spells it, checked by `HTTPURL`'s rule as the engine checks every URL it is
/// given. One that broke the rule is a mistake in the test: it is recorded where it was written,
/// and the test goes on with a URL that no server answers, so what it compares fails too.
func checkedURL(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> HTTPURL {
    if let url = HTTPURL(text) { return url }
    Issue.record("a test's URL breaks the HTTPURL rule: \(text)", sourceLocation: sourceLocation)
    guard let unanswered = HTTPURL("http://invalid.invalid/") else { preconditionFailure("a constant URL the rule accepts") }
    return unanswered
}

extension DownloadCheckpoint {
    /// A checkpoint whose URLs a test spells as text, both checked (see ``checkedURL(_:sourceLocation:)``).
    init(
        originalURL: String, currentURL: String, extraHeaders: [HTTPHeaderField] = [], bytesReceived: Int64 = 0,
        entityTag: String? = nil, lastModified: String? = nil, totalLength: Int64? = nil, expectedSHA256: String? = nil,
        finishedRanges: [Range<Int64>] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        self.init(
            originalURL: .checked(checkedURL(originalURL, sourceLocation: sourceLocation)),
            currentURL: checkedURL(currentURL, sourceLocation: sourceLocation),
            extraHeaders: extraHeaders, bytesReceived: bytesReceived, entityTag: entityTag, lastModified: lastModified,
            totalLength: totalLength, expectedSHA256: expectedSHA256, finishedRanges: finishedRanges)
    }
}

extension RequestPlan {
    /// A request whose URL a test spells as text, checked (see ``checkedURL(_:sourceLocation:)``).
    init(url: String, headers: [HTTPHeaderField], offset: Int64, sourceLocation: SourceLocation = #_sourceLocation) {
        self.init(url: checkedURL(url, sourceLocation: sourceLocation), headers: headers, offset: offset)
    }
}
