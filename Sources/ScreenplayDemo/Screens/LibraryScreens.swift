import ScreenplayContract
import ScreenplayServer

/// The favorites screen's fixed header (navigate actions carry it too).
enum FavoritesScreen {
    static let header = ScreenHeader(title: "Favorites", subtitle: "Composers, works, recordings and playlists you hearted")
}

/// The library's fixed header (the site's navigation and navigate actions carry it too).
enum LibraryScreen {
    static let header = ScreenHeader(title: "Library", subtitle: "Your playlists and favorites")
}

/// Library, playlist and favorites screens: a user's own data, only ever shown to that user.
struct LibraryScreens: Sendable {
    let catalog: CatalogRepository

    /// A playlist's row and, beside it, the same favorite toggle its screen shows: both bound to
    /// the playlist's entity, so flipping one flips the other.
    static func playlistRow(_ playlist: PlaylistRecord, isFavorite: Bool) -> Component {
        HStack(alignment: .center, spacing: 8) {
            ListRow(
                title: playlist.name, subtitle: playlist.workCount == 1 ? "1 work" : "\(playlist.workCount) works",
                action: .navigate(to: DemoLinks.playlist(playlist.id), header: DemoLinks.playlistHeader(playlist)))
            PlaylistCommands.favoriteButton(playlist: playlist, isFavorite: isFavorite)
        }.component
    }

    /// The user's playlists (each with its heart) and the way to their favorites.
    func library(for user: UserIdentity) async throws -> Screen {
        let own = try await catalog.playlists(of: user)
        let favorites = try await catalog.favoriteIDs(among: own.map(\.id), user: user)
        var entities: Entities = [:]
        for playlist in own {
            entities.merge(PlaylistCommands.favoriteEntity(playlistID: playlist.id, isFavorite: favorites.contains(playlist.id))) { $1 }
        }
        return Screen(
            id: "library", title: "Library", header: LibraryScreen.header, menu: [PlaylistCommands.newPlaylistMenuItem()], entities: entities,
            live: .events
        ) {
            Section("saved") {
                DetailButton(
                    title: "Favorites", subtitle: FavoritesScreen.header.subtitle, action: .navigate(to: DemoLinks.favorites, header: FavoritesScreen.header))
            }
            Section("playlists", header: "Your playlists") {
                if own.isEmpty {
                    Text("No playlists yet. Choose “New playlist”, or add a work to one from its page.", color: .token(.secondaryText))
                }
                for playlist in own { Self.playlistRow(playlist, isFavorite: favorites.contains(playlist.id)) }
            }
        }
    }

    func playlist(id: Int64, for user: UserIdentity) async throws -> Screen {
        guard let playlist = try await catalog.playlist(id: id, visibleTo: user) else {
            throw ScreenplayError.notFound("no playlist \(id)", path: DemoLinks.playlist(id))
        }
        let works = try await catalog.works(inPlaylist: id)
        let tracks = try await catalog.trackIDs(works: Set(works.map(\.id))).works
        let favorite = try await catalog.isFavorite(playlistID: id, user: user)
        // Play all: each work in the recording chosen for it (else its first), in the playlist's
        // order, from the first track.
        let chosen = try await catalog.chosenRecordings(inPlaylist: id)
        let playAll = try await self.playAll(works, chosen: chosen)
        let owned = playlist.userId == user.id && !user.isAnonymous
        // Shared by its link: an editorial playlist's own page; one of the user's, the page its
        // token opens for anyone (read-only).
        let link = owned ? try await catalog.shareToken(ofPlaylist: id, user: user).map(DemoLinks.shared) : DemoLinks.playlist(id)
        return Screen(
            id: "playlist/\(id)", title: playlist.name, header: DemoLinks.playlistHeader(playlist),
            toolbar: link.map { [MenuItem(title: "Share", icon: "share", action: .share(.init(title: playlist.name, url: "/" + $0)))] },
            menu: owned ? PlaylistCommands.ownerMenu(playlist) : nil,
            entities: PlaylistCommands.favoriteEntity(playlistID: id, isFavorite: favorite), live: .events
        ) {
            Section("about") {
                if let description = playlist.description { Paragraphs([description]) }
                // A heart from v2 on; v1 apps get its fallback, a button with the same command.
                // Beside Play all once there is something to play.
                if let playAll {
                    HStack(alignment: .center, spacing: 8) {
                        for button in Self.playButtons(playAll, name: playlist.name) { button }
                        PlaylistCommands.favoriteButton(playlist: playlist, isFavorite: favorite)
                    }
                } else {
                    PlaylistCommands.favoriteButton(playlist: playlist, isFavorite: favorite)
                }
            }
            Section("works", header: "Works") {
                if works.isEmpty {
                    Text("No works yet. Open a work and choose “Add to playlist”.", color: .token(.secondaryText))
                }
                // Its owner puts the works in their own order (v6: dragged, or moved by keyboard;
                // older apps get the list as it is) and takes a work out from beside its row.
                if owned {
                    ReorderableList(label: "Works of \(playlist.name)", move: PlaylistCommands.reorderCommand(playlist: playlist)) {
                        for work in works {
                            HStack(alignment: .center, spacing: 8) {
                                Self.workRow(work, recording: chosen[work.id], tracks: tracks)
                                PlaylistCommands.removeButton(playlist: playlist, work: work)
                            }
                            .id(PlaylistCommands.orderKey(work.id))
                        }
                    }
                } else {
                    for work in works { Self.workRow(work, recording: chosen[work.id], tracks: tracks) }
                }
            }
        }
    }

