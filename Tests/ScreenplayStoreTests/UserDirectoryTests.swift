import HTTPTypes
import SQLKit
import ScreenplayServer
import ScreenplayStoreSQLite
import ScreenplayTestSupport
import Testing

@testable import ScreenplayStore

/// Runs `body` with a migrated, empty store on `backend` and a directory over it.
private func withDirectory<Result>(_ backend: StoreBackend, _ body: (any SQLStore, UserDirectory) async throws -> Result) async throws -> Result {
    try await withStore(backend) { store async throws in
        try await Migrator(UserDirectory.migrations).run(on: store)
        return try await body(store, UserDirectory(store: store))
    }
}

private func isIssuedToken(_ token: String) -> Bool {
    token.wholeMatch(of: /[0-9a-f]{64}/) != nil
}

@Suite("UserDirectory")
struct UserDirectoryTests {
    @Test("tokens are stored as their SHA-256 (FIPS 180-2 test vector)")
    func hashing() {
        #expect(UserDirectory.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Suite("Resolving tokens")
    struct Resolving {
        @Test("no token: a new user and a 64 lowercase hex token", arguments: StoreBackend.allCases)
        func noTokenCreatesUser(backend: StoreBackend) async throws {
            try await withDirectory(backend) { store, directory async throws in
                let resolved = try await directory.resolve(token: nil, creating: true)
                let token = try #require(resolved.issuedToken)
                #expect(isIssuedToken(token), "issued '\(token)'")
                #expect(try await rowCount(of: "screenplay_users", in: store) == 1)
                let stored = try await store.read { database in
                    try await database.raw("SELECT token_hash FROM screenplay_users WHERE id = \(bind: resolved.user.id)").first()?
                        .decode(column: "token_hash", as: String.self)
                }
                // Only the SHA-256 of the token is stored: a copy of the database holds no usable token.
                #expect(stored == UserDirectory.hash(token))
                #expect(stored != token)
            }
        }

        @Test("the issued token resolves to the same user and issues nothing new", arguments: StoreBackend.allCases)
        func issuedTokenResolvesToSameUser(backend: StoreBackend) async throws {
            try await withDirectory(backend) { store, directory async throws in
                let first = try await directory.resolve(token: nil, creating: true)
                let token = try #require(first.issuedToken)
                let again = try await directory.resolve(token: token, creating: true)
                #expect(again == ResolvedIdentity(user: first.user, issuedToken: nil))
                #expect(try await rowCount(of: "screenplay_users", in: store) == 1)
            }
        }

        @Test("a directory with an empty memory finds the token in the store", arguments: StoreBackend.allCases)
        func tokenFoundInStore(backend: StoreBackend) async throws {
            try await withDirectory(backend) { store, directory async throws in
                let first = try await directory.resolve(token: nil, creating: true)
                let token = try #require(first.issuedToken)
                let restarted = UserDirectory(store: store)
                let again = try await restarted.resolve(token: token, creating: false)
                #expect(again.user == first.user)
                #expect(again.issuedToken == nil)
                #expect(try await rowCount(of: "screenplay_users", in: store) == 1)
            }
        }

        @Test("two clients without tokens get different users and tokens", arguments: StoreBackend.allCases)
        func twoNewClientsDiffer(backend: StoreBackend) async throws {
            try await withDirectory(backend) { _, directory async throws in
                let first = try await directory.resolve(token: nil, creating: true)
                let second = try await directory.resolve(token: nil, creating: true)
                #expect(first.user != second.user)
                #expect(first.issuedToken != nil)
                #expect(first.issuedToken != second.issuedToken)
            }
        }

        @Test("many concurrent new clients all get distinct users and tokens", arguments: StoreBackend.allCases)
        func concurrentNewClients(backend: StoreBackend) async throws {
            try await withDirectory(backend) { store, directory async throws in
                let resolved = try await withThrowingTaskGroup(of: ResolvedIdentity.self) { group in
                    for _ in 0..<30 { group.addTask { try await directory.resolve(token: nil, creating: true) } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(Set(resolved.map(\.user)).count == 30)
                #expect(Set(resolved.compactMap(\.issuedToken)).count == 30)
                #expect(try await rowCount(of: "screenplay_users", in: store) == 30)
            }
        }

        @Test("an unknown well-formed token is a 401 unknownToken, for reads and writes, and creates no row", arguments: StoreBackend.allCases)
        func unknownTokenRefused(backend: StoreBackend) async throws {
            try await withDirectory(backend) { store, directory async throws in
                _ = try await directory.resolve(token: nil, creating: true)
                let unknown = String(repeating: "ab", count: 32)
                for creating in [false, true] {
                    let error = await #expect(throws: ScreenplayError.self) {
                        try await directory.resolve(token: unknown, creating: creating)
                    }
                    #expect(error?.code == "unknownToken")
                    #expect(error?.status == .unauthorized)
                }
                #expect(try await rowCount(of: "screenplay_users", in: store) == 1)
            }
        }

        @Test("reading without a token is anonymous and costs no row; only a write creates a user", arguments: StoreBackend.allCases)
        func readersCostNothing(backend: StoreBackend) async throws {
            try await withDirectory(backend) { store, directory async throws in
                for _ in 0..<50 {
                    let reader = try await directory.resolve(token: nil, creating: false)
                    #expect(reader == ResolvedIdentity(user: .anonymous, issuedToken: nil))
                }
                #expect(try await directory.userCount() == 0)
                let writer = try await directory.resolve(token: nil, creating: true)
                #expect(!writer.user.isAnonymous)
                #expect(try await directory.userCount() == 1)
            }
        }

        @Test("a revoked token is a 401 from then on, in this process and after a restart; the user's row stays", arguments: StoreBackend.allCases)
        func revocation(backend: StoreBackend) async throws {
            try await withDirectory(backend) { store, directory async throws in
                let issued = try #require(try await directory.resolve(token: nil, creating: true).issuedToken)
                #expect(try await directory.revoke(token: issued))
                #expect(try await directory.revoke(token: issued) == false, "already revoked")
                for resolver in [directory, UserDirectory(store: store)] {
                    let error = await #expect(throws: ScreenplayError.self) { try await resolver.resolve(token: issued, creating: false) }
                    #expect(error?.code == "unknownToken")
                }
                #expect(try await directory.userCount() == 1)
            }
        }

        @Test(
            "a malformed token is refused with 401 invalidToken",
            arguments: [
                "",
                "abc123",
                String(repeating: "A", count: 64),
                String(repeating: "0", count: 63) + "F",
                String(repeating: "g", count: 64),
                String(repeating: "0", count: 62) + " 1",
                String(repeating: "a", count: 65),
                String(repeating: "a", count: 63),
                String(repeating: "é", count: 32),
            ]
        )
        func malformedTokenRefused(token: String) async throws {
            // Refused before any query: one backend shows it.
            try await withDirectory(.sqlite) { store, directory async throws in
                let error = await #expect(throws: ScreenplayError.self) {
                    try await directory.resolve(token: token, creating: true)
                }
                #expect(error?.code == "invalidToken")
                #expect(error?.status == .unauthorized)
                #expect(error?.status.code == 401)
                #expect(try await rowCount(of: "screenplay_users", in: store) == 0)
            }
        }
    }

    @Suite("Revisions")
    struct Revisions {
        @Test("a one-statement write is PostgreSQL's: on SQLite (and in-process buses) the caller writes in a transaction")
        func oneStatementWriteNeedsPostgres() async throws {
            try await withDirectory(.sqlite) { _, directory in
                let user = try await directory.resolve(token: nil, creating: true).user
                let answer = try await directory.writeInOneStatement(for: user, with: "wrote AS (SELECT 1)", selecting: "1 AS one")
                #expect(answer == nil)
            }
        }

        @Test("a new user's revision is 0", arguments: StoreBackend.allCases)
        func startsAtZero(backend: StoreBackend) async throws {
            try await withDirectory(backend) { _, directory async throws in
                let user = try await directory.resolve(token: nil, creating: true).user
                #expect(try await directory.revision(of: user) == 0)
            }
        }

        @Test("bumping inside a transaction increments by one each time, for that user only", arguments: StoreBackend.allCases)
        func bumpIncrements(backend: StoreBackend) async throws {
            try await withDirectory(backend) { store, directory async throws in
                let user = try await directory.resolve(token: nil, creating: true).user
                let other = try await directory.resolve(token: nil, creating: true).user
                _ = try await store.transaction { database in
                    try await UserDirectory.bumpRevision(of: user, on: database)
                }
                #expect(try await UserDirectory(store: store).revision(of: user) == 1, "a fresh directory reads the store")
                try await store.transaction { database in
                    try await UserDirectory.bumpRevision(of: user, on: database)
                    try await UserDirectory.bumpRevision(of: user, on: database)
                    // The caller's session sees its own bumps before commit.
                    #expect(try await UserDirectory.revision(of: user, on: database) == 3)
                }
                #expect(try await UserDirectory(store: store).revision(of: user) == 3)
                #expect(try await directory.revision(of: other) == 0)
            }
        }

        @Test("a bump in a rolled-back transaction does not count", arguments: StoreBackend.allCases)
        func rolledBackBumpIsLost(backend: StoreBackend) async throws {
            try await withDirectory(backend) { store, directory async throws in
                let user = try await directory.resolve(token: nil, creating: true).user
                _ = try await store.transaction { database in
                    try await UserDirectory.bumpRevision(of: user, on: database)
                }
                await #expect(throws: IntendedFailure.self) {
                    try await store.transaction { database in
                        try await UserDirectory.bumpRevision(of: user, on: database)
                        throw IntendedFailure()
                    }
                }
                #expect(try await UserDirectory(store: store).revision(of: user) == 1, "a fresh directory reads the store")
            }
        }

        @Test("a revision read inside a write sees its bump but is not remembered: after a rollback the committed one is read", arguments: StoreBackend.allCases)
        func readInsideAWriteIsNotRemembered(backend: StoreBackend) async throws {
            try await withDirectory(backend) { store, directory async throws in
                let user = try await directory.resolve(token: nil, creating: true).user
                await #expect(throws: IntendedFailure.self) {
                    try await directory.write(for: user) { _ in
                        #expect(try await directory.revision(of: user) == 1, "the write's own bump, not yet committed")
                        throw IntendedFailure()
                    }
                }
                #expect(try await directory.revision(of: user) == 0)
            }
        }

