import Foundation
import StocktakeSync
import Testing

@Suite struct RetryPolicyTests {
    @Test func retryAfterSecondsIsHonoured() {
        let policy = RetryPolicy()
        #expect(policy.delay(afterAttempt: 1, status: 429, retryAfter: "7") == 7)
        #expect(policy.delay(afterAttempt: 1, status: 503, retryAfter: "0") == 0)
    }

    @Test func retryAfterAsAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT
        #expect(RetryPolicy.seconds(retryAfter: "Tue, 14 Nov 2023 22:13:50 GMT", now: now) == 30)
        #expect(RetryPolicy.seconds(retryAfter: "Tue, 14 Nov 2023 22:00:00 GMT", now: now) == 0)
        #expect(RetryPolicy.seconds(retryAfter: "soon", now: now) == nil)
    }

    @Test func aRetryAfterBeyondTheCapIsNotWaitedFor() {
        var policy = RetryPolicy()
        policy.maximumRetryAfterSeconds = 60
        #expect(policy.delay(afterAttempt: 1, status: 429, retryAfter: "3600") == nil)
    }

    @Test func backoffIsExponentialWithFullJitterAndCapped() {
        var policy = RetryPolicy()
        policy.maximumAttempts = 10
        policy.baseDelaySeconds = 1
        policy.maximumDelaySeconds = 5
        let upper = { (range: ClosedRange<Double>) in range.upperBound }
        #expect(policy.delay(afterAttempt: 1, status: 500, retryAfter: nil, random: upper) == 1)
        #expect(policy.delay(afterAttempt: 2, status: 500, retryAfter: nil, random: upper) == 2)
        #expect(policy.delay(afterAttempt: 3, status: nil, retryAfter: nil, random: upper) == 4)
        #expect(policy.delay(afterAttempt: 4, status: 503, retryAfter: nil, random: upper) == 5)
        #expect(policy.delay(afterAttempt: 2, status: 500, retryAfter: nil, random: { $0.lowerBound }) == 0)
    }

    @Test func triesAreCapped() {
        let policy = RetryPolicy()
        #expect(policy.delay(afterAttempt: policy.maximumAttempts, status: 429, retryAfter: "1") == nil)
    }

    @Test(arguments: [
        (429, true), (500, true), (502, true), (503, true), (504, true), (400, false), (401, false),
        (403, false), (404, false), (412, false), (200, false),
    ])
    func whichStatusesAreRetried(status: Int, retried: Bool) {
        #expect(RetryPolicy.isRetryable(status: status) == retried)
    }
}
