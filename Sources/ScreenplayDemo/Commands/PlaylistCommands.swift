import ScreenplayContract
import ScreenplayServer

/// The remote commands behind the demo's menus: favorites and playlists.
///
/// Every flow (create a playlist through a prompt, add a work through a choice list) is driven
/// from here; the client only shows the results.
struct PlaylistCommands: Sendable {
    let catalog: CatalogRepository

    static let maximumNameLength = 100
    /// Names are limited in UTF-8 bytes too: 100 characters can each hold thousands of combining
    /// marks, and what is stored, cached and sent is bytes.
    static let maximumNameBytes = 400

    // MARK: Menu items the screens show

    static func newPlaylistMenuItem() -> MenuItem {
        MenuItem(title: "New playlist", icon: "plus", action: .command("commands/playlists/new"))
    }

    /// "Add to playlist" for a recording: its work, played in it.
    static func addRecordingCommand(_ recordingID: Int64) -> Action.Command {
        .init(url: "commands/playlists/choose-recording", payload: ["recordingId": .integer(Int(recordingID))])
    }

    static func addToPlaylistMenuItem(workID: Int64) -> MenuItem {
        MenuItem(
            title: "Add to playlist", icon: "text.badge.plus",
            action: .command("commands/playlists/choose", payload: ["workId": .integer(Int(workID))]))
    }

    /// The toggle for a playlist's favorite state, carrying both commands, bound to the
    /// playlist's entity: wherever it appears, one command result flips every copy. Each command
    /// says what it will do (v5), so the heart flips before the server answers.
    static func favoriteButton(playlist: PlaylistRecord, isFavorite: Bool) -> Component {
        let payload: JSONValue = ["playlistId": .integer(Int(playlist.id))]
        return Component.FavoriteButton(
            isFavorite: isFavorite, label: playlist.name,
            add: .init(
                url: "commands/favorites/add", payload: payload,
                optimistic: .init(entities: favoriteEntity(playlistID: playlist.id, isFavorite: true))),
            remove: .init(
                url: "commands/favorites/remove", payload: payload,
                optimistic: .init(entities: favoriteEntity(playlistID: playlist.id, isFavorite: false)))
        )
        .bind("isFavorite", to: DemoLinks.playlistEntity(playlist.id), DemoLinks.favoriteMember)
    }

    /// The entity that carries a playlist's favorite flag.
    static func favoriteEntity(playlistID: Int64, isFavorite: Bool) -> Entities {
        [DemoLinks.playlistEntity(playlistID): [DemoLinks.favoriteMember: .bool(isFavorite)]]
    }

    // MARK: Routes

    func register(in routes: inout ScreenplayRoutes, hooks: DemoApp.TestHooks = .init()) {
        let playlist = CommandPayloadSchema(required: ["playlistId": .id])
        let work = CommandPayloadSchema(required: ["workId": .id])
        let name = CommandPayloadSchema.Field.text(maxLength: Self.maximumNameLength)
        routes.command("favorites/add", payload: playlist, hooks: hooks) { request in try await setFavorite(true, request) }
        routes.command("favorites/remove", payload: playlist, hooks: hooks) { request in try await setFavorite(false, request) }
        routes.command("playlists/new", payload: .init(optional: ["workId": .id, "recordingId": .id]), hooks: hooks) { request in
            try await newPlaylist(request)
        }
        routes.command("playlists/create", payload: .init(required: ["name": name], optional: ["workId": .id, "recordingId": .id]), hooks: hooks) {
            request in try await createPlaylist(request)
        }
        routes.command("playlists/choose-recording", payload: .init(required: ["recordingId": .id]), hooks: hooks) { request in
            try await chooseForRecording(request)
        }
        routes.command("playlists/add-recording", payload: .init(required: ["playlistId": .id, "recordingId": .id]), hooks: hooks) { request in
            try await addRecording(request)
        }
        routes.command("playlists/choose", payload: work, hooks: hooks) { request in try await choosePlaylist(request) }
        routes.command("playlists/add-work", payload: .init(required: ["playlistId": .id, "workId": .id]), hooks: hooks) { request in
            try await addWork(request)
        }
        routes.command("playlists/rename", payload: .init(required: ["playlistId": .id], optional: ["name": name]), hooks: hooks) { request in
            try await rename(request)
        }
        routes.command("playlists/delete", payload: playlist, hooks: hooks) { request in try await confirmDelete(request) }
        routes.command("playlists/delete-confirmed", payload: playlist, hooks: hooks) { request in try await delete(request) }
        routes.command("playlists/remove-work", payload: .init(required: ["playlistId": .id, "workId": .id]), hooks: hooks) { request in
            try await removeWork(request)
        }
        let order = CommandPayloadSchema.Field.schema([
            "type": "array", "maxItems": .integer(CatalogRepository.maximumWorksPerPlaylist),
            "items": ["type": "string", "pattern": "^work-[1-9][0-9]{0,17}$"],
        ])
        routes.command("playlists/reorder", payload: .init(required: ["playlistId": .id, "order": order]), hooks: hooks) { request in
            try await reorder(request)
        }
    }

