/// A path pattern such as `composer/:slug` or `playlist/:id/edit`.
///
/// Literal segments must match exactly; `:name` segments match any one non-empty segment and
/// are handed to the handler as parameters (percent-decoded).
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    let segments: [Segment]

    /// Parses a pattern; leading and trailing slashes are ignored.
    public init(_ pattern: String) {
        segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map { part in
            part.hasPrefix(":") ? .parameter(String(part.dropFirst())) : .literal(String(part))
        }
    }

    /// The parameters when `path` matches, else `nil`.
    func match(_ pathSegments: [String]) -> [String: String]? {
        guard pathSegments.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, value) in zip(segments, pathSegments) {
            switch segment {
            case .literal(let literal):
                guard literal == value else { return nil }
            case .parameter(let name):
                guard !value.isEmpty else { return nil }
                parameters[name] = value
            }
        }
        return parameters
    }

    /// The names of the `:name` segments, in order.
    var parameterNames: [String] {
        segments.compactMap { segment in
            if case .parameter(let name) = segment { return name }
            return nil
        }
    }

    /// The segments as written (`["albums", ":id"]`).
    var segmentsAsWritten: [String] {
        segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .parameter(let name): ":" + name
            }
        }
    }

    /// The pattern as written.
    public var description: String { segmentsAsWritten.joined(separator: "/") }

    /// The segments as OpenAPI writes a path template: `:id` as `{id}`.
    public var templateSegments: [String] {
        segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .parameter(let name): "{" + name + "}"
            }
        }
    }
}
