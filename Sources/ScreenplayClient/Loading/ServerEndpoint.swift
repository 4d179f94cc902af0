public import Foundation
public import ScreenplayContract

/// Where a Screenplay server lives and which API version this app speaks.
///
/// Action URLs in screens are relative to the API base (`screens/composer/mozart`,
/// `/images/...`); ``resolve(_:)`` turns them into absolute URLs the same way a browser would.
public struct ServerEndpoint: Sendable, Hashable {
    /// The server's root, e.g. `http://127.0.0.1:8080/`.
    public let root: URL
    /// The version this app speaks, for its whole life.
    public let apiVersion: APIVersion
    /// `root` + `api/v{N}/`.
    public let apiBase: URL

    /// Creates an endpoint; `pathPrefix` must match the server's (default `/api`).
    public init(root: URL, apiVersion: APIVersion = .latest, pathPrefix: String = "/api") {
        self.root = root
        self.apiVersion = apiVersion
        let prefix = pathPrefix.split(separator: "/").joined(separator: "/")
        let base = prefix.isEmpty ? "\(apiVersion)/" : "\(prefix)/\(apiVersion)/"
        self.apiBase = URL(string: base, relativeTo: root)?.absoluteURL ?? root
    }

    /// Resolves an action or image URL against the API base; `nil` when the link policy refuses it.
    public func resolve(_ reference: String, policy: LinkPolicy = .endpoint) -> URL? {
        guard (try? policy.check(reference)) != nil else { return nil }
        return URL(string: reference, relativeTo: apiBase)?.absoluteURL
    }
}
