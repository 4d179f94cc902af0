import Foundation
import HTTPTypes
import ScreenplayContract
import ScreenplayDemo
import ScreenplayServer
import Testing

@Suite("Per-user data is bounded")
struct PerUserLimitTests {
    @Test("a name of 100 characters but thousands of combining marks is a 422 naming its bytes; home stays small")
    func combiningMarks() async throws {
        try await withDemo { demo, _ in
            let user = try await demo.service.resolveIdentity(token: nil).user
            let heavy = String(repeating: "a" + String(repeating: "\u{301}", count: 290), count: 100)
            #expect(heavy.count == 100)
            do {
                _ = try await demo.service.perform(
                    command: "playlists/create", payload: ["name": .string(heavy)], apiVersion: .v4, user: user)
                Issue.record("a 58 KB name must be refused")
            } catch let error as ScreenplayError {
                #expect(error.status == .unprocessableContent)
                #expect(error.path == "$.name")
                #expect(error.message.contains("bytes long in UTF-8; the limit is 400"), "\(error)")
            }
            let home = try await demo.service.encodedScreen(path: "home", apiVersion: .v4, user: user)
            #expect(home.bytes.count < 64 * 1024)
        }
    }

    @Test("the 101st playlist is a 422 that says the limit; the 100 stay")
    func playlistLimit() async throws {
        try await withDemo { demo, _ in
            let user = try await demo.service.resolveIdentity(token: nil).user
            for index in 1...100 {
                _ = try await demo.service.perform(
                    command: "playlists/create", payload: ["name": .string("List \(index)")], apiVersion: .v4, user: user)
            }
            do {
                _ = try await demo.service.perform(command: "playlists/create", payload: ["name": "One more"], apiVersion: .v4, user: user)
                Issue.record("the 101st playlist must be refused")
            } catch let error as ScreenplayError {
                #expect(error.status == .unprocessableContent)
                #expect(error.message.contains("you have 100 playlists; the limit is 100"), "\(error)")
            }
            let home = try await demo.service.screen(path: "home", apiVersion: .v4, user: user)
            #expect(home.sections.first { $0.id == "library" }?.components.count == 101, "the Favorites row and 100 playlists")
        }
    }
}
