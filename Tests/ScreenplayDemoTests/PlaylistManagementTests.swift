import Foundation
import HTTPTypes
import ScreenplayContract
@testable import ScreenplayDemo
import ScreenplayServer
import Testing

@Suite("A playlist of one's own: rename, take a work out, delete after asking")
struct PlaylistManagementTests {
    /// A new user with a playlist of two works; its id.
    static func playlist(_ demo: DemoApp, named name: String = "Trip") async throws -> (user: UserIdentity, id: Int64) {
        let user = try await demo.service.resolveIdentity(token: nil).user
        let created = try await demo.service.perform(command: "playlists/create", payload: ["name": .string(name), "workId": 1], apiVersion: .v6, user: user)
        guard case .navigate(let navigate) = created.outcome, let id = Int64(navigate.url.split(separator: "/").last ?? "") else {
            Issue.record("creating a playlist opens it: \(created.outcome)")
            return (user, 0)
        }
        _ = try await demo.service.perform(command: "playlists/add-work", payload: ["playlistId": .integer(Int(id)), "workId": 2], apiVersion: .v6, user: user)
        return (user, id)
    }

    /// The rows of the works section: a reader's, or the owner's inside their reorderable list
    /// (v6), each perhaps beside its Remove button.
    static func rows(_ screen: Screen) -> [Component.ListRow] {
        let components = (screen.sections.first { $0.id == "works" }?.components ?? []).flatMap { component -> [Component] in
            if case .reorderableList(let list) = component.content { return list.children }
            return [component]
        }
        return components.compactMap { component in
            if case .listRow(let row) = component.content { return row }
            if case .horizontalStack(let stack) = component.content, case .listRow(let row) = stack.children.first?.content { return row }
            return nil
        }
    }

    static func works(_ screen: Screen) -> [String] { rows(screen).map(\.title) }

    static func refusal(_ body: () async throws -> CommandResult) async -> ScreenplayError? {
        do {
            _ = try await body()
            return nil
        } catch let error as ScreenplayError {
            return error
        } catch {
            return nil
        }
    }

    /// The play actions of a playlist screen's buttons, by title.
    static func plays(_ screen: Screen) -> [String: Action.Play] {
        func walk(_ components: [Component]) -> [(String, Action.Play)] {
            components.flatMap { component -> [(String, Action.Play)] in
                switch component.content {
                case .button(let button): if case .play(let play) = button.action { return [(button.title, play)] } else { return [] }
                case .horizontalStack(let stack): return walk(stack.children)
                default: return []
                }
            }
        }
        return Dictionary(walk(screen.sections.flatMap(\.components)), uniquingKeysWith: { first, _ in first })
    }

    @Test("Shuffle beside Play all: the same queue, starting at a track of it that the queue decides, the same in every build")
    func shuffle() async throws {
        try await withDemo { demo, _ in
            let (user, id) = try await Self.playlist(demo)
            let plays = Self.plays(try await demo.service.screen(path: "playlist/\(id)", apiVersion: .v6, user: user))
            let all = try #require(plays["Play all"])
            let shuffle = try #require(plays["Shuffle"])
            #expect(!all.shuffle && shuffle.shuffle)
            #expect(shuffle.metadataURL == all.metadataURL, "one queue")
            // The tracks the queue lists: the shuffle's first track is one of them.
            let recordings = try await demo.catalog.firstRecordings(of: [1, 2])
            let tracks = try await demo.catalog.queue(of: recordings.map(\.id)).map { String($0.track.id) }
            #expect(tracks.first == all.firstTrack.id)
            #expect(tracks.contains(shuffle.firstTrack.id))
            // Built again (another replica, a rebuilt cache): the same bytes.
            let again = Self.plays(try await demo.service.screen(path: "playlist/\(id)", apiVersion: .v6, user: user))
            #expect(again["Shuffle"] == shuffle)
            // The start moves with what the queue holds.
            let starts = Set((1...40).map { count in LibraryScreens.shuffleStart((1...Int64(count)).map { $0 * 7 }) })
            #expect(starts.count > 10, "\(starts.sorted())")
            #expect((1...40).allSatisfy { count in (0..<count).contains(LibraryScreens.shuffleStart((1...Int64(count)).map { $0 })) })
            // A v5 app gets the same buttons, both playing in order (Shuffle from its first track).
            let v5 = try await demo.service.screen(path: "playlist/\(id)", apiVersion: .v5, user: user)
            let json = String(decoding: try ScreenplayEncoder(apiVersion: .v5).encode(v5), as: UTF8.self)
            #expect(json.contains(#""title":"Shuffle""#) && !json.contains(#""shuffle""#))
        }
    }

