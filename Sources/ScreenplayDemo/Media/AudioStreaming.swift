import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ScreenplayHummingbird
import ScreenplayServer

/// Serves a track's audio: the whole file or the range a player asks for, rendered a chunk at a
/// time on the render threads (``AudioRenderThreads``), never on the cooperative pool that
/// answers screens.
///
/// Each chunk is rendered when the connection can take it: the response body's writer waits
/// while the socket is full, so a client that reads slowly gets its audio rendered slowly, and
/// the server holds one chunk per stream, never a whole track.
struct AudioStreaming: Sendable {
    /// The threads that synthesize audio.
    let threads: AudioRenderThreads
    /// Streams per address and in all.
    let slots: AudioStreamSlots
    /// Bytes rendered per turn on a render thread: 64 KiB, about six seconds of audio.
    static let chunkBytes = 64 * 1024

    /// Streaming with its own threads and slots.
    init(threads: AudioRenderThreads = AudioRenderThreads(), slots: AudioStreamSlots = AudioStreamSlots()) {
        self.threads = threads
        self.slots = slots
    }

    /// `track`'s audio for `request`: the whole file (`200`), the range it asks for (`206`), or
    /// `416` (JSON) for a range past the end; `Accept-Ranges`, an ETag and a day in caches either
    /// way. A `GET` past the stream slots is refused (``AudioStreamSlots``).
    func response(_ track: AudioTrack, request: Request, address: String?) throws(ScreenplayError) -> Response {
        var headers: HTTPFields = [
            .contentType: "audio/wav", .acceptRanges: "bytes", .eTag: track.etag, .cacheControl: "public, max-age=86400",
        ]
        if let condition = request.headers[.ifNoneMatch],
            condition.split(separator: ",").contains(where: {
                let tag = $0.trimmingCharacters(in: .whitespaces)
                return tag == "*" || tag == track.etag || tag == "W/" + track.etag
            })
        {
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
            return Self.unsatisfiable(size: size, request: request)
        }
        headers[.contentLength] = String(range.count)
        let status: HTTPResponse.Status = headers[.contentRange] == nil ? .ok : .partialContent
        guard request.method != .head else { return Response(status: status, headers: headers) }
        let slot = try slots.take(address)
        let threads = self.threads
        return Response(
            status: status, headers: headers,
            body: ResponseBody(contentLength: range.count) { writer in
                defer { slot.release() }
                var offset = range.lowerBound
                while offset < range.upperBound {
                    let chunk = offset..<min(range.upperBound, offset + Self.chunkBytes)
                    let bytes = await threads.run { track.bytes(chunk) }
                    // Waits while the socket is full: the next chunk is not rendered before then.
                    try await writer.write(ByteBuffer(bytes: bytes))
                    offset = chunk.upperBound
                }
                try await writer.finish(nil)
            })
    }

    /// The `416` for a range wholly past the end: JSON like every error, with the size the
    /// client can ask within.
    static func unsatisfiable(size: Int, request: Request) -> Response {
        let asked = request.headers[.range].map { String($0.prefix(100)) } ?? ""
        let error = ScreenplayError(
            status: .rangeNotSatisfiable, code: "rangeNotSatisfiable",
            message: "the range '\(asked)' starts past the end of the file (\(size) bytes)", path: "Range")
        var response = ScreenplayResponder.response(ScreenplayService.errorResponse(error))
        response.headers[.contentRange] = "bytes */\(size)"
        response.headers[.acceptRanges] = "bytes"
        return request.method == .head ? response.createHeadResponse() : response
    }
}
