public import Foundation
import HTTPTypes
public import ScreenplayContract

/// A screen as the client holds it: the decoded value, what decoding set aside, and its ETag.
public struct LoadedScreen: Sendable, Hashable {
    /// The screen.
    public let screen: Screen
    /// Elements skipped or unknown while decoding; logged by the app, asserted empty by tests.
    public let issues: [DecodingIssue]
    /// The entity tag it was served with.
    public let etag: String?
    /// Whether the server answered 304 and the cached copy was used.
    public let revalidated: Bool
    /// When the screen came from the offline copy rather than the server: when that copy was
    /// saved. Renderers show it ("offline, saved …").
    public let offlineSince: Date?

    /// Creates a loaded screen; for tests and for apps that feed screens from elsewhere.
    public init(screen: Screen, issues: [DecodingIssue], etag: String?, revalidated: Bool, offlineSince: Date? = nil) {
        self.screen = screen
        self.issues = issues
        self.etag = etag
        self.revalidated = revalidated
        self.offlineSince = offlineSince
    }

    /// Whether this is an offline copy.
    public var isOffline: Bool { offlineSince != nil }
}

/// Keeps the client's identity token between requests (and app launches, when persisted).
public protocol TokenStore: Sendable {
    /// The token, if the server issued one.
    func token() async -> String?
    /// Saves the token the server issued.
    func save(_ token: String) async
}

/// A token kept in memory for the life of the process.
public actor InMemoryTokenStore: TokenStore {
    private var stored: String?
    /// Starts with `token` (or none).
    public init(token: String? = nil) { stored = token }
    /// The token, if any.
    public func token() -> String? { stored }
    /// Replaces the token.
    public func save(_ token: String) { stored = token }
}

