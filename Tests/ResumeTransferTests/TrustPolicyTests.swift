import Foundation
@testable import ResumeDataCodec
import Testing

@testable import ResumeTransfer

private let authorization = fields(["Authorization": "Bearer secret"])
private let cookie = fields(["cookie": "session=1"])
private let proxy = fields(["Proxy-Authorization": "Basic cDpx"])
private let agent = fields(["User-Agent": "UA/1"])
private let identity = fields(["Accept-Encoding": "identity"])
private let url = "http://127.0.0.1:8080/file.bin"

/// The trust rules, driven with plain values (no I/O anywhere in `TrustPolicy`).
@Suite struct TrustPolicyTests {
    @Test func credentialsGoOnlyToTheirOrigin() {
        let headers = authorization + cookie + proxy + agent
        let start = OriginalURL.checked(checkedURL(url))
        #expect(TrustPolicy.headers(headers, to: checkedURL("http://127.0.0.1:8080/b?x"), startedAt: start) == headers)
        #expect(TrustPolicy.headers(headers, to: checkedURL("HTTP://127.0.0.1:8080/b"), startedAt: start) == headers)
        #expect(TrustPolicy.headers(headers, to: checkedURL("http://127.0.0.1/a"), startedAt: .checked(checkedURL("http://127.0.0.1:80/a"))) == headers)
        for other in ["http://localhost:8080/file.bin", "http://127.0.0.1:8081/file.bin", "https://127.0.0.1:8080/file.bin"] {
            #expect(TrustPolicy.headers(headers, to: checkedURL(other), startedAt: start) == agent)
        }
        // A blob's original URL that the rule refuses is no origin: credentials go nowhere, not
        // even to a URL spelled the same way.
        for refused in ["not a url", "ftp://127.0.0.1:8080/file.bin", "http://127.0.0.1:8080/file bin"] {
            #expect(TrustPolicy.headers(headers, to: checkedURL(url), startedAt: .refused(refused)) == agent)
        }
    }

