import HTTPTypes
import ScreenplayContract

/// Where an API request goes, read from its target: `{prefix}/v{N}/screens/{path}` (GET, HEAD),
/// `{prefix}/v{N}/commands/{path}` (POST), `{prefix}/v{N}/events` (GET), `{prefix}/v{N}/sync` (POST) or `{prefix}/v{N}/reports`
/// (POST). Anything else is a 404, 400 or 405 that says what
/// was expected, before any identity is resolved or any screen is looked up.
struct APIEndpoint {
    /// The five things the API serves.
    enum Kind {
        case screens
        case commands
        /// `GET {prefix}/v{N}/events?screens=…`: the stream of screen changes.
        case events
        /// `POST {prefix}/v{N}/sync`: what changed of the screens an app keeps offline.
        case sync
        /// `POST {prefix}/v{N}/reports`: events an app reports (v6).
        case reports
    }

    /// `events`, `sync` and `reports`, each with the one method it answers.
    static let singles: [String: (Kind, HTTPRequest.Method)] = ["events": (.events, .get), "sync": (.sync, .post), "reports": (.reports, .post)]

    let kind: Kind
    /// The version the path names.
    let version: APIVersion
    /// The decoded segments after `screens/` or `commands/`.
    let segments: [String]
    /// The query's values.
    let query: [String: String]

    /// The path under `screens/` or `commands/`, as routes see it.
    var path: String { segments.joined(separator: "/") }

    /// Reads `request`'s target under the API's mount point (`pathPrefix`, and its segments split
    /// once by the caller), checking the version with `versions` and the method against the endpoint.
    init(_ request: HTTPRequest, pathPrefix: String, prefix: [String], versions: APIVersionPolicy) throws(ScreenplayError) {
        let target = RequestTarget(request.path ?? "/")
        guard target.segments.starts(with: prefix) else {
            throw .notFound("nothing is served at '\(target.path)'", path: target.path)
        }
        let rest = Array(target.segments.dropFirst(prefix.count))
        guard let versionSegment = rest.first else {
            throw .notFound("expected \(pathPrefix)/v{N}/screens/… or …/commands/…", path: target.path)
        }
        version = try versions.version(from: versionSegment)
        // The endpoints with no path of their own under the version.
        if rest.count == 2, let (single, method) = Self.singles[rest[1]] {
            guard request.method == method else { throw .methodNotAllowed(request.method, allowed: method.rawValue, path: target.path) }
            kind = single
            segments = []
            query = target.query
            return
        }
        guard rest.count >= 2 else {
            throw .notFound("expected screens/… or commands/… after \(versionSegment)", path: target.path)
        }
        switch rest[1] {
        case "screens":
            guard request.method == .get || request.method == .head else {
                throw .methodNotAllowed(request.method, allowed: "GET, HEAD", path: target.path)
            }
            kind = .screens
        case "commands":
            guard request.method == .post else { throw .methodNotAllowed(request.method, allowed: "POST", path: target.path) }
            kind = .commands
        default:
            throw .notFound(
                "expected screens/… or commands/… (or events, sync, reports alone) after \(versionSegment), got '\(rest[1])'", path: target.path)
        }
        segments = Array(rest.dropFirst(2))
        query = target.query
    }
}
