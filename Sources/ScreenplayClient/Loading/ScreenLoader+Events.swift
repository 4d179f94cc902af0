import Foundation
import ScreenplayContract
import HTTPTypes

extension ScreenLoader {
    /// Why an event stream could not be opened, with how long the server asked to wait.
    public struct EventStreamRefusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// The failure, as for any request.
        public let error: ClientError
        /// `Retry-After` in seconds, when the server said (a 429 past the per-identity limit, a
        /// 503 past the total).
        public let retryAfter: Int?

        /// Says what happened.
        public var description: String { error.message + (retryAfter.map { " (retry after \($0) s)" } ?? "") }
    }

    /// Whether this loader's transport can hold an event stream open.
    public nonisolated var canFollowEvents: Bool { transport is any EventStreamTransport }

    /// Opens `GET /api/v{N}/events?screens=…` for `entries` (paths under `screens/`) with this
    /// app's identity, resuming after `lastEventID` when given. From v6 it asks for patches
    /// (`patches=1`): a changed screen's event may carry the change itself (see ``offer(patch:from:to:for:)``).
    public func openEvents(watching entries: [String], lastEventID: String?) async throws(EventStreamRefusal) -> EventStreamBody {
        func refused(_ kind: ClientError.Kind, _ message: String, retryAfter: Int? = nil) -> EventStreamRefusal {
            EventStreamRefusal(error: ClientError(kind: kind, message: message), retryAfter: retryAfter)
        }
        guard let streaming = transport as? any EventStreamTransport else {
            throw refused(.invalidRequest, "this transport cannot hold an event stream open")
        }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/%=&?")
        let list = entries.map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }.joined(separator: ",")
        let patches = endpoint.apiVersion >= .v6 ? "&patches=1" : ""
        guard let url = URL(string: "events?screens=" + list + patches, relativeTo: endpoint.apiBase)?.absoluteURL else {
            throw refused(.invalidURL, "no event stream URL for \(entries)")
        }
        var request: HTTPRequest
        do {
            request = try await makeRequest(.get, url: url)
        } catch {
            throw EventStreamRefusal(error: error, retryAfter: nil)
        }
        request.headerFields[.accept] = "text/event-stream"
        if let lastEventID, !lastEventID.isEmpty { request.headerFields[Self.lastEventIDHeader] = lastEventID }
        let response: HTTPResponse
        let body: EventStreamBody
        do {
            (response, body) = try await streaming.open(request)
        } catch {
            throw refused(.transport, "no event stream from \(request.authority ?? "the server"): \(error)")
        }
        guard response.status == .ok else {
            // The refusal's JSON body is small; read a bounded amount of it for the message.
            var bytes: [UInt8] = []
            do {
                for try await chunk in body {
                    bytes += chunk.prefix(16_384 - bytes.count)
                    if bytes.count >= 16_384 { break }
                }
            } catch {}
            let message = (try? JSONDecoder().decode(ErrorBody.self, from: Data(bytes)))?.error.message
            throw refused(
                .server(status: response.status.code, body: nil), message ?? "HTTP \(response.status.code) from \(url.path)",
                retryAfter: response.headerFields[.retryAfter].flatMap { Int($0) })
        }
        return body
    }

    static let lastEventIDHeader = HTTPField.Name("Last-Event-ID")!
}
