import NIOCore
import PostgresNIO
import Synchronization

/// Fails a lease the moment its connection closes under it.
///
/// A query handed to a connection that PostgreSQL is closing (a restart or a fast shutdown
/// terminating its backends) is sometimes never answered, neither with rows nor with an error:
/// measured in `Tests/Replicas/replica_flow.py`, about one restart in two left a request waiting
/// for the whole operation limit (15 s). The channel itself does close, so its close is the
/// signal: whatever runs on that connection then is answered ``StoreUnavailable`` at once.
///
/// One close callback per connection, registered the first time a lease runs on it and removed
/// when it closes, so the registry holds at most the pool's live connections (a callback per
/// lease would pile up on long-lived connections). The pool leases a connection to one body at
/// a time, so each connection has at most one body to fail.
final class ConnectionCloseWatch: Sendable {
    /// Per connection: what to do if it closes now (`nil` while no lease runs on it).
    private let bodies = Mutex<[ObjectIdentifier: (@Sendable () -> Void)?]>([:])

    /// `onClose` runs if `connection` closes before ``finished(on:)``; at once if it already has.
    func running(on connection: PostgresConnection, onClose: @escaping @Sendable () -> Void) {
        let key = ObjectIdentifier(connection)
        let isNew = bodies.withLock { bodies in
            let isNew = bodies[key] == nil
            bodies[key] = .some(onClose)
            return isNew
        }
        guard isNew else { return }
        connection.closeFuture.whenComplete { [self] _ in
            let body = self.bodies.withLock { $0.removeValue(forKey: key) }
            body??()
        }
    }

    /// The lease on `connection` ended: its close no longer concerns it.
    func finished(on connection: PostgresConnection) {
        let key = ObjectIdentifier(connection)
        bodies.withLock { bodies in
            if bodies[key] != nil { bodies[key] = .some(nil) }
        }
    }

    /// Connections being watched (for tests: the registry must not outgrow the pool).
    var watchedConnections: Int { bodies.withLock { $0.count } }
}
