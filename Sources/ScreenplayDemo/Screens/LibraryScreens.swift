import ScreenplayContract
import ScreenplayServer

/// The favorites screen's fixed header (navigate actions carry it too).
enum FavoritesScreen {
    static let header = ScreenHeader(title: "Favorites", subtitle: "Playlists you saved")
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
                    title: "Favorites", subtitle: "Playlists you saved", action: .navigate(to: DemoLinks.favorites, header: FavoritesScreen.header))
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
        return Screen(
            id: "playlist/\(id)", title: playlist.name, header: DemoLinks.playlistHeader(playlist),
            entities: PlaylistCommands.favoriteEntity(playlistID: id, isFavorite: favorite), live: .events
        ) {
            Section("about") {
                if let description = playlist.description { Paragraphs([description]) }
                // A heart from v2 on; v1 apps get its fallback, a button with the same command.
                PlaylistCommands.favoriteButton(playlist: playlist, isFavorite: favorite)
            }
            Section("works", header: "Works") {
                if works.isEmpty {
                    Text("No works yet. Open a work and choose “Add to playlist”.", color: .token(.secondaryText))
                }
                for work in works {
                    ListRow(
                        title: work.title, subtitle: DemoLinks.workDetails(work).joined(separator: " · "), composer: work.composerName,
                        action: .navigate(to: DemoLinks.work(work.id), header: DemoLinks.workHeader(work))
                    )
                    .markedWhilePlaying(tracks[work.id])
                }
            }
        }
    }

    func favorites(for user: UserIdentity) async throws -> Screen {
        let playlists = try await catalog.favoritePlaylists(of: user)
        return Screen(id: "favorites", title: "Favorites", header: FavoritesScreen.header, live: .events) {
            Section("playlists", header: "Playlists") {
                if playlists.isEmpty {
                    Text("Nothing here yet. Open a playlist and choose “Add to favorites”.", color: .token(.secondaryText))
                }
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
