import ScreenplayStore
import ScreenplayTestSupport
import Testing

@Suite("AsyncSerialLock")
struct AsyncSerialLockTests {
    @Suite("Exclusion")
    struct Exclusion {
        @Test("at most one task holds the lock at a time, and every task gets it")
        func oneHolderAtATime() async throws {
            let lock = AsyncSerialLock()
            let holders = Shared(0)
            let mostHolders = Shared(0)
            let ran = Shared<[Int]>([])
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<64 {
                    group.addTask {
                        try await lock.withLock {
                            let now = holders.update { count in
                                count += 1
                                return count
                            }
                            mostHolders.update { $0 = max($0, now) }
                            try await Task.sleep(for: .milliseconds(index.isMultiple(of: 8) ? 3 : 0))
                            await Task.yield()
                            holders.update { $0 -= 1 }
                            ran.update { $0.append(index) }
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(mostHolders.value == 1)
            #expect(holders.value == 0)
            #expect(ran.value.sorted() == Array(0..<64))
        }

        @Test("a waiter does not run until the holder releases the lock")
        func waiterWaitsForRelease() async throws {
            let lock = AsyncSerialLock()
            let holding = Signal()
            let release = Signal()
            let waiterRan = Signal()
            let holder = Task {
                await lock.withLock {
                    holding.fire()
                    await release.wait()
                }
            }
            await holding.wait()
            let waiter = Task {
                await lock.withLock { waiterRan.fire() }
            }
            try await Task.sleep(for: .milliseconds(100))
            #expect(waiterRan.hasFired == false)
            release.fire()
            await holder.value
            await waiter.value
            #expect(waiterRan.hasFired)
        }

        @Test("waiters queued behind a holder run one after another, in arrival order")
        func waitersRunInArrivalOrder() async throws {
            let lock = AsyncSerialLock()
            let holding = Signal()
            let release = Signal()
            let order = Shared<[Int]>([])
            let holder = Task {
                await lock.withLock {
                    holding.fire()
                    await release.wait()
                }
            }
            await holding.wait()
            var waiters: [Task<Void, Never>] = []
            for index in 0..<5 {
                let started = Signal()
                waiters.append(
                    Task {
                        started.fire()
                        await lock.withLock { order.update { $0.append(index) } }
                    })
                // Queue this waiter before the next one starts: it enqueues with no suspension
                // after `started`, the sleep only covers thread scheduling.
                await started.wait()
                try await Task.sleep(for: .milliseconds(20))
            }
            release.fire()
            await holder.value
            for waiter in waiters { await waiter.value }
            #expect(order.value == [0, 1, 2, 3, 4])
        }

        @Test("withLock returns the body's value")
        func returnsValue() async {
            let lock = AsyncSerialLock()
            let value = await lock.withLock { "held" }
            #expect(value == "held")
        }
    }

    @Suite("Errors")
    struct Errors {
        @Test("rethrows the body's error and releases the lock")
        func rethrowsAndReleases() async throws {
            let lock = AsyncSerialLock()
            await #expect(throws: IntendedFailure(reason: "inside the lock")) {
                try await lock.withLock { () async throws -> Int in throw IntendedFailure(reason: "inside the lock") }
            }
            // Would hang forever if the throw had leaked the lock.
            let after = await lock.withLock { 42 }
            #expect(after == 42)
        }

        @Test("a throwing holder hands the lock to the next waiter")
        func throwingHolderHandsOver() async throws {
            let lock = AsyncSerialLock()
            let holding = Signal()
            let release = Signal()
            let holder = Task {
                try await lock.withLock {
                    holding.fire()
                    await release.wait()
                    throw IntendedFailure()
                }
            }
            await holding.wait()
            let waiter = Task { await lock.withLock { "next" } }
            release.fire()
            await #expect(throws: IntendedFailure.self) { try await holder.value }
            #expect(await waiter.value == "next")
        }

        @Test("many failures interleaved with successes all complete")
        func mixedFailuresComplete() async throws {
            let lock = AsyncSerialLock()
            let successes = Shared(0)
            let failures = Shared(0)
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        do {
                            try await lock.withLock {
                                await Task.yield()
                                if index.isMultiple(of: 3) { throw IntendedFailure() }
                                successes.update { $0 += 1 }
                            }
                        } catch {
                            failures.update { $0 += 1 }
                        }
                    }
                }
            }
            #expect(successes.value == 26)
            #expect(failures.value == 14)
        }
    }
}
