import Synchronization

/// The confirmations the site itself issued ("Added “Night Music” to favorites"), by a random id
/// the redirect carries (`?notice=3f9c…`): a page shows a banner only for an id found here, so
/// nobody can put their own words in the site's green banner with a crafted link.
///
/// In memory and bounded (the oldest are forgotten past `capacity`): a notice is read once, right
/// after the redirect, so losing one to a restart costs a banner, nothing else.
final class NoticeBook: Sendable {
    private struct State {
        var messages: [String: String] = [:]
        var order: [String] = []
    }

    private let state = Mutex(State())
    let capacity: Int

    init(capacity: Int = 1_024) { self.capacity = max(1, capacity) }

    /// Keeps `message` and returns its id: 24 random hex digits.
    func issue(_ message: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let id = (0..<3).map { _ in
            let hex = String(generator.next() as UInt32, radix: 16)
            return String(repeating: "0", count: 8 - hex.count) + hex
        }.joined()
        state.withLock { state in
            state.messages[id] = String(message.prefix(500))
            state.order.append(id)
            if state.order.count > capacity {
                let dropped = state.order.removeFirst(state.order.count - capacity)
                for old in dropped { state.messages[old] = nil }
            }
        }
        return id
    }

    /// The message issued under `id`, if the site issued one.
    func message(for id: String) -> String? { state.withLock { $0.messages[id] } }
}

extension Array {
    /// Removes and returns the first `count` elements.
    fileprivate mutating func removeFirst(_ count: Int) -> [Element] {
        let head = Array(prefix(count))
        removeSubrange(0..<Swift.min(count, self.count))
        return head
    }
}
