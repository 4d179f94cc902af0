import Foundation
import HTTPTypes
import Hummingbird
import ScreenplayContract
import ScreenplayHummingbird
import ScreenplayServer
import ScreenplayWeb

/// The demo's own media: generated SVG images (with low-res variants), each track's synthesized
/// audio (as long as the track, streamed by range), and play queues. Real apps point at their CDN; the demo serves itself so it runs
/// with no network.
enum MediaRoutes {
    static func play(track: TrackRecord, recording: RecordingRecord, work: WorkRecord) -> Action.Play {
        Action.Play(
            metadataURL: "/media/queues/recording/\(recording.id)",
            firstTrack: playable(track, recording: recording, work: work))
    }

    /// A track as the player gets it: its movement, performers, work, composer and the
    /// recording's sleeve, so the bar and the system's now playing name what is playing; and what
    /// the player offers while it plays (v6): its recording into a playlist, its work, its composer.
    static func playable(_ track: TrackRecord, recording: RecordingRecord, work: WorkRecord) -> Action.Play.Track {
        var artwork = DemoLinks.image(kind: "recording", slug: String(recording.id))
        artwork.alt = "Sleeve of \(recording.performers)'s recording"
        return .init(
            id: String(track.id), title: track.title, subtitle: recording.performers, durationSeconds: track.seconds,
            streamURL: "/media/audio/track/\(track.id).wav", work: work.title, composer: work.composerName, artwork: artwork,
            menu: [
                MenuItem(title: "Add this recording to a playlist", icon: "text.badge.plus", action: .command(PlaylistCommands.addRecordingCommand(recording.id))),
                MenuItem(title: "Go to \(work.title)", icon: "music.note", action: .navigate(to: DemoLinks.work(work.id), header: DemoLinks.workHeader(work))),
                MenuItem(title: "Go to \(work.composerName)", icon: "person", action: .navigate(to: DemoLinks.composer(work.composerSlug))),
            ])
    }

