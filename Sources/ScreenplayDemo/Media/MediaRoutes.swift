import Foundation
import HTTPTypes
import Hummingbird
import ScreenplayContract
import ScreenplayHummingbird
import ScreenplayWeb
import Synchronization

/// The demo's own media: generated SVG images (with low-res variants), each track's synthesized
/// audio (as long as the track, streamed by range), and play queues. Real apps point at their CDN; the demo serves itself so it runs
/// with no network.
enum MediaRoutes {
    static func play(track: TrackRecord, recording: RecordingRecord, work: WorkRecord) -> Action.Play {
        Action.Play(
            metadataURL: "/media/queues/recording/\(recording.id)",
            firstTrack: playable(track, recording: recording))
    }

    static func playable(_ track: TrackRecord, recording: RecordingRecord) -> Action.Play.Track {
        .init(
            id: String(track.id), title: track.title, subtitle: recording.performers, durationSeconds: track.seconds,
            streamURL: "/media/audio/track/\(track.id).wav")
    }

    static func register<Context: RequestContext>(on router: Router<Context>, catalog: CatalogRepository) {
        let image: @Sendable (Request, Context) async throws -> Response = { _, context in
            let kind = try context.parameters.require("kind")
            let file = try context.parameters.require("file")
            guard ["composer", "playlist", "city"].contains(kind), file.hasSuffix(".svg") else {
                throw HTTPError(.notFound, message: "no image '\(kind)/\(file)'")
            }
            var name = String(file.dropLast(4))
            let lowResolution = name.hasSuffix("-low")
            if lowResolution { name = String(name.dropLast(4)) }
            let label = try await imageLabel(kind: kind, key: name, catalog: catalog)
            let svg = ImageGenerator.svg(label: label, seed: "\(kind)/\(name)", size: lowResolution ? 96 : 600)
            return Response(
                status: .ok,
                headers: [.contentType: "image/svg+xml; charset=utf-8", .cacheControl: "public, max-age=86400"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: svg)))
        }
        // GET and HEAD, with ranges: the browser asks for the part it plays or seeks to.
        let streams = AudioStreams(perAddress: 6)
        let audio: @Sendable (Request, Context) async throws -> Response = { request, context in
            let file = try context.parameters.require("file")
            guard file.hasSuffix(".wav"), let id = Int64(file.dropLast(4)), let track = try await catalog.track(id: id) else {
                throw HTTPError(.notFound, message: "no track '\(file)'")
            }
            return Self.audioResponse(
                AudioTrack(seed: id, seconds: track.seconds), request: request, streams: streams,
                address: (context as? any RemoteAddressRequestContext)?.remoteAddress?.ipAddress)
        }
        router.get("media/audio/track/:file", use: audio)
        router.head("media/audio/track/:file", use: audio)
        router.get("images/:kind/:file", use: image)
        router.head("images/:kind/:file", use: image)
        let queue: @Sendable (Request, Context) async throws -> Response = { _, context in
            guard let id = Int64(try context.parameters.require("id")) else { throw HTTPError(.notFound) }
            let tracks = try await catalog.tracks(recordingID: id)
            guard !tracks.isEmpty, let recording = try await catalog.recording(id: id) else {
                throw HTTPError(.notFound, message: "no recording \(id)")
            }
            // Each track as a play action carries it: the player shows the same title and performers.
            let queue = tracks.map { playable($0, recording: recording) }
            let bytes = try ScreenplayEncoder().encode(["tracks": queue])
            return Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: Array(bytes))))
        }
        router.get("media/queues/recording/:id", use: queue)
        router.head("media/queues/recording/:id", use: queue)
    }

    /// A track's audio for `request`: the whole file (`200`), the range it asks for (`206`), or
    /// `416` for a range past the end; `Accept-Ranges`, an ETag and a day in caches either way. The
    /// body is made as it is written, 64 KiB at a time.
    static func audioResponse(_ track: AudioTrack, request: Request, streams: AudioStreams, address: String?) -> Response {
        var headers: HTTPFields = [
            .contentType: "audio/wav", .acceptRanges: "bytes", .eTag: track.etag, .cacheControl: "public, max-age=86400",
        ]
        if let condition = request.headers[.ifNoneMatch], condition.split(separator: ",").contains(where: {
            let tag = $0.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == track.etag || tag == "W/" + track.etag
        }) {
            return Response(status: .notModified, headers: headers)
        }
        let size = track.byteCount
        // A range is honoured only for the file it was taken from.
        let sameFile = request.headers[.ifRange].map { $0 == track.etag } ?? true
        let range: Range<Int>
        switch sameFile ? ByteRange.parse(request.headers[.range], size: size) : .whole {
        case .whole:
            range = 0..<size
        case .part(let part):
            range = part
            headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(size)"
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(size)"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        }
        headers[.contentLength] = String(range.count)
        let status: HTTPResponse.Status = headers[.contentRange] == nil ? .ok : .partialContent
        guard request.method != .head else { return Response(status: status, headers: headers) }
        // A few streams at a time per client: a browser needs one or two; more is someone making
        // the server synthesize audio nobody listens to.
        guard streams.begin(address) else {
            return Response(status: .serviceUnavailable, headers: [.retryAfter: "1", .contentType: "text/plain; charset=utf-8"])
        }
        return Response(
            status: status, headers: headers,
            body: ResponseBody(contentLength: range.count) { writer in
                defer { streams.end(address) }
                var offset = range.lowerBound
                while offset < range.upperBound {
                    let end = min(range.upperBound, offset + 64 * 1024)
                    try await writer.write(ByteBuffer(bytes: track.bytes(offset..<end)))
                    offset = end
                }
                try await writer.finish(nil)
            })
    }

    /// Audio streams in flight, per client address (all clients whose address is unknown count as one).
    final class AudioStreams: Sendable {
        private let open = Mutex<[String: Int]>([:])
        let perAddress: Int

        init(perAddress: Int) { self.perAddress = perAddress }

        /// Takes a slot for `address`, or says there is none.
        func begin(_ address: String?) -> Bool {
            open.withLock { open in
                let key = address ?? ""
                guard open[key, default: 0] < perAddress else { return false }
                open[key, default: 0] += 1
                return true
            }
        }

        /// Gives the slot back.
        func end(_ address: String?) {
            open.withLock { open in
                let key = address ?? ""
                open[key] = open[key].map { $0 > 1 ? $0 - 1 : nil } ?? nil
            }
        }
    }

    private static func imageLabel(kind: String, key: String, catalog: CatalogRepository) async throws -> String {
        switch kind {
        case "composer":
            guard let composer = try await catalog.composer(slug: key) else { throw HTTPError(.notFound, message: "no composer '\(key)'") }
            return ImageGenerator.initials(composer.name)
        case "playlist":
            guard let id = Int64(key) else { throw HTTPError(.notFound, message: "no playlist '\(key)'") }
            return "♪" + String(id)
        default:
            guard CityStatistics.cities.contains(where: { $0.name.lowercased() == key }) else {
                throw HTTPError(.notFound, message: "no city '\(key)'")
            }
            return String(key.prefix(1)).uppercased() + String(key.dropFirst().prefix(1))
        }
    }
}

/// Square SVG portraits: initials on a color derived from a seed.
enum ImageGenerator {
    static func initials(_ name: String) -> String {
        let words = name.split(separator: " ").filter { $0.first?.isUppercase == true }
        let letters = [words.first, words.count > 1 ? words.last : nil].compactMap { $0?.first }
        return String(letters)
    }

    static func svg(label: String, seed: String, size: Int) -> String {
        var hash: UInt64 = 1469598103934665603
        for byte in seed.utf8 { hash = (hash ^ UInt64(byte)) &* 1099511628211 }
        let hue = Int(hash % 360)
        let escaped = HTML.escape(label)
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(size)" height="\(size)" viewBox="0 0 100 100">\
            <rect width="100" height="100" fill="hsl(\(hue),55%,42%)"/>\
            <circle cx="82" cy="18" r="30" fill="hsl(\((hue + 40) % 360),60%,55%)" opacity="0.5"/>\
            <text x="50" y="62" font-family="Georgia,serif" font-size="34" text-anchor="middle" fill="#fff">\(escaped)</text></svg>
            """
    }
}
