public import Foundation

/// When an app sends its queued reports, and how long it waits after a failure: one rule for
/// every platform, so impressions reach the server about as fast from a phone as from a TV, and a
/// struggling server is not hammered by every client at once.
///
/// Send when ``queuedThreshold`` events are waiting (a full screen of impressions is worth a
/// request), or ``oldestWait`` after the oldest unsent one (a single play still arrives soon),
/// and whenever the app goes to the background (the app calls ``EventReporter/flush()`` then:
/// it may not run again for hours). After a failure, wait for what the server's `Retry-After`
/// says, else back off exponentially from ``firstRetry`` to ``longestRetry``.
public enum ReportFlushPolicy {
    /// Queued events that make a flush due at once.
    public static let queuedThreshold = 20
    /// The longest an event waits in the queue while the app runs and the server answers.
    public static let oldestWait: TimeInterval = 10
    /// The wait after a first failure with no `Retry-After`.
    public static let firstRetry: TimeInterval = 5
    /// The longest wait between failures with no `Retry-After`.
    public static let longestRetry: TimeInterval = 300
    /// The longest `Retry-After` honoured: a misconfigured server must not silence its clients
    /// for days (their queues are bounded, and the oldest events would go).
    public static let longestRetryAfter: TimeInterval = 3_600

    /// When to flush next: `nil` with nothing queued; else at once when ``queuedThreshold``
    /// events wait (the oldest's time, which has passed), or ``oldestWait`` after the `oldest`
    /// event; never before `notBefore`, the time a failure asked to wait until.
    public static func nextFlush(queued: Int, oldest: Date?, notBefore: Date?) -> Date? {
        guard queued > 0, let oldest else { return nil }
        let due = queued >= queuedThreshold ? oldest : oldest.addingTimeInterval(oldestWait)
        guard let notBefore else { return due }
        return max(due, notBefore)
    }

    /// Whether a flush is due at `now` (see ``nextFlush(queued:oldest:notBefore:)``).
    public static func isDue(queued: Int, oldest: Date?, notBefore: Date?, now: Date) -> Bool {
        nextFlush(queued: queued, oldest: oldest, notBefore: notBefore).map { $0 <= now } ?? false
    }

    /// The wait after `failures` failures in a row (1 for the first) with no `Retry-After`:
    /// ``firstRetry`` doubled for each failure after the first, at most ``longestRetry``.
    public static func backoff(afterFailures failures: Int) -> TimeInterval {
        let doublings = min(max(failures, 1) - 1, 16)
        return min(longestRetry, firstRetry * Double(1 << doublings))
    }

    /// The wait a `Retry-After` value asks for at `now`, at most ``longestRetryAfter``: either
    /// seconds (`120`) or an HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`); `nil` when it is
    /// neither, and the backoff applies.
    public static func retryAfter(_ value: String, now: Date) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text), seconds >= 0 { return min(TimeInterval(seconds), longestRetryAfter) }
        // A formatter per call: this runs after a failed request, rarely, and DateFormatter is
        // not Sendable.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = formatter.date(from: text) else { return nil }
        return min(max(0, date.timeIntervalSince(now)), longestRetryAfter)
    }
}
