import HTTPTypes
public import Hummingbird
public import ScreenplayServer

extension RouterMethods {
    /// Mounts a responder in the service's shape by its route table (the layout admin's API):
    /// every path of `table` is registered with the router, so its trie sees real paths, and the
    /// responder dispatches by the same table (its 404s and 405s come from it).
    ///
    /// Registered for every method: each table path and each of its prefixes below `mount` (a
    /// trie stops at a node without a value); `P/**` under each such prefix whose children are
    /// all literal (a wildcard beside a capture is a clash the router refuses) and under `mount`
    /// itself, so a path the table does not have reaches the responder's JSON 404; and any method
    /// the router has no route for goes to the responder through `UnlistedMethodMiddleware`.
    @discardableResult
    public func addScreenplayRoutes(
        _ table: RouteTable, mount: String, maximumBodySize: Int,
        respond: @escaping @Sendable (HTTPRequest, [UInt8], String?) async -> ScreenplayService.Response
    ) -> Self {
        let handler = Self.responder(maximumBodySize: maximumBodySize, refused: { ScreenplayService.errorResponse($0) }, respond: respond)
        for path in Self.tablePaths(table, mount: mount) {
            for method in ScreenplayResponder.methods { on(RouterPath(path), method: method, use: handler) }
        }
        _ = add(
            middleware: UnlistedMethodMiddleware(mount: mount.split(separator: "/"), methods: Set(ScreenplayResponder.methods), respond: handler))
        return self
    }

    /// The paths ``addScreenplayRoutes(_:mount:maximumBodySize:respond:)`` registers.
    static func tablePaths(_ table: RouteTable, mount: String) -> [String] {
        let base = mount.split(separator: "/").map(String.init)
        var paths: [String] = []
        var seen = Set<String>()
        // Each prefix's children: whether any is a capture (then no `**` beside it).
        var capturedChildren = Set<String>()
        var prefixes: [String] = [base.joined(separator: "/")]
        for (pattern, _) in table.paths {
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
