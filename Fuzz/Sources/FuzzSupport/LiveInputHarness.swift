import Foundation
import HTTPTypes
import ScreenplayClient
import ScreenplayContract
import ScreenplayServer

/// What live and offline screens read from the other side: the bytes are an event stream as the
/// client's parser receives it, and the same bytes are the body of a sync request as the server
/// receives it.
///
/// Oracles:
/// 1. `EventStreamParser` gives the same events, last event id and retry whether the bytes come
///    whole or cut anywhere (here: every 7 bytes, and one byte at a time for short inputs), and
///    the same overflow past its line limit. No event's type holds a line break, no data a CR.
/// 2. Through the whole service, `POST /api/v5/sync` answers 200, 400 or 422, never a 500. A 200
///    is a sync answer whose `changed`, `gone`, `failed` and `more` name only screens the request
///    named, each once; an error names its JSON path (`$…`).
/// 3. As a patch a `screen` event carries (v6): `ScreenPatch(json:)` reads it or refuses it with a
///    `PatchError`; what it reads writes back as the same patch; applied to a screen it gives a
///    document or a `PatchError` naming one of its operations. As any JSON document: the patch
///    between a screen and it, applied to that screen, gives it exactly, and reads back from its
///    wire form.
public enum LiveInputHarness {
    static let target = "FuzzLiveInput"

    public static func run(_ bytes: UnsafeRawBufferPointer) {
        let body = [UInt8](bytes)
        checkParser(body)
        checkSync(body)
        checkPatch(body)
    }

    // MARK: Patches

    /// A small screen with keyed lists, an unkeyed list and nesting, to patch.
    static let document: JSONValue = [
        "id": "list", "title": "Works",
        "sections": [
            ["id": "a", "components": [["id": "r1", "title": "One", "tags": ["x", "y"]], ["id": "r2", "title": "Two"]]],
            ["id": "b", "components": []],
        ],
    ]

