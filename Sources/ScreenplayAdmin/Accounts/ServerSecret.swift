import Foundation
import SQLKit
import ScreenplayStore
import Synchronization

/// A key the server signs with (device cookies), made once and kept in the store, so every
/// replica on one database signs and checks with the same key, and a restart keeps what was
/// issued valid.
///
/// The first replica to need it inserts a random 256-bit value; one that loses the race (its
/// insert conflicts) reads the winner's. Read once per process, then held in memory: the key
/// never changes under a running server. Deleting the row (and restarting) is how an operator
/// makes every issued device cookie worthless at once.
final class ServerSecret: Sendable {
    let store: any SQLStore
    /// The row's name (`device-cookie`): one table can hold keys for several purposes.
    let name: String
    /// The key's bytes once read.
    private let bytes = Mutex<[UInt8]?>(nil)

    /// The table, created by ``AdminDirectory/migrations``.
    static let table = "screenplay_admin_secrets"

    init(store: any SQLStore, name: String) {
        self.store = store
        self.name = name
    }

    /// The key: from memory, else from the store (made there first when no replica has yet).
    func key() async throws -> [UInt8] {
        if let known = bytes.withLock({ $0 }) { return known }
        let name = self.name
        let hex = try await store.transaction { database in
            try await database.insert(into: Self.table).columns("name", "value", "created_at")
                .values(SQLBind(name), SQLBind(SecretToken.make()), SQLBind(Migrator.timestamp()))
                .ignoringConflicts(with: ["name"])
                .run()
            guard
                let value = try await database.select().column("value").from(Self.table).where("name", .equal, name).first()?
                    .decode(column: "value", as: String.self)
            else { throw StoreFailure(message: "the server secret '\(name)' could not be stored") }
            return value
        }
        let made = Array(hex.utf8)
        bytes.withLock { $0 = made }
        return made
    }

    /// Why the secret could not be had.
    struct StoreFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
