import Synchronization

/// The banners the site itself issued ("Added “Night Music” to favorites", or why a form was
/// refused), by a random id the redirect carries (`?notice=3f9c…`): a page shows a banner only
/// for an id found here, so nobody can put their own words in the site's banner with a link.
///
/// Read once: the page the redirect lands on takes the notice out, so Back or a reload to that URL
/// never shows it again. In memory and bounded (the oldest are forgotten past `capacity`): losing
/// one to a restart costs a banner, nothing else.
final class NoticeBook: Sendable {
    private struct State {
        var notices: [String: WebNotice] = [:]
        var order: [String] = []
    }

    private let state = Mutex(State())
    let capacity: Int

    init(capacity: Int = 1_024) { self.capacity = max(1, capacity) }

    /// Keeps `notice` and returns its id: 24 random hex digits.
    func issue(_ notice: WebNotice) -> String {
        let id = RandomID.make()
        var kept = notice
        kept.message = String(notice.message.prefix(500))
        state.withLock { state in
            state.notices[id] = kept
            state.order.append(id)
            if state.order.count > capacity {
                let dropped = state.order.prefix(state.order.count - capacity)
                for old in dropped { state.notices[old] = nil }
                state.order.removeFirst(dropped.count)
            }
        }
        return id
    }

    /// The notice issued under `id`, taken out: a second read finds nothing.
    func take(_ id: String) -> WebNotice? { state.withLock { $0.notices.removeValue(forKey: id) } }
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
