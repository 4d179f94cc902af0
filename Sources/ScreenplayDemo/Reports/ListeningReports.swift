import Foundation
import ScreenplayContract
import ScreenplayServer
import ScreenplayStore

/// Where the demo keeps what its apps and pages report (``ClientEvent``): the store's log, with
/// one thing of the demo's own. A new `played` of a track changes what the listener's home shows
/// ("Continue listening"), so once one is stored the user's revision moves: home is rebuilt, and
/// every open copy of it follows on the event stream. Impressions, plays sent again and keys
/// that name no track change no screen and cost no rebuild.
struct ListeningReports: ClientEventSink {
    let log: SQLClientEventLog
    let users: UserDirectory

    func store(_ events: [ClientEvent], from user: UserIdentity, receivedAt: Date) async throws -> (stored: Int, repeated: Int) {
        let stored = try await log.storeReturningIDs(events, from: user, receivedAt: receivedAt)
        if events.contains(where: { stored.contains($0.id) && $0.kind == .played && CatalogRepository.trackID(inKey: $0.key) != nil }) {
            try await users.write(for: user) { _ in }
        }
        return (stored.count, events.count - stored.count)
    }
}
