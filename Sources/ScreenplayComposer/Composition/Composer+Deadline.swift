import Synchronization

/// How a provider call ended, as far as the page is concerned.
enum CallOutcome: Sendable {
    case answered(WidgetResponse)
    case failed(String)
    case timedOut
    case cancelled
}

extension Composer {
    /// Runs `work` and returns its result, or `.timedOut` at `deadline`, or `.cancelled` when the
    /// calling task is cancelled, whichever comes first, and never later than that.
    ///
    /// Why not a task group racing the work against a sleep: a task group waits for all its
    /// children before it returns, so a provider that ignores cancellation (a blocking call, a
    /// library that never checks) would hold the page until it finished. Here the work runs in an
    /// unstructured task; the caller waits on a continuation that the first of work, timer or
    /// cancellation resumes. The loser is cancelled and, if it ignores that, abandoned: it runs to
    /// its end in the background and its answer is dropped. That costs the provider's own
    /// resources, never the page's latency.
    static func race(
        until deadline: ContinuousClock.Instant, _ work: @escaping @Sendable () async -> CallOutcome
    ) async -> CallOutcome {
        let gate = FirstOutcome()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<CallOutcome, Never>) in
                gate.install(continuation)
                let worker = Task { gate.resolve(await work()) }
                let timer = Task {
                    do {
                        try await Task.sleep(until: deadline, clock: .continuous)
                        gate.resolve(.timedOut)
                    } catch {
                        // Cancelled: the work answered first.
                    }
                }
                gate.attach(worker, timer)
            }
        } onCancel: {
            gate.resolve(.cancelled)
        }
    }
}

/// The first of several outcomes, delivered once to one waiting continuation; everything it was
/// racing is cancelled as soon as it is known.
private final class FirstOutcome: Sendable {
    private struct State {
        var continuation: CheckedContinuation<CallOutcome, Never>?
        var outcome: CallOutcome?
        var tasks: [Task<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Registers the waiter; resumes it at once when an outcome came first (a cancelled caller).
    func install(_ continuation: CheckedContinuation<CallOutcome, Never>) {
        let ready: CallOutcome? = state.withLock { state in
            guard let outcome = state.outcome else {
                state.continuation = continuation
                return nil
            }
            return outcome
        }
        if let ready { continuation.resume(returning: ready) }
    }

    /// Keeps the racing tasks so the winner can cancel the rest; cancels them at once when the
    /// race is already decided.
    func attach(_ tasks: Task<Void, Never>...) {
        let decided = state.withLock { state in
            if state.outcome != nil { return true }
            state.tasks += tasks
            return false
        }
        if decided { for task in tasks { task.cancel() } }
    }

    /// Delivers `outcome` unless another came first; then cancels every racing task.
    func resolve(_ outcome: CallOutcome) {
        let (continuation, tasks): (CheckedContinuation<CallOutcome, Never>?, [Task<Void, Never>]) = state.withLock { state in
            guard state.outcome == nil else { return (nil, []) }
            state.outcome = outcome
            defer {
                state.continuation = nil
                state.tasks = []
            }
            return (state.continuation, state.tasks)
        }
        continuation?.resume(returning: outcome)
        for task in tasks { task.cancel() }
    }
}
