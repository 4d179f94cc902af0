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
        let recent = try await catalog.recentlyPlayed(by: user)
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
                        action: .navigate(to: DemoLinks.shop)
                    )
                    .reportingVisible("home/shop-teaser")
                }
            }
            if !recent.isEmpty {
                // What the listener's apps reported playing (v6 reports): each starts again at the
                // movement last heard, with the rest of its recording queued.
                Section("continue-listening", header: "Continue listening") {
                    Carousel(
                        itemStyle: .square,
                        items: recent.map { entry in
                            Carousel.Item(
                                title: entry.work.title, subtitle: "\(entry.work.composerName) · \(entry.recording.performers)",
                                image: DemoLinks.thumbnail(
                                    kind: "recording", slug: String(entry.recording.id), alt: "Sleeve of \(entry.recording.performers)'s recording"),
                                action: .play(MediaRoutes.play(track: entry.track, recording: entry.recording, work: entry.work)))
                        }
                    )
                    .reportingVisible("home/continue-listening")
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
                    title: "Favorites", subtitle: FavoritesScreen.header.subtitle,
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

    func composer(slug: String, for user: UserIdentity = .anonymous) async throws -> Screen {
        guard let composer = try await catalog.composer(slug: slug) else {
            throw ScreenplayError.notFound("no composer '\(slug)'", path: DemoLinks.composer(slug))
        }
        let works = try await catalog.works(composerID: composer.id)
        let tracks = try await catalog.trackIDs(works: Set(works.map(\.id))).works
        let favorite = try await catalog.catalogFavoriteIDs(of: user)[.composer]?.contains(composer.id) ?? false
        return Self.composerScreen(composer, works: works, tracks: tracks, isFavorite: favorite)
    }

    /// A composer's page from its data: `tracks` are the ids of each work's tracks (what marks
    /// a work's row while one of them plays); `isFavorite`, whether its viewer hearted it.
    static func composerScreen(_ composer: ComposerRecord, works: [WorkRecord], tracks: [Int64: [String]], isFavorite: Bool = false) -> Screen {
        let slug = composer.slug
        let header = DemoLinks.composerHeader(composer)
        let records = Self.workRecords(works, tracks: tracks)
        return Screen(
            id: "composer/\(composer.slug)", title: composer.name, header: header,
            toolbar: [
                MenuItem(title: "Share", icon: "share", action: .share(.init(title: composer.name, url: "/" + DemoLinks.composer(slug))))
            ],
            // The heart (the user's own), followed live: tapped on another device, shown here.
            entities: CatalogFavoriteCommands.entity(.composer, id: composer.id, isFavorite: isFavorite), live: .events,
            // What the works filter has typed (v6): each row shows itself while it matches, on the
            // device, with no request. Old apps and pages without the script show every work.
            state: StateVariables(
                declaring: Self.worksFilter.declaration, Self.biographyUnfolded.declaration, records.declaration)
        ) {
            Section("favorite") {
                CatalogFavoriteCommands.button(.composer, id: composer.id, name: composer.name, isFavorite: isFavorite)
            }
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
                // One row template over the works' data (v6): each row shows itself while it
                // matches what was typed, and is marked while one of its tracks plays.
                let typed = Self.worksFilter.value.trimmed.lowercased
                let row = WorkRow.self
                // Each row shows its work's cover, and carries the header its page has (cover and all).
                let cover = RemoteImage(
                    url: "/images/work/\(row.id.text)-low.svg", size: .init(width: 96, height: 96), alt: "Cover of \(row.title.text)")
                let header = ScreenHeader(
                    title: row.title.text, subtitle: Component.Rows.text(composer.name + " · ") + row.details.text,
                    image: RemoteImage(
                        url: "/images/work/\(row.id.text).svg", lowResURL: "/images/work/\(row.id.text)-low.svg", alt: "Cover of \(row.title.text)"))
                Component.Rows(
                    records, template: ListRow(
                        title: row.title.text, subtitle: row.details.text, image: cover,
                        action: .navigate(to: "screens/work/\(row.id.text)", header: header)
                    )
                    .visible(row.title.value.appending(" ").appending(row.details.value).lowercased.contains(typed))
                    .selected(row.tracks.contains(ClientValues.trackID))
                )
                .filling("recordingCount", with: row.recordings)
                .id("works")
                // Said when the filter leaves nothing (while the expression fits the language's limit).
                let matches = works.map { Self.searchText($0).contains(typed) }
                if works.count > 1, let first = matches.first {
                    let any = matches.dropFirst().reduce(first) { $0 || $1 }
                    let nothing = Self.worksFilter.value.trimmed.isNot("") && !any
                    if nothing.source.utf8.count <= ScreenExpression.maximumBytes {
                        Text("No work matches the filter.", color: .token(.secondaryText)).visible(nothing)
                    }
                }
            }
        }
    }

    /// A work's text the filter searches, lowercased, as a literal.
    static func searchText(_ work: WorkRecord) -> StateExpression<String> {
        StateExpression((work.title + " " + DemoLinks.workDetails(work).joined(separator: " · ")).lowercased())
    }

    /// The fields of a composer's work rows (v6).
    enum WorkRow {
        static let id = RowField<String>("id")
        static let title = RowField<String>("title")
        /// Catalogue number, key and year: `K. 626 · D minor · 1791`.
        static let details = RowField<String>("details")
        static let recordings = RowField<Int>("recordings")
        /// The ids of the work's tracks: the row is marked while one of them plays.
        static let tracks = RowField<[String]>("tracks")
    }

    /// The works' rows' data: one record per work.
    static func workRecords(_ works: [WorkRecord], tracks: [Int64: [String]]) -> RowRecords {
        var records = RowRecords("works")
        for work in works {
            records.append { record in
                record.set(WorkRow.id, String(work.id))
                record.set(WorkRow.title, work.title)
                record.set(WorkRow.details, DemoLinks.workDetails(work).joined(separator: " · "))
                record.set(WorkRow.recordings, work.recordingCount)
                record.set(WorkRow.tracks, tracks[work.id] ?? [])
            }
        }
        return records
    }

    /// A track row's secondary actions (v6): the composer's page, the recording into the
    /// listener's favorites, a link to the work to share. The row's own action plays it.
    static func trackMenu(work: WorkRecord, recording: RecordingRecord) -> [MenuItem] {
        [
            MenuItem(title: "Go to \(work.composerName)", icon: "person", action: .navigate(to: DemoLinks.composer(work.composerSlug))),
            MenuItem(
                title: "Add this recording to favorites", icon: "heart",
                action: .command(CatalogFavoriteCommands.add(.recording, id: recording.id))),
            MenuItem(title: "Add this recording to a playlist", icon: "text.badge.plus", action: .command(PlaylistCommands.addRecordingCommand(recording.id))),
            MenuItem(title: "Share", icon: "share", action: .share(.init(title: work.title, url: "/" + DemoLinks.work(work.id)))),
        ]
    }

    func work(id: Int64, for user: UserIdentity = .anonymous) async throws -> Screen {
        guard let work = try await catalog.work(id: id) else {
            throw ScreenplayError.notFound("no work \(id)", path: DemoLinks.work(id))
        }
        let recordings = try await catalog.recordings(workID: id)
        let favorites = try await catalog.catalogFavoriteIDs(of: user)
        let isFavorite = favorites[.work]?.contains(id) ?? false
        var entities = CatalogFavoriteCommands.entity(.work, id: id, isFavorite: isFavorite)
        for (recording, _) in recordings {
            entities.merge(CatalogFavoriteCommands.entity(.recording, id: recording.id, isFavorite: favorites[.recording]?.contains(recording.id) ?? false)) { $1 }
        }
        return Screen(
            id: "work/\(id)", title: work.title, header: DemoLinks.workHeader(work),
            toolbar: [MenuItem(title: "Share", icon: "share", action: .share(.init(title: work.title, url: "/" + DemoLinks.work(id))))],
            menu: [PlaylistCommands.addToPlaylistMenuItem(workID: id)], entities: entities, live: .events
        ) {
            Section("favorite") {
                CatalogFavoriteCommands.button(.work, id: id, name: work.title, isFavorite: isFavorite)
            }
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
                    // The whole recording, from its first movement, the queue after it; and its heart.
                    HStack(alignment: .center, spacing: 8) {
                        if let first = tracks.first {
                            Button(
                                title: "Play all", style: .primary, action: .play(MediaRoutes.play(track: first, recording: recording, work: work))
                            )
                            .accessibility(label: "Play all of \(recording.performers)'s recording")
                        }
                        CatalogFavoriteCommands.button(
                            .recording, id: recording.id, name: "\(recording.performers) (\(recording.year))",
                            isFavorite: favorites[.recording]?.contains(recording.id) ?? false)
                        // This recording, not the work's first, in a playlist.
                        Button(title: "Add to playlist", style: .secondary, action: .command(PlaylistCommands.addRecordingCommand(recording.id)))
                            .accessibility(label: "Add \(recording.performers)'s recording to a playlist")
                    }
                    for track in tracks {
                        let play = MediaRoutes.play(track: track, recording: recording, work: work)
                        // The row that is playing is marked, wherever the player was started (v6).
                        TrackRow(title: track.title, subtitle: recording.performers, duration: track.seconds, action: .play(play))
                            .selected(ClientValues.trackID.is(play.firstTrack.id))
                            // Its "…" (v6): where else it leads, its recording's heart, a link to share.
                            .menu(Self.trackMenu(work: work, recording: recording))
                    }
                }
            }
        }
    }
}