/// Loads screens and performs commands over a ``ScreenTransport``, with its own ETag cache.
///
/// Each screen URL's last decoded copy is kept with its ETag; the next load sends
/// `If-None-Match`, and a 304 returns the cached copy without decoding anything. The token the
/// server hands a new client is saved and sent as `Authorization: Bearer` from then on.
public actor ScreenLoader {
    /// The server and API version.
    public nonisolated let endpoint: ServerEndpoint
    let transport: any ScreenTransport
    let tokens: any TokenStore
    var decoder: ScreenplayDecoder { ScreenplayDecoder(mode: .lossy, apiVersion: endpoint.apiVersion, customKinds: customKinds) }
    /// App-defined component kinds this app renders; sent in `Screenplay-Components`.
    public nonisolated let customKinds: Set<String>
    /// Screens kept for revalidation, with the bytes they were served as (what a patch applies to).
    private var cache: [URL: (screen: LoadedScreen, body: [UInt8]?, lastUse: Int)] = [:]
    /// Patches the event stream sent, by screen URL, each waiting for that screen's next load.
    private var pendingPatches: [URL: PendingPatch] = [:]
    /// Patches that turned a cached screen into the announced version without a request.
    public private(set) var patchesApplied = 0
    /// Patches that did not fit what was cached (another version, a failed check): their screens
    /// were fetched whole instead.
    public private(set) var patchesRefused = 0
    private var uses = 0
    private let cacheLimit: Int
    /// Where screens kept for offline use live (see `ScreenLoader+Offline.swift`).
    public nonisolated let offlineStorage: (any OfflineStorage)?
    /// Whether the app said it is offline: reads come from the offline copies, commands are refused.
    public internal(set) var isOffline = false

    /// Creates a loader; `cacheLimit` bounds how many screens are kept for revalidation, and
    /// `customKinds` names the app-defined component kinds the app has renderers for, and
    /// `offlineStorage` keeps the screens marked for offline use (none: no offline copies).
    public init(
        endpoint: ServerEndpoint, transport: any ScreenTransport, tokens: any TokenStore = InMemoryTokenStore(), cacheLimit: Int = 200,
        customKinds: Set<String> = [], offlineStorage: (any OfflineStorage)? = nil
    ) {
        self.offlineStorage = offlineStorage
        self.endpoint = endpoint
        self.transport = transport
        self.tokens = tokens
        self.cacheLimit = cacheLimit
        self.customKinds = customKinds
    }

    /// Loads the screen at `reference` (relative to the API base, e.g. `screens/home`). Offline,
    /// or when the server cannot be reached, its offline copy is read instead (``LoadedScreen/isOffline``).
    public func screen(at reference: String) async throws(ClientError) -> LoadedScreen {
        guard let url = endpoint.resolve(reference) else {
            throw ClientError(kind: .invalidURL, message: "refused screen URL '\(reference)'")
        }
        if isOffline { return try await offlineCopy(of: reference, url: url) }
        if let patched = await applyPendingPatch(for: url, reference: reference) { return patched }
        let cached = cache[url]?.screen
        var request = try await makeRequest(.get, url: url)
        if let etag = cached?.etag { request.headerFields[.ifNoneMatch] = etag }
        let response: HTTPResponse
        let body: [UInt8]
        do {
            (response, body) = try await send(request, body: nil)
        } catch where error.kind == .transport {
            // No answer: the offline copy, when there is one, marked as such.
            guard let copy = try? await offlineCopy(of: reference, url: url) else { throw error }
            return copy
        }
        if response.status == .notModified, let cached {
            store(cached, body: cache[url]?.body, for: url)
            return LoadedScreen(screen: cached.screen, issues: cached.issues, etag: cached.etag, revalidated: true)
        }
        try Self.check(response, body: body, url: url)
        let decoded: Decoded<Screen>
        do {
            decoded = try decoder.decode(Screen.self, from: Data(body))
        } catch {
            throw ClientError(kind: .decoding(error), message: "the screen at \(url.path) could not be read: \(error)")
        }
        let loaded = LoadedScreen(screen: decoded.value, issues: decoded.issues, etag: response.headerFields[.eTag], revalidated: false)
        store(loaded, body: body, for: url)
        await keepOfflineCopyCurrent(reference, etag: loaded.etag, body: body)
        return loaded
    }

    /// POSTs a command's payload (plus `extra` members, such as a prompt's text) and decodes
    /// the result.
    ///
    /// Every command carries an `Idempotency-Key` (a new one per call unless given). When the
    /// connection fails before an answer arrives, the command is sent once more with the same key:
    /// the server runs it at most once, and answers the retry with the first answer.
    public func perform(
        _ command: Action.Command, extra: [String: JSONValue] = [:], idempotencyKey: String? = nil
    ) async throws(ClientError) -> Decoded<CommandResult> {
        let idempotencyKey = idempotencyKey ?? UUID().uuidString
        guard !isOffline else {
            throw ClientError(kind: .offline, message: "You are offline: this needs a connection, and nothing was sent.")
        }
        guard let url = endpoint.resolve(command.url) else {
            throw ClientError(kind: .invalidURL, message: "refused command URL '\(command.url)'")
        }
        var payload = command.payload ?? .object([:])
        if !extra.isEmpty {
            guard case .object(var members) = payload else {
                throw ClientError(kind: .invalidRequest, message: "command '\(command.url)' has a non-object payload; cannot add fields")
            }
            for (key, value) in extra { members[key] = value }
            payload = .object(members)
        }
        var request = try await makeRequest(.post, url: url)
        request.headerFields[.contentType] = "application/json"
        request.headerFields[Self.idempotencyKeyHeader] = idempotencyKey
        let body: [UInt8]
        do {
            body = Array(try ScreenplayEncoder(apiVersion: endpoint.apiVersion).encode(payload))
        } catch {
            throw ClientError(kind: .invalidRequest, message: "payload of '\(command.url)' could not be encoded: \(error)")
        }
        let answer: (HTTPResponse, [UInt8])
        do {
            answer = try await send(request, body: body)
        } catch  where error.kind == .transport {
            answer = try await send(request, body: body)
        }
        let (response, responseBody) = answer
        try Self.check(response, body: responseBody, url: url)
        do {
            return try decoder.decode(CommandResult.self, from: Data(responseBody))
        } catch {
            throw ClientError(kind: .decoding(error), message: "the answer of \(url.path) could not be read: \(error)")
        }
    }

    /// Forgets cached screens (e.g. on sign-out).
    public func clearCache() {
        cache.removeAll()
        pendingPatches.removeAll()
    }

    /// How many screens are cached; for tests and diagnostics.
    public var cachedScreenCount: Int { cache.count }

    /// Whether the screen at `reference` is cached.
    public func isCached(_ reference: String) -> Bool { endpoint.resolve(reference).map { cache[$0] != nil } ?? false }

    func setPendingPatch(_ patch: PendingPatch, for url: URL) { pendingPatches[url] = patch }

    func takePendingPatch(for url: URL) -> PendingPatch? { pendingPatches.removeValue(forKey: url) }

    func cachedCopy(at url: URL) -> (etag: String?, body: [UInt8]?)? { cache[url].map { ($0.screen.etag, $0.body) } }

    func keep(_ loaded: LoadedScreen, body: [UInt8], for url: URL) { store(loaded, body: body, for: url) }

    func notePatch(applied: Bool) {
        if applied { patchesApplied += 1 } else { patchesRefused += 1 }
    }

    /// Keeps `loaded` for revalidation; at the limit, the least recently used screen makes room
    /// (the others keep their ETags).
    private func store(_ loaded: LoadedScreen, body: [UInt8]?, for url: URL) {
        guard cacheLimit > 0 else { return }
        uses += 1
        if cache[url] == nil, cache.count >= cacheLimit, let oldest = cache.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            cache[oldest] = nil
        }
        cache[url] = (loaded, body, uses)
    }

    func makeRequest(_ method: HTTPRequest.Method, url: URL) async throws(ClientError) -> HTTPRequest {
        guard let scheme = url.scheme, let authority = Self.authority(of: url) else {
            throw ClientError(kind: .invalidURL, message: "'\(url)' is not an absolute http(s) URL")
        }
        // Keep the path's percent-encoding: "a%2Fb" is one segment, not two.
        let encodedPath = url.path(percentEncoded: true)
        var path = encodedPath.isEmpty ? "/" : encodedPath
        if let query = url.query(percentEncoded: true) { path += "?" + query }
        var request = HTTPRequest(method: method, scheme: scheme, authority: authority, path: path)
        request.headerFields[.accept] = "application/json"
        if !customKinds.isEmpty { request.headerFields[Self.componentsHeader] = customKinds.sorted().joined(separator: ", ") }
        // The identity token is for our server only, never for another host a link points at.
        if isEndpointOrigin(url), let token = await tokens.token() { request.headerFields[.authorization] = "Bearer \(token)" }
        return request
    }

    func send(_ request: HTTPRequest, body: [UInt8]?) async throws(ClientError) -> (HTTPResponse, [UInt8]) {
        var request = request
        let toServer = request.scheme == endpoint.root.scheme && request.authority == Self.authority(of: endpoint.root)
        // Until the server has answered once (and so handed out a token, if it issues them), one
        // request at a time goes to it: two parallel first requests would otherwise each create a
        // user, and one identity would be lost. After the first answer, requests run in parallel.
        var leadsBootstrap = false
        if toServer, !hasHeardFromServer, request.headerFields[.authorization] == nil {
            if bootstrapInFlight {
                await withCheckedContinuation { bootstrapWaiters.append($0) }
                if let token = await tokens.token() {
                    request.headerFields[.authorization] = "Bearer \(token)"
                    // Handed the bootstrap but no longer needing it (a token arrived another
                    // way): let everyone else go too, or they would wait forever.
                    if bootstrapInFlight, !hasHeardFromServer { releaseBootstrap() }
                } else if hasHeardFromServer {
                    if bootstrapInFlight { releaseBootstrap() }
                } else {
                    // The request before this one got no answer: this one goes next, alone, and
                    // the others keep waiting for the identity it will bring back.
                    leadsBootstrap = true
                }
            } else {
                bootstrapInFlight = true
                leadsBootstrap = true
            }
        }
        defer {
            if leadsBootstrap {
                if hasHeardFromServer || bootstrapWaiters.isEmpty {
                    releaseBootstrap()
                } else {
                    bootstrapWaiters.removeFirst().resume()
                }
            }
        }
        // Read-your-writes: the highest revision a write answered with goes with every request
        // after it, so whichever replica answers, it answers from no older data.
        if toServer, let seenRevision { request.headerFields[Self.revisionHeader] = String(seenRevision) }
        let answer: (HTTPResponse, [UInt8])
        do {
            answer = try await transport.send(request, body: body)
        } catch {
            throw ClientError(kind: .transport, message: "no answer from \(request.authority ?? "the server"): \(error)")
        }
        if toServer, let issued = answer.0.headerFields[Self.tokenHeader] {
            await tokens.save(issued)
            // Another identity: the revisions seen were the old one's.
            seenRevision = nil
        }
        if toServer, let written = answer.0.headerFields[Self.revisionHeader].flatMap({ Int64($0) }), written >= 0 {
            seenRevision = max(seenRevision ?? written, written)
        }
        if toServer { hasHeardFromServer = true }
        return answer
    }

    /// The highest revision of this client's data a command's answer said was written (sent back
    /// as `Screenplay-Revision`); `nil` until one did.
    private(set) var seenRevision: Int64?

    /// Whether any answer from the server has arrived (see the bootstrap in `send`).
    private var hasHeardFromServer = false

    /// Ends the bootstrap: every waiting request goes out.
    private func releaseBootstrap() {
        bootstrapInFlight = false
        let waiters = bootstrapWaiters
        bootstrapWaiters = []
        waiters.forEach { $0.resume() }
    }

    /// Whether a request is out before the server has answered once; others wait their turn.
    private var bootstrapInFlight = false

    /// Requests waiting for the bootstrap request's answer, in order.
    private var bootstrapWaiters: [CheckedContinuation<Void, Never>] = []

    /// `host:port`, with IPv6 hosts in brackets.
    static func authority(of url: URL) -> String? {
        guard let host = url.host(percentEncoded: false), !host.isEmpty else { return nil }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return url.port.map { "\(bracketed):\($0)" } ?? bracketed
    }

    func isEndpointOrigin(_ url: URL) -> Bool {
        url.scheme?.lowercased() == endpoint.root.scheme?.lowercased() && Self.authority(of: url) == Self.authority(of: endpoint.root)
    }

    static let tokenHeader = HTTPField.Name("Screenplay-Token")!
    /// A command's answer: the revision its write produced; a request: the highest one seen.
    static let revisionHeader = HTTPField.Name("Screenplay-Revision")!
    /// Sent with every command so a retry runs once.
    static let idempotencyKeyHeader = HTTPField.Name("Idempotency-Key")!
    static let componentsHeader = HTTPField.Name(AppDefinedKind.requestHeader)!

    static func check(_ response: HTTPResponse, body: [UInt8], url: URL) throws(ClientError) {
        guard response.status.kind != .successful else { return }
        let errorBody = try? JSONDecoder().decode(ErrorBody.self, from: Data(body))
        let message = errorBody?.error.message ?? "HTTP \(response.status.code) from \(url.path)"
        throw ClientError(kind: .server(status: response.status.code, body: errorBody), message: message)
    }
}