    /// A work's row in a playlist: the composer leads the subtitle (an accessory would squeeze
    /// the text beside a Remove button on a phone), the performers end it when the entry plays a
    /// recording of the listener's choice; it opens the work, marked while it plays.
    static func workRow(_ work: WorkRecord, recording: RecordingRecord? = nil, tracks: [Int64: [String]]) -> Component {
        ListRow(
            title: work.title, subtitle: Self.workSubtitle(work, recording: recording),
            image: DemoLinks.workThumbnail(work), action: .navigate(to: DemoLinks.work(work.id), header: DemoLinks.workHeader(work))
        )
        .markedWhilePlaying(tracks[work.id])
    }

    /// A playlist entry's subtitle: the composer, the work's details, and the performers of the
    /// recording chosen for it, when one was.
    static func workSubtitle(_ work: WorkRecord, recording: RecordingRecord?) -> String {
        ([work.composerName] + DemoLinks.workDetails(work) + [recording?.performers].compactMap { $0 }).joined(separator: " · ")
    }

    /// A playlist as its share link shows it to anyone: its works and Play all, nothing to change.
    func shared(token: String) async throws -> Screen {
        guard let (playlist, _) = try await catalog.sharedPlaylist(token: token) else {
            throw ScreenplayError.notFound("no shared playlist at this link", path: DemoLinks.shared(String(token.prefix(64))))
        }
        let works = try await catalog.works(inPlaylist: playlist.id)
        let chosen = try await catalog.chosenRecordings(inPlaylist: playlist.id)
        let playAll = try await self.playAll(works, chosen: chosen)
        var header = DemoLinks.playlistHeader(playlist)
        header.subtitle = "Shared playlist · " + (playlist.workCount == 1 ? "1 work" : "\(playlist.workCount) works")
        return Screen(
            id: "shared/\(token)", title: playlist.name, header: header,
            toolbar: [MenuItem(title: "Share", icon: "share", action: .share(.init(title: playlist.name, url: "/" + DemoLinks.shared(token))))]
        ) {
            if let playAll {
                Section("about") {
                    HStack(alignment: .center, spacing: 8) {
                        for button in Self.playButtons(playAll, name: playlist.name) { button }
                    }
                }
            }
            Section("works", header: "Works") {
                if works.isEmpty { Text("No works yet.", color: .token(.secondaryText)) }
                for work in works {
                    ListRow(
                        title: work.title,
                        subtitle: Self.workSubtitle(work, recording: chosen[work.id]),
                        image: DemoLinks.workThumbnail(work), action: .navigate(to: DemoLinks.work(work.id), header: DemoLinks.workHeader(work)))
                }
            }
        }
    }

    /// Play all of a playlist's `works` (each in its chosen recording or its first, in order, from
    /// the first track) and its
    /// Shuffle (the same queue in a random order; `nil`: nothing to play).
    ///
    /// A shuffle starts with a track the server picks and the client draws the rest (v6). The pick
    /// is a hash of the queue's tracks, not a random number: the screen's bytes, and so its tag,
    /// stay the same however often it is built, on every replica; a playlist whose works change
    /// starts somewhere else. Older apps play the queue in order from that track.
    func playAll(_ works: [WorkRecord], chosen: [Int64: RecordingRecord]) async throws -> (inOrder: Action.Play, shuffled: Action.Play)? {
        let recordings = try await catalog.recordingsToPlay(works.map(\.id), chosen: chosen)
        let queue = try await catalog.queue(of: recordings.map(\.id), known: works)
        guard let first = queue.first else { return nil }
        let url = MediaRoutes.queueURL(recordings: recordings.map(\.id))
        let start = queue[Self.shuffleStart(queue.map(\.track.id))]
        return (
            Action.Play(metadataURL: url, firstTrack: MediaRoutes.playable(first.track, recording: first.recording, work: first.work)),
            Action.Play(metadataURL: url, firstTrack: MediaRoutes.playable(start.track, recording: start.recording, work: start.work), shuffle: true)
        )
    }

