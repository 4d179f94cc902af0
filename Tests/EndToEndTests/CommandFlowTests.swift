import Foundation
import HTTPTypes
import ScreenplayClient
import ScreenplayContract
import Testing

@Suite("End to end: command flows, persistence and users", .serialized)
struct CommandFlowTests {
    @Test("favorite toggle twice, playlist creation via prompt, add via choice; all of it survives a restart")
    func flowsSurviveRestart() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        let token: String = try await harness.withServer { root in
            let client = DemoClient(root: root)
            let navigator = client.navigator

            // Favorites: the menu offers the opposite of the current state, twice over.
            await navigator.start(at: "screens/playlist/1")
            var playlist = try await navigator.snapshot.topScreen()
            let add = try #require(playlist.menuItem("Add to favorites"))
            await navigator.perform(add.action)
            #expect(await navigator.snapshot.presented == .message("Added “\(playlist.title)” to favorites"))
            playlist = try await navigator.snapshot.topScreen()
            #expect(playlist.menuTitles.contains("Remove from favorites"))
            #expect(!playlist.menuTitles.contains("Add to favorites"))
            let favorites = try await client.loader.screen(at: "screens/favorites")
            #expect(favorites.screen.listedTitles == [playlist.title])
            await navigator.perform(try #require(playlist.menuItem("Remove from favorites")).action)
            playlist = try await navigator.snapshot.topScreen()
            #expect(playlist.menuTitles.contains("Add to favorites"))
            #expect(try await client.loader.screen(at: "screens/favorites").screen.listedTitles.isEmpty)
            await navigator.perform(try #require(playlist.menuItem("Add to favorites")).action)

            // A playlist through a text prompt, from the home menu.
            await navigator.start(at: "screens/home")
            let home = try await navigator.snapshot.topScreen()
            await navigator.perform(try #require(home.menuItem("New playlist")).action)
            guard case .prompt(let prompt) = await navigator.snapshot.presented else {
                Issue.record("expected a prompt, got \(String(describing: await navigator.snapshot.presented))")
                return ""
            }
            #expect(prompt.field.maxLength == 100)
            await navigator.submit(prompt, text: "  Night Music  ")
            #expect(await navigator.snapshot.presented == .message("Created “Night Music”"))
            let refreshedHome = try await navigator.snapshot.topScreen()
            #expect(refreshedHome.listedTitles.contains("Night Music"))

            // Add a work through a choice list.
            await navigator.start(at: "screens/work/1")
            let work = try await navigator.snapshot.topScreen()
            await navigator.perform(try #require(work.menuItem("Add to playlist")).action)
            guard case .choice(let choice) = await navigator.snapshot.presented else {
                Issue.record("expected a choice, got \(String(describing: await navigator.snapshot.presented))")
                return ""
            }
            #expect(choice.options.map(\.title) == ["Night Music", "New playlist…"])
            await navigator.choose(choice.options[0])
            #expect(await navigator.snapshot.presented == .message("Added to “Night Music”"))

            // And through a choice that leads to a prompt: a second playlist created with the work in it.
            await navigator.perform(try #require(work.menuItem("Add to playlist")).action)
            guard case .choice(let again) = await navigator.snapshot.presented else { return "" }
            await navigator.choose(try #require(again.options.last))
            guard case .prompt(let second) = await navigator.snapshot.presented else {
                Issue.record("“New playlist…” should prompt for a name")
                return ""
            }
            await navigator.submit(second, text: "Mornings")
            #expect(await navigator.snapshot.presented == .message("Created “Mornings”"))
            return try #require(await client.tokens.token())
        }

        // Same data folder, new process state: the user comes back with their token.
        try await harness.withServer { root in
            let client = DemoClient(root: root, token: token)
            let home = try await client.loader.screen(at: "screens/home").screen
            let ownPlaylists = home.sections.first { $0.id == "library" }.map { section in
                section.components.compactMap { component -> String? in
                    if case .listRow(let row) = component.content { return row.title }
                    return nil
                }
            }
            #expect(ownPlaylists == ["Night Music", "Mornings"])
            let favorites = try await client.loader.screen(at: "screens/favorites").screen
            #expect(favorites.listedTitles.count == 1)
            let navigations = home.allActions.compactMap { action -> Action.Navigate? in
                if case .navigate(let navigate) = action, navigate.header?.title == "Night Music" { return navigate }
                return nil
            }
            let nightMusic = try #require(navigations.first)
            let playlist = try await client.loader.screen(at: nightMusic.url).screen
            let firstWork = try await client.loader.screen(at: "screens/work/1").screen
            #expect(playlist.listedTitles == [firstWork.title])
            #expect(playlist.header?.subtitle == "Your playlist · 1 work")
        }
    }

    @Test("two users never see or change each other's data")
    func isolation() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            let alice = DemoClient(root: root)
            let bob = DemoClient(root: root)
            _ = try await alice.loader.perform(.init(url: "commands/playlists/create", payload: ["name": "Alice only"]))
            let aliceHome = try await alice.loader.screen(at: "screens/home").screen
            let privateURLs = aliceHome.allActions.compactMap { action -> String? in
                if case .navigate(let navigate) = action, navigate.header?.title == "Alice only" { return navigate.url }
                return nil
            }
            let privateURL = try #require(privateURLs.first)
            let playlistID = try #require(Int(privateURL.split(separator: "/").last ?? ""))

            let bobHome = try await bob.loader.screen(at: "screens/home").screen
            #expect(!bobHome.listedTitles.contains("Alice only"))
            await #expect(throws: ClientError.self) { try await bob.loader.screen(at: privateURL) }
            do {
                _ = try await bob.loader.screen(at: privateURL)
            } catch let error as ClientError {
                #expect(error.status == 404)
            }
            for command in [
                Action.Command(url: "commands/playlists/add-work", payload: ["playlistId": .integer(playlistID), "workId": 1]),
                Action.Command(url: "commands/favorites/add", payload: ["playlistId": .integer(playlistID)]),
            ] {
                do {
                    _ = try await bob.loader.perform(command)
                    Issue.record("\(command.url) on another user's playlist should fail")
                } catch let error as ClientError {
                    #expect(error.status == 404, "\(command.url): \(error)")
                }
            }
            let stillEmpty = try await alice.loader.screen(at: privateURL).screen
            #expect(stillEmpty.listedTitles.isEmpty)
        }
    }
}
