import HTTPTypes
public import Hummingbird
public import ScreenplayServer

extension RouterMethods {
    /// Mounts a responder in the service's shape by its route table (the layout admin's API):
    /// every path of `table` is registered with the router, so its trie sees real paths, and the
    /// responder dispatches by the same table (its 404s and 405s come from it).
    ///
    /// Registered for every method: `mount`, each table path and each of its prefixes below
    /// `mount` (a trie stops at a node without a value); `P/**` under each such prefix whose children are
    /// all literal (a wildcard beside a capture is a clash the router refuses) and under `mount`
    /// itself, so a path the table does not have reaches the responder's own 404; and any method
    /// the router has no route for goes to the responder through `UnlistedMethodMiddleware`.
    /// Event streams in the table are left to the host's streaming routes. `refused` answers a
    /// body over `maximumBodySize` (the JSON error by default; an HTML site gives a page).
    @discardableResult
    public func addScreenplayRoutes(
        _ table: RouteTable, mount: String, maximumBodySize: Int,
        refused: @escaping @Sendable (ScreenplayError) -> ScreenplayService.Response = { ScreenplayService.errorResponse($0) },
        respond: @escaping @Sendable (HTTPRequest, [UInt8], String?) async -> ScreenplayService.Response
    ) -> Self {
        let handler = Self.responder(maximumBodySize: maximumBodySize, refused: refused, respond: respond)
        let patterns = table.routes.filter { route in !route.answers.contains { $0.body == .eventStream } }.map(\.path)
        for path in Self.tablePaths(patterns, mount: mount) {
            for method in ScreenplayResponder.methods { on(RouterPath(path), method: method, use: handler) }
        }
        _ = add(
            middleware: UnlistedMethodMiddleware(mount: mount.split(separator: "/"), methods: Set(ScreenplayResponder.methods), respond: handler))
        return self
    }

    /// The paths ``addScreenplayRoutes(_:mount:maximumBodySize:respond:)`` registers.
    static func tablePaths(_ patterns: [RoutePattern], mount: String) -> [String] {
        let base = mount.split(separator: "/").map(String.init)
        // The mount itself is a path (a site's front page), and the root of the catch-alls.
        var paths: [String] = [base.joined(separator: "/")]
        var seen = Set(paths)
        // Each prefix's children: whether any is a capture (then no `**` beside it).
        var capturedChildren = Set<String>()
        var prefixes: [String] = paths
        for pattern in patterns {
            let segments = pattern.routerPath.split(separator: "/").map(String.init)
            guard segments.count > base.count, Array(segments[..<base.count]) == base else { continue }
            for end in (base.count + 1)...segments.count {
                let path = segments[..<end].joined(separator: "/")
                if segments[end - 1].hasPrefix(":") || segments[end - 1] == "**" { capturedChildren.insert(segments[..<(end - 1)].joined(separator: "/")) }
                if seen.insert(path).inserted {
                    paths.append(path)
                    prefixes.append(path)
                }
            }
        }
        let catchAlls = prefixes.filter { !capturedChildren.contains($0) }.map { $0 + "/**" }
        return paths + catchAlls
    }
}
