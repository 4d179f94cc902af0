import Foundation
import ScreenplayServer
import ScreenplayStore
import ScreenplayStoreSQLite
import ScreenplayTestSupport
import Testing

@testable import ScreenplayAdmin

/// OWASP's device cookies: a browser that signed in before is judged by its own failures.
/// Tests of logic above the store run on SQLite only; those that run SQL of their own (the
/// shared key's insert, the history's queries) run on PostgreSQL too, keeping the suite's
/// connections to the test cluster down.
@Suite("Sign-in with device cookies")
struct DeviceCookieTests {
    static let password = "correct horse battery"

    @Test("30 wrong passwords from 30 addresses lock ada's name for untrusted browsers, not the browser she signed in from", arguments: StoreBackend.allCases)
    func trustedDeviceIsNotLockedOut(backend: StoreBackend) async throws {
        try await withAdmins(backend) { admins in
            _ = try await admins.createAdmin(name: "ada", password: Self.password)
            #expect(try await admins.signIn(name: "ada", password: Self.password, address: "10.0.0.1") == .admin("ada"))
            let device = try await admins.deviceCookie(for: "ada")
            for address in 1...30 {
                _ = try await admins.signIn(name: "ada", password: "a wrong guess \(address)", address: "192.0.2.\(address)")
            }
            // Failures still slow everyone who cannot show a device cookie, ada on a new browser too.
            guard case .throttled = try await admins.signIn(name: "ada", password: Self.password, address: "10.0.0.1") else {
                Issue.record("the account-wide limit no longer holds for untrusted browsers")
                return
            }
            // Her own browser gets in, even from an address that failed too.
            #expect(try await admins.signIn(name: "ada", password: Self.password, address: "10.0.0.1", device: device) == .admin("ada"))
            #expect(try await admins.signIn(name: "ada", password: Self.password, address: "192.0.2.7", device: device) == .admin("ada"))
        }
    }

    @Test("a device cookie counts only for its own account, and only as issued", arguments: [StoreBackend.sqlite])
    func boundToAccount(backend: StoreBackend) async throws {
        try await withAdmins(backend, signInAttempts: RateLimiter(rate: 0.01, burst: 2)) { admins in
            _ = try await admins.createAdmin(name: "ada", password: Self.password)
            _ = try await admins.createAdmin(name: "bob", password: "another good password")
            let adas = try await admins.deviceCookie(for: "ada")
            for _ in 0..<2 { _ = try await admins.signIn(name: "bob", password: "wrong wrong wrong", address: "192.0.2.1") }
            // Ada's cookie does not make an attempt on bob's account trusted.
            guard case .throttled = try await admins.signIn(name: "bob", password: "another good password", address: "10.0.0.9", device: adas)
            else {
                Issue.record("another account's device cookie lifted bob's limit")
                return
            }
            for _ in 0..<2 { _ = try await admins.signIn(name: "ada", password: "wrong wrong wrong", address: "192.0.2.2") }
            // Altered in any part, it is no cookie of ours.
            let parts: [String] = adas.split(separator: ":").map(String.init)
            func with(_ index: Int, _ value: String) -> String {
                var changed = parts
                changed[index] = value
                return changed.joined(separator: ":")
            }
            let later = String((Int(parts[2]) ?? 0) + 1)
            let forged: [String] = [
                with(4, String(repeating: "0", count: 64)), with(2, later), with(1, "bob"), with(0, "v2"),
                adas + "0", "", String(repeating: ":", count: 10_000),
            ]
            for cookie in forged {
                guard case .throttled = try await admins.signIn(name: "ada", password: Self.password, address: "10.0.0.9", device: cookie) else {
                    Issue.record("a forged device cookie was trusted: \(cookie.prefix(90))")
                    return
                }
            }
            #expect(try await admins.signIn(name: "ada", password: Self.password, address: "10.0.0.9", device: adas) == .admin("ada"))
        }
    }

    @Test("a device that fails itself is locked like any bucket; the account's other devices are not", arguments: [StoreBackend.sqlite])
    func failingDeviceIsLocked(backend: StoreBackend) async throws {
        try await withAdmins(backend, signInAttempts: RateLimiter(rate: 0.01, burst: 3)) { admins in
            _ = try await admins.createAdmin(name: "ada", password: Self.password)
            let stolen = try await admins.deviceCookie(for: "ada")
            let laptop = try await admins.deviceCookie(for: "ada")
            for _ in 0..<3 {
                #expect(try await admins.signIn(name: "ada", password: "guessing away", address: "192.0.2.3", device: stolen) == .rejected)
            }
            guard case .throttled = try await admins.signIn(name: "ada", password: Self.password, address: "192.0.2.3", device: stolen) else {
                Issue.record("a device cookie that failed three times was not locked")
                return
            }
            #expect(try await admins.signIn(name: "ada", password: Self.password, address: "10.0.0.1", device: laptop) == .admin("ada"))
            // Its failures were its own: an untrusted browser still has the whole budget.
            #expect(try await admins.signIn(name: "ada", password: Self.password, address: "10.0.0.2") == .admin("ada"))
        }
    }

    @Test("a cookie issued by one replica is trusted by another on the same database; an expired one by none", arguments: StoreBackend.allCases)
    func sharedSecretAndLifetime(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            try await Migrator(AdminDirectory.migrations).run(on: store)
            let limit = RateLimiter(rate: 0.01, burst: 1)
            let a = AdminDirectory(store: store, hasher: .fastForTests, signInAttempts: limit)
            let b = AdminDirectory(store: store, hasher: .fastForTests, signInAttempts: RateLimiter(rate: 0.01, burst: 1))
            _ = try await a.createAdmin(name: "ada", password: Self.password)
            let cookie = try await a.deviceCookie(for: "ada")
            _ = try await b.signIn(name: "ada", password: "wrong wrong wrong", address: "192.0.2.4")
            #expect(try await b.signIn(name: "ada", password: Self.password, address: "192.0.2.4", device: cookie) == .admin("ada"))
            let short = AdminDirectory(store: store, hasher: .fastForTests, signInAttempts: limit, deviceLifetime: .seconds(-400))
            #expect(try await short.trustedDevice(cookie, for: "ada") == nil, "past its lifetime a device cookie trusts nothing")
            #expect(try await b.trustedDevice(cookie, for: "ada")?.account == "ada")
        }
    }
}
