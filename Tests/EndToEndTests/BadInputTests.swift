import Foundation
import HTTPTypes
import Hummingbird
import ScreenplayClient
import ScreenplayClientNIO
import ScreenplayContract
import ScreenplayTestSupport
import Testing

@Suite("End to end: bad input gets a clear error", .serialized)
struct BadInputTests {
    static let json: HTTPFields = [.contentType: "application/json"]

    @Test("each bad request gets its status and a JSON error that says what and where")
    func badRequests() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            let unknown = try await raw(.get, root, "/api/v1/screens/composer/nobody")
            #expect(unknown.status == .notFound)
            #expect(try unknown.errorBody().error.message.contains("nobody"))

            let version = try await raw(.get, root, "/api/v9/screens/home")
            #expect(version.status == .badRequest)
            #expect(try version.errorBody().error.message.contains("v1 through \(APIVersion.latest)"))

            let malformed = try await raw(
                .post, root, "/api/v1/commands/playlists/create", headers: Self.json, body: Array("{\"name\": \"x\",}".utf8))
            #expect(malformed.status == .badRequest)
            let malformedError = try malformed.errorBody().error
            #expect(malformedError.code == "malformedJSON")
            #expect(malformedError.message.contains("line 1, column 14"))

            let mediaType = try await raw(
                .post, root, "/api/v1/commands/playlists/create", headers: [.contentType: "application/xml"], body: Array("<name/>".utf8))
            #expect(mediaType.status == .unsupportedMediaType)

            let huge = Array(("{\"name\":\"" + String(repeating: "n", count: 70_000) + "\"}").utf8)
            let tooLarge = try await raw(.post, root, "/api/v1/commands/playlists/create", headers: Self.json, body: huge)
            #expect(tooLarge.status == .contentTooLarge)
            #expect(try tooLarge.errorBody().error.message.contains("65536 bytes"))

            let invalid = try await raw(
                .post, root, "/api/v1/commands/playlists/create", headers: Self.json, body: Array(#"{"name": 42}"#.utf8))
            #expect(invalid.status == .unprocessableContent)
            #expect(try invalid.errorBody().error.path == "$.name")

            let longName = try await raw(
                .post, root, "/api/v1/commands/playlists/create", headers: Self.json,
                body: Array(("{\"name\":\"" + String(repeating: "x", count: 101) + "\"}").utf8))
            #expect(longName.status == .unprocessableContent)
            #expect(try longName.errorBody().error.message.contains("limit is 100"))

            let missingWork = try await raw(
                .post, root, "/api/v1/commands/playlists/choose", headers: Self.json, body: Array(#"{"workId": 999999}"#.utf8))
            #expect(missingWork.status == .notFound)
            #expect(try missingWork.errorBody().error.path == "$.workId")

            let badID = try await raw(.get, root, "/api/v1/screens/work/abc")
            #expect(badID.status == .notFound)

            let badToken = try await raw(.get, root, "/api/v1/screens/home", headers: [.authorization: "Bearer 123"])
            #expect(badToken.status == .unauthorized)

            // The server still answers normally afterwards.
            #expect(try await raw(.get, root, "/api/v1/screens/home").status == .ok)
        }
    }

    @Test("a screen with one malformed component decodes with that component skipped and reported")
    func malformedComponent() async throws {
        let body = """
            {"id":"odd","title":"Odd","sections":[{"id":"s","components":[
              {"type":"text","text":"before"},
              {"type":"trackRow","duration":180},
              {"type":"hologram","intensity":11},
              {"type":"text","text":"after"}
            ]}]}
            """
        let router = Router()
        router.get("api/v1/screens/odd") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) })
        let server = BackgroundServer(app, whenEnded: { continuation.finish() })
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        let loader = ScreenLoader(
            endpoint: ServerEndpoint(root: URL(string: "http://127.0.0.1:\(port)/")!, apiVersion: .v1),
            transport: PlainHTTPTransport())
        let loaded = try await loader.screen(at: "screens/odd")
        let components = loaded.screen.sections[0].components
        #expect(components.count == 3)
        #expect(components.first == .text(.init("before")))
        #expect(components.last == .text(.init("after")))
        #expect(components[1].kind.rawValue == "hologram")
        #expect(loaded.issues.map(\.kind) == [.invalidElement, .unknownKind])
        #expect(loaded.issues[0].path == "$.sections[0].components[1].title")
        #expect(loaded.issues[0].message.contains("title"))
        #expect(loaded.issues[1].path == "$.sections[0].components[2]")
        await server.stop()
    }
}
