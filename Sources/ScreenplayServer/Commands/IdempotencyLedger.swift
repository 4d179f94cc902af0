import Synchronization

/// The answers to commands sent with an `Idempotency-Key`, so a client that retries after a
/// dropped connection gets the first answer again and changes nothing twice.
///
/// Keys are scoped by who sent them (a hash of the token, or the anonymous scope for a client's
/// first command, whose retry then gets the same new identity), and remembered with a fingerprint
/// of the request: the same key with a different command or body is refused rather than replayed.
/// In memory and bounded by entries and bytes, oldest first out: a retry comes seconds after the
/// first attempt, not days.
final class IdempotencyLedger: Sendable {
    struct Key: Hashable, Sendable {
        let scope: String
        let key: String
    }

    enum Begin: Sendable {
        /// Not seen: perform the command, then ``finish(_:response:)``.
        case fresh
        /// Seen and answered: send this again.
        case replay(ScreenplayService.Response)
        /// Seen with another request: refuse.
        case conflict
        /// The first attempt is still running: ask the client to wait.
        case inProgress
    }

    private enum Slot {
        case running(fingerprint: String)
        case done(fingerprint: String, response: ScreenplayService.Response)
    }

    private struct State {
        var slots: [Key: Slot] = [:]
        var order: [Key] = []
        var bytes = 0
    }

    private let state = Mutex(State())
    let capacity: Int
    let byteBudget: Int

    init(capacity: Int = 10_000, byteBudget: Int = 16 << 20) {
        self.capacity = max(1, capacity)
        self.byteBudget = max(1, byteBudget)
    }

    func begin(_ key: Key, fingerprint: String) -> Begin {
        state.withLock { state in
            switch state.slots[key] {
            case .running(let seen)?: return seen == fingerprint ? .inProgress : .conflict
            case .done(let seen, let response)?: return seen == fingerprint ? .replay(response) : .conflict
            case nil:
                state.slots[key] = .running(fingerprint: fingerprint)
                state.order.append(key)
                return .fresh
            }
        }
    }

    /// Records the answer to replay.
    func finish(_ key: Key, fingerprint: String, response: ScreenplayService.Response) {
        state.withLock { state in
            guard case .running? = state.slots[key] else { return }
            state.slots[key] = .done(fingerprint: fingerprint, response: response)
            state.bytes += response.body.count
            guard state.order.count > capacity || state.bytes > byteBudget else { return }
            // Oldest answers out first, down to nine tenths of the bounds; a command still running
            // is never forgotten (its retry must not run it again).
            var remaining = state.order.count
            var kept: [Key] = []
            kept.reserveCapacity(remaining)
            for key in state.order {
                let over = remaining > capacity * 9 / 10 || state.bytes > byteBudget * 9 / 10
                if over, case .done(_, let old)? = state.slots[key] {
                    state.slots[key] = nil
                    state.bytes -= old.body.count
                    remaining -= 1
                } else {
                    kept.append(key)
                }
            }
            state.order = kept
        }
    }

    /// Forgets a key whose command failed on the server's side, so a retry runs it again.
    func abandon(_ key: Key) {
        state.withLock { state in
            guard case .running? = state.slots[key] else { return }
            state.slots[key] = nil
            state.order.removeAll { $0 == key }
        }
    }
}
