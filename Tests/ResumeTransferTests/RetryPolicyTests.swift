import Testing

@testable import ResumeTransfer

private func policy(retries: Int = 3, jitter: Double = 1) -> RetryPolicy {
    RetryPolicy(
        maximumRetries: retries, initialBackoff: .seconds(1), maximumBackoff: .seconds(8), maximumRetryAfter: .seconds(60),
        jitter: { jitter })
}

/// The engine's retry rules, value by value.
@Suite struct RetryPolicyTests {
    @Test func eachErrorIsHandledByItsKind() {
        #expect(RetryPolicy.handling(of: .disk("full")) == .disk)
        #expect(RetryPolicy.handling(of: .tls("untrusted")) == .final)
        #expect(RetryPolicy.handling(of: .invalidProxy("407")) == .final)
        #expect(RetryPolicy.handling(of: .connection(.other("reset"))) == .retryable)
        #expect(RetryPolicy.handling(of: .timedOut) == .retryable)
        #expect(RetryPolicy.handling(of: .stalled) == .retryable)
        #expect(RetryPolicy.handling(of: .unexpectedStatus(200)) == .retryable)
        #expect(RetryPolicy.handling(of: .lengthMismatch(expected: 2, received: 1)) == .retryable)
        #expect(RetryPolicy.handling(of: .lengthUnproven(received: 1)) == .retryable)
    }

    @Test func busyAndFailingServersAreRetried() {
        #expect([408, 429, 500, 502, 503, 504, 599].allSatisfy(RetryPolicy.retries(status:)))
        #expect(![200, 206, 301, 400, 403, 404, 407, 410, 416, 499, 600, 0, -1].contains(where: RetryPolicy.retries(status:)))
    }

    @Test func theDelayDoublesUpToTheMaximum() {
        let delays = (1...6).map { policy().delay(afterFailures: $0, retryAfter: nil) }
        #expect(delays == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8), .seconds(8)])
        // A huge count does not overflow the doubling.
        #expect(policy().delay(afterFailures: Int.max, retryAfter: nil) == .seconds(8))
    }

    @Test func jitterTakesUpToHalf() {
        #expect(policy(jitter: 0).delay(afterFailures: 2, retryAfter: nil) == .seconds(1))
        #expect(policy(jitter: 0.5).delay(afterFailures: 2, retryAfter: nil) == .milliseconds(1500))
        // Out-of-range jitter is clamped to 0...1.
        #expect(policy(jitter: -3).delay(afterFailures: 2, retryAfter: nil) == .seconds(1))
        #expect(policy(jitter: 7).delay(afterFailures: 2, retryAfter: nil) == .seconds(2))
    }

    @Test func retryAfterOnlyLengthensAndIsCut() {
        #expect(policy().delay(afterFailures: 1, retryAfter: .seconds(7)) == .seconds(7))
        #expect(policy().delay(afterFailures: 3, retryAfter: .seconds(2)) == .seconds(4))
        #expect(policy().delay(afterFailures: 1, retryAfter: .seconds(86_400)) == .seconds(60))
    }

    @Test func theBudgetRunsOutAfterTheLastRetry() {
        #expect(policy(retries: 2).afterFailure(1, reason: .stalled, retryAfter: nil) == .retry(after: .seconds(1)))
        #expect(policy(retries: 2).afterFailure(2, reason: .stalled, retryAfter: nil) == .retry(after: .seconds(2)))
        #expect(
            policy(retries: 2).afterFailure(3, reason: .timedOut, retryAfter: .seconds(5))
                == .giveUp(.retriesExhausted(last: .timedOut, attempts: 2)))
        #expect(
            policy(retries: 0).afterFailure(1, reason: .stalled, retryAfter: nil)
                == .giveUp(.retriesExhausted(last: .stalled, attempts: 0)))
    }

    @Test func segmentsOpenConnectionsWithinTheSameBudget() {
        #expect(policy(retries: 2).opensConnection(afterFailures: 0))
        #expect(policy(retries: 2).opensConnection(afterFailures: 2))
        #expect(!policy(retries: 2).opensConnection(afterFailures: 3))
        #expect(policy(retries: 0).opensConnection(afterFailures: 0))
        #expect(!policy(retries: 0).opensConnection(afterFailures: 1))
        #expect(policy(retries: -4).opensConnection(afterFailures: 0))
    }
}
