import Foundation
import Testing

@testable import ResumeTransfer

private let url = "http://127.0.0.1:8080/file.bin"
private let etag = "\"abc-123\""
private let lastModified = "Sun, 22 Nov 2026 10:00:00 GMT"

private func configuration(maximumRetries: Int = 3, jitter: Double = 1) -> DownloadStateMachine.Configuration {
    DownloadStateMachine.Configuration(
        maximumRedirects: 2,
        retry: RetryPolicy(
            maximumRetries: maximumRetries, initialBackoff: .seconds(1), maximumBackoff: .seconds(8),
            maximumRetryAfter: .seconds(60), jitter: { jitter }),
        policy: TrustPolicy(allowsInsecureRedirects: false),
        checkpointBytes: 100,
        checkpointInterval: .seconds(2))
}

private func checkpoint(bytes: Int64 = 0, etag: String? = nil, lastModified: String? = nil, total: Int64? = nil) -> DownloadCheckpoint {
    DownloadCheckpoint(
        originalURL: url, currentURL: url, bytesReceived: bytes,
        entityTag: etag, lastModified: lastModified, totalLength: total
    )
}

private let identity = fields(["Accept-Encoding": "identity"])

@Suite struct DownloadStateMachineTests {
    @Test func freshStartAsksForTheWholeFile() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(), configuration: configuration())
        #expect(machine.start() == .sendRequest(.init(url: url, headers: identity, offset: 0)))
        #expect(machine.state == .requesting(start: 0, prefix: 0))
    }

    @Test func resumeSendsRangeAndStrongETag() {
        var machine = DownloadStateMachine(
            checkpoint: checkpoint(bytes: 500, etag: etag, lastModified: lastModified), configuration: configuration())
        #expect(
            machine.start()
                == .sendRequest(
                    .init(
                        url: url,
                        headers: identity + fields(["Range": "bytes=500-", "If-Range": etag]),
                        offset: 500)))
    }

    @Test func weakETagAndLastModifiedAreProvedByOverlap() {
        var machine = DownloadStateMachine(
            checkpoint: checkpoint(bytes: 100_000, etag: "W/\"weak\"", lastModified: lastModified), configuration: configuration())
        #expect(
            machine.start()
                == .sendRequest(
                    .init(
                        url: url,
                        headers: identity + fields(["Range": "bytes=34464-", "If-Range": lastModified]),
                        offset: 34_464)))
        let answer = machine.receivedResponse(
            status: 206, headers: fields(["Content-Range": "bytes 34464-199999/200000", "Last-Modified": lastModified]), now: .zero)
        #expect(answer == .receiveBody(offset: 100_000, overlap: 65_536, restartCheckpoint: nil))
        // The repeated bytes differ: another file, so a plain request for all of it.
        #expect(machine.overlapMismatched() == .sendRequest(.init(url: url, headers: identity, offset: 0)))
        #expect(machine.checkpoint.bytesReceived == 0)
    }

    @Test func noValidatorIsProvedByOverlapFromZero() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(bytes: 500), configuration: configuration())
        #expect(machine.start() == .sendRequest(.init(url: url, headers: identity + fields(["Range": "bytes=0-"]), offset: 0)))
        #expect(
            machine.receivedResponse(status: 206, headers: fields(["Content-Range": "bytes 0-999/1000"]), now: .zero)
                == .receiveBody(offset: 500, overlap: 500, restartCheckpoint: nil))
    }

    @Test func rangeThatEndsBeforeTheOverlapStartsOver() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(bytes: 500), configuration: configuration())
        _ = machine.start()
        #expect(
            machine.receivedResponse(status: 206, headers: fields(["Content-Range": "bytes 0-99/1000"]), now: .zero)
                == .sendRequest(.init(url: url, headers: identity, offset: 0)))
    }

    @Test func callerHeadersKeptButRangeHeadersReplaced() {
        var start = checkpoint(bytes: 10, etag: etag)
        start.extraHeaders = fields(["Authorization": "Bearer x", "range": "bytes=0-1", "Accept-Encoding": "gzip"])
        var machine = DownloadStateMachine(checkpoint: start, configuration: configuration())
        #expect(
            machine.start()
                == .sendRequest(
                    .init(
                        url: url,
                        headers: fields(["Authorization": "Bearer x", "Accept-Encoding": "identity", "Range": "bytes=10-", "If-Range": etag]),
                        offset: 10)))
    }

    @Test func matching206Appends() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(bytes: 500, etag: etag), configuration: configuration())
        _ = machine.start()
        let action = machine.receivedResponse(
            status: 206,
            headers: fields(["Content-Range": "bytes 500-999/1000", "Content-Length": "500", "ETag": etag]),
            now: .zero)
        #expect(action == .receiveBody(offset: 500, restartCheckpoint: nil))
        #expect(machine.checkpoint.totalLength == 1000)
        #expect(machine.wroteBytes(499, now: .zero) == .checkpoint(checkpoint(bytes: 999, etag: etag, total: 1000)))
        #expect(machine.wroteBytes(1, now: .zero) == .none)
        #expect(machine.bodyEnded() == .finish(length: 1000, checkpoint: checkpoint(bytes: 1000, etag: etag, total: 1000)))
        #expect(machine.finished(nil) == .none)
        #expect(machine.isFinished)
    }

    @Test func status200StartsOverAndTruncates() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(bytes: 500, etag: etag), configuration: configuration())
        _ = machine.start()
        let action = machine.receivedResponse(
            status: 200, headers: fields(["Content-Length": "800", "ETag": "\"new\"", "Last-Modified": lastModified]), now: .zero)
        let restarted = checkpoint(bytes: 0, etag: "\"new\"", lastModified: lastModified, total: 800)
        #expect(action == .receiveBody(offset: 0, restartCheckpoint: restarted))
        #expect(machine.wroteBytes(800, now: .zero) == .checkpoint(checkpoint(bytes: 800, etag: "\"new\"", lastModified: lastModified, total: 800)))
        #expect(machine.bodyEnded() == .finish(length: 800, checkpoint: checkpoint(bytes: 800, etag: "\"new\"", lastModified: lastModified, total: 800)))
    }

    @Test func changedETagIn206IsNeverSpliced() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(bytes: 500, etag: etag), configuration: configuration())
        _ = machine.start()
        let action = machine.receivedResponse(
            status: 206, headers: fields(["Content-Range": "bytes 500-999/1000", "ETag": "\"other\""]), now: .zero)
        #expect(action == .sendRequest(.init(url: url, headers: identity, offset: 0)))
    }

    @Test func changedTotalIn206IsNeverSpliced() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(bytes: 500, etag: etag, total: 1000), configuration: configuration())
        _ = machine.start()
        let action = machine.receivedResponse(status: 206, headers: fields(["Content-Range": "bytes 500-1199/1200"]), now: .zero)
        #expect(action == .sendRequest(.init(url: url, headers: identity, offset: 0)))
    }

    @Test func wrongContentRangeStartsOverThenFailsIfRepeated() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(bytes: 500, etag: etag), configuration: configuration())
        _ = machine.start()
        let wrong = fields(["Content-Range": "bytes 400-999/1000"])
        #expect(machine.receivedResponse(status: 206, headers: wrong, now: .zero) == .sendRequest(.init(url: url, headers: identity, offset: 0)))
        let bad = fields(["Content-Range": "bytes 10-999/1000"])
        #expect(machine.receivedResponse(status: 206, headers: bad, now: .zero) == .fail(.invalidContentRange, checkpoint: checkpoint(bytes: 500, etag: etag)))
    }

    @Test func contentLengthDisagreeingWithRangeStartsOver() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(bytes: 500, etag: etag), configuration: configuration())
        _ = machine.start()
        let action = machine.receivedResponse(
            status: 206, headers: fields(["Content-Range": "bytes 500-999/1000", "Content-Length": "10"]), now: .zero)
        #expect(action == .sendRequest(.init(url: url, headers: identity, offset: 0)))
    }

    @Test func status416WithFullLengthFinishes() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(bytes: 1000, etag: etag), configuration: configuration())
        _ = machine.start()
        let action = machine.receivedResponse(status: 416, headers: fields(["Content-Range": "bytes */1000"]), now: .zero)
        #expect(action == .finish(length: 1000, checkpoint: checkpoint(bytes: 1000, etag: etag, total: 1000)))
    }

    @Test func status416OtherwiseStartsOver() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(bytes: 1000, etag: etag), configuration: configuration())
        _ = machine.start()
        let action = machine.receivedResponse(status: 416, headers: fields(["Content-Range": "bytes */900"]), now: .zero)
        #expect(action == .sendRequest(.init(url: url, headers: identity, offset: 0)))

        var other = DownloadStateMachine(checkpoint: checkpoint(bytes: 1000, etag: etag), configuration: configuration())
        _ = other.start()
        let changed = other.receivedResponse(
            status: 416, headers: fields(["Content-Range": "bytes */1000", "ETag": "\"new\""]), now: .zero)
        #expect(changed == .sendRequest(.init(url: url, headers: identity, offset: 0)))
    }

    @Test func redirectsAreFollowedAndBounded() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(bytes: 5, etag: etag), configuration: configuration())
        _ = machine.start()
        let ranged = identity + fields(["Range": "bytes=5-", "If-Range": etag])
        #expect(
            machine.receivedResponse(status: 302, headers: fields(["Location": "/other/file.bin"]), now: .zero)
                == .sendRequest(.init(url: "http://127.0.0.1:8080/other/file.bin", headers: ranged, offset: 5)))
        #expect(
            machine.receivedResponse(status: 301, headers: fields(["Location": "https://example.com/x"]), now: .zero)
                == .sendRequest(.init(url: "https://example.com/x", headers: ranged, offset: 5)))
        var expected = checkpoint(bytes: 5, etag: etag)
        expected.currentURL = checkedURL("https://example.com/x")
        #expect(
            machine.receivedResponse(status: 307, headers: fields(["Location": "/y"]), now: .zero)
                == .fail(.tooManyRedirects(2), checkpoint: expected))
    }

    @Test func redirectWithoutUsableLocationFails() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(), configuration: configuration())
        _ = machine.start()
        #expect(
            machine.receivedResponse(status: 302, headers: [], now: .zero)
                == .fail(.invalidRedirect("(no Location header)"), checkpoint: checkpoint()))
        var ftp = DownloadStateMachine(checkpoint: checkpoint(), configuration: configuration())
        _ = ftp.start()
        #expect(
            ftp.receivedResponse(status: 302, headers: fields(["Location": "ftp://x/y"]), now: .zero)
                == .fail(.invalidRedirect("ftp://x/y"), checkpoint: checkpoint()))
    }

    @Test func otherStatusesFailKeepingTheCheckpoint() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(bytes: 700, etag: etag), configuration: configuration())
        _ = machine.start()
        #expect(machine.receivedResponse(status: 404, headers: [], now: .zero) == .fail(.unexpectedStatus(404), checkpoint: checkpoint(bytes: 700, etag: etag)))
        #expect(machine.isFinished)
        #expect(machine.retryTimerFired() == .ignored)
    }

    @Test func backoffDoublesIsCappedAndRunsOut() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(), configuration: configuration(maximumRetries: 5))
        _ = machine.start()
        var delays: [Duration] = []
        for _ in 0..<5 {
            guard case .retry(let delay, _) = machine.transportFailed(.connection(.other("reset"))) else {
                Issue.record("expected a retry")
                return
            }
            delays.append(delay)
            #expect(machine.retryTimerFired() == .sendRequest(.init(url: url, headers: identity, offset: 0)))
        }
        #expect(delays == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8)])
        #expect(
            machine.transportFailed(.timedOut)
                == .fail(.retriesExhausted(last: .timedOut, attempts: 5), checkpoint: checkpoint()))
    }

    @Test func jitterShortensTheDelayByUpToHalf() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(), configuration: configuration(jitter: 0))
        _ = machine.start()
        #expect(machine.transportFailed(.stalled) == .retry(after: .milliseconds(500), checkpoint: checkpoint()))
    }

    @Test func serviceUnavailableHonoursRetryAfter() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(), configuration: configuration())
        _ = machine.start()
        #expect(
            machine.receivedResponse(status: 503, headers: fields(["Retry-After": "7"]), now: .zero)
                == .retry(after: .seconds(7), checkpoint: checkpoint()))
        _ = machine.retryTimerFired()
        // Clamped to the configured maximum.
        #expect(
            machine.receivedResponse(status: 503, headers: fields(["Retry-After": "86400"]), now: .zero)
                == .retry(after: .seconds(60), checkpoint: checkpoint()))
        _ = machine.retryTimerFired()
        let now = Date(timeIntervalSince1970: 1_000_000)
        let date = HTTPDate.format(now.addingTimeInterval(12))
        #expect(
            machine.receivedResponse(status: 429, headers: fields(["Retry-After": date]), now: .zero, wallClock: now)
                == .retry(after: .seconds(12), checkpoint: checkpoint()))
    }

    @Test func bytesResetTheRetryCount() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(etag: etag), configuration: configuration(maximumRetries: 1))
        _ = machine.start()
        _ = machine.receivedResponse(status: 200, headers: fields(["Content-Length": "1000", "ETag": etag]), now: .zero)
        _ = machine.wroteBytes(50, now: .zero)
        #expect(machine.transportFailed(.connection(.other("reset"))) == .retry(after: .seconds(1), checkpoint: checkpoint(bytes: 50, etag: etag, total: 1000)))
        let resume = identity + fields(["Range": "bytes=50-", "If-Range": etag])
        #expect(machine.retryTimerFired() == .sendRequest(.init(url: url, headers: resume, offset: 50)))
        _ = machine.receivedResponse(status: 206, headers: fields(["Content-Range": "bytes 50-999/1000"]), now: .zero)
        _ = machine.wroteBytes(10, now: .zero)
        #expect(machine.transportFailed(.stalled) == .retry(after: .seconds(1), checkpoint: checkpoint(bytes: 60, etag: etag, total: 1000)))
        _ = machine.retryTimerFired()
        #expect(
            machine.transportFailed(.stalled)
                == .fail(.retriesExhausted(last: .stalled, attempts: 1), checkpoint: checkpoint(bytes: 60, etag: etag, total: 1000)))
    }

    @Test func shortBodyIsRetriedFromWhereItStopped() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(etag: etag), configuration: configuration())
        _ = machine.start()
        _ = machine.receivedResponse(status: 200, headers: fields(["Content-Length": "1000", "ETag": etag]), now: .zero)
        _ = machine.wroteBytes(30, now: .zero)
        #expect(
            machine.bodyEnded()
                == .retry(after: .seconds(1), checkpoint: checkpoint(bytes: 30, etag: etag, total: 1000)))
    }

    @Test func longBodyFails() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(), configuration: configuration())
        _ = machine.start()
        _ = machine.receivedResponse(status: 200, headers: fields(["Content-Length": "10"]), now: .zero)
        #expect(machine.wroteBytes(11, now: .zero) == .fail(.lengthMismatch(expected: 10, received: 11), checkpoint: checkpoint(total: 10)))
    }

    @Test func unknownLengthFinishesAtCleanEnd() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(), configuration: configuration())
        _ = machine.start()
        _ = machine.receivedResponse(status: 200, headers: [], now: .zero)
        _ = machine.wroteBytes(42, now: .zero)
        #expect(machine.bodyEnded() == .finish(length: 42, checkpoint: checkpoint(bytes: 42, total: 42)))
    }

    @Test func checkpointsByTime() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(), configuration: configuration())
        _ = machine.start()
        _ = machine.receivedResponse(status: 200, headers: fields(["Content-Length": "1000"]), now: .seconds(10))
        #expect(machine.wroteBytes(5, now: .seconds(11)) == .none)
        #expect(machine.wroteBytes(5, now: .seconds(12)) == .checkpoint(checkpoint(bytes: 10, total: 1000)))
        #expect(machine.wroteBytes(0, now: .seconds(20)) == .none)
    }

    @Test func pauseReturnsTheCheckpoint() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(etag: etag), configuration: configuration())
        _ = machine.start()
        _ = machine.receivedResponse(status: 200, headers: fields(["Content-Length": "1000", "ETag": etag]), now: .zero)
        _ = machine.wroteBytes(20, now: .zero)
        #expect(machine.pause() == .pause(checkpoint(bytes: 20, etag: etag, total: 1000)))
        #expect(machine.pause() == .ignored)
        #expect(machine.bodyEnded() == .ignored)
    }

    @Test func diskFailureAndChecksumFailureFail() {
        var machine = DownloadStateMachine(checkpoint: checkpoint(), configuration: configuration())
        _ = machine.start()
        _ = machine.receivedResponse(status: 200, headers: fields(["Content-Length": "1000"]), now: .zero)
        _ = machine.wroteBytes(150, now: .zero)
        #expect(machine.diskFailed("No space left on device") == .fail(.disk("No space left on device"), checkpoint: checkpoint(bytes: 150, total: 1000)))

        var other = DownloadStateMachine(checkpoint: checkpoint(), configuration: configuration())
        _ = other.start()
        _ = other.receivedResponse(status: 200, headers: fields(["Content-Length": "1"]), now: .zero)
        _ = other.wroteBytes(1, now: .zero)
        _ = other.bodyEnded()
        let mismatch = TransferError.checksumMismatch(expected: "aa", actual: "bb")
        #expect(other.finished(mismatch) == .fail(mismatch, checkpoint: checkpoint(bytes: 1, total: 1)))
    }

    @Test func contentRangeParsing() {
        #expect(ContentRange("bytes 0-9/10") == ContentRange(start: 0, end: 9, total: 10))
        #expect(ContentRange("bytes 5-9/*") == ContentRange(start: 5, end: 9, total: nil))
        #expect(ContentRange("bytes */10") == ContentRange(start: nil, end: nil, total: 10))
        #expect(ContentRange("bytes 9-5/10") == nil)
        #expect(ContentRange("bytes 0-10/10") == nil)
        #expect(ContentRange("bytes */*") == nil)
        #expect(ContentRange("items 0-1/2") == nil)
        #expect(ContentRange("bytes -1-5/10") == nil)
        #expect(ContentRange("bytes 0-5") == nil)
    }

    @Test func retryAfterParsing() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        #expect(RetryAfter.parse("3", now: now) == .seconds(3))
        #expect(RetryAfter.parse(HTTPDate.format(now.addingTimeInterval(-5)), now: now) == .zero)
        #expect(RetryAfter.parse("soon", now: now) == nil)
        #expect(RetryAfter.parse("", now: now) == nil)
    }
}