    /// Where a shuffle of `tracks` starts: an index from a hash of their ids (FNV-1a, the same in
    /// every process, unlike Swift's seeded `Hasher`).
    static func shuffleStart(_ tracks: [Int64]) -> Int {
        guard !tracks.isEmpty else { return 0 }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for id in tracks {
            for byte in withUnsafeBytes(of: id.littleEndian, Array.init) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        return Int(hash % UInt64(tracks.count))
    }

    /// Play all and Shuffle, side by side, named for the playlist.
    static func playButtons(_ play: (inOrder: Action.Play, shuffled: Action.Play), name: String) -> [Component] {
        [
            Button(title: "Play all", style: .primary, action: .play(play.inOrder)).accessibility(label: "Play all of \(name)"),
            Button(title: "Shuffle", style: .secondary, action: .play(play.shuffled)).accessibility(label: "Shuffle \(name)"),
        ]
    }

    /// Everything the user hearted, a section per kind (most recent first), each row with its
    /// heart: un-hearting here removes it the next time the screen is built (the row stays until
    /// then, so a slip can be undone in place).
    func favorites(for user: UserIdentity) async throws -> Screen {
        let playlists = try await catalog.favoritePlaylists(of: user)
        let composers = try await catalog.favoriteComposers(of: user)
        let works = try await catalog.favoriteWorks(of: user)
        let recordings = try await catalog.favoriteRecordings(of: user)
        var entities: Entities = [:]
        for composer in composers { entities.merge(CatalogFavoriteCommands.entity(.composer, id: composer.id, isFavorite: true)) { $1 } }
        for work in works { entities.merge(CatalogFavoriteCommands.entity(.work, id: work.id, isFavorite: true)) { $1 } }
        for (recording, _) in recordings {
            entities.merge(CatalogFavoriteCommands.entity(.recording, id: recording.id, isFavorite: true)) { $1 }
        }
        for playlist in playlists { entities.merge(PlaylistCommands.favoriteEntity(playlistID: playlist.id, isFavorite: true)) { $1 } }
        let nothing = playlists.isEmpty && composers.isEmpty && works.isEmpty && recordings.isEmpty
        return Screen(id: "favorites", title: "Favorites", header: FavoritesScreen.header, entities: entities, live: .events) {
            if nothing {
                Section("empty") {
                    Text("Nothing here yet. Tap the heart on a composer, a work, a recording or a playlist.", color: .token(.secondaryText))
                }
            }
            if !composers.isEmpty {
                Section("composers", header: "Composers") {
                    for composer in composers {
                        HStack(alignment: .center, spacing: 8) {
                            ListRow(
                                title: composer.name, subtitle: "\(composer.born)–\(composer.died) · \(composer.period)",
                                image: DemoLinks.thumbnail(kind: "composer", slug: composer.slug, alt: "Portrait of \(composer.name)"),
                                action: .navigate(to: DemoLinks.composer(composer.slug), header: DemoLinks.composerHeader(composer)))
                            CatalogFavoriteCommands.button(.composer, id: composer.id, name: composer.name, isFavorite: true)
                        }
                    }
                }
            }
            if !works.isEmpty {
                Section("works", header: "Works") {
                    for work in works {
                        HStack(alignment: .center, spacing: 8) {
                            ListRow(
                                title: work.title, subtitle: ([work.composerName] + DemoLinks.workDetails(work)).joined(separator: " · "),
                                image: DemoLinks.workThumbnail(work), action: .navigate(to: DemoLinks.work(work.id), header: DemoLinks.workHeader(work)))
                            CatalogFavoriteCommands.button(.work, id: work.id, name: work.title, isFavorite: true)
                        }
                    }
                }
            }
            if !recordings.isEmpty {
                Section("recordings", header: "Recordings") {
                    for (recording, work) in recordings {
                        HStack(alignment: .center, spacing: 8) {
                            ListRow(
                                title: recording.performers, subtitle: "\(work.title) · \(work.composerName) · \(recording.year)",
                                image: DemoLinks.recordingThumbnail(recording), action: .navigate(to: DemoLinks.work(work.id), header: DemoLinks.workHeader(work)))
                            CatalogFavoriteCommands.button(
                                .recording, id: recording.id, name: "\(recording.performers) (\(recording.year))", isFavorite: true)
                        }
                    }
                }
            }
            if !playlists.isEmpty {
                Section("playlists", header: "Playlists") {
                    for playlist in playlists {
                        DetailButton(
                            title: playlist.name, subtitle: DemoLinks.playlistHeader(playlist).subtitle,
                            image: DemoLinks.thumbnail(kind: "playlist", slug: String(playlist.id), alt: "Cover of \(playlist.name)"),
                            action: .navigate(to: DemoLinks.playlist(playlist.id), header: DemoLinks.playlistHeader(playlist)))
                    }
                }
            }
        }
    }
}
