import SQLKit
import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer
import ScreenplayStore

/// Listeners opening offers on the shop: what the experiments' "shop clicks" metric counts.
///
/// Opening an offer is a command, `commands/shop/open` with `{"workId", "widget"}`, answered with
/// a navigation to the work, so the server sees every click it counts, from every client and API
/// version (command results that navigate are v1), and a GET of a work's screen (a revalidation,
/// an offline sync, a reload) is never taken for one:
/// - clients that do not render the shop's kinds (the web pages, older apps) get the command as
///   the action of each kind's fallback;
/// - apps that render the kinds read it from the widget's `open` field (v5); apps built before
///   the field follow `link` instead, and their clicks are not counted.
///
/// A click is recorded for a client with an identity, once per request (apps send an
/// `Idempotency-Key`, and a retry is answered with the first answer). A reader without a token is
/// navigated all the same, with nothing recorded and no identity made for it (the command's
/// identity is ``ScreenplayRoutes/CommandIdentity/anonymous``).
struct ShopClicks: Sendable {
    let store: any SQLStore
    let catalog: CatalogRepository

    /// The table of clicks: who, which work, from which widget kind, when.
    static let migrations = [Migration(id: "demo-0003-shop-clicks", apply: createTable)]

    static func createTable(_ database: any SQLDatabase) async throws {
        try await database.create(table: "shop_clicks")
            .column("id", type: .bigint, .primaryKey(autoIncrement: true))
            .column("user_id", type: .bigint, .notNull, .references("screenplay_users", "id"))
            .column("work_id", type: .bigint, .notNull, .references("works", "id"))
            .column("widget", type: .text, .notNull)
            .column("at", type: .text, .notNull)
            .run()
        // The metric reads each exposed user's clicks after a moment.
        try await database.create(index: "shop_clicks_by_user").on("shop_clicks").column("user_id").column("at").run()
    }

    /// The command's path under `commands/`.
    static let openPath = "shop/open"

    /// The widget kinds whose tap opens an offer: what `widget` may name.
    static let widgets: Set<String> = [ShopWidgets.recordingOffer.type, ShopWidgets.cartButton.type]

    /// The command opening `workID` from a widget of kind `widget`, as the verticals put it in the
    /// widget's `open` field: `{"url": "commands/shop/open", "payload": {…}}`.
    static func openCommand(workID: Int64, widget: String) -> JSONValue {
        ["url": .string("commands/" + openPath), "payload": ["workId": .integer(Int(workID)), "widget": .string(widget)]]
    }

    func register(in routes: inout ScreenplayRoutes, hooks: DemoApp.TestHooks = .init()) {
        let payload = CommandPayloadSchema(
            required: ["workId": .id, "widget": .schema(["type": "string", "enum": .array(Self.widgets.sorted().map(JSONValue.string))])])
        routes.command(Self.openPath, identity: .anonymous, payload: payload, hooks: hooks) { request in try await open(request) }
    }

    /// Records the click (for a user with an identity) and navigates to the work, carrying its
    /// header. An unknown work is a 404 and an unknown widget kind a 422, and neither is recorded.
    func open(_ request: CommandRequest) async throws -> CommandResult {
        let workID = Int64(try request.integer("workId"))
        let widget = try request.text("widget", maxLength: 64)
        guard Self.widgets.contains(widget) else {
            throw ScreenplayError.invalidField(
                "widget", "'widget' must name a kind that opens an offer: \(Self.widgets.sorted().joined(separator: ", "))")
        }
        guard let work = try await catalog.work(id: workID) else {
            throw ScreenplayError.notFound("no work \(workID)", path: "$.workId")
        }
        if !request.user.isAnonymous { try await record(user: request.user, workID: workID, widget: widget) }
        return .navigate(.init(url: DemoLinks.work(work.id), header: DemoLinks.workHeader(work)))
    }

    /// One row. No user revision moves: a click changes no screen.
    func record(user: UserIdentity, workID: Int64, widget: String) async throws {
        try await store.transaction { database in
            try await database.insert(into: "shop_clicks").columns("user_id", "work_id", "widget", "at")
                .values(SQLBind(user.id), SQLBind(workID), SQLBind(widget), SQLBind(Migrator.timestamp())).run()
        }
    }

    /// `user`'s clicks, oldest first: (work, widget kind, moment).
    func clicks(of user: UserIdentity) async throws -> [(workID: Int64, widget: String, at: String)] {
        try await store.read { database in
            try await database.select().columns("work_id", "widget", "at").from("shop_clicks").where("user_id", .equal, user.id)
                .orderBy("id").all().map { row in
                    (
                        workID: try row.decode(column: "work_id", as: Int64.self),
                        widget: try row.decode(column: "widget", as: String.self),
                        at: try row.decode(column: "at", as: String.self)
                    )
                }
        }
    }
}
