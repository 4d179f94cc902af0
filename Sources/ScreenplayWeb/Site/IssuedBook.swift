import Synchronization

/// Values the site hands out under random ids a redirect carries (banners, kept results), in
/// memory and bounded: past `capacity` the oldest are forgotten. Losing one to a restart, or to
/// age, costs the user a banner or a step back, never data.
final class IssuedBook<Value: Sendable>: Sendable {
    private struct State {
        var values: [String: Value] = [:]
        var order: [String] = []
    }

    private let state = Mutex(State())
    let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Keeps `value` and returns its new id (``RandomID``).
    func issue(_ value: Value) -> String {
        let id = RandomID.make()
        state.withLock { state in
            state.values[id] = value
            state.order.append(id)
            guard state.order.count > capacity else { return }
            let dropped = state.order.prefix(state.order.count - capacity)
            for old in dropped { state.values[old] = nil }
            state.order.removeFirst(dropped.count)
        }
        return id
    }

    /// The value under `id`, if it is still kept; junk ids are not looked up.
    func value(_ id: String) -> Value? {
        guard RandomID.isWellFormed(id) else { return nil }
        return state.withLock { $0.values[id] }
    }

    /// The value under `id`, taken out: a second read finds nothing.
    func take(_ id: String) -> Value? {
        guard RandomID.isWellFormed(id) else { return nil }
        return state.withLock { $0.values.removeValue(forKey: id) }
    }

    /// Changes the value under `id` in place, if `change` accepts it (returns whether it did).
    func update(_ id: String, _ change: (inout Value) -> Bool) -> Bool {
        guard RandomID.isWellFormed(id) else { return false }
        return state.withLock { state in
            guard var value = state.values[id], change(&value) else { return false }
            state.values[id] = value
            return true
        }
    }
}

/// Ids nobody can guess: 24 hex digits from the system's random source.
enum RandomID {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<3).map { _ in
            let hex = String(generator.next() as UInt32, radix: 16)
            return String(repeating: "0", count: 8 - hex.count) + hex
        }.joined()
    }

    /// Whether `text` has the shape of an id (so junk never reaches a lookup).
    static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 24 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
