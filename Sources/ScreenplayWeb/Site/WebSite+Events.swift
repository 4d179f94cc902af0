import Foundation
public import HTTPTypes
import ScreenplayContract
public import ScreenplayServer

extension WebSite {
    /// Where a page hears that its screen changed: `GET /web/events?screens=<entry>`, the
    /// service's event stream for the browser's cookie identity (an `EventSource` sends no
    /// `Authorization`), in the version and platform the pages render.
    public static let eventsPath = "/web/events"

    /// What makes the page of `path` (with `query`) follow its screen, as the screen declares
    /// (`declared`, v5): the event stream when it asks for events and the service announces
    /// changes (it has an invalidation bus), a polling interval when it asks for one; `nil` for a
    /// screen that is not live.
    func live(path: String, query: [String: String], etag: String, declared: LiveUpdates?) -> WebLive? {
        guard let declared, declared.isLive else { return nil }
        guard declared.events, service.events != nil else {
            return declared.interval.map { WebLive(eventsURL: nil, etag: etag, interval: $0) }
        }
        // The entry is the screen's path and query; commas inside it are encoded, since the
        // stream's `screens` parameter separates entries with them.
        let entry = path + Self.queryString(query).replacingOccurrences(of: ",", with: "%2C")
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/")
        return WebLive(
            eventsURL: Self.eventsPath + "?screens=" + (entry.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""), etag: etag,
            interval: declared.interval)
    }

    /// Opens the event stream a page asked for (`GET /web/events?screens=…`): the browser's user
    /// from its cookie (never created here), `Last-Event-ID` from a reconnecting `EventSource`.
    /// Refusals are the service's JSON errors; `EventSource` only sees that the stream failed.
    public func openEvents(_ request: HTTPRequest, clientAddress: String? = nil) async -> ScreenplayService.StreamingResponse {
        do throws(ScreenplayError) {
            let (user, _) = try await identify(request)
            let token = user.isAnonymous ? nil : Self.sessionToken(request.headerFields)
            let client = EventStreamClient(
                user: user, token: token, apiVersion: .latest, platform: .web, locale: ScreenplayService.locale(in: request.headerFields),
                limitKey: user.isAnonymous ? "address:" + (clientAddress ?? "unknown") : "user:\(user.id)")
            let entries = try ScreenplayService.watchedEntries(Self.query(of: request)["screens"])
            let stream = try await service.openEventStream(
                screens: entries, client: client, lastEventID: request.headerFields[ScreenplayService.lastEventID])
            return .events(ScreenplayService.eventStreamHead, stream)
        } catch {
            return .whole(ScreenplayService.errorResponse(error))
        }
    }
}
