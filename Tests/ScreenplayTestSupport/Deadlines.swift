import Synchronization

/// Waits in tests that end by a deadline as well as by what they wait for.
///
/// A test that waits for an element which a failure upstream means never comes (a navigation that
/// failed, a command that timed out) must fail saying what it waited for, not hold the whole run
/// until the run's own timeout ends it without naming the test.

extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// The elements up to and including the first one `isLast` accepts, or `nil` when the sequence
    /// ended, or `limit` passed, before such an element came (the elements seen are then in
    /// `seen`, for the failure's message).
    ///
    /// The iteration runs in a child task that is cancelled at the deadline: the sequence must end
    /// when its task is cancelled, as `AsyncStream` does.
    public func elements(
        through isLast: @escaping @Sendable (Element) -> Bool, within limit: Duration
    ) async -> (elements: [Element]?, seen: [Element]) {
        let box = SeenElements<Element>()
        let found = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                do {
                    for try await element in self {
                        box.append(element)
                        if isLast(element) { return true }
                    }
                } catch {}
                return false
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        let seen = box.all
        return (found ? seen : nil, seen)
    }
}

/// The elements a timed iteration saw, readable once it has stopped.
final class SeenElements<Element: Sendable>: Sendable {
    private let lock = Mutex<[Element]>([])

    func append(_ element: Element) { lock.withLock { $0.append(element) } }

    var all: [Element] { lock.withLock { $0 } }
}
