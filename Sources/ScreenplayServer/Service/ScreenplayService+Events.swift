public import HTTPTypes
import Logging
import ScreenplayContract

extension ScreenplayService {
    /// An answer that is either whole or a stream that goes on until one side ends it.
    public enum StreamingResponse: Sendable {
        /// A complete response, as ``ScreenplayService/respond(to:body:clientAddress:)`` gives.
        case whole(Response)
        /// A `200` head for `text/event-stream`, then `stream`'s chunks as they come. The host
        /// writes each chunk as it arrives, calls the stream's `tick()` every
        /// ``EventStreamLimits/heartbeat``, and its `close()` when the response ends.
        case events(HTTPResponse, ScreenEventStream)
    }

    /// ``respond(to:body:clientAddress:)`` for hosts that can stream: the same answers, plus the
    /// screen event stream at `GET {prefix}/v{N}/events?screens=<path>,<path>…`.
    public func respondStreaming(to request: HTTPRequest, body: [UInt8], clientAddress: String? = nil) async -> StreamingResponse {
        let target = endpoint(of: request)
        guard case .success(let endpoint) = target, endpoint.kind == .events else {
            return .whole(await respond(to: request, at: target, body: body, clientAddress: clientAddress))
        }
        do {
            try admit(request, at: endpoint, bodySize: body.count, clientAddress: clientAddress)
            let token = Self.token(in: request.headerFields)
            let user = try await screens.identity.resolve(token: token, creating: false).user
            let client = EventStreamClient(
                user: user, token: token, apiVersion: endpoint.version,
                clientKinds: Self.clientKinds(in: request.headerFields, known: screens.routes.customKinds.merging(pages?.customKinds ?? [:]) { a, _ in a }),
                platform: Self.platform(in: request.headerFields), locale: Self.locale(in: request.headerFields),
                limitKey: user.isAnonymous ? "address:" + (clientAddress ?? "unknown") : "user:\(user.id)",
                wantsPatches: try Self.wantsPatches(endpoint.query["patches"]) && endpoint.version >= .v6)
            let entries = try Self.watchedEntries(endpoint.query["screens"])
            let stream = try await openEventStream(
                screens: entries, client: client, lastEventID: request.headerFields[Self.lastEventID])
            var head = Self.eventStreamHead
            versions.addDeprecation(to: &head, version: endpoint.version)
            return .events(head, stream)
        } catch let error as ScreenplayError {
            return .whole(Self.errorResponse(error))
        } catch let error as any ScreenplayErrorConvertible {
            return .whole(Self.errorResponse(error.screenplayError))
        } catch {
            logger.error("unexpected failure opening an event stream", metadata: ["error": "\(error)"])
            return .whole(Self.errorResponse(.internalError("the server failed to open the event stream")))
        }
    }

    /// The `200` head of every event stream: `text/event-stream`, never stored, never sniffed.
    public static var eventStreamHead: HTTPResponse {
        var head = HTTPResponse(status: .ok)
        head.headerFields[.contentType] = "text/event-stream; charset=utf-8"
        head.headerFields[.cacheControl] = "no-store"
        head.headerFields[contentTypeOptions] = "nosniff"
        return head
    }

    /// `Last-Event-ID`: the id of the last event a reconnecting client saw.
    public static let lastEventID = HTTPField.Name("Last-Event-ID")!

    /// The `patches` parameter: `1` asks for patches in `screen` events (v6; earlier versions
    /// ignore it), `0` or none does not; anything else is refused.
    static func wantsPatches(_ parameter: String?) throws(ScreenplayError) -> Bool {
        switch parameter {
        case nil, "0": false
        case "1": true
        case let other?: throw .invalidField("patches", "is '\(other.prefix(40))'; 1 asks for patches, 0 (or none) does not")
        }
    }

    /// The `screens` parameter split into entries: comma-separated, each non-empty and at most
    /// 2 048 bytes, duplicates once. Public for hosts that open streams themselves (the web).
    public static func watchedEntries(_ parameter: String?) throws(ScreenplayError) -> [String] {
        guard let parameter, !parameter.isEmpty else {
            throw .invalidField("screens", "name the screens to watch: screens=<path>,<path>… (paths under screens/)")
        }
        var entries: [String] = []
        for (index, entry) in parameter.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
            guard !entry.isEmpty else { throw .invalidField("screens[\(index)]", "is empty") }
            let length = entry.unicodeScalars.count
            guard length <= 2_048 else { throw .invalidField("screens[\(index)]", "is \(length) characters long; the limit is 2048") }
            if !entries.contains(String(entry)) { entries.append(String(entry)) }
        }
        return entries
    }

    /// Opens a stream of changes to `entries` (paths under `screens/`, each with an optional
    /// query) as `client` sees them: the host's way in for clients it identifies itself (the web
    /// pages, by cookie). Refused with `404` when this server has no invalidation bus or a screen
    /// does not exist, `400` past ``EventStreamLimits/screensPerStream``, `429`/`503` past the
    /// stream limits. `lastEventID` is what a reconnecting client's `Last-Event-ID` said.
    public func openEventStream(
        screens entries: [String], client: EventStreamClient, lastEventID: String? = nil
    ) async throws(ScreenplayError) -> ScreenEventStream {
        guard let hub = events else {
            throw .notFound("this server announces no changes: it runs without an invalidation bus", path: "events")
        }
        let pipeline = self.screens
        let resolver = self.screens.identity
        return try await hub.open(
            watching: entries, client: client, lastEventID: lastEventID,
            etag: { screen, client throws(ScreenplayError) in
                let body = try await pipeline.encoded(
                    path: screen.path, query: screen.query, apiVersion: client.apiVersion, clientKinds: client.clientKinds, user: client.user,
                    platform: client.platform, locale: client.locale
                ).body
                return WatchedVersion(etag: body.etag, bytes: client.wantsPatches ? body.bytes : nil)
            },
            identity: { token in try await resolver.resolve(token: token, creating: false).user }, logger: logger)
    }
}
