import Foundation
import HTTPTypes
import Hummingbird
import ScreenplayContract
import ScreenplayHummingbird
import ScreenplayServer
import Testing

@Suite("Hummingbird adapter: the router built from the route table")
struct RouteTableRouterTests {
    struct Pages: PageSource {
        var customKinds: [String: CustomComponentKind] { [:] }
        func body(for request: PageRequest) async throws(ScreenplayError) -> EncodedBody? {
            // Pages exist at `albums` (a prefix of a coded route) and at `a/b/c` (deeper than any).
            guard ["albums", "a/b/c"].contains(request.route) else { return nil }
            let screen = Screen(id: "page", title: request.route) { Section("s") { Text("page") } }
            guard let bytes = try? ScreenplayEncoder().encode(screen) else { return nil }
            return EncodedBody(bytes: Array(bytes))
        }
    }

    static func router() -> Router<BasicRequestContext> {
        var routes = ScreenplayRoutes()
        routes.screen("albums/:id") { request in Screen(id: "album", title: try request.parameter("id")) { Section("s") { Text("x") } } }
        routes.command("favorites/add") { _ in .done(.init(message: "ok")) }
        let service = ScreenplayService(routes: routes, identity: OneUser(), pages: Pages())
        let router = Router()
        router.get("api/openapi.json") { _, _ in "description" }
        router.addScreenplay(service)
        return router
    }

    @Test("the trie holds the table's real paths and their prefixes, with the catch-all under the version")
    func registered() {
        let listed = Set(Self.router().routes.map { "\($0.method) \($0.path)" })
        for path in ["/api/{version}/screens/albums/{id}", "/api/{version}/commands/favorites/add", "/api/{version}/events", "/api/{version}/sync"] {
            #expect(listed.contains("GET \(path)") && listed.contains("POST \(path)"), "\(path)")
        }
        #expect(listed.contains("GET /api/{version}/screens/albums"), "a prefix of a coded route")
        #expect(listed.contains("QUERY /api/{version}/**") == false && listed.contains("GET /api/{version}/**"))
        #expect(listed.contains("GET /api/openapi.json"), "the app's route beside the version's capture")
    }

    @Test("pages at a coded route's prefix and deeper than any route are served; unknown paths and methods get the service's JSON")
    func answers() async throws {
        try await withLoopbackServer(Self.router()) { client in
            try await client.execute(uri: "/api/v5/screens/albums/7", method: .get) { response in
                #expect(response.status == .ok && String(buffer: response.body).contains("\"title\":\"7\""))
            }
            for page in ["albums", "a/b/c"] {
                try await client.execute(uri: "/api/v5/screens/\(page)", method: .get) { response in
                    #expect(response.status == .ok, "\(page)")
                    #expect(String(buffer: response.body).contains("\"title\":\"\(page)\""))
                }
            }
            try await client.execute(uri: "/api/v5/screens/albums/7/tracks", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body).contains("\"code\":\"notFound\""))
            }
            try await client.execute(uri: "/api/openapi.json", method: .get) { response in
                #expect(String(buffer: response.body) == "description")
            }
            // A method the router has no route for at all still reaches the service: its JSON 405.
            for method in [HTTPRequest.Method("QUERY")!, .trace, .options, .delete] {
                try await client.execute(uri: "/api/v5/screens/albums/7", method: method) { response in
                    #expect(response.status == .methodNotAllowed, "\(method)")
                    #expect(response.headers[.allow] == "GET, HEAD", "\(method)")
                    #expect(String(buffer: response.body).contains("\"code\":\"methodNotAllowed\""))
                }
            }
            try await client.execute(uri: "/api/v99/screens/albums/7", method: .get) { response in
                #expect(response.status == .badRequest, "an unknown version is still the service's 400")
            }
        }
    }
}
