import HTTPTypes
import Synchronization

/// Where the answers to commands sent with an `Idempotency-Key` are kept, so a client that
/// retries after a dropped connection gets the first answer again and changes nothing twice.
///
/// The promise, whatever dies when: a retry either replays the first answer or finds that nothing
/// of the first attempt was kept and runs the command once. A store keeps it by recording the
/// answer in the same transaction as the command's writes (`SQLIdempotencyStore`, on SQLite and
/// PostgreSQL alike); ``IdempotencyLedger`` keeps it in this process's memory for apps with no
/// database, where a restart forgets both. Keys are scoped by who sent them (`user:ID`) and kept
/// with a fingerprint of the request: the same key with another command or body is refused
/// rather than replayed.
public protocol IdempotencyStore: Sendable {
    /// Runs `command` once for `key`, or says what became of an earlier attempt.
    ///
    /// - `command` returns the answer to record: the command's result, or a refusal (a 4xx),
    ///   which a retry gets again. Its writes and the recorded answer are kept together or not at
    ///   all.
    /// - When `command` throws (a server failure, the database gone), nothing is recorded and
    ///   whatever it wrote is rolled back where the store can: a retry runs it again. A transient
    ///   failure (503) is never a key's answer.
    /// - While another attempt with `key` runs, the answer is ``IdempotencyOutcome/inProgress``; an
    ///   attempt whose process or connection died holds nothing (no lease to wait out).
    func once(
        _ key: IdempotencyKey, fingerprint: String, _ command: @escaping @Sendable () async throws -> ScreenplayService.Response
    ) async throws -> IdempotencyOutcome
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

/// What became of a keyed command (``IdempotencyStore/once(_:fingerprint:_:)``).
public enum IdempotencyOutcome: Sendable {
    /// Run now; this answer is recorded for retries.
    case answered(ScreenplayService.Response)
    /// Answered before: send this again.
    case replay(ScreenplayService.Response)
    /// Seen with another request: refuse.
    case conflict
    /// Another attempt with this key is running: ask the client to wait.
    case inProgress
}

/// The ledger in this process's memory, bounded by entries and bytes, oldest first out: a retry
/// comes seconds after the first attempt, not days.
public final class IdempotencyLedger: IdempotencyStore {
    typealias Key = IdempotencyKey

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

    /// Runs `command` once for `key` (see ``IdempotencyStore/once(_:fingerprint:_:)``). Without a
    /// database nothing can be rolled back, so a failure after the handler ran (which may have
    /// written) is the answer a retry gets, unless it was a 503; anything that failed before the
    /// handler ran is forgotten, and a retry runs the command.
    public func once(
        _ key: IdempotencyKey, fingerprint: String, _ command: @escaping @Sendable () async throws -> ScreenplayService.Response
    ) async throws -> IdempotencyOutcome {
        switch begin(key, fingerprint: fingerprint) {
        case .replay(let response): return .replay(response)
        case .conflict: return .conflict
        case .inProgress: return .inProgress
        case .fresh: break
        }
        let response: ScreenplayService.Response
        do {
            response = try await command()
        } catch let failed as CommandPipeline.ExecutedCommandFailure where failed.error.status != .serviceUnavailable {
            response = ScreenplayService.errorResponse(failed.error)
        } catch {
            abandon(key)
            throw error
        }
        finish(key, fingerprint: fingerprint, response: response)
        return .answered(response)
    }

    private enum Begin {
        case fresh, replay(ScreenplayService.Response), conflict, inProgress
    }

    private func begin(_ key: IdempotencyKey, fingerprint: String) -> Begin {
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

    private func finish(_ key: IdempotencyKey, fingerprint: String, response: ScreenplayService.Response) {
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
    private func abandon(_ key: IdempotencyKey) {
        state.withLock { state in
            guard case .running? = state.slots[key] else { return }
            state.slots[key] = nil
            state.order.removeAll { $0 == key }
        }
    }
}
