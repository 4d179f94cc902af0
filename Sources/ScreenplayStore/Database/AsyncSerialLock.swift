import Synchronization

/// A lock for async code: one holder at a time, waiters resumed in arrival order.
///
/// Used where a resource (a single SQLite connection) must not be shared by two transactions
/// at once, and the holder awaits while holding it, which `Mutex` cannot do.
public final class AsyncSerialLock: Sendable {
    private struct State {
        var held = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// A free lock.
    public init() {}

    /// Runs `body` while holding the lock.
    public func withLock<Result: Sendable>(_ body: () async throws -> Result) async rethrows -> Result {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let acquired = state.withLock { state -> Bool in
                if state.held {
                    state.waiters.append(continuation)
                    return false
                }
                state.held = true
                return true
            }
            if acquired { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.held = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
