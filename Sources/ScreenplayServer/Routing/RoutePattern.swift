/// A path pattern such as `composer/:slug` or `playlist/:id/edit`.
///
/// Literal segments must match exactly; `:name` segments match any one non-empty segment and
/// are handed to the handler as parameters (percent-decoded). A last segment `*name` matches one
/// or more segments, handed on joined with `/` (a site's pages at any depth: `screens/*page`).
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
        /// The rest of the path (last only).
        case rest(String)
    }

    let segments: [Segment]

    /// Parses a pattern; leading and trailing slashes are ignored.
    public init(_ pattern: String) {
        let parts = pattern.split(separator: "/", omittingEmptySubsequences: true)
        segments = parts.enumerated().map { index, part in
            if part.hasPrefix(":") { return .parameter(String(part.dropFirst())) }
            if part.hasPrefix("*"), part.count > 1, index == parts.count - 1 { return .rest(String(part.dropFirst())) }
            return .literal(String(part))
        }
    }

    /// The parameters when `path` matches, else `nil`.
    func match(_ pathSegments: [String]) -> [String: String]? {
        let restName: String? = if case .rest(let name)? = segments.last { name } else { nil }
        guard restName == nil ? pathSegments.count == segments.count : pathSegments.count >= segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, value) in zip(segments, pathSegments) {
            switch segment {
            case .literal(let literal):
                guard literal == value else { return nil }
            case .parameter(let name):
                guard !value.isEmpty else { return nil }
                parameters[name] = value
            case .rest: break
            }
        }
        if let restName {
            let rest = pathSegments[(segments.count - 1)...]
            guard !rest.contains(where: \.isEmpty) else { return nil }
            parameters[restName] = rest.joined(separator: "/")
        }
        return parameters
    }

    /// Whether a path's segments (`["work", "1"]`) match: what a link to one of the app's screens
    /// is checked by before a layout may point at it.
    public func matches(_ pathSegments: [String]) -> Bool { match(pathSegments) != nil }

    /// The names of the `:name` segments, in order.
    var parameterNames: [String] {
        segments.compactMap { segment in
            switch segment {
            case .parameter(let name), .rest(let name): name
            case .literal: nil
            }
        }
    }

    /// The segments as written (`["albums", ":id"]`).
    var segmentsAsWritten: [String] {
        segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .parameter(let name): ":" + name
            case .rest(let name): "*" + name
            }
        }
    }

    /// The pattern as a Hummingbird router path: `:name` as it is, `*name` as `**`.
    public var routerPath: String {
        segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .parameter(let name): ":" + name
            case .rest: "**"
            }
        }.joined(separator: "/")
    }

    /// The pattern as written.
    public var description: String { segmentsAsWritten.joined(separator: "/") }

    /// The segments as OpenAPI writes a path template: `:id` as `{id}`.
    public var templateSegments: [String] {
        segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .parameter(let name), .rest(let name): "{" + name + "}"
            }
        }
    }
}
