import Foundation
import ScreenplayContract
import ScreenplayServer

/// Home, composer and work screens: built from the catalog, written in the DSL.
struct CatalogScreens: Sendable {
    let catalog: CatalogRepository

    /// Home; `shopTeaser` (the `home-shop-teaser` experiment's `teaser` variant) puts the shop
    /// at the top instead of among the links near the bottom.
    func home(for user: UserIdentity, shopTeaser: Bool = false) async throws -> Screen {
        let composers = try await catalog.composers()
        let editorial = try await catalog.editorialPlaylists()
        let own = try await catalog.playlists(of: user)
        let favorites = try await catalog.favoriteIDs(among: own.map(\.id), user: user)
        var entities: Entities = [:]
        for playlist in own {
            entities.merge(PlaylistCommands.favoriteEntity(playlistID: playlist.id, isFavorite: favorites.contains(playlist.id))) { $1 }
        }
        // Live (v5): a playlist made or a heart tapped on another device shows here at once.
        return Screen(
            id: "home", title: "Screenplay Classical", menu: [PlaylistCommands.newPlaylistMenuItem()], entities: entities, live: .events
        ) {
            if shopTeaser {
                Section("shop-teaser", header: "New: the shop") {
                    DetailButton(
                        title: "The shop is open", subtitle: "Recordings, prices and this week’s offers",
                        action: .navigate(to: DemoLinks.shop))
                }
            }
            Section("top-composers", header: "Top composers") {
                Carousel(
                    itemStyle: .portrait,
                    items: composers.prefix(10).map { composer in
                        Carousel.Item(
                            title: composer.name, subtitle: composer.period,
                            image: DemoLinks.thumbnail(kind: "composer", slug: composer.slug, alt: "Portrait of \(composer.name)"),
                            action: .navigate(to: DemoLinks.composer(composer.slug), header: DemoLinks.composerHeader(composer)))
                    })
            }
            Section("editorial", header: "Playlists") {
                // A grid from v2 on; v1 apps get its fallback, one row per card.
                Grid(
                    columns: 3,
                    cards: editorial.map { playlist in
                        Grid.Card(
                            title: playlist.name, subtitle: playlist.description,
                            image: DemoLinks.thumbnail(kind: "playlist", slug: String(playlist.id), alt: "Cover of \(playlist.name)"),
                            action: .navigate(to: DemoLinks.playlist(playlist.id), header: DemoLinks.playlistHeader(playlist)))
                    })
            }
            Section("library", header: "Your library") {
                DetailButton(
                    title: "Favorites", subtitle: "Playlists you saved",
                    action: .navigate(to: DemoLinks.favorites, header: FavoritesScreen.header))
                if own.isEmpty {
                    Text("No playlists yet: choose “New playlist”, or add a work to one from its page.", color: .token(.secondaryText))
                }
                for playlist in own { LibraryScreens.playlistRow(playlist, isFavorite: favorites.contains(playlist.id)) }
            }
            Section("explore", header: "Explore") {
                if !shopTeaser {
                    DetailButton(title: "Shop", subtitle: "Recordings and offers", action: .navigate(to: DemoLinks.shop))
                }
                DetailButton(
                    title: "Search", subtitle: "Find a composer or a work",
                    action: .navigate(to: DemoLinks.search, header: SearchScreens.header))
                DetailButton(
                    title: "Concert cities", subtitle: "Attendance this week in three music capitals",
                    action: .navigate(to: DemoLinks.cities, header: CityStatistics.header))
            }
            Section("all-composers", header: "All composers") {
                for composer in composers {
                    ListRow(
                        title: composer.name, subtitle: "\(composer.born)–\(composer.died) · \(composer.period)",
                        image: DemoLinks.thumbnail(kind: "composer", slug: composer.slug, alt: "Portrait of \(composer.name)"),
                        action: .navigate(to: DemoLinks.composer(composer.slug), header: DemoLinks.composerHeader(composer)))
                }
            }
        }
    }

    /// What a composer's works filter has typed (v6): the field writes it, each row reads it.
    static let worksFilter = ScreenVariable("filter", initial: "")
    /// Whether the biography shows past its first paragraph (v6).
    static let biographyUnfolded = ScreenVariable("biographyUnfolded", initial: false)

