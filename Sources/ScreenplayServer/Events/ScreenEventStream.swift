import Foundation
import HTTPTypes
import Logging
public import ScreenplayContract

/// A screen one event stream watches: an entry of the request's `screens` list, a path under
/// `screens/` with an optional query (`search?q=bach`).
public struct WatchedScreen: Sendable, Hashable {
    /// The entry as the client wrote it: how events name the screen back.
    public let entry: String
    /// The path under `screens/`.
    public let path: String
    /// The entry's query.
    public let query: [String: String]

    /// Reads `entry` (`path` or `path?query`, no leading slash needed).
    public init(entry: String) {
        self.entry = entry
        let target = RequestTarget("/" + entry.drop(while: { $0 == "/" }))
        self.path = target.segments.joined(separator: "/")
        self.query = target.query
    }
}

/// Everything a `GET` of each watched screen would say about its client: whose screens, in which
/// version, for which platform and locale, knowing which custom kinds.
public struct EventStreamClient: Sendable {
    /// Who the stream is for.
    public var user: UserIdentity
    /// The token that named them, checked again when any token is revoked.
    public var token: String?
    /// The API version the client speaks (ETags differ per version).
    public var apiVersion: APIVersion
    /// The custom component kinds it renders.
    public var clientKinds: Set<String>
    /// Its platform, for pages.
    public var platform: Platform
    /// Its locale, for pages.
    public var locale: String?
    /// What its open streams are counted under: the user, or the address of a reader without one.
    public var limitKey: String
    /// Whether it asked for patches (`patches=1`, v6): a `screen` event then carries the change
    /// from the version it was last told of, when one is worth sending (see ``WatchedVersion``).
    public var wantsPatches: Bool

    /// Describes a client.
    public init(
        user: UserIdentity, token: String?, apiVersion: APIVersion, clientKinds: Set<String> = [], platform: Platform = Platform("unknown"),
        locale: String? = nil, limitKey: String, wantsPatches: Bool = false
    ) {
        self.wantsPatches = wantsPatches
        self.user = user
        self.token = token
        self.apiVersion = apiVersion
        self.clientKinds = clientKinds
        self.platform = platform
        self.locale = locale
        self.limitKey = limitKey
    }
}

/// One client's stream of screen changes, as the bytes of a `text/event-stream`.
///
/// It opens with `ready` (every watched screen's current ETag, so a client holding an older one
/// revalidates at once), preceded by `revalidate` when the client's `Last-Event-ID` shows it
/// missed invalidations while away. Then, each time the hub rings: a `screen` event
/// (`{"path", "etag"}`, and for a client that asked for patches, when one is worth sending,
/// `"from"`, the tag it was last told of, and `"patch"`, a ``ScreenPatch`` from that version to
/// this one) per watched screen whose ETag moved, or, when none did, an id-only message
/// that keeps the client's `Last-Event-ID` current without waking it. A heartbeat comment when
/// quiet; `end` (`{"reason": "idle" | "identity" | "shutdown"}`) when the server ends it:
/// `identity` when the client's token no longer names its user, or, for a stream opened with
/// `endsWhenUnauthorized`, when the ETag lookup answers `401` (whoever opened it may no longer
/// see what it watches: an admin signed out).
///
/// Consumed once, by the task writing the response; ``close()`` (idempotent) must follow, which
/// frees its place under the limits. ``tick()`` is the heartbeat timer's call.
public struct ScreenEventStream: AsyncSequence, Sendable {
    /// A chunk of the response body.
    public typealias Element = [UInt8]

    /// The ETag a `GET` of `screen` would answer for `client` now (with its bytes, for patches).
    public typealias ETagLookup = @Sendable (WatchedScreen, EventStreamClient) async throws(ScreenplayError) -> WatchedVersion
    /// Who `token` names now (a revoked token throws).
    public typealias IdentityCheck = @Sendable (String?) async throws -> UserIdentity

    let id: UInt64
    let hub: ScreenEventHub
    let doorbell: Doorbell
    let screens: [WatchedScreen]
    let client: EventStreamClient
    let opening: [UInt8]
    let baseline: [String: String]
    let openedID: String
    let etag: ETagLookup
    /// Whether a lookup answering `401` ends the stream (reason `identity`) rather than
    /// leaving the client with what it has.
    let endsWhenUnauthorized: Bool
    let identity: IdentityCheck
    let logger: Logger
    /// What the client was last told of, for patches (`nil`: it did not ask for them).
    let held: HeldVersions?

    /// Wakes the stream for the heartbeat and the idle check.
    public func tick() { doorbell.ring { $0.tick = true } }

    /// Ends the stream with `end` (reason `shutdown`): for a server shutting down gracefully.
    public func shutdown() { doorbell.ring { $0.shutdown = true } }

    /// Leaves the hub (the stream ends at its next look). Call when the response ends, however.
    public func close() {
        doorbell.ring { $0.closed = true }
        hub.unregister(id)
        held?.close()
    }

    /// The stream's bytes.
    public func makeAsyncIterator() -> Iterator {
        Iterator(stream: self, rings: doorbell.rings.makeAsyncIterator(), known: baseline, lastSentID: openedID)
    }

