import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Hummingbird
import NIOCore
import ScreenplayComposer
import ScreenplayComposerNIO
import ScreenplayContract
import ScreenplayHummingbird
import ScreenplayServer
import ScreenplayTestSupport
import Testing

/// Remote widget providers over the plain NIO transport against a real HTTP server that answers
/// well, badly, slowly, hugely and not at all. (AsyncHTTPClient's transport has the same cases in
/// HTTPSAdapters/, a package of its own, so this build compiles no HTTPS client.)
@Suite("Remote widget providers over HTTP")
struct RemoteProviderTests {
    /// What `/references-named` answers, by the question's `names`: each but `none` is wrong in
    /// one way.
    static let namesAnswers: [String: String] = [
        "none": #"{"missing": []}"#,
        "not-an-array": #"{"names": {"spring-sale": "Spring sale"}}"#,
        "not-an-object": #"{"names": ["Spring sale"]}"#,
        "no-value": #"{"names": [{"name": "Spring sale"}]}"#,
        "stranger": #"{"names": [{"value": "spring-sale", "name": "Spring sale"}, {"value": "elsewhere", "name": "Elsewhere"}]}"#,
        "number": #"{"names": [{"value": "spring-sale", "name": 7}]}"#,
        "empty": #"{"names": [{"value": "spring-sale", "name": "   "}]}"#,
        "long": #"{"names": [{"value": "spring-sale", "name": "\#(String(repeating: "a", count: 201))"}]}"#,
        "two-lines": #"{"names": [{"value": "spring-sale", "name": "Spring sale\n<script>"}]}"#,
        "longest": #"{"names": [{"value": "spring-sale", "name": "\#(String(repeating: "e\u{301}", count: 100))"}]}"#,
        "combining": #"{"names": [{"value": "spring-sale", "name": "e\#(String(repeating: "\u{301}", count: 500))"}]}"#,
        "override": #"{"names": [{"value": "spring-sale", "name": "Sale \u202E elas"}]}"#,
        "invisible": #"{"names": [{"value": "spring-sale", "name": "\u200B\u200D "}]}"#,
        "twice": #"{"names": [{"value": "spring-sale", "name": "Spring"}, {"value": "spring-sale", "name": "Sale"}]}"#,
    ]

    static let envelope = #"{"widgets": {"b1": {"type":"banner",  "headline":"Sale"}}, "entities": {"product/1": {"price": "€1"}}}"#

