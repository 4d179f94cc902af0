import Foundation
import ScreenplayServer
import ScreenplayStore
import ScreenplayStoreSQLite
import ScreenplayTestSupport
import Testing

@testable import ScreenplayAdmin

@Suite("Admin API tokens: listed and revoked")
struct AdminTokenTests {
    @Test("tokens are listed by an id that is not the token, and a revoked token names nobody at once", arguments: StoreBackend.allCases)
    func listAndRevoke(backend: StoreBackend) async throws {
        try await withAdmins(backend) { admins in
            _ = try await admins.createAdmin(name: "ada", password: "correct horse battery")
            _ = try await admins.createAdmin(name: "bob", password: "another good password")
            let ci = try await admins.createAPIToken(for: "ada", label: "ci")
            let deploy = try await admins.createAPIToken(for: "ada", label: "deploy bot")
            let bobs = try await admins.createAPIToken(for: "bob", label: "laptop")
            let listed = try await admins.apiTokens(of: "ada")
            #expect(Set(listed.map(\.label)) == ["ci", "deploy bot"])
            #expect(listed.allSatisfy { $0.id.count == 12 && !ci.hasPrefix($0.id) && !deploy.hasPrefix($0.id) }, "an id is not a prefix of its token")
            #expect(try await admins.apiTokens().count == 3)
            await #expect(throws: AdminDirectory.AccountError.noSuchAdmin("zed")) { try await admins.apiTokens(of: "zed") }

            // Revoked by itself (what POST tokens/revoke does with a leaked token).
            let revoked = try #require(try await admins.revokeAPIToken(ci))
            #expect(revoked.label == "ci" && revoked.admin == "ada")
            #expect(try await admins.admin(forAPIToken: ci) == nil)
            #expect(try await admins.revokeAPIToken(ci) == nil, "revoked already")
            #expect(try await admins.admin(forAPIToken: deploy) == "ada")

            // By id, all or nothing: one unknown id revokes nothing.
            let deployID = try #require(try await admins.apiTokens(of: "ada").first?.id)
            await #expect(throws: AdminDirectory.TokenError.unknownID("abcdef", admin: "ada")) {
                try await admins.revokeAPITokens(of: "ada", ids: [deployID, "abcdef"])
            }
            await #expect(throws: AdminDirectory.TokenError.malformedID("nothex!")) { try await admins.revokeAPITokens(of: "ada", ids: ["nothex!"]) }
            #expect(try await admins.admin(forAPIToken: deploy) == "ada")
            // Another admin's id is not ada's to name.
            let bobsID = try #require(try await admins.apiTokens(of: "bob").first?.id)
            await #expect(throws: AdminDirectory.TokenError.unknownID(bobsID, admin: "ada")) { try await admins.revokeAPITokens(of: "ada", ids: [bobsID]) }
            #expect(try await admins.revokeAPITokens(of: "ada", ids: [String(deployID.prefix(8))]).map(\.label) == ["deploy bot"])
            #expect(try await admins.admin(forAPIToken: deploy) == nil)
            #expect(try await admins.revokeAPITokens(of: "bob", ids: [], all: true).map(\.label) == ["laptop"])
            #expect(try await admins.admin(forAPIToken: bobs) == nil)
            #expect(try await admins.apiTokens().isEmpty)
        }
    }
}
