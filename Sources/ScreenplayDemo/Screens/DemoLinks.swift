import ScreenplayContract
import ScreenplayServer

/// URLs and headers shared by a screen and every link to it.
///
/// A navigate action must carry exactly the header its destination shows; building both from
/// these functions is what keeps them identical.
enum DemoLinks {
    static func composer(_ slug: String) -> String { "screens/composer/\(slug)" }
    static func work(_ id: Int64) -> String { "screens/work/\(id)" }
    static func playlist(_ id: Int64) -> String { "screens/playlist/\(id)" }
    static let favorites = "screens/favorites"
    static let library = "screens/library"
    /// A shared playlist's page: the link its owner shares.
    static func shared(_ token: String) -> String { "screens/shared/\(token)" }
    static let cities = "screens/cities"
    static let search = "screens/search"
    static let shop = "screens/shop"

    /// The entity a playlist's shared facts live in (v4): its favorite flag, bound by the toggle
    /// on its screen and the heart beside its row on home.
    static func playlistEntity(_ id: Int64) -> String { "playlist/\(id)" }
    /// The member of a playlist entity that says whether the user favorited it.
    static let favoriteMember = "favorite"

    static func image(kind: String, slug: String) -> RemoteImage {
        RemoteImage(url: "/images/\(kind)/\(slug).svg", lowResURL: "/images/\(kind)/\(slug)-low.svg", alt: nil)
    }

    /// The small variant alone: what carousels and rows show, and what headers use as placeholder.
    static func thumbnail(kind: String, slug: String, alt: String) -> RemoteImage {
        RemoteImage(url: "/images/\(kind)/\(slug)-low.svg", size: .init(width: 96, height: 96), alt: alt)
    }

    static func composerHeader(_ composer: ComposerRecord) -> ScreenHeader {
        var image = image(kind: "composer", slug: composer.slug)
        image.alt = "Portrait of \(composer.name)"
        return ScreenHeader(
            title: composer.name, subtitle: "\(composer.born)–\(composer.died) · \(composer.nationality) · \(composer.period)", image: image
        )
    }

    static func workHeader(_ work: WorkRecord) -> ScreenHeader {
        var image = image(kind: "work", slug: String(work.id))
        image.alt = "Cover of \(work.title)"
        return ScreenHeader(title: work.title, subtitle: ([work.composerName] + workDetails(work)).joined(separator: " · "), image: image)
    }

    /// A work's cover, small, for rows.
    static func workThumbnail(_ work: WorkRecord) -> RemoteImage {
        thumbnail(kind: "work", slug: String(work.id), alt: "Cover of \(work.title)")
    }

    /// A recording's sleeve, small, for rows.
    static func recordingThumbnail(_ recording: RecordingRecord) -> RemoteImage {
        thumbnail(kind: "recording", slug: String(recording.id), alt: "Sleeve of \(recording.performers)'s recording")
    }

    static func workDetails(_ work: WorkRecord) -> [String] {
        [work.catalogue, work.musicalKey, String(work.year)].compactMap { $0 }
    }

    static func playlistHeader(_ playlist: PlaylistRecord) -> ScreenHeader {
        let owner = playlist.userId == nil ? "Editorial" : "Your playlist"
        let count = playlist.workCount == 1 ? "1 work" : "\(playlist.workCount) works"
        var image = image(kind: "playlist", slug: String(playlist.id))
        image.alt = "Cover of \(playlist.name)"
        return ScreenHeader(title: playlist.name, subtitle: "\(owner) · \(count)", image: image)
    }
}

// MARK: The playing row (v6)

extension Component {
    /// This row marked (`selected`: `aria-current` on the web, a highlight in the apps) while one
    /// of `tracks` plays, wherever the player was started: a work's row by its recordings' tracks,
    /// a recording's by its own. Unchanged when there is none to play.
    func markedWhilePlaying(_ tracks: [String]?) -> Component {
        guard let tracks, !tracks.isEmpty else { return self }
        return selected(ClientValues.trackID.isAny(of: tracks))
    }
}

extension ComponentPayload {
    /// The component marked while one of `tracks` plays (see ``Component/markedWhilePlaying(_:)``).
    func markedWhilePlaying(_ tracks: [String]?) -> Component { component.markedWhilePlaying(tracks) }
}