    @Test func redirectsResolveAndHttpsToHttpIsRefused() {
        let policy = TrustPolicy()
        let secure = checkedURL("https://a.test/x")
        #expect(policy.redirect(from: checkedURL("https://a.test/x/y"), location: "../z") == .success(checkedURL("https://a.test/z")))
        #expect(policy.redirect(from: checkedURL("http://a.test/x"), location: "https://b.test/") == .success(checkedURL("https://b.test/")))
        #expect(policy.redirect(from: secure, location: "http://a.test/x") == .failure(.insecureRedirect("http://a.test/x")))
        #expect(TrustPolicy(allowsInsecureRedirects: true).redirect(from: secure, location: "http://a.test/x")
            == .success(checkedURL("http://a.test/x")))
        let plain = checkedURL("http://a.test/x")
        #expect(policy.redirect(from: plain, location: "file:///etc/passwd") == .failure(.invalidRedirect("file:///etc/passwd")))
        #expect(policy.redirect(from: plain, location: nil) == .failure(.invalidRedirect("(no Location header)")))
        #expect(policy.redirect(from: plain, location: "") == .failure(.invalidRedirect("")))
    }

    /// `If-Range` carries a tag only when the codec's `EntityTag` rule calls it strong; an empty
    /// `ETag` is none (it used to be sent as an empty `If-Range`), while `""` is a tag.
    @Test(arguments: [
        ("\"a\"", "Tue, 17 Nov 2026 09:12:44 GMT", "\"a\""),
        ("\"\"", "Tue, 17 Nov 2026 09:12:44 GMT", "\"\""),
        ("W/\"a\"", "Tue, 17 Nov 2026 09:12:44 GMT", "Tue, 17 Nov 2026 09:12:44 GMT"),
        ("", "Tue, 17 Nov 2026 09:12:44 GMT", "Tue, 17 Nov 2026 09:12:44 GMT"),
        (nil, "Tue, 17 Nov 2026 09:12:44 GMT", "Tue, 17 Nov 2026 09:12:44 GMT"),
        ("", nil, nil),
        ("W/\"a\"", nil, nil),
        // A blob's validator that could not be sent back proves nothing and is not sent.
        ("\"a\r\nX: y\"", "Tue, 17 Nov 2026 09:12:44 GMT", "Tue, 17 Nov 2026 09:12:44 GMT"),
        ("\"a\u{0}\"", nil, nil),
        ("\"a\"", "Tue\n", "\"a\""),
        (nil, "Tue\r\nX: y", nil),
        // No entity-tag without its quotes, none longer than 1024 bytes, no date of a blob's noise.
        ("v1", "Tue, 17 Nov 2026 09:12:44 GMT", "Tue, 17 Nov 2026 09:12:44 GMT"),
        ("v1", nil, nil),
        ("\"" + String(repeating: "a", count: 200_000) + "\"", nil, nil),
        (nil, String(repeating: "T", count: 65), nil),
    ] as [(String?, String?, String?)])
    func ifRangeCarriesOnlyAStrongTag(_ entityTag: String?, _ lastModified: String?, _ ifRange: String?) {
        let checkpoint = DownloadCheckpoint(originalURL: url, currentURL: url, entityTag: entityTag, lastModified: lastModified)
        #expect(checkpoint.ifRangeValidator == ifRange)
        #expect(checkpoint.provingEntityTag == (ifRange == entityTag ? entityTag : nil))
    }

    @Test(arguments: [
        ("http://a.test/x", "http://a.test:80/y?z", true),
        ("HTTPS://A.test/x", "https://a.test:443/", true),
        ("http://a.test/x", "https://a.test/x", false),
        ("http://a.test/x", "http://a.test:8080/x", false),
        ("http://a.test/x", "http://b.test/x", false),
    ])
    func originsAreHTTPURLs(_ one: String, _ other: String, _ same: Bool) {
        #expect(OriginalURL.checked(checkedURL(one)).hasSameOrigin(as: checkedURL(other)) == same)
        #expect(OriginalURL.checked(checkedURL(other)).hasSameOrigin(as: checkedURL(one)) == same)
    }

    @Test func blobsCarryNoCredentialsToAnotherOrigin() throws {
        var checkpoint = DownloadCheckpoint(originalURL: url, currentURL: "http://localhost:9/moved.bin", bytesReceived: 10, entityTag: "\"t\"")
        checkpoint.extraHeaders = authorization + agent
        checkpoint.expectedSHA256 = String(repeating: "ab", count: 32)
        let resume = try ResumeCheckpoint.resumeData(checkpoint, partialPath: "/tmp/x.part")
        #expect(try resume.request(.current)?.headers.map(\.name) == ["User-Agent", "Range"])
        #expect(try resume.request(.original)?.headers.map(\.name) == ["Authorization", "User-Agent"])
        #expect(resume.entries["ResumeToolExpectedSHA256"] == .string(String(repeating: "ab", count: 32)))
        // Read back, the caller's headers and checksum are whole again.
        let decoded = try ResumeCheckpoint.decode(try resume.encoded(as: .keyedArchive))
        #expect(decoded.checkpoint.extraHeaders == authorization + agent)
        #expect(decoded.checkpoint.expectedSHA256 == String(repeating: "ab", count: 32))
    }

    @Test func aMalformedStoredChecksumIsIgnored() throws {
        for stored in ["abc", String(repeating: "g", count: 64), String(repeating: "\u{FF11}", count: 64)] {
            var resume = ResumeData(container: .keyedArchive)
            resume.downloadURL = url
            resume.bytesReceived = 0
            resume.entries[ResumeCheckpoint.expectedSHA256Key] = .string(stored)
            #expect(try ResumeCheckpoint.decode(try resume.encoded(as: .keyedArchive)).checkpoint.expectedSHA256 == nil)
        }
    }
}

