import Logging
import Synchronization

/// How many connections each peer address (``PeerAddress``) has open on one server, shared by
/// the connections of every event loop: what lets one address hold at most its share, so that a
/// client opening thousands of sockets cannot fill the server's cap for everyone else.
///
/// A refused connection is never counted, so refusing costs the address nothing it holds. Each
/// episode of refusals is logged once when it starts and once when the address drops back under
/// its cap, with how many were refused, so a flood shows in the log without flooding it.
final class ConnectionsPerAddress: Sendable {
    /// The most connections one address may have open.
    let limit: Int
    private let logger: Logger
    private let entries = Mutex<[PeerAddress: Entry]>([:])

    private struct Entry {
        var open = 0
        /// Refusals since the address last reached its cap (0: not refusing).
        var refused = 0
    }

    /// Counts for one server, allowing `limit` connections an address, logging to `logger`.
    init(limit: Int, logger: Logger) {
        self.limit = max(1, limit)
        self.logger = logger
    }

    /// Counts a new connection from `peer`, or refuses it (`false`) when the address already has
    /// ``limit`` open. An admitted connection is given back with ``release(_:)`` when it closes.
    func admit(_ peer: PeerAddress) -> Bool {
        let (admitted, firstRefusal) = entries.withLock { entries -> (Bool, Bool) in
            var entry = entries[peer, default: Entry()]
            defer { entries[peer] = entry }
            guard entry.open < limit else {
                entry.refused += 1
                return (false, entry.refused == 1)
            }
            entry.open += 1
            return (true, false)
        }
        if firstRefusal {
            logger.warning(
                "an address reached its connection cap; its new connections are refused until some close",
                metadata: ["peer": "\(peer)", "cap": "\(limit)"])
        }
        return admitted
    }

    /// Gives back the place of a connection ``admit(_:)`` counted.
    func release(_ peer: PeerAddress) {
        let refused = entries.withLock { entries -> Int in
            guard let entry = entries[peer] else { return 0 }
            // One place free again: the episode of refusals (if any) is over.
            entries[peer] = entry.open > 1 ? Entry(open: entry.open - 1) : nil
            return entry.refused
        }
        if refused > 0 {
            logger.notice("an address is under its connection cap again", metadata: ["peer": "\(peer)", "refused": "\(refused)"])
        }
    }

    /// Connections `peer` has open now.
    func openConnections(from peer: PeerAddress) -> Int {
        entries.withLock { $0[peer]?.open ?? 0 }
    }
}
