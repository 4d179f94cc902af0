import Synchronization

/// Where the answers to commands sent with an `Idempotency-Key` are kept, so a client that
/// retries after a dropped connection gets the first answer again and changes nothing twice.
///
/// In this process's memory by default (``IdempotencyLedger``); with several replicas behind a
/// load balancer the retry may reach another one, so the ledger lives in the shared database
/// (`PostgresIdempotencyStore`). Keys are scoped by who sent them (`user:ID`) and remembered
/// with a fingerprint of the request: the same key with another command or body is refused
/// rather than replayed.
public protocol IdempotencyStore: Sendable {
    /// Claims `key` for a request with `fingerprint`, or says what became of an earlier claim.
    func begin(_ key: IdempotencyKey, fingerprint: String) async throws -> IdempotencyBegin
    /// Records the answer a retry will be given.
    func finish(_ key: IdempotencyKey, fingerprint: String, response: ScreenplayService.Response) async throws
    /// Releases a claim whose command changed nothing (it failed before it could write), so a
    /// retry runs it.
    func abandon(_ key: IdempotencyKey) async throws
}

/// An `Idempotency-Key` as the ledger keeps it: the key and whose it is.
public struct IdempotencyKey: Hashable, Sendable {
    /// Who sent it (`user:42`).
    public let scope: String
    /// The header's value.
    public let key: String

    /// A key in `scope`.
    public init(scope: String, key: String) {
        self.scope = scope
        self.key = key
    }
}

/// What an ``IdempotencyStore`` says about a key being claimed.
public enum IdempotencyBegin: Sendable {
    /// Not seen: perform the command, then ``IdempotencyStore/finish(_:fingerprint:response:)``.
    case fresh
    /// Seen and answered: send this again.
    case replay(ScreenplayService.Response)
    /// Seen with another request: refuse.
    case conflict
    /// The first attempt is still running: ask the client to wait.
    case inProgress
}

/// The ledger in this process's memory, bounded by entries and bytes, oldest first out: a retry
/// comes seconds after the first attempt, not days.
public final class IdempotencyLedger: IdempotencyStore {
    typealias Key = IdempotencyKey
    typealias Begin = IdempotencyBegin

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

    /// A ledger of at most `capacity` answers and `byteBudget` bytes of them.
    public init(capacity: Int = 10_000, byteBudget: Int = 16 << 20) {
        self.capacity = max(1, capacity)
        self.byteBudget = max(1, byteBudget)
    }

    /// Claims `key` (see ``IdempotencyStore/begin(_:fingerprint:)``).
    public func begin(_ key: IdempotencyKey, fingerprint: String) -> IdempotencyBegin {
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
    public func finish(_ key: IdempotencyKey, fingerprint: String, response: ScreenplayService.Response) {
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
    public func abandon(_ key: IdempotencyKey) {
        state.withLock { state in
            guard case .running? = state.slots[key] else { return }
            state.slots[key] = nil
            state.order.removeAll { $0 == key }
        }
    }
}