    /// Produces the stream's chunks; each `next()` waits for the next thing worth sending.
    public struct Iterator: AsyncIteratorProtocol {
        let stream: ScreenEventStream
        var rings: AsyncStream<Void>.Iterator
        var known: [String: String]
        var lastSentID: String
        var opened = false
        var finished = false
        var lastEvent = ContinuousClock.now
        /// A lookup answered `401`: the stream ends after what was found.
        var unauthorized = false

        /// The next chunk, or `nil` once the stream has ended.
        public mutating func next() async -> [UInt8]? {
            guard !finished else { return nil }
            guard opened else {
                opened = true
                return stream.opening
            }
            while true {
                guard await rings.next() != nil else { return finish(nil) }
                let pending = stream.doorbell.take()
                if pending.closed { return finish(nil) }
                if pending.shutdown { return finish("shutdown") }
                if pending.identity, !(await identityHolds()) { return finish("identity") }
                var chunk: [UInt8] = []
                if pending.changed || pending.identity || !pending.paths.isEmpty {
                    chunk += await changes(only: pending.changed || pending.identity ? nil : pending.paths)
                    if unauthorized { return finish("identity", after: chunk) }
                }
                if pending.tick {
                    if ContinuousClock.now - lastEvent >= stream.hub.limits.idleLimit { return finish("idle", after: chunk) }
                    if chunk.isEmpty { chunk = ServerSentEvent(comment: "heartbeat").bytes }
                }
                if !chunk.isEmpty { return chunk }
            }
        }

        /// A `screen` event per watched screen whose ETag moved (of those at `paths`, when only
        /// they may have: a publish); an id-only message when none did but the hub's generation
        /// moved on.
        mutating func changes(only paths: Set<String>? = nil) async -> [UInt8] {
            // Read before looking: the id never claims more than what was looked at.
            let id = stream.hub.currentEventID
            var chunk: [UInt8] = []
            for screen in stream.screens where paths.map({ $0.contains(screen.path) }) ?? true {
                let version: WatchedVersion
                do {
                    version = try await stream.etag(screen, stream.client)
                } catch where error.status == .unauthorized && stream.endsWhenUnauthorized {
                    unauthorized = true
                    return chunk
                } catch {
                    // A screen failing now (a provider down) keeps what the client has.
                    stream.logger.debug("event stream: '\(screen.entry)' did not build", metadata: ["error": "\(error)"])
                    continue
                }
                let etag = version.etag
                guard known[screen.entry] != etag else { continue }
                let from = known[screen.entry]
                known[screen.entry] = etag
                var data = ScreenChanged.json(path: screen.entry, etag: etag)
                if let held = stream.held {
                    if let from, let old = held.bytes(for: screen.entry), let new = version.bytes,
                        let patch = stream.hub.patches.patch(from: from, old: old, to: etag, new: new)
                    {
                        data = ScreenChanged.json(path: screen.entry, etag: etag, from: from, patch: patch)
                    }
                    held.hold(version.bytes, for: screen.entry)
                }
                chunk += ServerSentEvent(type: "screen", id: id, data: data).bytes
            }
            if !chunk.isEmpty { lastEvent = ContinuousClock.now }
            if chunk.isEmpty, id != lastSentID { chunk = ServerSentEvent(id: id).bytes }
            lastSentID = id
            return chunk
        }

        /// Whether the stream's token still names its user.
        func identityHolds() async -> Bool {
            guard let user = try? await stream.identity(stream.client.token) else { return false }
            return user == stream.client.user
        }

        /// Ends the stream, saying why when the server chose to (`reason`), after `chunk`.
        mutating func finish(_ reason: String?, after chunk: [UInt8] = []) -> [UInt8]? {
            finished = true
            stream.hub.unregister(stream.id)
            stream.held?.close()
            guard let reason else { return chunk.isEmpty ? nil : chunk }
            return chunk + ServerSentEvent(type: "end", data: EventData.json(["reason": reason])).bytes
        }
    }
}

/// The `screen` event's data: `{"etag","path"}`, with `"from"` and `"patch"` when it carries a
/// patch, keys sorted as ``EventData``'s encoder sorts them.
///
/// Written by hand rather than by `JSONEncoder`: one is written for every stream a publish
/// concerns (a thousand at once), and the encoder's boxing cost more than the rest of the event.
enum ScreenChanged {
    /// The data without a patch.
    static func json(path: String, etag: String) -> String {
        "{\"etag\":" + EventData.string(etag) + ",\"path\":" + EventData.string(path) + "}"
    }

    /// The data with a patch (`patch`: its JSON text).
    static func json(path: String, etag: String, from: String, patch: [UInt8]) -> String {
        "{\"etag\":" + EventData.string(etag) + ",\"from\":" + EventData.string(from) + ",\"patch\":" + String(decoding: patch, as: UTF8.self)
            + ",\"path\":" + EventData.string(path) + "}"
    }
}

/// JSON on one line, keys sorted.
enum EventData {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func json(_ value: some Encodable) -> String {
        (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// `value` as a JSON string literal, quoted: `"` and `\` escaped, control characters as
    /// their short escapes or `\u00XX`, everything else (slashes, non-ASCII) as it is.
    static func string(_ value: String) -> String {
        let needsEscaping = value.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        guard needsEscaping else { return "\"" + value + "\"" }
        var escaped = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case "\u{08}": escaped += "\\b"
            case "\u{0C}": escaped += "\\f"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }
}
