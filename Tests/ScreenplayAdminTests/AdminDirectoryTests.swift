import Foundation
import ScreenplayServer
import ScreenplayStore
import ScreenplayStoreSQLite
import ScreenplayTestSupport
import Testing

@testable import ScreenplayAdmin

/// Runs `body` with a migrated in-memory store and a directory using the cheap test hasher.
func withAdmins<Result>(
    _ backend: StoreBackend, lifetime: Duration = .seconds(3600), signInAttempts: RateLimiter = RateLimiter(rate: 1.0 / 6, burst: 10),
    _ body: (AdminDirectory) async throws -> Result
) async throws -> Result {
    try await withStore(backend) { store in
        try await Migrator(AdminDirectory.migrations).run(on: store)
        return try await body(
            AdminDirectory(store: store, hasher: .fastForTests, sessionLifetime: lifetime, signInAttempts: signInAttempts))
    }
}

@Suite("Password hashes")
struct PasswordHashTests {
    @Test("a hash verifies its password only; two hashes of one password differ (salt); the parameters travel with it")
    func verify() throws {
        let hasher = PasswordHasher.fastForTests
        let first = try hasher.hash("correct horse battery")
        let second = try hasher.hash("correct horse battery")
        #expect(first != second)
        #expect(first.hasPrefix("scrypt$16$8$1$"))
        #expect(PasswordHasher.verify("correct horse battery", against: first))
        #expect(PasswordHasher.verify("correct horse battery", against: second))
        #expect(!PasswordHasher.verify("correct horse batterY", against: first))
        #expect(!PasswordHasher.verify("", against: first))
    }

    @Test("a hash stored by another scrypt (Python's hashlib, as swift-crypto's made them before) still verifies")
    func storedElsewhere() {
        let stored = "scrypt$16$8$1$AAECAwQFBgcICQoLDA0ODw==$h66i3JN6jBDKpEAloIMBBVm15ojnTRer7M/NcQ+3VXM="
        #expect(PasswordHasher.verify("correct horse ✓", against: stored))
        #expect(!PasswordHasher.verify("correct horse ✗", against: stored))
    }

    @Test(
        "a malformed or hostile stored hash never matches (and never asks for absurd work)",
        arguments: [
            "", "scrypt", "scrypt$16$8$1$c2FsdA==", "bcrypt$16$8$1$c2FsdA==$a2V5", "scrypt$0$8$1$c2FsdA==$a2V5",
            "scrypt$1073741824$8$1$c2FsdA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "scrypt$16$8$1$!!!$a2V5",
            "scrypt$16$8$1$c2FsdA==$a2V5",
        ])
    func malformed(stored: String) {
        #expect(!PasswordHasher.verify("anything at all", against: stored))
    }
}