    /// The command a reorderable list of `playlist`'s works sends its new order with (v6).
    static func reorderCommand(playlist: PlaylistRecord) -> Action.Command {
        Action.Command(url: "commands/playlists/reorder", payload: ["playlistId": .integer(Int(playlist.id))])
    }

    /// How an order names a work: its row's id.
    static func orderKey(_ workID: Int64) -> String { "work-\(workID)" }

    /// Puts the works of one of the user's playlists in the order sent (each named `work-<id>`,
    /// every work of the playlist once). An order naming a work the playlist no longer holds, or
    /// missing one (another device changed it meanwhile), is refused as stale: the page shows the
    /// playlist as it is now.
    func reorder(_ request: CommandRequest) async throws -> CommandResult {
        let playlist = try await ownPlaylist(request)
        guard let items = request.payload["order"]?.arrayValue else { throw ScreenplayError.invalidField("order", "must be an array of work-<id>") }
        guard items.count <= CatalogRepository.maximumWorksPerPlaylist else {
            throw ScreenplayError.invalidField(
                "order", "names \(items.count) works; a playlist holds at most \(CatalogRepository.maximumWorksPerPlaylist)")
        }
        var order: [Int64] = []
        var named: Set<Int64> = []
        for (index, item) in items.enumerated() {
            // Written as the rows name them: `work-` and the id, no sign, no leading zero.
            guard let text = item.stringValue, text.hasPrefix("work-"), let id = Int64(text.dropFirst(5)), id > 0, text == Self.orderKey(id) else {
                throw ScreenplayError.invalidField("order[\(index)]", "must name a work as work-<id>")
            }
            guard named.insert(id).inserted else { throw ScreenplayError.invalidField("order[\(index)]", "names work \(id) twice") }
            order.append(id)
        }
        switch try await catalog.reorder(playlist: playlist.id, to: order, user: request.user) {
        case .notFound: throw ScreenplayError.notFound("no playlist \(playlist.id) of yours", path: "$.playlistId")
        case .alreadyDone: return .done(.init(message: "“\(playlist.name)” is already in that order", refresh: true))
        case .done: return .done(.init(message: "New order of “\(playlist.name)” saved", refresh: true))
        }
    }

    // MARK: A playlist of one's own: rename, delete (after asking), take a work out

    /// What the owner of a playlist may do with it, in its screen's menu.
    static func ownerMenu(_ playlist: PlaylistRecord) -> [MenuItem] {
        let payload: JSONValue = ["playlistId": .integer(Int(playlist.id))]
        return [
            MenuItem(title: "Rename", icon: "pencil", action: .command("commands/playlists/rename", payload: payload)),
            MenuItem(title: "Delete playlist", icon: "trash", action: .command("commands/playlists/delete", payload: payload)),
        ]
    }