    /// Adds the media routes to `router`: images (`GET`, and `HEAD` made from it), audio by range
    /// (`GET` and `HEAD`, streamed by `audio`), play queues. Every refusal is a JSON error with a
    /// code: a `ScreenplayError` thrown here, answered by the router's ``JSONErrorMiddleware``.
    static func register<Context: RequestContext>(on router: Router<Context>, catalog: CatalogRepository, audio: AudioStreaming) {
        let image: @Sendable (Request, Context) async throws -> Response = { _, context in
            let kind = try context.parameters.require("kind")
            let file = try context.parameters.require("file")
            guard imageKinds.contains(kind), file.hasSuffix(".svg") else {
                throw ScreenplayError.notFound("no image '\(kind.prefix(32))/\(file.prefix(64))'", path: "images/\(kind.prefix(32))/\(file.prefix(64))")
            }
            var name = String(file.dropLast(4))
            let lowResolution = name.hasSuffix("-low")
            if lowResolution { name = String(name.dropLast(4)) }
            let art = try await artwork(kind: kind, key: name, catalog: catalog)
            let svg = lowResolution ? art.placeholder(seed: "\(kind)/\(name)") : art.svg(seed: "\(kind)/\(name)")
            return Response(
                status: .ok,
                headers: [.contentType: "image/svg+xml; charset=utf-8", .cacheControl: "public, max-age=86400"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: svg)))
        }
        // GET and HEAD, with ranges: the browser asks for the part it plays or seeks to.
        let track: @Sendable (Request, Context) async throws -> Response = { request, context in
            let file = try context.parameters.require("file")
            guard file.hasSuffix(".wav"), let id = Int64(file.dropLast(4)), let track = try await catalog.track(id: id) else {
                throw ScreenplayError.notFound("no track '\(file)'", path: "media/audio/track/\(file)")
            }
            return try audio.response(
                AudioTrack(seed: id, seconds: track.seconds), request: request,
                address: (context as? any RemoteAddressRequestContext)?.remoteAddress?.ipAddress)
        }
        router.get("media/audio/track/:file", use: track)
        router.head("media/audio/track/:file", use: track)
        getAndHead("images/:kind/:file", image, on: router)
        let queue: @Sendable (Request, Context) async throws -> Response = { _, context in
            let text = try context.parameters.require("id")
            guard let id = Int64(text) else {
                throw ScreenplayError.notFound("no recording '\(text)'", path: "media/queues/recording/\(text)")
            }
            let tracks = try await catalog.tracks(recordingID: id)
            guard !tracks.isEmpty, let recording = try await catalog.recording(id: id), let work = try await catalog.work(id: recording.workId)
            else {
                throw ScreenplayError.notFound("no recording \(id)", path: "media/queues/recording/\(id)")
            }
            // Each track as a play action carries it: the player shows the same title, performers,
            // work, composer and picture.
            let queue = tracks.map { playable($0, recording: recording, work: work) }
            let bytes = try ScreenplayEncoder().encode(["tracks": queue])
            return Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: Array(bytes))))
        }
        getAndHead("media/queues/recording/:id", queue, on: router)
        // A queue of several recordings (a playlist's, one recording of each work), named in the
        // URL: the catalog is public, so the queue needs no identity and may be cached by anyone.
        let recordings: @Sendable (Request, Context) async throws -> Response = { _, context in
            let text = try context.parameters.require("ids")
            let ids = try Self.recordingIDs(text)
            let queue = try await catalog.queue(of: ids)
            // Every id must name a recording: a queue that quietly dropped one would be cached as if whole.
            let found = Set(queue.map(\.recording.id))
            if let index = ids.firstIndex(where: { !found.contains($0) }) {
                throw ScreenplayError.notFound(
                    "recording \(index + 1) of the queue, \(ids[index]), is not in the catalog", path: "media/queues/recordings/\(text.prefix(64))")
            }
            let tracks = queue.map { playable($0.track, recording: $0.recording, work: $0.work) }
            let bytes = try ScreenplayEncoder().encode(["tracks": tracks])
            return Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "public, max-age=86400"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: Array(bytes))))
        }
        getAndHead("media/queues/recordings/:ids", recordings, on: router)
        // Anything else under media/ or images/ is the router's 404, JSON like the rest
        // (JSONErrorMiddleware).
    }

    /// The most recordings one queue names: a playlist's limit of works.
    static let maximumQueuedRecordings = CatalogRepository.maximumWorksPerPlaylist

    /// The URL of the queue that plays `recordings` in order.
    static func queueURL(recordings: [Int64]) -> String {
        "/media/queues/recordings/" + recordings.map(String.init).joined(separator: ",")
    }

    /// The ids a queue's URL names (`3,7,12`): positive integers, at most
    /// ``maximumQueuedRecordings``; anything else is refused, saying what and where.
    static func recordingIDs(_ text: String) throws -> [Int64] {
        let path = "media/queues/recordings/\(text.prefix(64))"
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= maximumQueuedRecordings else {
            throw ScreenplayError(
                status: .unprocessableContent, code: "tooManyRecordings",
                message: "the queue names \(parts.count) recordings; a queue holds at most \(maximumQueuedRecordings)", path: path)
        }
        return try parts.enumerated().map { index, part in
            guard part.count <= 18, part.allSatisfy(\.isASCII), let id = Int64(part), id > 0 else {
                throw ScreenplayError.notFound("recording \(index + 1) of the queue, '\(part.prefix(20))', is not an id", path: path)
            }
            return id
        }
    }

    /// `GET path` answered by `handler`, and `HEAD path` with the same head and no body.
    private static func getAndHead<Context: RequestContext>(
        _ path: String, _ handler: @escaping @Sendable (Request, Context) async throws -> Response, on router: Router<Context>
    ) {
        router.get(RouterPath(path), use: handler)
        router.head(RouterPath(path)) { request, context in try await handler(request, context).createHeadResponse() }
    }

    /// Why `url` would not load as one of the demo's images, or `nil` when it would: what the
    /// layout admin checks an image written into a widget's content against. The demo draws its
    /// own pictures (`/images/work/1.svg`, `-low` for the placeholder) and links no other site's.
    static func imageProblem(_ url: String, catalog: CatalogRepository) async -> String? {
        let path = url.hasPrefix("/") ? String(url.dropFirst()) : url
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, parts[0] == "images", imageKinds.contains(parts[1]), parts[2].hasSuffix(".svg") else {
            return "'\(url.prefix(80))' is not one of this site's images (/images/work/1.svg, /images/composer/bach.svg, …)"
        }
        var name = String(parts[2].dropLast(4))
        if name.hasSuffix("-low") { name = String(name.dropLast(4)) }
        do {
            _ = try await artwork(kind: parts[1], key: name, catalog: catalog)
            return nil
        } catch let error as ScreenplayError {
            return "'\(url.prefix(80))' does not load: \(error.message)"
        } catch {
            return "'\(url.prefix(80))' could not be checked: \(error)"
        }
    }

    /// The kinds of picture the demo draws.
    static let imageKinds: Set<String> = ["composer", "work", "recording", "playlist", "city"]

    /// What the picture of `key` shows, looked up by kind: a name for every kind but playlists,
    /// whose names are their owners' and never leave in a picture anyone may fetch.
    private static func artwork(kind: String, key: String, catalog: CatalogRepository) async throws -> Artwork {
        let named = key.prefix(64)
        let missing = ScreenplayError.notFound("no image '\(kind)/\(named)'", path: "images/\(kind)/\(named).svg")
        switch kind {
        case "composer":
            guard let composer = try await catalog.composer(slug: key) else { throw missing }
            return .composer(name: composer.name, period: composer.period)
        case "work":
            guard let id = Int64(key), id > 0, let work = try await catalog.work(id: id) else { throw missing }
            return .work(title: work.title, composer: work.composerName)
        case "recording":
            guard let id = Int64(key), id > 0, let recording = try await catalog.recording(id: id) else { throw missing }
            return .recording(performers: recording.performers, year: recording.year)
        case "playlist":
            guard let id = Int64(key), id > 0 else { throw missing }
            return .playlist(number: id)
        default:
            guard let city = CityStatistics.cities.first(where: { $0.name.lowercased() == key }) else { throw missing }
            return .city(name: city.name)
        }
    }
}