@Suite("AdminDirectory")
struct AdminDirectoryTests {
    @Test("accounts: names and passwords are checked, a name is taken once, a login needs the right password", arguments: StoreBackend.allCases)
    func accounts(backend: StoreBackend) async throws {
        try await withAdmins(backend) { admins in
            _ = try await admins.createAdmin(name: "ada", password: "correct horse battery")
            await #expect(throws: AdminDirectory.AccountError.exists("ada")) {
                _ = try await admins.createAdmin(name: "ada", password: "another long password")
            }
            await #expect(throws: AdminDirectory.AccountError.self) {
                _ = try await admins.createAdmin(name: "Bob Smith", password: "long enough pass")
            }
            await #expect(throws: AdminDirectory.AccountError.self) { try await admins.createAdmin(name: "", password: "long enough pass") }
            await #expect(throws: AdminDirectory.AccountError.self) { try await admins.createAdmin(name: "bob", password: "short") }
            #expect(try await admins.authenticate(name: "ada", password: "correct horse battery") == "ada")
            #expect(try await admins.authenticate(name: "ada", password: "wrong horse battery") == nil)
            #expect(try await admins.authenticate(name: "nobody", password: "correct horse battery") == nil)
            #expect(try await admins.authenticate(name: String(repeating: "a", count: 10_000), password: "x") == nil)
        }
    }

    @Test("sign-ins are limited per address and per name: past the burst even the right password waits, and says how long", arguments: StoreBackend.allCases)
    func signInLimits(backend: StoreBackend) async throws {
        try await withAdmins(backend, signInAttempts: RateLimiter(rate: 0.01, burst: 3)) { admins in
            _ = try await admins.createAdmin(name: "ada", password: "correct horse battery")
            for _ in 0..<3 { #expect(try await admins.signIn(name: "ada", password: "wrong password!", address: "10.0.0.1") == .rejected) }
            guard case .throttled(let wait) = try await admins.signIn(name: "ada", password: "correct horse battery", address: "10.0.0.1")
            else {
                Issue.record("a fourth attempt from one address was not throttled")
                return
            }
            #expect(wait > .seconds(10))
            // The name's bucket is spent too: another address cannot keep guessing ada's password.
            guard case .throttled = try await admins.signIn(name: "ada", password: "correct horse battery", address: "10.0.0.2") else {
                Issue.record("attempts on one name from another address were not throttled")
                return
            }
            _ = try await admins.createAdmin(name: "bob", password: "another good password")
            #expect(try await admins.signIn(name: "bob", password: "another good password", address: "10.0.0.3") == .admin("bob"))
        }
    }

    @Test("only failures use up the budget: an admin signing in again and again is never throttled, a guesser still is", arguments: StoreBackend.allCases)
    func successesAreFree(backend: StoreBackend) async throws {
        try await withAdmins(backend, signInAttempts: RateLimiter(rate: 0.01, burst: 3)) { admins in
            _ = try await admins.createAdmin(name: "ada", password: "correct horse battery")
            for attempt in 1...10 {
                #expect(
                    try await admins.signIn(name: "ada", password: "correct horse battery", address: "10.0.0.1") == .admin("ada"),
                    "sign-in \(attempt) in a row")
            }
            // Two failures and a success leave one try: the success gave back only its own.
            for _ in 0..<2 { #expect(try await admins.signIn(name: "ada", password: "wrong password!", address: "10.0.0.1") == .rejected) }
            #expect(try await admins.signIn(name: "ada", password: "correct horse battery", address: "10.0.0.1") == .admin("ada"))
            #expect(try await admins.signIn(name: "ada", password: "wrong password!", address: "10.0.0.1") == .rejected)
            guard case .throttled = try await admins.signIn(name: "ada", password: "wrong password!", address: "10.0.0.1") else {
                Issue.record("a fourth failure was not throttled")
                return
            }
        }
    }

    @Test("API tokens name their admin; unknown, malformed and other admins' tokens do not", arguments: StoreBackend.allCases)
    func tokens(backend: StoreBackend) async throws {
        try await withAdmins(backend) { admins in
            _ = try await admins.createAdmin(name: "ada", password: "correct horse battery")
            let token = try await admins.createAPIToken(for: "ada", label: "ci")
            #expect(token.utf8.count == 64)
            #expect(try await admins.admin(forAPIToken: token) == "ada")
            #expect(try await admins.admin(forAPIToken: String(repeating: "0", count: 64)) == nil)
            #expect(try await admins.admin(forAPIToken: token.uppercased()) == nil)
            #expect(try await admins.admin(forAPIToken: "") == nil)
            await #expect(throws: AdminDirectory.AccountError.self) { try await admins.createAPIToken(for: "nobody", label: "x") }
        }
    }

    @Test("sessions: found while alive with their CSRF token, gone after logout or expiry", arguments: StoreBackend.allCases)
    func sessions(backend: StoreBackend) async throws {
        try await withAdmins(backend) { admins in
            let session = try await admins.startSession(for: "ada")
            #expect(session.id != session.csrf)
            #expect(try await admins.session(id: session.id) == session)
            #expect(try await admins.session(id: String(repeating: "1", count: 64)) == nil)
            try await admins.endSession(id: session.id)
            #expect(try await admins.session(id: session.id) == nil)
        }
        try await withAdmins(backend, lifetime: .zero) { admins in
            let session = try await admins.startSession(for: "ada")
            #expect(try await admins.session(id: session.id) == nil, "a session past its lifetime is not found")
        }
    }
}
