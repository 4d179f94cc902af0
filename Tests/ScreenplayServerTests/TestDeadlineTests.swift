import Foundation
import ScreenplayTestSupport
import Testing

/// The waits tests share end by a deadline too: a test whose awaited event never comes fails
/// saying so, rather than holding the whole run until the run's own timeout.
///
/// What is checked is that each wait ends, not how promptly: the bounds are a minute, because
/// these run as a thousand tests start at once on two cores (a 200 ms wait once ended after
/// 10.7 s there), and the failure they guard against is a wait that never ends.
@Suite("Test waits end at their deadline")
struct TestDeadlineTests {
    @Test("a signal never fired records an issue at the limit and returns false; one fired before or during the wait returns true")
    func signal() async {
        let never = Signal()
        let started = ContinuousClock.now
        await withKnownIssue("the wait's own issue") {
            #expect(await never.wait(limit: .milliseconds(100)) == false)
        }
        #expect(ContinuousClock.now - started < .seconds(60))

        let early = Signal()
        early.fire()
        #expect(await early.wait(limit: .milliseconds(100)))
        let later = Signal()
        Task {
            try? await Task.sleep(for: .milliseconds(20))
            later.fire()
        }
        #expect(await later.wait(limit: .seconds(60)))
    }

    @Test("a sequence that never brings the element is given up at the limit, with what it did bring")
    func sequence() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        continuation.yield(1)
        continuation.yield(2)
        let started = ContinuousClock.now
        let timed = await stream.elements(through: { $0 == 3 }, within: .milliseconds(200))
        #expect(timed.elements == nil && timed.seen == [1, 2])
        #expect(ContinuousClock.now - started < .seconds(60))
        continuation.finish()

        let (counting, more) = AsyncStream<Int>.makeStream()
        for number in 1...5 { more.yield(number) }
        #expect(await counting.elements(through: { $0 == 3 }, within: .seconds(60)).elements == [1, 2, 3])
    }

    @Test("a child past its limit is killed and said to be, with what it wrote; a cancelled task's child is killed at once")
    func child() async throws {
        let started = ContinuousClock.now
        do {
            _ = try await ChildProcess.run(
                URL(fileURLWithPath: "/bin/sh"), ["-c", "echo begun; exec sleep 600"], limit: .seconds(3))
            Issue.record("the child was not stopped")
        } catch let error as ChildProcess.TimedOut {
            #expect(error.output.contains("begun"))
            #expect(error.description.contains("was still running after"))
        }
        #expect(ContinuousClock.now - started < .seconds(60), "killed at its limit, not after the 600 s it asked for")
        let cancelledAt = ContinuousClock.now
        let running = Task { try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "exec sleep 600"], limit: .seconds(300)) }
        try await Task.sleep(for: .milliseconds(300))
        running.cancel()
        await #expect(throws: CancellationError.self) { _ = try await running.value }
        #expect(ContinuousClock.now - cancelledAt < .seconds(60), "killed when cancelled, not at its 300 s limit")
        let quick = try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "echo done"], limit: .seconds(60))
        #expect(quick.status == 0 && quick.output == "done\n")
    }
}
