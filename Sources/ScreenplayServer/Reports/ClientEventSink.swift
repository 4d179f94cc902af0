public import Foundation
public import ScreenplayContract
import Synchronization

/// Where the events apps report (``ClientEvent``) are kept: the store's table in production
/// (`SQLClientEventLog`), memory in tests. The service hands it each batch once it is read and
/// checked and the sender is known.
///
/// Storing is idempotent per (user, event id): a batch sent again, whole or in part, stores
/// nothing twice. That is what lets a client resend whatever it has not seen acknowledged.
public protocol ClientEventSink: Sendable {
    /// Keeps `events` from `user`, received at `receivedAt`; returns how many were new and how
    /// many it already had.
    func store(_ events: [ClientEvent], from user: UserIdentity, receivedAt: Date) async throws -> (stored: Int, repeated: Int)
}

/// Reported events in memory, for tests and single-process demos. Lost at exit.
public final class InMemoryClientEventSink: ClientEventSink {
    private struct Key: Hashable {
        let user: Int64
        let id: String
    }

    private let kept = Mutex<(events: [(user: UserIdentity, event: ClientEvent)], ids: Set<Key>)>(([], []))

    /// An empty sink.
    public init() {}

    /// Keeps the events whose (user, id) it has not seen.
    public func store(_ events: [ClientEvent], from user: UserIdentity, receivedAt: Date) async throws -> (stored: Int, repeated: Int) {
        kept.withLock { kept in
            var stored = 0
            for event in events where kept.ids.insert(Key(user: user.id, id: event.id)).inserted {
                kept.events.append((user, event))
                stored += 1
            }
            return (stored, events.count - stored)
        }
    }

    /// Everything kept, in arrival order.
    public var events: [(user: UserIdentity, event: ClientEvent)] { kept.withLock { $0.events } }
}