    /// A provider service: `/ok`, `/fail` (500), `/huge` (2 MiB), `/slow` (3 s), `/garbage`,
    /// `/echo` (answers with the call it received, as a banner's headline), and for reference
    /// questions `/references` (knows promotions `spring-sale` and `summer-sale`, names them when
    /// asked to, records each question in `asked`), `/references-stranger` (answers about a value
    /// nobody asked about) and `/references-named` (answers the names its question's `names`
    /// picks from ``namesAnswers``, or names that are no array).
    static func withProviderServer<Result: Sendable>(
        asked: AskedQuestions = AskedQuestions(), _ body: (String) async throws -> Result
    ) async throws -> Result {
        let router = Router()
        router.post("references") { request, _ in
            let call = try await request.body.collect(upTo: 1 << 16)
            let question = try JSONDecoder().decode(WidgetReferenceCall.self, from: Data(call.readableBytesView))
            asked.record(question)
            let known: [JSONValue: String] = ["spring-sale": "Spring sale · 20 % off shipping", "summer-sale": "  Summer sale  "]
            var members: [String: JSONValue] = [
                "missing": .array(question.values.filter { known[$0] == nil }), "note": "members besides 'missing' are ignored",
            ]
            if question.wantsNames == true {
                members["names"] = .array(question.values.compactMap { value in known[value].map { ["value": value, "name": .string($0)] } })
            }
            let answer = JSONValue.object(members)
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(answer))))
        }
        router.post("references-named") { request, _ in
            let call = try await request.body.collect(upTo: 1 << 16)
            let question = try JSONDecoder().decode(WidgetReferenceCall.self, from: Data(call.readableBytesView))
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: namesAnswers[question.names] ?? #"{"names": 3}"#)))
        }
        router.post("references-stranger") { _, _ in
            Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"missing": ["spring-sale", "elsewhere"]}"#)))
        }
        router.post("ok") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: envelope))) }
        router.post("fail") { _, _ in Response(status: .internalServerError, body: .init(byteBuffer: ByteBuffer(string: "db down"))) }
        router.post("huge") { _, _ in
            Response(status: .ok, body: .init(byteBuffer: ByteBuffer(repeating: UInt8(ascii: " "), count: 2 << 20)))
        }
        router.post("slow") { _, _ in
            try await Task.sleep(for: .seconds(3))
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: envelope)))
        }
        router.post("garbage") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"widgets": [1, 2"#))) }
        router.post("echo") { request, _ in
            let call = try await request.body.collect(upTo: 1 << 16)
            let decoded = try JSONDecoder().decode(WidgetCall.self, from: Data(call.readableBytesView))
            let headline =
                "\(decoded.vertical)|\(decoded.route)|\(decoded.instances.map(\.id).joined(separator: ","))|\(decoded.context.platform)|\(decoded.context.locale ?? "-")"
            let json = try JSONEncoder().encode(JSONValue.object(["widgets": ["b1": ["type": "banner", "headline": .string(headline)]]]))
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: json)))
        }
        return try await withLoopbackServer(router) { port in try await body("http://127.0.0.1:\(port)") }
    }

    /// A call to the promotions vertical. Its deadline is generous where time is not what a test
    /// looks at: beside a thousand other tests on two cores, a loopback answer took more than 2 s.
    static func request(timeout: Duration = .seconds(10)) -> WidgetRequest {
        WidgetRequest(
            vertical: "promotions",
            instances: [WidgetInstance(id: "b1", kind: "banner", vertical: "promotions", parameters: ["slot": "top"])],
            context: CompositionContext(route: "shop", userID: "7", platform: .android, apiVersion: .v4, locale: "fr-CH"),
            deadline: .now + timeout)
    }

    @Test("a good answer's widgets arrive byte for byte, its entities decoded, the call fully described")
    func goodAnswer() async throws {
        try await Self.withProviderServer { root in
            let response = try await RemoteWidgetProvider(url: root + "/ok", transport: PlainHTTPWidgetTransport()).fragments(for: Self.request())
            #expect(response.fragments["b1"] == .bytes(Array(#"{"type":"banner",  "headline":"Sale"}"#.utf8)))
            #expect(response.entities == ["product/1": ["price": "€1"]])
            let echoed = try await RemoteWidgetProvider(url: root + "/echo", transport: PlainHTTPWidgetTransport()).fragments(for: Self.request())
            guard case .bytes(let bytes) = echoed.fragments["b1"] else { throw CancellationError() }
            #expect(String(decoding: bytes, as: UTF8.self).contains("promotions|shop|b1|android|fr-CH"))
        }
    }

    @Test("failures are errors that say what happened")
    func failures() async throws {
        try await Self.withProviderServer { root in
            func failure(_ path: String, timeout: Duration = .seconds(10)) async -> String {
                do {
                    _ = try await RemoteWidgetProvider(url: root + path, transport: PlainHTTPWidgetTransport(), maximumResponseBytes: 1 << 20)
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
        // Nothing listening.
        #expect(
            await {
                do {
                    _ = try await RemoteWidgetProvider(url: "http://127.0.0.1:9/widgets", transport: PlainHTTPWidgetTransport()).fragments(
                        for: Self.request())
                    return false
                } catch { return true }
            }())
    }

    @Test("a provider whose connection is never accepted is late in the same words, at the deadline")
    func neverAccepted() async throws {
        // A socket that listens with a backlog of 0 and never accepts: once its queue is full (one
        // connection on Linux; three are made to be sure), the kernel drops the next one's SYNs,
        // so connecting hangs until a timeout.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                try #require(bind(listener, raw, size) == 0)
                try #require(listen(listener, 0) == 0)
                var length = size
                try #require(getsockname(listener, raw, &length) == 0)
            }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        var waiting: [Int32] = []
        defer { waiting.forEach { close($0) } }
        for _ in 0..<3 {
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            waiting.append(client)
            _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, size) } }
        }
        try await Task.sleep(for: .milliseconds(100))
        let started = ContinuousClock.now
        let error = await {
            do {
                _ = try await RemoteWidgetProvider(url: "http://127.0.0.1:\(port)/widgets", transport: PlainHTTPWidgetTransport())
                    .fragments(for: Self.request(timeout: .milliseconds(300)))
                return "no error"
            } catch {
                return String(describing: error)
            }
        }()
        #expect(error.contains("did not answer in time"), "\(error)")
        let took = ContinuousClock.now - started
        #expect(took >= .milliseconds(250) && took < .seconds(5), "gave up at the deadline, not before it: \(took)")
    }

    @Test("the plain transport refuses what it cannot call")
    func plainRefusesTLS() async throws {
        await #expect(throws: RemoteProviderError.self) {
            _ = try await PlainHTTPWidgetTransport().post(
                url: "https://example.com/w", body: [], deadline: .now + .seconds(1), maximumBytes: 10)
        }
    }

    @Test("a composer over a remote provider that fails keeps the page, and one that answers splices its bytes")
    func composerOverHTTP() async throws {
        try await Self.withProviderServer { root in
            let banner = try WidgetContract(
                type: "banner", summary: "A headline.", versioning: KindVersioning(introduced: .v1, fallback: "a text"),
                fields: [.required("headline", .string)], fallback: { json in [.text(.init(json["headline"]?.stringValue ?? ""))] })
            let template = PageTemplate(
                route: "shop", title: "Shop", revision: 1,
                sections: [
                    .init(
                        id: "m",
                        widgets: [
                            WidgetInstance(id: "b1", kind: "banner", vertical: "good"),
                            WidgetInstance(id: "b2", kind: "banner", vertical: "bad"),
                        ])
                ])
            let composer = Composer(
                catalog: try WidgetCatalog([banner]),
                providers: [
                    "good": RemoteWidgetProvider(url: root + "/ok", transport: PlainHTTPWidgetTransport()),
                    "bad": RemoteWidgetProvider(url: root + "/fail", transport: PlainHTTPWidgetTransport()),
                ],
                // Generous: what is tested is the failure's cost, not the timeout (a loaded machine is slow).
                configuration: .init(defaultTimeout: .seconds(10)))
            let page = await composer.compose(
                template: template,
                context: CompositionContext(route: "shop", userID: nil, platform: .iOS, apiVersion: .v4, clientKinds: ["banner"]))
            #expect(page.report(for: "b1")?.outcome == .shown)
            #expect(page.report(for: "b2")?.outcome.isShown == false)
            #expect(String(decoding: page.bytes, as: UTF8.self).contains(#""headline":"Sale""#))
        }
    }
}
