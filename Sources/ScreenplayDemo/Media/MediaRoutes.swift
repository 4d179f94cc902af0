import Foundation
import HTTPTypes
import Hummingbird
import ScreenplayContract
import ScreenplayWeb

/// The demo's own media: generated SVG images (with low-res variants), a short generated tone
/// per track, and play queues. Real apps point at their CDN; the demo serves itself so it runs
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

    static func register(on router: Router<some RequestContext>, catalog: CatalogRepository) {
        router.get("images/:kind/:file") { _, context -> Response in
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
        router.get("media/audio/track/:file") { _, context -> Response in
            let file = try context.parameters.require("file")
            guard file.hasSuffix(".wav"), let id = Int64(file.dropLast(4)), try await catalog.track(id: id) != nil else {
                throw HTTPError(.notFound, message: "no track '\(file)'")
            }
            return Response(
                status: .ok, headers: [.contentType: "audio/wav", .cacheControl: "public, max-age=86400"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: ToneGenerator.wav(seed: id))))
        }
        router.get("media/queues/recording/:id") { _, context -> Response in
            guard let id = Int64(try context.parameters.require("id")) else { throw HTTPError(.notFound) }
            let tracks = try await catalog.tracks(recordingID: id)
            guard !tracks.isEmpty else { throw HTTPError(.notFound, message: "no recording \(id)") }
            let queue = tracks.map {
                Action.Play.Track(
                    id: String($0.id), title: $0.title, durationSeconds: $0.seconds, streamURL: "/media/audio/track/\($0.id).wav")
            }
            let bytes = try ScreenplayEncoder().encode(["tracks": queue])
            return Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: Array(bytes))))
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

/// A two-second sine tone per track (8 kHz, 8-bit mono WAV): something real to play offline.
enum ToneGenerator {
    static func wav(seed: Int64) -> [UInt8] {
        let sampleRate = 8000
        let count = sampleRate * 2
        let frequency = 220.0 * pow(2.0, Double(seed % 24) / 12.0)
        var bytes: [UInt8] = []
        func append32(_ value: Int) { bytes += withUnsafeBytes(of: UInt32(value).littleEndian, Array.init) }
        func append16(_ value: Int) { bytes += withUnsafeBytes(of: UInt16(value).littleEndian, Array.init) }
        bytes += Array("RIFF".utf8)
        append32(36 + count)
        bytes += Array("WAVEfmt ".utf8)
        append32(16)
        append16(1)
        append16(1)
        append32(sampleRate)
        append32(sampleRate)
        append16(1)
        append16(8)
        bytes += Array("data".utf8)
        append32(count)
        for index in 0..<count {
            let envelope = min(1, Double(count - index) / 800)
            let sample = sin(2 * Double.pi * frequency * Double(index) / Double(sampleRate)) * 60 * envelope
            bytes.append(UInt8(128 + Int(sample)))
        }
        return bytes
    }
}
