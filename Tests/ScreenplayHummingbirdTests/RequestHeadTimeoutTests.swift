import Testing

@testable import ScreenplayHummingbird

/// The request head's deadline as a state machine, driven step by step.
@Suite("Request head deadline")
struct RequestHeadTimeoutTests {
    typealias Machine = RequestHeadTimeoutStateMachine<ContinuousClock.Instant>
    let start = ContinuousClock.now

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start.advanced(by: .milliseconds(milliseconds)) }

    @Test("the first head is due from the connection opening; a started head that misses it gets a 408, a silent connection just closes")
    func firstHead() {
        var silent = Machine(timeout: .seconds(5))
        #expect(silent.opened(at: at(0)) == .schedule(at(5_000)))
        #expect(silent.timerFired(at: at(5_000)) == .close)

        var trickled = Machine(timeout: .seconds(5))
        _ = trickled.opened(at: at(0))
        // Bytes of the head keep arriving: they do not move the deadline.
        #expect(trickled.bytesArriving(at: at(1_000)) == .none)
        #expect(trickled.bytesDecoded(at: at(1_000), endsWithBlankLine: false) == .none)
        #expect(trickled.bytesArriving(at: at(4_000)) == .none)
        #expect(trickled.timerFired(at: at(4_999)) == .schedule(at(5_000)))
        #expect(trickled.timerFired(at: at(5_000)) == .answerAndClose)
    }

    @Test("a whole head stops the clock; between requests nothing is due until the next request's first byte")
    func keepAlive() {
        var machine = Machine(timeout: .seconds(5))
        _ = machine.opened(at: at(0))
        _ = machine.bytesArriving(at: at(10))
        machine.headDecoded()
        machine.requestEnded()
        #expect(machine.bytesDecoded(at: at(10), endsWithBlankLine: true) == .none)
        #expect(machine.deadline == nil)
        machine.responseEnded()
        // An hour idle is the idle timeout's to judge.
        #expect(machine.timerFired(at: at(3_600_000)) == .none)
        #expect(machine.bytesArriving(at: at(3_600_000)) == .schedule(at(3_605_000)))
        #expect(machine.timerFired(at: at(3_605_000)) == .answerAndClose)
    }

    @Test("a read that ends one bodiless request and starts the next starts the next one's clock")
    func pipelinedPartialHead() {
        var machine = Machine(timeout: .seconds(5))
        _ = machine.opened(at: at(0))
        _ = machine.bytesArriving(at: at(10))
        machine.headDecoded()
        machine.requestEnded()
        #expect(machine.bytesDecoded(at: at(10), endsWithBlankLine: false) == .schedule(at(5_010)))
        // Its answer is still being written when the next head is due: close without a 408,
        // which would land in the middle of it.
        #expect(machine.timerFired(at: at(5_010)) == .close)

        var answered = Machine(timeout: .seconds(5))
        _ = answered.opened(at: at(0))
        _ = answered.bytesArriving(at: at(10))
        answered.headDecoded()
        answered.requestEnded()
        _ = answered.bytesDecoded(at: at(10), endsWithBlankLine: false)
        answered.responseEnded()
        #expect(answered.timerFired(at: at(5_010)) == .answerAndClose)
    }

    @Test("a body's bytes are not a head: a request's body takes what it takes (the body deadline's business)")
    func body() {
        var machine = Machine(timeout: .seconds(5))
        _ = machine.opened(at: at(0))
        _ = machine.bytesArriving(at: at(10))
        machine.headDecoded()
        #expect(machine.bytesDecoded(at: at(10), endsWithBlankLine: true) == .none)
        #expect(machine.bytesArriving(at: at(20_000)) == .none)
        machine.bodyDecoded()
        #expect(machine.bytesDecoded(at: at(20_000), endsWithBlankLine: false) == .none)
        #expect(machine.deadline == nil)
        // The request's end and the start of another head in one read, after a body: left to
        // the idle timeout (the decoder does not say where the body ended).
        _ = machine.bytesArriving(at: at(21_000))
        machine.bodyDecoded()
        machine.requestEnded()
        #expect(machine.bytesDecoded(at: at(21_000), endsWithBlankLine: false) == .none)
    }
}
