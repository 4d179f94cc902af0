import ScreenplayContract
import ScreenplayServer

/// Hearts on composers, works and recordings: for each kind (``CatalogKind``) a pair of commands,
/// `favorites/<kind>s/add` and `…/remove` with the item's id (`{"composerId": 3}`), and the toggle
/// that carries both, bound to the item's entity so every heart for it on the screen flips at once
/// and before the server answers (v5), as a playlist's heart does.
struct CatalogFavoriteCommands: Sendable {
    let catalog: CatalogRepository

    /// The heart for one item, labelled with its name ("Sergei Rachmaninoff").
    static func button(_ kind: CatalogKind, id: Int64, name: String, isFavorite: Bool) -> Component {
        let payload: JSONValue = [kind.payloadKey: .integer(Int(id))]
        return Component.FavoriteButton(
            isFavorite: isFavorite, label: name, add: add(kind, id: id),
            remove: .init(
                url: "commands/\(kind.commandPath)/remove", payload: payload, optimistic: .init(entities: entity(kind, id: id, isFavorite: false)))
        )
        .bind("isFavorite", to: kind.entity(id), DemoLinks.favoriteMember)
    }

    /// The command that hearts one item, every copy of its heart flipping before the answer:
    /// a heart's, or a menu item's ("Add this recording to favorites").
    static func add(_ kind: CatalogKind, id: Int64) -> Action.Command {
        .init(
            url: "commands/\(kind.commandPath)/add", payload: [kind.payloadKey: .integer(Int(id))],
            optimistic: .init(entities: entity(kind, id: id, isFavorite: true)))
    }

    /// The entity that carries one item's favorite flag.
    static func entity(_ kind: CatalogKind, id: Int64, isFavorite: Bool) -> Entities {
        [kind.entity(id): [DemoLinks.favoriteMember: .bool(isFavorite)]]
    }

    func register(in routes: inout ScreenplayRoutes, hooks: DemoApp.TestHooks = .init()) {
        for kind in CatalogKind.allCases {
            let payload = CommandPayloadSchema(required: [kind.payloadKey: .id])
            for favorite in [true, false] {
                routes.command("\(kind.commandPath)/\(favorite ? "add" : "remove")", payload: payload, hooks: hooks) { request in
                    try await set(favorite, kind, request)
                }
            }
        }
    }

    func set(_ favorite: Bool, _ kind: CatalogKind, _ request: CommandRequest) async throws -> CommandResult {
        let id = Int64(try request.integer(kind.payloadKey))
        let (outcome, name) = try await catalog.setFavorite(favorite, kind, id: id, user: request.user)
        switch outcome {
        case .notFound:
            throw ScreenplayError.notFound("no \(kind.rawValue) \(id)", path: "$.\(kind.payloadKey)")
        case .done, .alreadyDone:
            let named = name ?? "\(kind.rawValue) \(id)"
            return CommandResult(
                .done(.init(message: favorite ? "Added “\(named)” to favorites" : "Removed “\(named)” from favorites")),
                updates: .init(entities: Self.entity(kind, id: id, isFavorite: favorite)))
        }
    }
}
