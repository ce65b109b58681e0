import Testing

@testable import ResumeTransfer

private let start = "http://a.example/f"

/// Every request of a download, and the reading of every 206, built in one place.
@Suite struct RequestPlanTests {
    private func checkpoint(at url: String) -> DownloadCheckpoint {
        var checkpoint = DownloadCheckpoint(originalURL: start, currentURL: url)
        checkpoint.extraHeaders = fields([
            "Authorization": "Bearer x", "User-Agent": "t", "Range": "bytes=9-", "IF-RANGE": "\"z\"", "accept-encoding": "gzip",
        ])
        return checkpoint
    }

    @Test func aPlainRequestHasNoRange() {
        #expect(
            RequestPlan(checkpoint: self.checkpoint(at: start), range: nil, ifRange: "\"ignored\"")
                == RequestPlan(
                    url: start, headers: fields(["Authorization": "Bearer x", "User-Agent": "t", "Accept-Encoding": "identity"]),
                    offset: 0))
    }

    @Test func anOpenRangeWithAndWithoutValidator() {
        #expect(
            RequestPlan(checkpoint: self.checkpoint(at: start), range: (500, nil), ifRange: "\"v\"")
                == RequestPlan(
                    url: start,
                    headers: fields([
                        "Authorization": "Bearer x", "User-Agent": "t", "Accept-Encoding": "identity", "Range": "bytes=500-",
                        "If-Range": "\"v\"",
                    ]),
                    offset: 500))
        #expect(
            RequestPlan(checkpoint: self.checkpoint(at: start), range: (0, nil), ifRange: nil).headers
                == fields(["Authorization": "Bearer x", "User-Agent": "t", "Accept-Encoding": "identity", "Range": "bytes=0-"]))
    }

    @Test func aClosedRangeOnAnotherOriginCarriesNoCredentials() {
        let other = "http://b.example/f"
        #expect(
            RequestPlan(checkpoint: self.checkpoint(at: other), range: (500, 750), ifRange: "\"v\"")
                == RequestPlan(
                    url: other,
                    headers: fields(["User-Agent": "t", "Accept-Encoding": "identity", "Range": "bytes=500-749", "If-Range": "\"v\""]),
                    offset: 500))
    }

    @Test func partialContentReadsTheRangeAndItsLength() {
        #expect(
            PartialContent(headers: fields(["Content-Range": "bytes 10-19/100", "Content-Length": "10"]))
                == PartialContent(start: 10, end: 20, total: 100, lengthAgrees: true))
        #expect(
            PartialContent(headers: fields(["Content-Range": "bytes 10-19/*"]))
                == PartialContent(start: 10, end: 20, total: nil, lengthAgrees: true))
        #expect(PartialContent(headers: fields(["Content-Range": "bytes 10-19/100", "Content-Length": "11"]))?.lengthAgrees == false)
        #expect(PartialContent(headers: fields(["Content-Range": "bytes 10-19/100", "Content-Length": "ten"]))?.lengthAgrees == false)
        #expect(PartialContent(headers: []) == nil)
        #expect(PartialContent(headers: fields(["Content-Range": "bytes */100"])) == nil)
        #expect(PartialContent(headers: fields(["Content-Range": "bytes 0-9223372036854775807/*"])) == nil)
    }
}
