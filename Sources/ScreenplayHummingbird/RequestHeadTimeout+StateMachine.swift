/// When a connection's next request head is due, as a state machine: its methods take what
/// happened on the connection and return what to do (see ``RequestHeadTimeout``).
///
/// The clock for a head starts when the connection opens (the first request) or when the first
/// byte of the next request arrives (later ones), and stops when the HTTP decoder hands over the
/// whole head. A connection quiet between requests is the idle timeout's to close, not this one's:
/// keep-alive connections are meant to wait.
struct RequestHeadTimeoutStateMachine<Instant: InstantProtocol> {
    /// How long a head may take.
    let timeout: Instant.Duration
    /// When the head being waited for is due; `nil` while none is (mid-request, or idle).
    private(set) var deadline: Instant?
    /// Whether a byte of the awaited head arrived (a connection that sent nothing is closed
    /// without an answer: there is no request to answer).
    private var headStarted = false
    /// Whether a request's head was decoded and its end not yet: its bytes are body, not a head.
    private var readingRequest = false
    /// Requests decoded whose response has not ended.
    private var unanswered = 0
    /// Whether a request ended, and whether body bytes were decoded, during the read in progress.
    private var requestEndedInRead = false
    private var bodyInRead = false

    /// A machine for heads due `timeout` after they start.
    init(timeout: Instant.Duration) { self.timeout = timeout }

    /// What to do about the timer.
    enum TimerAction: Equatable {
        /// Schedule (or move) the timer to fire at this instant.
        case schedule(Instant)
        /// Nothing changes.
        case none
    }

    /// The connection opened: its first head is due now + ``timeout``.
    mutating func opened(at now: Instant) -> TimerAction {
        start(at: now)
    }

    /// Bytes arrived, before the decoder sees them.
    mutating func bytesArriving(at now: Instant) -> TimerAction {
        requestEndedInRead = false
        bodyInRead = false
        if deadline != nil {
            headStarted = true
            return .none
        }
        // Between requests, a byte is the next head's first.
        guard !readingRequest else { return .none }
        let action = start(at: now)
        headStarted = true
        return action
    }

    /// The decoder has seen the bytes of a read. `endsWithBlankLine`: whether they ended with
    /// `CRLF CRLF`, the end of a head or of a chunked body.
    ///
    /// A read can hold the end of one request and the start of the next; the decoder keeps that
    /// start without a word. When a bodiless request ended in this read and the bytes did not end
    /// at its blank line, the rest is the next head, and its clock starts now. (A request with a
    /// `Content-Length` body followed by part of a head in one read is left to the idle timeout.)
    mutating func bytesDecoded(at now: Instant, endsWithBlankLine: Bool) -> TimerAction {
        defer {
            requestEndedInRead = false
            bodyInRead = false
        }
        guard deadline == nil, !readingRequest, requestEndedInRead, !bodyInRead, !endsWithBlankLine else { return .none }
        let action = start(at: now)
        headStarted = true
        return action
    }

    /// The decoder handed over a whole head: nothing is due any more.
    mutating func headDecoded() {
        deadline = nil
        headStarted = false
        readingRequest = true
        unanswered += 1
    }

    /// The decoder handed over part of a body.
    mutating func bodyDecoded() {
        bodyInRead = true
    }

    /// The decoder handed over a request's end.
    mutating func requestEnded() {
        readingRequest = false
        requestEndedInRead = true
    }

    /// A response ended.
    mutating func responseEnded() {
        unanswered = max(0, unanswered - 1)
    }

    /// What to do when the timer fires.
    enum ExpiryAction: Equatable {
        /// Answer `408` and close: part of a head arrived, and no response is being written.
        case answerAndClose
        /// Close without a word: nothing was sent, or a response is still being written.
        case close
        /// The deadline moved: fire again then.
        case schedule(Instant)
        /// Nothing is due.
        case none
    }

    /// The timer fired at `now`.
    mutating func timerFired(at now: Instant) -> ExpiryAction {
        guard let deadline else { return .none }
        guard now >= deadline else { return .schedule(deadline) }
        self.deadline = nil
        return headStarted && unanswered == 0 && !readingRequest ? .answerAndClose : .close
    }

    private mutating func start(at now: Instant) -> TimerAction {
        let due = now.advanced(by: timeout)
        deadline = due
        headStarted = false
        return .schedule(due)
    }
}
