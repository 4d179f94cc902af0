import Foundation
import HTTPTypes
import ScreenplayContract
@testable import ScreenplayDemo
import ScreenplayServer
import Testing

@Suite("A playlist of one's own in one's own order")
struct PlaylistReorderTests {
    /// A new user with a playlist of works 1, 5 and 9, in that order; its id.
    static func playlist(_ demo: DemoApp) async throws -> (user: UserIdentity, id: Int64) {
        let user = try await demo.service.resolveIdentity(token: nil).user
        let created = try await demo.service.perform(command: "playlists/create", payload: ["name": "Trip", "workId": 1], apiVersion: .v6, user: user)
        guard case .navigate(let navigate) = created.outcome, let id = Int64(navigate.url.split(separator: "/").last ?? "") else {
            Issue.record("creating a playlist opens it: \(created.outcome)")
            return (user, 0)
        }
        for work in [5, 9] {
            _ = try await demo.service.perform(
                command: "playlists/add-work", payload: ["playlistId": .integer(Int(id)), "workId": .integer(work)], apiVersion: .v6, user: user)
        }
        return (user, id)
    }

    static func reorder(_ demo: DemoApp, _ id: Int64, _ order: [JSONValue], user: UserIdentity) async throws(ScreenplayError) -> CommandResult {
        try await demo.service.perform(
            command: "playlists/reorder", payload: ["playlistId": .integer(Int(id)), "order": .array(order)], apiVersion: .v6, user: user)
    }

    static func keys(_ order: [String]) -> [JSONValue] { order.map(JSONValue.string) }

    /// The ids of the works of a playlist, as the catalog orders them.
    static func stored(_ demo: DemoApp, _ id: Int64) async throws -> [Int64] {
        try await demo.catalog.works(inPlaylist: id).map(\.id)
    }

    /// The works section's reorderable list, if it has one.
    static func list(_ screen: Screen) -> Component.ReorderableList? {
        for component in screen.sections.first(where: { $0.id == "works" })?.components ?? [] {
            if case .reorderableList(let list) = component.content { return list }
        }
        return nil
    }

    /// Whether any component of the screen is a reorderable list.
    static func hasList(_ screen: Screen) -> Bool {
        screen.allComponents.contains { $0.kind == Component.ReorderableList.kind }
    }

    /// The screen as an app of `version` receives it, through the cache.
    static func received(_ demo: DemoApp, _ id: Int64, _ version: APIVersion, user: UserIdentity) async throws -> Screen {
        let body = try await demo.service.encodedScreen(path: "playlist/\(id)", apiVersion: version, user: user)
        return try ScreenplayDecoder(mode: .strict, apiVersion: version).decode(Screen.self, from: Data(body.bytes)).value
    }

    static func refusal(_ body: () async throws -> CommandResult) async -> ScreenplayError? {
        await PlaylistManagementTests.refusal(body)
    }

    @Test("the owner's playlist is a reorderable list of its works, named by work, that sends its order to playlists/reorder")
    func ownerScreen() async throws {
        try await withDemo { demo, _ in
            let (user, id) = try await Self.playlist(demo)
            let screen = try await demo.service.screen(path: "playlist/\(id)", apiVersion: .v6, user: user)
            let list = try #require(Self.list(screen), "\(screen.sections)")
            #expect(list.order == ["work-1", "work-5", "work-9"])
            #expect(list.label == "Works of Trip")
            #expect(list.move == Action.Command(url: "commands/playlists/reorder", payload: ["playlistId": .integer(Int(id))]))
            // Each row still opens its work and can be taken out from beside it.
            #expect("\(list.children[0])".contains("remove-work"))
            #expect(list.children.allSatisfy { $0.children.count == 2 })
            #expect(list.payload(for: ["work-9", "work-1", "work-5"]) == ["playlistId": .integer(Int(id)), "order": ["work-9", "work-1", "work-5"]])
        }
    }