/// The state machine against hostile answers, each case one that broke the engine before.
@Suite struct HostileServerMachineTests {
    private func configuration(retries: Int = 3) -> DownloadStateMachine.Configuration {
        DownloadStateMachine.Configuration(
            maximumRedirects: 10,
            retry: RetryPolicy(
                maximumRetries: retries, initialBackoff: .seconds(1), maximumBackoff: .seconds(1),
                maximumRetryAfter: .seconds(300), jitter: { 1 }),
            policy: TrustPolicy(allowsInsecureRedirects: false),
            checkpointBytes: 1 << 40,
            checkpointInterval: .seconds(2))
    }

    private func machine(_ checkpoint: DownloadCheckpoint, retries: Int = 3) -> DownloadStateMachine {
        DownloadStateMachine(checkpoint: checkpoint, configuration: self.configuration(retries: retries))
    }

    private var fresh: DownloadCheckpoint { DownloadCheckpoint(originalURL: url, currentURL: url) }

    @Test func contentRangeAtTheEndOfInt64DoesNotTrap() {
        for value in ["bytes 0-9223372036854775807/*", "bytes 1-9223372036854775807/*", "bytes 0-99999999999999999999/*",
                      "bytes 9223372036854775807-9223372036854775807/*"] {
            var machine = self.machine(self.fresh)
            _ = machine.start()
            let hostile = fields(["Content-Range": value, "Content-Length": "0"])
            #expect(machine.receivedResponse(status: 206, headers: hostile, now: .zero) == .sendRequest(.init(url: url, headers: identity, offset: 0)))
            #expect(machine.receivedResponse(status: 206, headers: hostile, now: .zero) == .fail(.invalidContentRange, checkpoint: self.fresh))
        }
        #expect(ContentRange("bytes 0-9223372036854775807/*")?.length == nil)
        #expect(ContentRange("bytes 1-9223372036854775807/*")?.length == nil)
        #expect(ContentRange("bytes 0-9223372036854775806/*")?.length == Int64.max)
    }

