import Foundation
import Hummingbird
import NIOCore
import ScreenplayComposer
import ScreenplayComposerAsyncHTTPClient
import ScreenplayContract
import ScreenplayServer
import ScreenplayTestSupport
import Testing

/// Remote widget providers over AsyncHTTPClient, against a real HTTP server that answers well,
/// badly, slowly, hugely and not at all: the same cases the plain NIO transport passes in the
/// end-to-end tests.
@Suite("AsyncHTTPClient: the remote widget provider transport")
struct AsyncHTTPClientWidgetTransportTests {
    static let envelope = #"{"widgets": {"b1": {"type":"banner",  "headline":"Sale"}}, "entities": {"product/1": {"price": "€1"}}}"#

    static func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.post("ok") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: envelope))) }
        router.post("fail") { _, _ in Response(status: .internalServerError, body: .init(byteBuffer: ByteBuffer(string: "db down"))) }
        router.post("huge") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(repeating: UInt8(ascii: " "), count: 2 << 20))) }
        router.post("slow") { _, _ in
            try await Task.sleep(for: .seconds(3))
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: envelope)))
        }
        router.post("garbage") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"widgets": [1, 2"#))) }
        router.post("echo") { request, _ in
            let call = try JSONDecoder().decode(WidgetCall.self, from: Data(try await request.body.collect(upTo: 1 << 16).readableBytesView))
            let headline = "\(call.vertical)|\(call.route)|\(call.instances.map(\.id).joined(separator: ","))|\(call.context.platform)"
            let json = try JSONEncoder().encode(JSONValue.object(["widgets": ["b1": ["type": "banner", "headline": .string(headline)]]]))
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: json)))
        }
        return router
    }

    static func request(timeout: Duration = .seconds(5)) -> WidgetRequest {
        WidgetRequest(
            vertical: "promotions",
            instances: [WidgetInstance(id: "b1", kind: "banner", vertical: "promotions", parameters: ["slot": "top"])],
            context: CompositionContext(route: "shop", userID: "7", platform: .android, apiVersion: .v4, locale: "fr-CH"),
            deadline: .now + timeout)
    }

    @Test("a good answer's widgets arrive byte for byte with its entities; the call is the one the composer made")
    func goodAnswer() async throws {
        try await withLoopbackServer(Self.router()) { port in
            let root = "http://127.0.0.1:\(port)"
            let response = try await RemoteWidgetProvider(url: root + "/ok", transport: AsyncHTTPClientWidgetTransport()).fragments(for: Self.request())
            #expect(response.fragments["b1"] == .bytes(Array(#"{"type":"banner",  "headline":"Sale"}"#.utf8)))
            #expect(response.entities == ["product/1": ["price": "€1"]])
            let echoed = try await RemoteWidgetProvider(url: root + "/echo", transport: AsyncHTTPClientWidgetTransport()).fragments(for: Self.request())
            guard case .bytes(let bytes) = echoed.fragments["b1"] else { throw CancellationError() }
            #expect(String(decoding: bytes, as: UTF8.self).contains("promotions|shop|b1|android"))
        }
    }

    @Test("failures are errors that say what happened; a slow provider is cut at the deadline")
    func failures() async throws {
        try await withLoopbackServer(Self.router()) { port in
            let root = "http://127.0.0.1:\(port)"
            func failure(_ path: String, timeout: Duration = .seconds(5)) async -> String {
                do {
                    _ = try await RemoteWidgetProvider(url: root + path, transport: AsyncHTTPClientWidgetTransport(), maximumResponseBytes: 1 << 20)
                        .fragments(for: Self.request(timeout: timeout))
                    return "no error"
                } catch {
                    return String(describing: error)
                }
            }
            #expect(await failure("/fail").contains("answered 500: db down"))
            #expect(await failure("/huge").contains("larger than 1048576 bytes"))
            #expect(await failure("/garbage").contains("not a widget envelope"))
            let started = ContinuousClock.now
            #expect(await failure("/slow", timeout: .milliseconds(200)).contains("did not answer in time"))
            #expect(ContinuousClock.now - started < .milliseconds(2_800), "gave up at the deadline, before the server answered (3 s)")
            #expect(await failure("/missing").contains("answered 404"))
        }
        await #expect(throws: (any Error).self) {
            _ = try await RemoteWidgetProvider(url: "http://127.0.0.1:9/widgets", transport: AsyncHTTPClientWidgetTransport())
                .fragments(for: Self.request())
        }
    }
}