        @Test("a user the store does not know has revision 0", arguments: StoreBackend.allCases)
        func unknownUserIsZero(backend: StoreBackend) async throws {
            try await withDirectory(backend) { _, directory async throws in
                #expect(try await directory.revision(of: UserIdentity(id: 9_999)) == 0)
            }
        }
    }

    @Suite("Migrations")
    struct Migrations {
        @Test("the directory's migrations create screenplay_users once", arguments: StoreBackend.allCases)
        func migrationsCreateUsersTable(backend: StoreBackend) async throws {
            try await withStore(backend) { store async throws in
                let applied = try await Migrator(UserDirectory.migrations).run(on: store)
                #expect(applied == UserDirectory.migrations.map(\.id))
                #expect(applied.isEmpty == false)
                #expect(try await tableExists("screenplay_users", in: store))
                #expect(try await Migrator(UserDirectory.migrations).run(on: store) == [])
            }
        }

        @Test("tokens are unique in the table", arguments: StoreBackend.allCases)
        func tokensAreUnique(backend: StoreBackend) async throws {
            try await withDirectory(backend) { store, directory async throws in
                let token = try #require(try await directory.resolve(token: nil, creating: true).issuedToken)
                await #expect(throws: (any Error).self) {
                    try await store.transaction { database in
                        try await database.raw(
                            "INSERT INTO screenplay_users (token, revision, created_at) VALUES (\(bind: token), 0, 'now')"
                        ).run()
                    }
                }
            }
        }
    }

    @Suite("Revisions from memory")
    struct RevisionCache {
        @Test("a revision is read once, then served from memory until a write announces a new one, on every directory sharing the bus", arguments: StoreBackend.allCases)
        func cachedAndInvalidated(backend: StoreBackend) async throws {
            try await withStore(backend) { store async throws in
                try await Migrator(UserDirectory.migrations).run(on: store)
                let bus = InProcessInvalidationBus()
                let here = UserDirectory(store: store, bus: bus)
                let elsewhere = UserDirectory(store: store, bus: bus)
                let user = try await here.resolve(token: nil, creating: true).user
                #expect(try await here.revision(of: user) == 0)
                #expect(try await elsewhere.revision(of: user) == 0)
                // A change behind the directory's back (no announcement) is not seen: memory answers.
                _ = try await store.transaction { database in try await UserDirectory.bumpRevision(of: user, on: database) }
                #expect(try await here.revision(of: user) == 0)
                // A write through the directory bumps and announces: both directories see it.
                _ = try await here.write(for: user) { _ in }
                #expect(try await here.revision(of: user) == 2)
                #expect(try await elsewhere.revision(of: user) == 2)
                #expect(try await here.revision(of: .anonymous) == 0)
            }
        }

        @Test(
            "read-your-writes: a write records the revision it committed; a read under a higher floor asks the store, not memory",
            arguments: StoreBackend.allCases)
        func floorAboveMemory(backend: StoreBackend) async throws {
            try await withStore(backend) { store async throws in
                try await Migrator(UserDirectory.migrations).run(on: store)
                // Two replicas whose buses are not (yet) connected: B has not heard of A's write.
                let replicaA = UserDirectory(store: store, bus: InProcessInvalidationBus())
                let replicaB = UserDirectory(store: store, bus: InProcessInvalidationBus())
                let user = try await replicaA.resolve(token: nil, creating: true).user
                #expect(try await replicaB.revision(of: user) == 0)
                let written = RevisionWatermark.Written()
                try await RevisionWatermark.$written.withValue(written) {
                    _ = try await replicaA.write(for: user) { _ in }
                }
                #expect(written.revision(for: user) == 1, "the committed revision, for the answer's header")
                #expect(written.revision(for: UserIdentity(id: user.id + 1)) == nil, "another user's is not this one's")
                #expect(try await replicaB.revision(of: user) == 0, "memory, without a floor: what B would have served")
                #expect(
                    try await RevisionWatermark.$floor.withValue(0) { try await replicaB.revision(of: user) } == 0,
                    "a floor memory meets: memory answers")
                #expect(
                    try await RevisionWatermark.$floor.withValue(1) { try await replicaB.revision(of: user) } == 1,
                    "a floor above memory: the store answers")
                // The value read under the floor is remembered: without one, B now says 1 too.
                #expect(try await replicaB.revision(of: user) == 1)
                // A floor above anything written (a client's guess) still answers what is stored.
                #expect(try await RevisionWatermark.$floor.withValue(99) { try await replicaB.revision(of: user) } == 1)
                // Writes outside a command record nothing anywhere.
                _ = try await replicaA.write(for: user) { _ in }
                #expect(written.revision(for: user) == 1)
            }
        }

        @Test("a revocation announced by one directory is honored by another that had the token in memory", arguments: StoreBackend.allCases)
        func revocationAcrossDirectories(backend: StoreBackend) async throws {
            try await withStore(backend) { store async throws in
                try await Migrator(UserDirectory.migrations).run(on: store)
                let bus = InProcessInvalidationBus()
                let here = UserDirectory(store: store, bus: bus)
                let elsewhere = UserDirectory(store: store, bus: bus)
                let token = try #require(try await here.resolve(token: nil, creating: true).issuedToken)
                _ = try await elsewhere.resolve(token: token, creating: false)
                #expect(try await here.revoke(token: token))
                try await Task.sleep(for: .milliseconds(50))
                await #expect(throws: ScreenplayError.self) { try await elsewhere.resolve(token: token, creating: false) }
            }
        }
    }
}