    @Test func aTwoHundredSixMustStartWhereAsked() {
        var machine = self.machine(DownloadCheckpoint(originalURL: url, currentURL: url, bytesReceived: 100, entityTag: "\"t\""))
        _ = machine.start()
        #expect(
            machine.receivedResponse(status: 206, headers: fields(["Content-Range": "bytes 0-999/1000"]), now: .zero)
                == .sendRequest(.init(url: url, headers: identity, offset: 0)))
    }

    @Test func anUnknownTotalIsNeverCompleteUntilALengthIsStated() {
        var machine = self.machine(DownloadCheckpoint(originalURL: url, currentURL: url))
        _ = machine.start()
        let range = fields(["Content-Range": "bytes 0-999/*", "ETag": "\"t\""])
        #expect(machine.receivedResponse(status: 206, headers: range, now: .zero) == .receiveBody(offset: 0, restartCheckpoint: nil))
        #expect(machine.wroteBytes(1000, now: .zero) == .none)
        // The range ended as announced, but nothing says the file did: ask for more.
        let ranged = identity + fields(["Range": "bytes=1000-", "If-Range": "\"t\""])
        #expect(machine.bodyEnded() == .sendRequest(.init(url: url, headers: ranged, offset: 1000)))
        var done = DownloadCheckpoint(originalURL: url, currentURL: url, bytesReceived: 1000, entityTag: "\"t\"")
        done.totalLength = 1000
        #expect(
            machine.receivedResponse(status: 416, headers: fields(["Content-Range": "bytes */1000"]), now: .zero)
                == .finish(length: 1000, checkpoint: done))
    }

    @Test func rangesThatNeverAdvanceNorStateALengthRunOut() {
        // 1,000 unproven bytes; the server repeats them with an unknown total, forever.
        var machine = self.machine(DownloadCheckpoint(originalURL: url, currentURL: url, bytesReceived: 1000), retries: 1)
        #expect(machine.start() == .sendRequest(.init(url: url, headers: identity + fields(["Range": "bytes=0-"]), offset: 0)))
        let range = fields(["Content-Range": "bytes 0-999/*"])
        #expect(machine.receivedResponse(status: 206, headers: range, now: .zero) == .receiveBody(offset: 1000, overlap: 1000, restartCheckpoint: nil))
        let checkpoint = DownloadCheckpoint(originalURL: url, currentURL: url, bytesReceived: 1000)
        #expect(machine.bodyEnded() == .retry(after: .seconds(1), checkpoint: checkpoint))
        _ = machine.retryTimerFired()
        _ = machine.receivedResponse(status: 206, headers: range, now: .zero)
        #expect(machine.bodyEnded() == .fail(.retriesExhausted(last: .lengthUnproven(received: 1000), attempts: 1), checkpoint: checkpoint))
    }

    @Test func moreBytesThanTheRangeAnnouncedAreCutBackToIt() {
        var machine = self.machine(DownloadCheckpoint(originalURL: url, currentURL: url))
        _ = machine.start()
        _ = machine.receivedResponse(status: 206, headers: fields(["Content-Range": "bytes 0-999/*"]), now: .zero)
        let kept = DownloadCheckpoint(originalURL: url, currentURL: url, bytesReceived: 1000)
        #expect(machine.wroteBytes(1500, now: .zero) == .retry(after: .seconds(1), checkpoint: kept))
    }

    @Test func aStartOverAnsweredWith206WritesARestartCheckpointFirst() {
        var machine = self.machine(DownloadCheckpoint(originalURL: url, currentURL: url, bytesReceived: 1000, entityTag: "\"t\""))
        _ = machine.start()
        let fromZero = fields(["Content-Range": "bytes 0-1999/2000"])
        // A 206 from the wrong offset: start over with a plain request...
        #expect(machine.receivedResponse(status: 206, headers: fromZero, now: .zero) == .sendRequest(.init(url: url, headers: identity, offset: 0)))
        // ...answered with a 206 from zero: the blob on disk still counts 1,000 old bytes.
        var restart = DownloadCheckpoint(originalURL: url, currentURL: url, bytesReceived: 0, entityTag: "\"t\"")
        restart.totalLength = 2000
        #expect(machine.receivedResponse(status: 206, headers: fromZero, now: .zero) == .receiveBody(offset: 0, restartCheckpoint: restart))
    }

    @Test func aBlobOnDiskThatClaimsMoreIsReplacedBeforeTheCut() {
        // The run starts from zero (its partial file was shorter than the blob said).
        var machine = DownloadStateMachine(
            checkpoint: DownloadCheckpoint(originalURL: url, currentURL: url), configuration: self.configuration(), claimedOnDisk: 5000)
        _ = machine.start()
        let answer = machine.receivedResponse(status: 206, headers: fields(["Content-Range": "bytes 0-9/10"]), now: .zero)
        guard case .receiveBody(0, 0, let restart?) = answer else {
            Issue.record("unexpected \(answer)")
            return
        }
        #expect(restart.bytesReceived == 0)
    }

    @Test func aServerThatCannotDeliverTheWholeFileRunsOutOfRetries() {
        // Ignores Range and closes after 1,000 of 4,000 bytes, every time: each attempt "receives
        // bytes", but none gets further than the first one did.
        var machine = self.machine(self.fresh, retries: 3)
        var action = machine.start()
        var requests = 0
        while case .sendRequest = action, requests < 50 {
            requests += 1
            let head = fields(["ETag": "\"v\"", "Content-Length": "4000"])
            _ = machine.receivedResponse(status: 200, headers: head, now: .zero)
            _ = machine.wroteBytes(1000, now: .zero)
            action = machine.transportFailed(.connection(.other("closed")))
            if case .retry = action { action = machine.retryTimerFired() }
        }
        #expect(requests == 4)
        guard case .fail(.retriesExhausted(last: .connection(.other("closed")), attempts: 3), let checkpoint) = action else {
            Issue.record("unexpected \(action)")
            return
        }
        #expect(checkpoint.bytesReceived == 1000)
    }

    @Test func newGroundStillResetsTheRetryBudget() {
        var machine = self.machine(self.fresh, retries: 1)
        _ = machine.start()
        let head = fields(["ETag": "\"v\"", "Content-Length": "4000"])
        _ = machine.receivedResponse(status: 200, headers: head, now: .zero)
        for step in 1...3 {
            _ = machine.wroteBytes(1000, now: .zero)
            guard case .retry = machine.transportFailed(.connection(.other("closed"))) else {
                Issue.record("step \(step) did not retry")
                return
            }
            let range = "bytes \(step * 1000)-3999/4000"
            guard case .sendRequest = machine.retryTimerFired(),
                  case .receiveBody = machine.receivedResponse(
                      status: 206, headers: fields(["Content-Range": range, "ETag": "\"v\""]), now: .zero)
            else {
                Issue.record("step \(step) did not continue")
                return
            }
        }
        _ = machine.wroteBytes(1000, now: .zero)
        guard case .finish(length: 4000, _) = machine.bodyEnded() else {
            Issue.record("did not finish")
            return
        }
    }

    @Test func retryAfterFromTheFarFutureDoesNotTrap() {
        let now = Date(timeIntervalSince1970: 0)
        #expect(RetryAfter.parse("Sun, 06 Nov 999999999 08:49:37 GMT", now: now).map { $0 <= .seconds(1_000_000_000) } ?? true)
        #expect(RetryAfter.parse("99999999999999999999999", now: now) == .seconds(999_999_999))
        #expect(RetryAfter.parse("-5", now: now) == nil)
    }

    @Test func credentialsAreDroppedWhenARedirectChangesOrigin() {
        var start = self.fresh
        start.extraHeaders = authorization + cookie + proxy + agent
        var machine = self.machine(start)
        #expect(machine.start() == .sendRequest(.init(url: url, headers: authorization + cookie + proxy + agent + identity, offset: 0)))
        let moved = "http://localhost:8080/file.bin"
        #expect(
            machine.receivedResponse(status: 302, headers: fields(["Location": moved]), now: .zero)
                == .sendRequest(.init(url: moved, headers: agent + identity, offset: 0)))
        // Back on the origin they were given for, they are sent again.
        #expect(
            machine.receivedResponse(status: 307, headers: fields(["Location": url]), now: .zero)
                == .sendRequest(.init(url: url, headers: authorization + cookie + proxy + agent + identity, offset: 0)))
    }

    @Test func httpsToHttpRedirectFailsUnlessAllowed() {
        let secure = "https://127.0.0.1:8443/file.bin"
        var machine = self.machine(DownloadCheckpoint(originalURL: secure, currentURL: secure))
        _ = machine.start()
        #expect(
            machine.receivedResponse(status: 302, headers: fields(["Location": url]), now: .zero)
                == .fail(.insecureRedirect(url), checkpoint: DownloadCheckpoint(originalURL: secure, currentURL: secure)))
    }

    @Test func theRedirectCountIsPerChain() {
        // maximumRedirects is 10 by default: 8 redirects, an error answer, 8 more.
        var machine = self.machine(self.fresh, retries: 5)
        _ = machine.start()
        for round in 0..<2 {
            for hop in 0..<8 {
                guard case .sendRequest = machine.receivedResponse(
                    status: 302, headers: fields(["Location": "/r\(round)-\(hop)"]), now: .zero)
                else {
                    Issue.record("redirect \(round)/\(hop) not followed")
                    return
                }
            }
            guard case .retry = machine.receivedResponse(status: 503, headers: [], now: .zero) else {
                Issue.record("503 not retried")
                return
            }
            _ = machine.retryTimerFired()
        }
    }
}
