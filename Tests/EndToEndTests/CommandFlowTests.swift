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

            // Favorites: the toggle is bound to the playlist's entity; each answer patches it, and
            // the toggle flips with no reload of the screen.
            await navigator.start(at: "screens/playlist/1")
            let title = try await navigator.snapshot.topScreen().title
            let loaded = try #require(await navigator.snapshot.top?.state)
            #expect(try await Self.toggle(navigator).text == "Add to favorites")
            try await Self.tapToggle(navigator)
            // Captured, so a failure shows what was presented instead (an error says why).
            let presented = await navigator.snapshot.presented
            #expect(presented == .message("Added “\(title)” to favorites"), "\(String(describing: presented))")
            #expect(try await Self.toggle(navigator).text == "Remove from favorites")
            #expect(try await Self.toggle(navigator).accessibility.traits.contains(.selected))
            #expect(await navigator.snapshot.top?.state == loaded, "the entity patch must not reload the screen")
            let favorites = try await client.loader.screen(at: "screens/favorites")
            #expect(favorites.screen.listedTitles == [title])
            try await Self.tapToggle(navigator)
            #expect(try await Self.toggle(navigator).text == "Add to favorites")
            #expect(try await client.loader.screen(at: "screens/favorites").screen.listedTitles.isEmpty)
            try await Self.tapToggle(navigator)
            #expect(await navigator.snapshot.top?.state == loaded)

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
            // Created, and opened: the new playlist is on top, home below it.
            #expect(try await navigator.snapshot.topScreen().title == "Night Music")
            #expect(await navigator.snapshot.entries.map(\.url).first == "screens/home")
            // Back on home, it is revalidated (the command changed it): the new playlist is listed.
            await navigator.back()
            let refreshedHome = try await navigator.snapshot.topScreen()
            #expect(refreshedHome.listedTitles.contains("Night Music"))

            // One patch, two screens: the heart beside the row on home (below on the stack) flips
            // with the toggle on the playlist's own screen, and home is not reloaded.
            let homeState = try #require(await navigator.snapshot.top?.state)
            let rows = refreshedHome.allActions.compactMap { action -> Action.Navigate? in
                if case .navigate(let navigate) = action, navigate.header?.title == "Night Music" { return navigate }
                return nil
            }
            let nightMusicRow = try #require(rows.first)
            await navigator.navigate(nightMusicRow)
            try await Self.tapToggle(navigator)
            #expect(try await Self.toggle(navigator).text == "Remove from favorites")
            let homeEntry = try #require(await navigator.snapshot.entries.first)
            #expect(homeEntry.state == homeState, "home must not reload")
            let homeHearts = ViewTreeResolver().resolve(homeEntry).root.allNodes.filter { $0.role == .toggle }
            #expect(homeHearts.map(\.text) == ["Remove from favorites"])
            await navigator.back()
            try await Self.tapToggle(navigator)
            #expect(try await Self.toggle(navigator).text == "Add to favorites")

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
            let mornings = try await navigator.snapshot.topScreen()
            #expect(mornings.title == "Mornings", "created and opened")
            #expect(mornings.listedTitles.count == 1, "with the work in it")
            return try #require(await client.tokens.token())
        }

        // Same data folder, new process state: the user comes back with their token.
        try await harness.withServer { root in
            let client = DemoClient(root: root, token: token)
            let home = try await client.loader.screen(at: "screens/home").screen
            let ownPlaylists = home.sections.first { $0.id == "library" }.map { section in
                section.components.flatMap { [$0] + $0.children }.compactMap { component -> String? in
                    if case .listRow(let row) = component.content { return row.title }
                    return nil
                }
            }
            #expect(ownPlaylists == ["Night Music", "Mornings"])
            let favorites = try await client.loader.screen(at: "screens/favorites").screen
            #expect(favorites.listedTitles == ["Baroque Essentials"], "the last toggle of each playlist survives the restart")
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

    /// The top screen's favorite toggle, as the view tree resolves it now.
    static func toggle(_ navigator: ScreenNavigator) async throws -> ViewNode {
        let entry = try #require(await navigator.snapshot.top)
        return try #require(ViewTreeResolver().resolve(entry).root.allNodes.first { $0.role == .toggle })
    }

    /// Taps the top screen's favorite toggle.
    static func tapToggle(_ navigator: ScreenNavigator) async throws {
        let node = try await toggle(navigator)
        await navigator.perform(try #require(node.action?.action), from: node.id)
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
