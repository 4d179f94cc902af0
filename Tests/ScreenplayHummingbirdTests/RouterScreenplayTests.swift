import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ScreenplayContract
import ScreenplayHummingbird
import ScreenplayServer
import Synchronization
import Testing

final class OneUser: IdentityResolver {
    func resolve(token: String?, creating: Bool) async throws -> ResolvedIdentity {
        ResolvedIdentity(user: UserIdentity(id: 1), issuedToken: token == nil && creating ? "t" : nil)
    }
}

@Suite("Hummingbird adapter")
struct RouterScreenplayTests {
    static func makeApplication(maximumBodySize: Int = 100) -> some ApplicationProtocol {
        var routes = ScreenplayRoutes()
        routes.screen("home") { _ in Screen(id: "home", title: "Home") { Section("s") { Text("hi") } } }
        routes.command("echo") { request in .done(.init(message: try request.text("text"))) }
        let service = ScreenplayService(routes: routes, identity: OneUser(), configuration: .init(maximumBodySize: maximumBodySize))
        let router = Router()
        router.get("hello") { _, _ in "app route" }
        router.addScreenplay(service)
        return Application(router: router)
    }

    @Test("screens, 304s and commands pass through unchanged; the app's own routes still work")
    func passThrough() async throws {
        try await Self.makeApplication().test(.router) { client in
            let etag = try await client.execute(uri: "/api/v1/screens/home", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[ScreenplayService.tokenHeader] == nil, "reading hands out no identity")
                let screen = try ScreenplayDecoder().decode(Screen.self, from: .init(buffer: response.body)).value
                #expect(screen.title == "Home")
                return try #require(response.headers[.eTag])
            }
            try await client.execute(uri: "/api/v1/screens/home", method: .get, headers: [.ifNoneMatch: etag]) { response in
                #expect(response.status == .notModified)
            }
            try await client.execute(
                uri: "/api/v1/commands/echo", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"text":"hey"}"#)
            ) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("hey"))
            }
            try await client.execute(uri: "/hello", method: .get) { response in
                #expect(String(buffer: response.body) == "app route")
            }
            try await client.execute(uri: "/api/v1/commands/echo", method: .put) { response in
                #expect(response.status == .methodNotAllowed)
            }
        }
    }

    @Test("a streamed body over the limit is cut off with a 413 stating the limit")
    func bodyLimit() async throws {
        try await Self.makeApplication(maximumBodySize: 100).test(.live) { client in
            let body = ByteBuffer(string: "{\"text\":\"" + String(repeating: "a", count: 5000) + "\"}")
            try await client.execute(uri: "/api/v1/commands/echo", method: .post, headers: [.contentType: "application/json"], body: body) {
                response in
                #expect(response.status == .contentTooLarge)
                #expect(String(buffer: response.body).contains("100 bytes"))
            }
        }
    }
}

extension Foundation.Data {
    init(buffer: ByteBuffer) { self.init(buffer.readableBytesView) }
}
