import Foundation
import ScreenplayClient
import Testing

/// When reports are sent, and how long a client waits after a failure.
@Suite("Report flush policy")
struct ReportFlushPolicyTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("nothing queued: never; 20 queued: at once; fewer: 10 s after the oldest; never before a wait ends")
    func nextFlush() {
        #expect(ReportFlushPolicy.nextFlush(queued: 0, oldest: nil, notBefore: nil) == nil)
        #expect(ReportFlushPolicy.nextFlush(queued: 19, oldest: now, notBefore: nil) == now + 10)
        #expect(ReportFlushPolicy.nextFlush(queued: 20, oldest: now, notBefore: nil) == now)
        #expect(ReportFlushPolicy.nextFlush(queued: 20, oldest: now, notBefore: now + 60) == now + 60)
        #expect(ReportFlushPolicy.nextFlush(queued: 1, oldest: now, notBefore: now + 3) == now + 10)
        #expect(!ReportFlushPolicy.isDue(queued: 1, oldest: now, notBefore: nil, now: now + 9.9))
        #expect(ReportFlushPolicy.isDue(queued: 1, oldest: now, notBefore: nil, now: now + 10))
    }

    @Test("backoff: 5 s doubling to 5 min", arguments: [(1, 5.0), (2, 10), (3, 20), (6, 160), (7, 300), (50, 300), (0, 5)])
    func backoff(failures: Int, seconds: Double) {
        #expect(ReportFlushPolicy.backoff(afterFailures: failures) == seconds)
    }

    @Test("Retry-After in seconds or as an HTTP date, at most an hour; anything else is not one")
    func retryAfter() {
        #expect(ReportFlushPolicy.retryAfter("120", now: now) == 120)
        #expect(ReportFlushPolicy.retryAfter(" 0 ", now: now) == 0)
        #expect(ReportFlushPolicy.retryAfter("86400", now: now) == 3_600)
        #expect(ReportFlushPolicy.retryAfter("Fri, 15 Jan 2027 08:01:30 GMT", now: now) == 90)
        #expect(ReportFlushPolicy.retryAfter("Fri, 15 Jan 2027 07:00:00 GMT", now: now) == 0, "a date passed: at once")
        #expect(ReportFlushPolicy.retryAfter("-5", now: now) == nil)
        #expect(ReportFlushPolicy.retryAfter("soon", now: now) == nil)
    }
}