    @Test("a new order is saved: the catalog, the screen and what each app version receives follow it; the same order again is already done")
    func reorder() async throws {
        try await withDemo { demo, _ in
            let (user, id) = try await Self.playlist(demo)
            // Read once through the cache first, so a stale cached answer would show.
            #expect(Self.list(try await Self.received(demo, id, .v6, user: user))?.order == ["work-1", "work-5", "work-9"])
            let result = try await Self.reorder(demo, id, Self.keys(["work-9", "work-1", "work-5"]), user: user)
            #expect(result.outcome == .done(.init(message: "New order of “Trip” saved", refresh: true)))
            #expect(try await Self.stored(demo, id) == [9, 1, 5])
            let screen = try await demo.service.screen(path: "playlist/\(id)", apiVersion: .v6, user: user)
            #expect(Self.list(screen)?.order == ["work-9", "work-1", "work-5"])
            let works = try await demo.catalog.works(inPlaylist: id)
            // The rows' titles follow the works, not only their ids.
            let titles = Self.list(screen)?.children.compactMap { row -> String? in
                guard case .listRow(let listRow) = row.children.first?.content else { return nil }
                return listRow.title
            }
            #expect(titles == works.map(\.title))
            #expect(Self.list(try await Self.received(demo, id, .v6, user: user))?.order == ["work-9", "work-1", "work-5"], "the cached answer was replaced")
            // An app before v6 gets the works in a plain stack, in the new order.
            let old = try await Self.received(demo, id, .v5, user: user)
            #expect(!Self.hasList(old))
            let stack = old.sections.first { $0.id == "works" }?.components.first
            #expect(stack?.kind == Component.VerticalStack.kind)
            #expect(stack?.children.map(\.id) == ["work-9", "work-1", "work-5"])
            // Again: nothing to change, said so, nothing changed.
            let again = try await Self.reorder(demo, id, Self.keys(["work-9", "work-1", "work-5"]), user: user)
            #expect(again.outcome == .done(.init(message: "“Trip” is already in that order", refresh: true)))
            #expect(try await Self.stored(demo, id) == [9, 1, 5])
            // Back to the start.
            _ = try await Self.reorder(demo, id, Self.keys(["work-1", "work-5", "work-9"]), user: user)
            #expect(try await Self.stored(demo, id) == [1, 5, 9])
        }
    }

    @Test("after a work is taken out, an order of those left is saved")
    func afterRemoval() async throws {
        try await withDemo { demo, _ in
            let (user, id) = try await Self.playlist(demo)
            _ = try await demo.service.perform(
                command: "playlists/remove-work", payload: ["playlistId": .integer(Int(id)), "workId": 5], apiVersion: .v6, user: user)
            _ = try await Self.reorder(demo, id, Self.keys(["work-9", "work-1"]), user: user)
            #expect(try await Self.stored(demo, id) == [9, 1])
            // A work added after comes last.
            _ = try await demo.service.perform(
                command: "playlists/add-work", payload: ["playlistId": .integer(Int(id)), "workId": 5], apiVersion: .v6, user: user)
            #expect(try await Self.stored(demo, id) == [9, 1, 5])
        }
    }

    @Test(
        "an order missing a work, naming another, or one too many is stale: a 409 at $.order, nothing changed",
        arguments: [["work-9", "work-1"], ["work-9", "work-1", "work-2"], ["work-9", "work-1", "work-5", "work-2"], []])
    func stale(order: [String]) async throws {
        try await withDemo { demo, _ in
            let (user, id) = try await Self.playlist(demo)
            let error = await Self.refusal { try await Self.reorder(demo, id, Self.keys(order), user: user) }
            #expect(error?.status == .conflict && error?.code == "staleOrder" && error?.path == "$.order", "\(String(describing: error))")
            #expect(try await Self.stored(demo, id) == [1, 5, 9])
        }
    }

    @Test(
        "an item that names no work, or a work twice, is a 422 at its index; nothing changed",
        arguments: [
            ([JSONValue.string("x"), "work-1", "work-5"], "$.order[0]"),
            (["work-9", "work-9", "work-5"], "$.order[1]"),
            (["work-9", "work-1", "work-0"], "$.order[2]"),
            (["work-9", "work-1", "work--5"], "$.order[2]"),
            (["work-9", 1, "work-5"], "$.order[1]"),
            (["work-9", "work-", "work-5"], "$.order[1]"),
            (["work-9", "work-1", .null], "$.order[2]"),
        ] as [([JSONValue], String)])
    func invalid(order: [JSONValue], path: String) async throws {
        try await withDemo { demo, _ in
            let (user, id) = try await Self.playlist(demo)
            let error = await Self.refusal { try await Self.reorder(demo, id, order, user: user) }
            #expect(error?.status == .unprocessableContent && error?.path == path, "\(order): \(String(describing: error))")
            #expect(try await Self.stored(demo, id) == [1, 5, 9])
        }
    }

    @Test("an order that is not an array, or none, is a 422 at $.order")
    func notAnArray() async throws {
        try await withDemo { demo, _ in
            let (user, id) = try await Self.playlist(demo)
            for payload: JSONValue in [["playlistId": .integer(Int(id)), "order": "work-1"], ["playlistId": .integer(Int(id))]] {
                let error = await Self.refusal {
                    try await demo.service.perform(command: "playlists/reorder", payload: payload, apiVersion: .v6, user: user)
                }
                #expect(error?.status == .unprocessableContent && error?.path == "$.order", "\(payload): \(String(describing: error))")
            }
            #expect(try await Self.stored(demo, id) == [1, 5, 9])
        }
    }

    @Test("an item the command's declared schema forbids is refused, as the schema says (work-<id> without leading zeros or signs)")
    func asTheSchemaSays() async throws {
        try await withDemo { demo, _ in
            let (user, id) = try await Self.playlist(demo)
            for item in ["work-09", "work-+9", "work-9 "] {
                let error = await Self.refusal { try await Self.reorder(demo, id, [.string(item), "work-1", "work-5"], user: user) }
                #expect(error?.status == .unprocessableContent && error?.path == "$.order[0]", "\(item): \(String(describing: error))")
            }
            #expect(try await Self.stored(demo, id) == [1, 5, 9])
        }
    }

