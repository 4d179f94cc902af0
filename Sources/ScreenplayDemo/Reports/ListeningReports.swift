import Foundation
import ScreenplayContract
import ScreenplayServer
import ScreenplayStore

/// Where the demo keeps what its apps and pages report (``ClientEvent``): the store's log, with
/// one thing of the demo's own. A `played` changes what the listener's home shows ("Continue
/// listening"), so a batch holding one is stored in the same transaction as a bump of the user's
/// revision: home is rebuilt, and every open copy of it follows on the event stream. Impressions
/// change no screen and cost no rebuild.
struct ListeningReports: ClientEventSink {
    let log: SQLClientEventLog
    let users: UserDirectory

    func store(_ events: [ClientEvent], from user: UserIdentity, receivedAt: Date) async throws -> (stored: Int, repeated: Int) {
        guard events.contains(where: { $0.kind == .played }) else { return try await log.store(events, from: user, receivedAt: receivedAt) }
        return try await users.write(for: user) { _ in try await log.store(events, from: user, receivedAt: receivedAt) }
    }
}
