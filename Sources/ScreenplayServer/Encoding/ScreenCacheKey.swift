/// The encoded-screen caches: encoded screens (and composed pages) by request shape, bounded by
/// bytes, one build per miss (``ByteBudgetCache``), weighed by what both forms of a body hold.
package typealias EncodedScreenCache = ByteBudgetCache<ScreenCacheKey, EncodedBody>

extension ByteBudgetCache where Key == ScreenCacheKey, Value == EncodedBody {
    /// An empty cache of encoded bodies within `byteBudget` bytes (identity and gzip forms).
    package convenience init(byteBudget: Int) {
        self.init(byteBudget: byteBudget, cost: \.storedSize)
    }
}

/// What an encoded screen depends on, every part kept apart (no joining into one string), so
/// two different requests can never produce the same key. The revision is not part of it: a
/// newer revision replaces the older bytes (see ``ByteBudgetCache``).
package struct ScreenCacheKey: Hashable, Sendable {
    /// The route's pattern, as written (composed pages: `page:` and the route).
    package let route: String
    /// The pattern's parameter values, in pattern order (composed pages: the request's shape).
    package let parameters: [String]
    /// The declared query keys and their values.
    package let query: [String: String]
    package let apiVersion: Int
    /// The app-defined kinds the client renders.
    package let clientKinds: Set<String>
    /// The user, for per-user routes; `nil` for routes shared by everyone.
    package let user: Int64?

    package init(
        route: String, parameters: [String], query: [String: String], apiVersion: Int, clientKinds: Set<String>, user: Int64?
    ) {
        self.route = route
        self.parameters = parameters
        self.query = query
        self.apiVersion = apiVersion
        self.clientKinds = clientKinds
        self.user = user
    }
}