    @Test("an order longer than a playlist can be is refused at $.order before anything is looked at")
    func tooLong() async throws {
        try await withDemo { demo, _ in
            let (user, id) = try await Self.playlist(demo)
            let items = (1...(CatalogRepository.maximumWorksPerPlaylist + 1)).map { JSONValue.string("work-\($0)") }
            let error = await Self.refusal { try await Self.reorder(demo, id, items, user: user) }
            #expect(error?.status == .unprocessableContent && error?.path == "$.order", "\(String(describing: error))")
            #expect(error?.message.contains("at most \(CatalogRepository.maximumWorksPerPlaylist)") == true)
            #expect(try await Self.stored(demo, id) == [1, 5, 9])
        }
    }

    @Test("another user's playlist, or an editorial one, is a 404 that tells nothing more; nothing changed")
    func notYours() async throws {
        try await withDemo { demo, _ in
            let (owner, id) = try await Self.playlist(demo)
            let stranger = try await demo.service.resolveIdentity(token: nil).user
            let error = await Self.refusal { try await Self.reorder(demo, id, Self.keys(["work-9", "work-1", "work-5"]), user: stranger) }
            #expect(error?.status == .notFound && error?.path == "$.playlistId" && error?.message == "no playlist \(id) of yours", "\(String(describing: error))")
            #expect(try await Self.stored(demo, id) == [1, 5, 9])
            // Even with a bad order: who owns it is asked first.
            let bad = await Self.refusal { try await Self.reorder(demo, id, ["x"], user: stranger) }
            #expect(bad?.status == .notFound, "\(String(describing: bad))")
            // An editorial playlist (nobody's) in the order it has, reversed.
            let editorial = try await demo.catalog.works(inPlaylist: 1).map { "work-\($0.id)" }
            #expect(!editorial.isEmpty)
            for user in [owner, stranger] {
                let refused = await Self.refusal { try await Self.reorder(demo, 1, Self.keys(editorial.reversed()), user: user) }
                #expect(refused?.status == .notFound && refused?.message == "no playlist 1 of yours", "\(String(describing: refused))")
            }
            #expect(try await demo.catalog.works(inPlaylist: 1).map { "work-\($0.id)" } == editorial)
        }
    }

    @Test("nobody but its owner sees a list to reorder: not on an editorial playlist, not by the share link")
    func onlyTheOwner() async throws {
        try await withDemo { demo, _ in
            let (owner, id) = try await Self.playlist(demo)
            let stranger = try await demo.service.resolveIdentity(token: nil).user
            let editorial = try await demo.service.screen(path: "playlist/1", apiVersion: .v6, user: stranger)
            #expect(!Self.hasList(editorial))
            #expect(!PlaylistManagementTests.works(editorial).isEmpty, "its works are plain rows")
            #expect(!Self.hasList(try await demo.service.screen(path: "playlist/1", apiVersion: .v6, user: owner)))
            let own = try await demo.service.screen(path: "playlist/\(id)", apiVersion: .v6, user: owner)
            guard case .share(let share) = own.toolbar?.first?.action else {
                Issue.record("the owner's playlist has Share")
                return
            }
            let shared = try await demo.service.screen(path: String(share.url.dropFirst("/screens/".count)), apiVersion: .v6, user: stranger)
            #expect(!Self.hasList(shared))
            #expect(PlaylistManagementTests.works(shared).count == 3)
            // The owner reorders: the link follows.
            _ = try await Self.reorder(demo, id, Self.keys(["work-9", "work-1", "work-5"]), user: owner)
            let sharedAfter = try await demo.service.screen(path: String(share.url.dropFirst("/screens/".count)), apiVersion: .v6, user: stranger)
            let works = try await demo.catalog.works(inPlaylist: id)
            #expect(works.map(\.id) == [9, 1, 5])
            #expect(PlaylistManagementTests.works(sharedAfter) == works.map(\.title))
        }
    }

    @Test("an empty playlist of one's own has an empty list and says how to fill it")
    func emptyPlaylist() async throws {
        try await withDemo { demo, _ in
            let (user, id) = try await Self.playlist(demo)
            for work in [1, 5, 9] {
                _ = try await demo.service.perform(
                    command: "playlists/remove-work", payload: ["playlistId": .integer(Int(id)), "workId": .integer(work)], apiVersion: .v6, user: user)
            }
            let screen = try await demo.service.screen(path: "playlist/\(id)", apiVersion: .v6, user: user)
            #expect(Self.list(screen)?.children.isEmpty != false)
            #expect("\(screen.sections)".contains("No works yet"))
            let again = try await Self.reorder(demo, id, [], user: user)
            guard case .done = again.outcome else {
                Issue.record("\(again.outcome)")
                return
            }
        }
    }
}