    static func checkPatch(_ body: [UInt8]) {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(body)) else { return }
        do {
            let patch = try ScreenPatch(json: value)
            guard (try? ScreenPatch(json: patch.json)) == patch else { Oracle.fail(target, "a patch's wire form reads back differently") }
            do {
                let result = try patch.applied(to: document)
                guard (try? JSONDecoder().decode(JSONValue.self, from: Data(result.canonicalBytes))) == result else {
                    Oracle.fail(target, "a patched document's canonical bytes read back differently")
                }
            } catch {
                guard let operation = error.operation, patch.operations.indices.contains(operation) else {
                    Oracle.fail(target, "a refused patch names no operation of it: \(error)")
                }
            }
        } catch {
            guard !error.message.isEmpty else { Oracle.fail(target, "a patch refused without saying why") }
        }
        let between = ScreenPatch.between(document, value)
        guard (try? between.applied(to: document)) == value else { Oracle.fail(target, "the patch to a document does not give it: \(between.json.jsonText.prefix(300))") }
        guard (try? ScreenPatch(json: between.json)) == between else { Oracle.fail(target, "a made patch's wire form reads back differently") }
    }

    // MARK: The event stream parser

    struct Parsed: Equatable {
        var events: [StreamEvent] = []
        var lastEventID = ""
        var retry: Int?
        var overflowed = false
    }

    static func parse(_ chunks: [ArraySlice<UInt8>]) -> Parsed {
        var parser = EventStreamParser(maximumLineBytes: 256)
        var parsed = Parsed()
        for chunk in chunks {
            do {
                parsed.events += try parser.feed(Array(chunk))
            } catch {
                parsed.overflowed = true
                break
            }
        }
        parsed.lastEventID = parser.lastEventID
        parsed.retry = parser.retry
        return parsed
    }

    static func chunks(_ body: [UInt8], every size: Int) -> [ArraySlice<UInt8>] {
        stride(from: 0, to: body.count, by: size).map { body[$0..<min($0 + size, body.count)] }
    }

    static func checkParser(_ body: [UInt8]) {
        let whole = parse([body[...]])
        var cuts = [7]
        if body.count <= 512 { cuts.append(1) }
        for size in cuts {
            let cut = parse(chunks(body, every: size))
            // An overflow stops reading where it happens; what came before may differ by where
            // the cut fell, so only whether it overflowed must agree.
            if cut.overflowed != whole.overflowed {
                Oracle.fail(target, "cut every \(size) bytes, the parser \(cut.overflowed ? "overflowed" : "did not overflow") unlike whole")
            }
            if !whole.overflowed, cut != whole {
                Oracle.fail(target, "cut every \(size) bytes, the parser gave \(cut.events.count) events, whole \(whole.events.count)")
            }
        }
        for event in whole.events {
            if event.type.contains(where: { $0 == "\n" || $0 == "\r" }) || event.data.contains("\r") {
                Oracle.fail(target, "an event's type or data holds a line break: \(event.type.debugDescription)")
            }
            #if FUZZ_PLANTED_BUG
            // Planted: a client that mishandles a revalidate event carrying an id with a percent
            // sign. The seeds have revalidate events without ids and ids without percent signs.
            if event.type == "revalidate", event.lastEventID.contains("%") { Oracle.planted(target, "a revalidate with a % in its id") }
            #endif
        }
    }

    // MARK: Sync

    /// A user for every request (no identities are created).
    struct OneUser: IdentityResolver {
        func resolve(token: String?, creating: Bool) async throws -> ResolvedIdentity {
            ResolvedIdentity(user: UserIdentity(id: 1), issuedToken: nil)
        }
    }

    struct Unavailable: Error {}

    static let service: ScreenplayService = {
        var routes = ScreenplayRoutes()
        routes.screen("home") { _ in Screen(id: "home", title: "Home") { Section("main") { Text("Welcome") } } }
        routes.screen("playlist/:id") { request in
            let id = try request.parameter("id")
            return Screen(id: "playlist/\(id)", title: "Playlist \(id)") { Section("tracks") { Text(id) } }
        }
        routes.screen("broken") { _ in throw Unavailable() }
        var configuration = ScreenplayService.Configuration(maximumBodySize: 1 << 20)
        configuration.sync = .init(screensPerRequest: 50, answerBytes: 2_000)
        return ScreenplayService(routes: routes, identity: OneUser(), configuration: configuration)
    }()

    static func checkSync(_ body: [UInt8]) {
        let request = HTTPRequest(
            method: .post, scheme: "http", authority: "fuzz", path: "/api/v5/sync", headerFields: [.contentType: "application/json"])
        let service = self.service
        let answer = Blocking.run { await service.respond(to: request, body: body) }
        let status = answer.head.status.code
        guard status == 200 else {
            guard status == 400 || status == 422 else {
                Oracle.fail(target, "sync answered \(status): \(Oracle.excerpt(Data(answer.body)))")
            }
            guard let error = try? JSONDecoder().decode(ErrorBody.self, from: Data(answer.body)), error.error.path?.hasPrefix("$") == true else {
                Oracle.fail(target, "a refused sync names no JSON path: \(Oracle.excerpt(Data(answer.body)))")
            }
            return
        }
        guard let sent = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let entries = sent["screens"] as? [[String: Any]]
        else { Oracle.fail(target, "sync accepted a body that is not {\"screens\": [objects]}: \(Oracle.excerpt(Data(body)))") }
        let asked = Set(entries.compactMap { $0["path"] as? String })
        guard let object = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any],
            let changed = object["changed"] as? [[String: Any]], object["unchanged"] is Int, let gone = object["gone"] as? [String],
            let failed = object["failed"] as? [[String: Any]], let more = object["more"] as? [String]
        else { Oracle.fail(target, "a sync answer is not {changed, unchanged, gone, failed, more}: \(Oracle.excerpt(Data(answer.body)))") }
        let named = changed.compactMap { $0["path"] as? String } + gone + failed.compactMap { $0["path"] as? String } + more
        if Set(named).count != named.count || !Set(named).isSubset(of: asked) {
            Oracle.fail(target, "a sync answer names screens not asked for, or twice: \(named)")
        }
    }
}
