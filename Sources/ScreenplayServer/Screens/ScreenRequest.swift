public import ScreenplayContract

/// A request for a screen, as a screen builder sees it.
public struct ScreenRequest: Sendable {
    /// The path under `screens/`, e.g. `composer/mozart`.
    public let path: String
    /// Values of the pattern's `:name` segments, percent-decoded.
    public let parameters: [String: String]
    /// The query string's values, percent-decoded; a repeated name keeps the last value.
    public let query: [String: String]
    /// The API version the client speaks.
    public let apiVersion: APIVersion
    /// Who asks.
    public let user: UserIdentity

    /// Creates a request (the service does this; tests may too).
    public init(path: String, parameters: [String: String] = [:], query: [String: String] = [:], apiVersion: APIVersion, user: UserIdentity)
    {
        self.path = path
        self.parameters = parameters
        self.query = query
        self.apiVersion = apiVersion
        self.user = user
    }

    /// A path parameter by name; a missing one is a programming error in the route, reported as 404.
    public func parameter(_ name: String) throws(ScreenplayError) -> String {
        guard let value = parameters[name] else { throw .notFound("no '\(name)' in path '\(path)'", path: path) }
        return value
    }
}