    @Test("a recording joins a playlist as its work played in it; another recording of that work replaces it; Play all plays the chosen one")
    func recordings() async throws {
        try await withDemo { demo, _ in
            // Works 1 and 2 in the playlist, each in its first recording; work 6 has two recordings.
            let (user, id) = try await Self.playlist(demo)
            let spring = try await demo.catalog.recordings(workID: 6).map(\.0)
            try #require(spring.count == 2)
            func perform(_ command: String, _ payload: JSONValue) async throws -> CommandResult.Outcome {
                try await demo.service.perform(command: command, payload: payload, apiVersion: .v6, user: user).outcome
            }
            func message(_ outcome: CommandResult.Outcome) -> String? {
                if case .done(let done) = outcome { return done.message }
                return nil
            }
            // The choice lists the user's playlists, each adding this recording.
            guard case .choice(let choice) = try await perform("playlists/choose-recording", ["recordingId": .integer(Int(spring[1].id))]) else {
                Issue.record("Add to playlist offers a choice")
                return
            }
            #expect(choice.options.map(\.title) == ["Trip", "New playlist…"])
            #expect(choice.options[0].command.url == "commands/playlists/add-recording")
            #expect(choice.options[0].command.payload == ["playlistId": .integer(Int(id)), "recordingId": .integer(Int(spring[1].id))])
            #expect(message(try await perform("playlists/add-recording", choice.options[0].command.payload ?? [:])) == "Added to “Trip”")
            var screen = try await demo.service.screen(path: "playlist/\(id)", apiVersion: .v6, user: user)
            #expect(Self.works(screen).count == 3)
            #expect(try await demo.catalog.recordingsToPlay([1, 2, 6], inPlaylist: id).last?.id == spring[1].id, "Play all plays the one chosen")
            #expect(Self.subtitles(screen).last?.hasSuffix(spring[1].performers) == true, "\(Self.subtitles(screen))")
            let tracks = try await demo.catalog.tracks(recordingID: spring[1].id).map { String($0.id) }
            let queue = try await demo.catalog.queue(of: try await demo.catalog.recordingsToPlay([1, 2, 6], inPlaylist: id).map(\.id))
            #expect(Array(queue.suffix(tracks.count).map { String($0.track.id) }) == tracks)
            // The player offers the same from the track playing (v6): its recording into a playlist.
            let last = try #require(queue.last)
            let menu = MediaRoutes.playable(last.track, recording: last.recording, work: last.work).menu
            #expect(menu.first?.action == .command(PlaylistCommands.addRecordingCommand(spring[1].id)))
            #expect(menu.map(\.title).last == "Go to Antonio Vivaldi")
            // Again: already there. The other recording: it replaces this one, and says so.
            let again: JSONValue = ["playlistId": .integer(Int(id)), "recordingId": .integer(Int(spring[1].id))]
            #expect(message(try await perform("playlists/add-recording", again)) == "Already in “Trip”")
            let other: JSONValue = ["playlistId": .integer(Int(id)), "recordingId": .integer(Int(spring[0].id))]
            #expect(message(try await perform("playlists/add-recording", other))?.hasSuffix("now plays \(spring[0].performers)'s recording") == true)
            screen = try await demo.service.screen(path: "playlist/\(id)", apiVersion: .v6, user: user)
            #expect(Self.works(screen).count == 3, "a work is in a playlist once")
            #expect(Self.subtitles(screen).last?.hasSuffix(spring[0].performers) == true)
            // Refusals name what is wrong.
            let missing = await Self.refusal { try await demo.service.perform(command: "playlists/add-recording", payload: ["playlistId": .integer(Int(id)), "recordingId": 999_999], apiVersion: .v6, user: user) }
            #expect(missing?.status == .notFound && missing?.path == "$.recordingId")
            let stranger = try await demo.service.resolveIdentity(token: nil).user
            let theirs = await Self.refusal { try await demo.service.perform(command: "playlists/add-recording", payload: other, apiVersion: .v6, user: stranger) }
            #expect(theirs?.status == .notFound && theirs?.path == "$.playlistId")
            // A new playlist from a recording: its first entry plays that recording.
            guard case .prompt(let prompt) = try await perform("playlists/new", ["recordingId": .integer(Int(spring[1].id))]) else {
                Issue.record("New playlist asks for a name")
                return
            }
            #expect(prompt.message == "The recording will be its first entry.")
            var create = prompt.submit.payload?.objectValue ?? [:]
            create["name"] = "Spring"
            guard case .navigate(let opened) = try await perform("playlists/create", .object(create)), let new = Int64(opened.url.split(separator: "/").last ?? "")
            else {
                Issue.record("creating opens the playlist")
                return
            }
            #expect(try await demo.catalog.recordingsToPlay([6], inPlaylist: new).map(\.id) == [spring[1].id])
        }
    }