    /// The button beside a work's row in its owner's playlist that takes it out.
    static func removeButton(playlist: PlaylistRecord, work: WorkRecord) -> Component {
        Button(
            title: "Remove", style: .plain,
            action: .command(
                "commands/playlists/remove-work", payload: ["playlistId": .integer(Int(playlist.id)), "workId": .integer(Int(work.id))])
        )
        .accessibility(label: "Remove \(work.title) from \(playlist.name)")
    }

    /// One of the user's own playlists, or a 404 naming it (another user's is no different from
    /// none: nothing tells whether it exists).
    private func ownPlaylist(_ request: CommandRequest) async throws -> PlaylistRecord {
        let playlistID = Int64(try request.integer("playlistId"))
        guard let playlist = try await catalog.playlist(id: playlistID, visibleTo: request.user), playlist.userId == request.user.id else {
            throw ScreenplayError.notFound("no playlist \(playlistID) of yours", path: "$.playlistId")
        }
        return playlist
    }

    /// Without a name, asks for one (the current one filled in); with one, renames.
    func rename(_ request: CommandRequest) async throws -> CommandResult {
        let playlist = try await ownPlaylist(request)
        guard request.payload["name"] != nil else {
            return .prompt(
                .init(
                    title: "Rename playlist",
                    field: .init(
                        name: "name", placeholder: "Playlist name", initialValue: playlist.name, maxLength: Self.maximumNameLength,
                        requiredMessage: "Name the playlist"),
                    submitTitle: "Rename", submit: .init(url: "commands/playlists/rename", payload: ["playlistId": .integer(Int(playlist.id))])))
        }
        let name = try request.text("name", maxLength: Self.maximumNameLength, maxBytes: Self.maximumNameBytes)
        switch try await catalog.rename(playlist: playlist.id, to: name, user: request.user) {
        case .notFound: throw ScreenplayError.notFound("no playlist \(playlist.id) of yours", path: "$.playlistId")
        case .alreadyDone: return .done(.init(message: "It is already called “\(name)”"))
        case .done: return .done(.init(message: "Renamed to “\(name)”", refresh: true))
        }
    }

    /// Asks before deleting: a choice whose one option deletes (closing it changes nothing).
    func confirmDelete(_ request: CommandRequest) async throws -> CommandResult {
        let playlist = try await ownPlaylist(request)
        return .choice(
            .init(
                title: "Delete “\(playlist.name)”?", message: "The playlist goes; its works stay in the catalog. This cannot be undone.",
                options: [
                    .init(
                        title: "Delete “\(playlist.name)”",
                        command: .init(url: "commands/playlists/delete-confirmed", payload: ["playlistId": .integer(Int(playlist.id))]))
                ]))
    }

    /// Deletes, then opens the library, where it no longer is.
    func delete(_ request: CommandRequest) async throws -> CommandResult {
        let playlistID = Int64(try request.integer("playlistId"))
        let (outcome, _) = try await catalog.delete(playlist: playlistID, user: request.user)
        guard outcome != .notFound else { throw ScreenplayError.notFound("no playlist \(playlistID) of yours", path: "$.playlistId") }
        return .navigate(.init(url: DemoLinks.library, header: LibraryScreen.header))
    }

    func removeWork(_ request: CommandRequest) async throws -> CommandResult {
        let playlist = try await ownPlaylist(request)
        let workID = Int64(try request.integer("workId"))
        guard let work = try await catalog.work(id: workID) else { throw ScreenplayError.notFound("no work \(workID)", path: "$.workId") }
        switch try await catalog.remove(work: workID, fromPlaylist: playlist.id, user: request.user) {
        case .notFound: throw ScreenplayError.notFound("no playlist \(playlist.id) of yours", path: "$.playlistId")
        case .alreadyDone: return .done(.init(message: "“\(work.title)” is not in “\(playlist.name)”", refresh: true))
        case .done: return .done(.init(message: "Removed “\(work.title)” from “\(playlist.name)”", refresh: true))
        }
    }