    func composer(slug: String) async throws -> Screen {
        guard let composer = try await catalog.composer(slug: slug) else {
            throw ScreenplayError.notFound("no composer '\(slug)'", path: DemoLinks.composer(slug))
        }
        let works = try await catalog.works(composerID: composer.id)
        let tracks = try await catalog.trackIDs(works: Set(works.map(\.id))).works
        let header = DemoLinks.composerHeader(composer)
        return Screen(
            id: "composer/\(composer.slug)", title: composer.name, header: header,
            toolbar: [
                MenuItem(title: "Share", icon: "share", action: .share(.init(title: composer.name, url: "/" + DemoLinks.composer(slug))))
            ],
            // What the works filter has typed (v6): each row shows itself while it matches, on the
            // device, with no request. Old apps and pages without the script show every work.
            state: StateVariables(declaring: Self.worksFilter.declaration, Self.biographyUnfolded.declaration)
        ) {
            Section("popular", header: "Popular works") {
                for work in works.prefix(3) {
                    DetailButton(
                        title: work.title, subtitle: work.genre,
                        action: .navigate(to: DemoLinks.work(work.id), header: DemoLinks.workHeader(work))
                    )
                    .markedWhilePlaying(tracks[work.id])
                }
            }
            Section("biography", header: "Biography") {
                let paragraphs = composer.biography.components(separatedBy: "\n\n")
                Paragraphs(Array(paragraphs.prefix(1)))
                if paragraphs.count > 1 {
                    // Folded on a device that unfolds it with "Show more" (v6, no request); old apps
                    // and pages without the script, which could not, get the whole biography.
                    let unfolded = Self.biographyUnfolded.value
                    Paragraphs(Array(paragraphs.dropFirst())).visible(unfolded || !ClientValues.runsLocalActions)
                    Button(title: "Show more", action: Self.biographyUnfolded.toggle())
                        .text(unfolded.then("Show less", else: "Show more"))
                }
            }
            Section("works", header: SectionHeader(title: "Works", subtitle: "\(works.count) in the catalog")) {
                if works.count > 1 {
                    TextField(label: "Filter works", hint: "Part of a title, a key or a genre", storageKey: "filter")
                }
                let typed = Self.worksFilter.value.trimmed.lowercased
                let matches = works.map { work in
                    StateExpression((work.title + " " + DemoLinks.workDetails(work).joined(separator: " ")).lowercased()).contains(typed)
                }
                for (work, matching) in zip(works, matches) {
                    ListRow(
                        title: work.title, subtitle: DemoLinks.workDetails(work).joined(separator: " · "), recordingCount: work.recordingCount,
                        action: .navigate(to: DemoLinks.work(work.id), header: DemoLinks.workHeader(work))
                    )
                    .visible(matching)
                    .markedWhilePlaying(tracks[work.id])
                }
                // Said when the filter leaves nothing (while the expression fits the language's limit).
                if let any = matches.first.map({ first in matches.dropFirst().reduce(first) { $0 || $1 } }) {
                    let nothing = Self.worksFilter.value.trimmed.isNot("") && !any
                    if works.count > 1 && nothing.source.utf8.count <= ScreenExpression.maximumBytes {
                        Text("No work matches the filter.", color: .token(.secondaryText)).visible(nothing)
                    }
                }
            }
        }
    }

    func work(id: Int64) async throws -> Screen {
        guard let work = try await catalog.work(id: id) else {
            throw ScreenplayError.notFound("no work \(id)", path: DemoLinks.work(id))
        }
        let recordings = try await catalog.recordings(workID: id)
        return Screen(
            id: "work/\(id)", title: work.title, header: DemoLinks.workHeader(work),
            toolbar: [MenuItem(title: "Share", icon: "share", action: .share(.init(title: work.title, url: "/" + DemoLinks.work(id))))],
            menu: [PlaylistCommands.addToPlaylistMenuItem(workID: id)]
        ) {
            Section("composer") {
                DetailButton(
                    title: work.composerName, subtitle: work.genre,
                    image: DemoLinks.thumbnail(kind: "composer", slug: work.composerSlug, alt: "Portrait of \(work.composerName)"),
                    action: .navigate(to: DemoLinks.composer(work.composerSlug)))
            }
            for (recording, tracks) in recordings {
                Section(
                    "recording-\(recording.id)",
                    header: SectionHeader(title: recording.performers, subtitle: "\(recording.label), \(recording.year)")
                ) {
                    // The whole recording, from its first movement, the queue after it.
                    if let first = tracks.first {
                        Button(
                            title: "Play all", style: .primary, action: .play(MediaRoutes.play(track: first, recording: recording, work: work))
                        )
                        .accessibility(label: "Play all of \(recording.performers)'s recording")
                    }
                    for track in tracks {
                        let play = MediaRoutes.play(track: track, recording: recording, work: work)
                        // The row that is playing is marked, wherever the player was started (v6).
                        TrackRow(title: track.title, subtitle: recording.performers, duration: track.seconds, action: .play(play))
                            .selected(ClientValues.trackID.is(play.firstTrack.id))
                    }
                }
            }
        }
    }
}