    static func subtitles(_ screen: Screen) -> [String] { rows(screen).compactMap(\.subtitle) }

    @Test("its owner's menu renames (the prompt shows the name it has) and deletes; a blank or oversized name is refused")
    func rename() async throws {
        try await withDemo { demo, _ in
            let (user, id) = try await Self.playlist(demo)
            let screen = try await demo.service.screen(path: "playlist/\(id)", apiVersion: .v6, user: user)
            #expect(screen.menu?.map(\.title) == ["Rename", "Delete playlist"])
            let payload: JSONValue = ["playlistId": .integer(Int(id))]
            guard case .prompt(let prompt) = try await demo.service.perform(command: "playlists/rename", payload: payload, apiVersion: .v6, user: user).outcome
            else {
                Issue.record("Rename asks for the name")
                return
            }
            #expect(prompt.field.initialValue == "Trip")
            #expect(prompt.submit.payload == payload)
            let renamed = try await demo.service.perform(
                command: "playlists/rename", payload: ["playlistId": .integer(Int(id)), "name": "Road Trip"], apiVersion: .v6, user: user)
            #expect(renamed.outcome == .done(.init(message: "Renamed to “Road Trip”", refresh: true)))
            #expect(try await demo.service.screen(path: "playlist/\(id)", apiVersion: .v6, user: user).title == "Road Trip")
            for bad in ["   ", String(repeating: "x", count: 101)] {
                let error = await Self.refusal {
                    try await demo.service.perform(
                        command: "playlists/rename", payload: ["playlistId": .integer(Int(id)), "name": .string(bad)], apiVersion: .v6, user: user)
                }
                #expect(error?.status == .unprocessableContent && error?.path == "$.name", "\(String(describing: error))")
            }
            #expect(try await demo.service.screen(path: "playlist/\(id)", apiVersion: .v6, user: user).title == "Road Trip", "nothing changed")
        }
    }

    @Test("a work is taken out from beside its row; the others keep their order")
    func removeWork() async throws {
        try await withDemo { demo, _ in
            let (user, id) = try await Self.playlist(demo)
            let before = Self.works(try await demo.service.screen(path: "playlist/\(id)", apiVersion: .v6, user: user))
            #expect(before.count == 2)
            let removed = try await demo.service.perform(
                command: "playlists/remove-work", payload: ["playlistId": .integer(Int(id)), "workId": 1], apiVersion: .v6, user: user)
            guard case .done(let done) = removed.outcome else {
                Issue.record("\(removed.outcome)")
                return
            }
            #expect(done.refresh && done.message?.hasPrefix("Removed “\(before[0])”") == true, "\(done)")
            #expect(Self.works(try await demo.service.screen(path: "playlist/\(id)", apiVersion: .v6, user: user)) == [before[1]])
            // Again: nothing to take out, said so.
            let again = try await demo.service.perform(
                command: "playlists/remove-work", payload: ["playlistId": .integer(Int(id)), "workId": 1], apiVersion: .v6, user: user)
            guard case .done(let twice) = again.outcome else { return }
            #expect(twice.message?.contains("is not in") == true)
        }
    }