    func setFavorite(_ favorite: Bool, _ request: CommandRequest) async throws -> CommandResult {
        let playlistID = Int64(try request.integer("playlistId"))
        // One round trip on PostgreSQL: the playlist's name comes back with the write.
        let (outcome, name) = try await catalog.setFavorite(favorite, playlistID: playlistID, user: request.user)
        switch outcome {
        case .notFound:
            throw ScreenplayError.notFound("no playlist \(playlistID)", path: "$.playlistId")
        case .done, .alreadyDone:
            let playlistName = name ?? "playlist \(playlistID)"
            // The flag changes wherever the playlist is shown (v4: one entity patch, no reload;
            // older apps reload the screen instead).
            return CommandResult(
                .done(.init(message: favorite ? "Added “\(playlistName)” to favorites" : "Removed “\(playlistName)” from favorites")),
                updates: .init(entities: Self.favoriteEntity(playlistID: playlistID, isFavorite: favorite)))
        }
    }

    func newPlaylist(_ request: CommandRequest) async throws -> CommandResult {
        var payload: [String: JSONValue] = [:]
        if let recording = try await existingRecording(request) {
            payload["recordingId"] = .integer(Int(recording.id))
        } else if request.payload["workId"] != nil {
            let workID = try await existingWork(request)
            payload["workId"] = .integer(Int(workID))
        }
        let message = payload["recordingId"] != nil ? "The recording will be its first entry." : payload.isEmpty ? nil : "The work will be its first entry."
        return .prompt(
            .init(
                title: "New playlist", message: message,
                field: .init(name: "name", placeholder: "Playlist name", maxLength: Self.maximumNameLength, requiredMessage: "Name the playlist"),
                submitTitle: "Create", submit: .init(url: "commands/playlists/create", payload: .object(payload))))
    }

    func createPlaylist(_ request: CommandRequest) async throws -> CommandResult {
        let name = try request.text("name", maxLength: Self.maximumNameLength, maxBytes: Self.maximumNameBytes)
        // From a recording: its work, played in it; else a work, played in its first recording.
        let recording = try await existingRecording(request)
        var workID = recording?.workId
        if workID == nil, request.payload["workId"] != nil { workID = try await existingWork(request) }
        let id = try await catalog.createPlaylist(named: name, firstWork: workID, recording: recording?.id, user: request.user)
        // Straight to the new playlist, whatever the client: a person who made one wants to see it.
        guard let playlist = try await catalog.playlist(id: id, visibleTo: request.user) else {
            return .done(.init(message: "Created “\(name)”", refresh: true))
        }
        return .navigate(.init(url: DemoLinks.playlist(id), header: DemoLinks.playlistHeader(playlist)))
    }

    func choosePlaylist(_ request: CommandRequest) async throws -> CommandResult {
        let workID = try await existingWork(request)
        let playlists = try await catalog.playlists(of: request.user)
        let options = playlists.map { playlist in
            CommandResult.Choice.Option(
                title: playlist.name, subtitle: playlist.workCount == 1 ? "1 work" : "\(playlist.workCount) works",
                command: .init(
                    url: "commands/playlists/add-work",
                    payload: ["playlistId": .integer(Int(playlist.id)), "workId": .integer(Int(workID))]))
        }
        let create = CommandResult.Choice.Option(
            title: "New playlist…", command: .init(url: "commands/playlists/new", payload: ["workId": .integer(Int(workID))]))
        return .choice(
            .init(title: "Add to playlist", message: playlists.isEmpty ? "You have no playlists yet." : nil, options: options + [create]))
    }