    @Test("delete asks first; the confirmed delete opens the library, and the playlist and its hearts are gone")
    func delete() async throws {
        try await withDemo { demo, _ in
            let (user, id) = try await Self.playlist(demo)
            let payload: JSONValue = ["playlistId": .integer(Int(id))]
            _ = try await demo.service.perform(command: "favorites/add", payload: payload, apiVersion: .v6, user: user)
            guard case .choice(let choice) = try await demo.service.perform(command: "playlists/delete", payload: payload, apiVersion: .v6, user: user).outcome
            else {
                Issue.record("Delete asks first")
                return
            }
            #expect(choice.title == "Delete “Trip”?")
            #expect(choice.options.map(\.command.url) == ["commands/playlists/delete-confirmed"])
            // Asking deleted nothing.
            #expect(try await demo.service.screen(path: "playlist/\(id)", apiVersion: .v6, user: user).title == "Trip")
            let deleted = try await demo.service.perform(command: "playlists/delete-confirmed", payload: payload, apiVersion: .v6, user: user)
            guard case .navigate(let navigate) = deleted.outcome else {
                Issue.record("\(deleted.outcome)")
                return
            }
            #expect(navigate.url == "screens/library")
            do {
                _ = try await demo.service.screen(path: "playlist/\(id)", apiVersion: .v6, user: user)
                Issue.record("a deleted playlist is gone")
            } catch let error as ScreenplayError {
                #expect(error.status == .notFound)
            }
            let favorites = try await demo.service.screen(path: "favorites", apiVersion: .v6, user: user)
            #expect(!favorites.sections.contains { $0.id == "playlists" }, "its heart went with it")
            let library = try await demo.service.screen(path: "library", apiVersion: .v6, user: user)
            #expect(!library.sections.flatMap(\.components).contains { "\($0)".contains("Trip") })
            // Deleting again: a 404 naming the playlist.
            let error = await Self.refusal {
                try await demo.service.perform(command: "playlists/delete-confirmed", payload: payload, apiVersion: .v6, user: user)
            }
            #expect(error?.status == .notFound && error?.path == "$.playlistId")
        }
    }

    @Test("Share gives a link anyone may open, read-only, that follows the owner's changes; the playlist's own page stays the owner's")
    func share() async throws {
        try await withDemo { demo, _ in
            let (owner, id) = try await Self.playlist(demo)
            let own = try await demo.service.screen(path: "playlist/\(id)", apiVersion: .v6, user: owner)
            guard case .share(let share) = own.toolbar?.first?.action else {
                Issue.record("the owner's playlist has Share: \(String(describing: own.toolbar))")
                return
            }
            #expect(share.title == "Trip")
            let token = String(share.url.dropFirst("/screens/shared/".count))
            #expect(share.url.hasPrefix("/screens/shared/") && token.count == 32 && token.allSatisfy(\.isHexDigit), "\(share.url)")
            // A stranger: the link opens it, read-only (Play all, its works; no menu, no remove); the id does not.
            let stranger = try await demo.service.resolveIdentity(token: nil).user
            let shared = try await demo.service.screen(path: "shared/\(token)", apiVersion: .v6, user: stranger)
            #expect(shared.title == "Trip" && shared.menu == nil)
            #expect(Self.works(shared).count == 2)
            #expect(!"\(shared.sections)".contains("remove-work"))
            #expect(shared.sections.first { $0.id == "about" }?.components.first.map { "\($0)".contains("Play all") } == true)
            do {
                _ = try await demo.service.screen(path: "playlist/\(id)", apiVersion: .v6, user: stranger)
                Issue.record("a private playlist's own page is its owner's")
            } catch let error as ScreenplayError {
                #expect(error.status == .notFound)
            }
            // The owner renames: the link shows the new name.
            _ = try await demo.service.perform(
                command: "playlists/rename", payload: ["playlistId": .integer(Int(id)), "name": "Long Trip"], apiVersion: .v6, user: owner)
            #expect(try await demo.service.screen(path: "shared/\(token)", apiVersion: .v6, user: stranger).title == "Long Trip")
            // A link that names nothing: a malformed token, another token, a deleted playlist.
            _ = try await demo.service.perform(command: "playlists/delete-confirmed", payload: ["playlistId": .integer(Int(id))], apiVersion: .v6, user: owner)
            for bad in [token, String(repeating: "0", count: 32), "not-a-token", String(repeating: "a", count: 500)] {
                do {
                    _ = try await demo.service.screen(path: "shared/\(bad)", apiVersion: .v6, user: stranger)
                    Issue.record("\(bad.prefix(40)) opened something")
                } catch let error as ScreenplayError {
                    #expect(error.status == .notFound, "\(bad.prefix(40)): \(error)")
                }
            }
            // An editorial playlist is shared by its own page.
            let editorial = try await demo.service.screen(path: "playlist/1", apiVersion: .v6, user: stranger)
            guard case .share(let editorialShare) = editorial.toolbar?.first?.action else {
                Issue.record("editorial playlists have Share")
                return
            }
            #expect(editorialShare.url == "/screens/playlist/1")
        }
    }