    func addWork(_ request: CommandRequest) async throws -> CommandResult {
        let workID = try await existingWork(request)
        let playlistID = Int64(try request.integer("playlistId"))
        guard let playlist = try await catalog.playlist(id: playlistID, visibleTo: request.user), playlist.userId == request.user.id else {
            throw ScreenplayError.notFound("no playlist \(playlistID) of yours", path: "$.playlistId")
        }
        switch try await catalog.add(work: workID, toPlaylist: playlistID, user: request.user) {
        case .notFound:
            throw ScreenplayError.notFound("no playlist \(playlistID) of yours", path: "$.playlistId")
        case .alreadyDone:
            return .done(.init(message: "Already in “\(playlist.name)”", refresh: false))
        case .done:
            return .done(.init(message: "Added to “\(playlist.name)”", refresh: false))
        }
    }

    /// The choice of a playlist to add a recording to (its work, played in it), or a new one.
    func chooseForRecording(_ request: CommandRequest) async throws -> CommandResult {
        guard let recording = try await existingRecording(request) else { throw ScreenplayError.invalidField("recordingId", "required") }
        let playlists = try await catalog.playlists(of: request.user)
        let payload = { (playlist: PlaylistRecord) -> JSONValue in ["playlistId": .integer(Int(playlist.id)), "recordingId": .integer(Int(recording.id))] }
        let options = playlists.map { playlist in
            CommandResult.Choice.Option(
                title: playlist.name, subtitle: playlist.workCount == 1 ? "1 work" : "\(playlist.workCount) works",
                command: .init(url: "commands/playlists/add-recording", payload: payload(playlist)))
        }
        let create = CommandResult.Choice.Option(
            title: "New playlist…", command: .init(url: "commands/playlists/new", payload: ["recordingId": .integer(Int(recording.id))]))
        return .choice(
            .init(
                title: "Add \(recording.performers)'s recording to a playlist", message: playlists.isEmpty ? "You have no playlists yet." : nil,
                options: options + [create]))
    }

    /// Adds a recording to one of the user's playlists: its work, played in it. A playlist that
    /// has the work already plays it in this recording from now on, and says so.
    func addRecording(_ request: CommandRequest) async throws -> CommandResult {
        guard let recording = try await existingRecording(request) else { throw ScreenplayError.invalidField("recordingId", "required") }
        let playlistID = Int64(try request.integer("playlistId"))
        guard let playlist = try await catalog.playlist(id: playlistID, visibleTo: request.user), playlist.userId == request.user.id,
            let work = try await catalog.work(id: recording.workId)
        else { throw ScreenplayError.notFound("no playlist \(playlistID) of yours", path: "$.playlistId") }
        switch try await catalog.add(recording: recording.id, of: work.id, toPlaylist: playlistID, user: request.user) {
        case .notFound:
            throw ScreenplayError.notFound("no playlist \(playlistID) of yours", path: "$.playlistId")
        case .alreadyThere:
            return .done(.init(message: "Already in “\(playlist.name)”", refresh: false))
        case .switched:
            return .done(.init(message: "“\(work.title)” in “\(playlist.name)” now plays \(recording.performers)'s recording", refresh: false))
        case .added:
            return .done(.init(message: "Added to “\(playlist.name)”", refresh: false))
        }
    }

    /// The recording the payload's `recordingId` names (`nil` when it names none; a 404 at
    /// `$.recordingId` when no such recording exists).
    private func existingRecording(_ request: CommandRequest) async throws -> RecordingRecord? {
        guard request.payload["recordingId"] != nil else { return nil }
        let recordingID = Int64(try request.integer("recordingId"))
        guard let recording = try await catalog.recording(id: recordingID) else {
            throw ScreenplayError.notFound("no recording \(recordingID)", path: "$.recordingId")
        }
        return recording
    }

    private func existingWork(_ request: CommandRequest) async throws -> Int64 {
        let workID = Int64(try request.integer("workId"))
        guard try await catalog.work(id: workID) != nil else {
            throw ScreenplayError.notFound("no work \(workID)", path: "$.workId")
        }
        return workID
    }
}