    @Test("an editorial playlist or another user's: no menu, and every command a 404 that tells nothing more")
    func notYours() async throws {
        try await withDemo { demo, _ in
            let (_, id) = try await Self.playlist(demo)
            let stranger = try await demo.service.resolveIdentity(token: nil).user
            let editorial = try await demo.service.screen(path: "playlist/1", apiVersion: .v6, user: stranger)
            #expect(editorial.menu == nil)
            #expect(!"\(editorial.sections)".contains("remove-work"))
            for playlist in [Int64(1), id] {
                for (command, extra) in [
                    ("playlists/rename", ["name": JSONValue.string("Mine now")]), ("playlists/delete", [:]), ("playlists/delete-confirmed", [:]),
                    ("playlists/remove-work", ["workId": 1]),
                ] {
                    var payload: [String: JSONValue] = ["playlistId": .integer(Int(playlist))]
                    payload.merge(extra) { $1 }
                    let error = await Self.refusal {
                        try await demo.service.perform(command: command, payload: .object(payload), apiVersion: .v6, user: stranger)
                    }
                    #expect(error?.status == .notFound && error?.message == "no playlist \(playlist) of yours", "\(command) \(playlist): \(String(describing: error))")
                }
            }
        }
    }
}

@Suite("Hearts on composers, works and recordings")
struct CatalogFavoriteTests {
    @Test("each kind's heart adds and removes, twice is harmless, an unknown id is a 404 at its member, and Favorites lists each kind")
    func hearts() async throws {
        try await withDemo { demo, _ in
            let user = try await demo.service.resolveIdentity(token: nil).user
            for (kind, member) in [("composers", "composerId"), ("works", "workId"), ("recordings", "recordingId")] {
                for _ in 0..<2 {
                    let added = try await demo.service.perform(
                        command: "favorites/\(kind)/add", payload: [member: 1], apiVersion: .v6, user: user)
                    guard case .done(let done) = added.outcome else {
                        Issue.record("\(kind): \(added.outcome)")
                        continue
                    }
                    #expect(done.message?.hasPrefix("Added “") == true)
                    let entity = kind == "composers" ? "composer/1" : kind == "works" ? "work/1" : "recording/1"
                    #expect(added.updates.entities[entity]?["favorite"] == true)
                }
                let error = await PlaylistManagementTests.refusal {
                    try await demo.service.perform(command: "favorites/\(kind)/add", payload: [member: 999_999], apiVersion: .v6, user: user)
                }
                #expect(error?.status == .notFound && error?.path == "$.\(member)", "\(String(describing: error))")
            }
            let favorites = try await demo.service.screen(path: "favorites", apiVersion: .v6, user: user)
            #expect(favorites.sections.map(\.id) == ["composers", "works", "recordings"])
            #expect(favorites.entities["composer/1"]?["favorite"] == true)
            // The work's page shows its heart on, and the recording's.
            let work = try await demo.service.screen(path: "work/1", apiVersion: .v6, user: user)
            #expect(work.entities["work/1"]?["favorite"] == true && work.entities["recording/1"]?["favorite"] == true)
            _ = try await demo.service.perform(command: "favorites/works/remove", payload: ["workId": 1], apiVersion: .v6, user: user)
            let after = try await demo.service.screen(path: "favorites", apiVersion: .v6, user: user)
            #expect(after.sections.map(\.id) == ["composers", "recordings"])
            // Another user sees none of them.
            let other = try await demo.service.resolveIdentity(token: nil).user
            let theirs = try await demo.service.screen(path: "work/1", apiVersion: .v6, user: other)
            #expect(theirs.entities["work/1"]?["favorite"] == false && theirs.entities["recording/1"]?["favorite"] == false)
        }
    }
}
