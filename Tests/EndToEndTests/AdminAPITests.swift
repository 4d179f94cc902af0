import Foundation
import HTTPTypes
import Logging
import ScreenplayAdmin
import ScreenplayContract
import ScreenplayDemo
import ScreenplayServer
import Testing

/// The layout admin's JSON API over HTTP against the real demo server: what a team scripting its
/// layouts from CI does.
@Suite("Admin JSON API over HTTP")
struct AdminAPITests {
    /// An admin `ada` with an API token, then the server.
    static func withAdmin<Result: Sendable>(_ body: (URL, String) async throws -> Result) async throws -> Result {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        var logger = Logger(label: "admin.test")
        logger.logLevel = .warning
        let demo = try await DemoApp.open(dataDirectory: harness.dataDirectory, logger: logger, passwordHasher: .fastForTests)
        let token: String
        do {
            _ = try await demo.admins.createAdmin(name: "ada", password: "correct horse battery")
            token = try await demo.admins.createAPIToken(for: "ada", label: "ci")
            try await demo.close()
        } catch {
            try? await demo.close()
            throw error
        }
        return try await harness.withServer { root in try await body(root, token) }
    }

    static func call(
        _ method: HTTPRequest.Method, _ root: URL, _ path: String, token: String?, json: String? = nil
    ) async throws -> RawResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await raw(method, root, "/admin/api/" + path, headers: headers, body: json.map { Array($0.utf8) })
    }

    static func object(_ response: RawResponse) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(response.body))
    }

    /// The instance ids of the shop screen as an app receives it.
    static func shopIDs(_ root: URL) async throws -> [String] {
        let response = try await raw(.get, root, "/api/v4/screens/shop", headers: [ScreenplayService.platformHeader: "ios"])
        let screen = try ScreenplayDecoder(apiVersion: .v4).decode(Screen.self, from: Data(response.body)).value
        return screen.sections.flatMap { $0.components.compactMap(\.id) }
    }

    @Test("every admin route without a valid token is a JSON 401")
    func unauthorized() async throws {
        try await Self.withAdmin { root, token in
            let wrong = String(repeating: "0", count: 64)
            for (method, path) in [
                (HTTPRequest.Method.get, "pages"), (.get, "pages/shop"), (.put, "pages/shop/draft"), (.post, "pages/shop/publish"),
                (.post, "pages/shop/rollback"), (.get, "experiments"), (.get, "audit"), (.get, "nothing/here"),
            ] {
                for candidate in [nil, wrong, "not-a-token", token + "0"] {
                    let response = try await Self.call(method, root, path, token: candidate, json: "{}")
                    #expect(response.status == .unauthorized, "\(method) \(path) with \(candidate ?? "no token")")
                    #expect(try response.errorBody().error.code == "unauthorized")
                    #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
                }
            }
        }
    }

    @Test("draft, preview, publish, kill switch, rollback: each shows where it should, and the audit log says who")
    func layoutFlow() async throws {
        try await Self.withAdmin { root, token in
            let pages = try Self.object(try await Self.call(.get, root, "pages", token: token))
            #expect(pages.arrayValue?.first?["route"] == "shop")
            let detail = try Self.object(try await Self.call(.get, root, "pages/shop", token: token))
            var template = try #require(detail["live"]?["template"]?.objectValue)
            let sections = try #require(template["sections"]?.arrayValue)
            template["sections"] = .array(sections.filter { $0["id"] != "featured" })
            template["title"] = "Shop (short)"
            let json = String(decoding: try JSONEncoder().encode(JSONValue.object(template)), as: UTF8.self)

            let saved = try await Self.call(.put, root, "pages/shop/draft", token: token, json: json)
            #expect(saved.status == .ok, "\(saved.text)")
            #expect(try await Self.shopIDs(root).contains { $0.hasPrefix("offer-") }, "a draft is not live")
            let preview = try Self.object(
                try await Self.call(.post, root, "pages/shop/preview", token: token, json: #"{"platform":"ios"}"#))
            let previewed = preview["composition"]?["widgets"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
            #expect(!previewed.contains { $0.hasPrefix("offer-") } && previewed.contains("deal-offer"), "\(previewed)")
            #expect(preview["screen"]?["title"] == "Shop (short)")

            let published = try await Self.call(
                .post, root, "pages/shop/publish", token: token, json: #"{"expectedLive":1,"note":"shorter"}"#)
            #expect(published.status == .ok, "\(published.text)")
            #expect(try !(await Self.shopIDs(root)).contains { $0.hasPrefix("offer-") }, "published: served on the next request")
            let stale = try await Self.call(.post, root, "pages/shop/rollback", token: token, json: #"{"revision":1,"expectedLive":1}"#)
            #expect(stale.status == .conflict, "\(stale.text)")
            let again = try await Self.call(.post, root, "pages/shop/publish", token: token)
            #expect(again.status == .notFound)
            #expect(try again.errorBody().error.message.contains("no draft"))

            let killed = try await Self.call(
                .post, root, "pages/shop/widgets/deal-price/enabled", token: token, json: #"{"enabled":false}"#)
            #expect(killed.status == .ok, "\(killed.text)")
            #expect(try !(await Self.shopIDs(root)).contains("deal-price"))

            let rolledBack = try await Self.call(.post, root, "pages/shop/rollback", token: token, json: #"{"revision":1}"#)
            #expect(try Self.object(rolledBack)["revision"] == 4)
            let ids = try await Self.shopIDs(root)
            #expect(ids.contains("deal-price") && ids.contains { $0.hasPrefix("offer-") })

            let history = try Self.object(try await Self.call(.get, root, "pages/shop", token: token))["history"]?.arrayValue ?? []
            #expect(history.compactMap { $0["revision"]?.integerValue } == [4, 3, 2, 1])
            let audit = try Self.object(try await Self.call(.get, root, "audit?subject=shop", token: token)).arrayValue ?? []
            #expect(audit.compactMap { $0["action"]?.stringValue }.prefix(4) == ["rollback", "disable widget", "publish", "save draft"])
            #expect(audit.prefix(4).allSatisfy { $0["actor"] == "ada" })
            let report = try Self.object(try await Self.call(.get, root, "pages/shop", token: token))["latestComposition"]
            #expect(report?["widgets"]?.arrayValue?.isEmpty == false, "the page reports each widget's latency and bytes")
        }
    }

    @Test("bad bodies: every template problem with its path (422), malformed JSON with its place (400), a route mismatch, too large (413)")
    func badBodies() async throws {
        try await Self.withAdmin { root, token in
            let invalid = try await Self.call(
                .put, root, "pages/shop/draft", token: token,
                json:
                    #"{"route":"shop","title":"","revision":0,"sections":[{"id":"a","widgets":[{"id":"x","kind":"nope","vertical":"catalog"},{"id":"y","kind":"priceTag","vertical":"nowhere","parameters":{"workID":"one"}}]}]}"#
            )
            #expect(invalid.status == .unprocessableContent)
            // Content the kind does not declare, or in a locale the app does not write in, is an
            // error with its path: what someone wrote would otherwise never show.
            let content = try await Self.call(
                .put, root, "pages/shop/draft", token: token,
                json:
                    #"{"route":"shop","title":"Shop","sections":[{"id":"a","widgets":[{"id":"x","kind":"recordingOffer","vertical":"catalog","parameters":{"workID":1},"content":{"headline":{"en":"Deal","fr":"Offre"},"subtitle":{"en":"x"}}}]}]}"#
            )
            #expect(content.status == .unprocessableContent)
            let contentPaths = try Self.object(content)["problems"]?.arrayValue?.compactMap { $0["path"]?.stringValue } ?? []
            #expect(contentPaths == ["$.sections[0].widgets[0].content.headline.fr", "$.sections[0].widgets[0].content.subtitle"], "\(contentPaths)")
            // A version no client sends is refused at its path: nobody would see the widget.
            let unreleased = try await Self.call(
                .put, root, "pages/shop/draft", token: token,
                json:
                    #"{"route":"shop","title":"Shop","sections":[{"id":"a","widgets":[{"id":"x","kind":"priceTag","vertical":"pricing","parameters":{"workID":1},"conditions":{"apiVersions":{"minimum":9}}}]}]}"#
            )
            #expect(unreleased.status == .unprocessableContent)
            let versionPaths = try Self.object(unreleased)["problems"]?.arrayValue?.compactMap { $0["path"]?.stringValue } ?? []
            #expect(versionPaths == ["$.sections[0].widgets[0].conditions.apiVersions.minimum"], "\(versionPaths)")
            let paths = try Self.object(invalid)["problems"]?.arrayValue?.compactMap { $0["path"]?.stringValue } ?? []
            #expect(
                Set(paths).isSuperset(of: [
                    "$.title", "$.sections[0].widgets[0].kind", "$.sections[0].widgets[1].vertical",
                    "$.sections[0].widgets[1].parameters.workID",
                ]),
                "\(paths)")
            let malformed = try await Self.call(.put, root, "pages/shop/draft", token: token, json: "{\n  \"route\": \"shop\",\n  oops\n}")
            #expect(malformed.status == .badRequest)
            #expect(try malformed.errorBody().error.message.contains("line 3"), "\(malformed.text)")
            // Named twice: one reader would publish the first route, another the second.
            let repeated = try await Self.call(.put, root, "pages/shop/draft", token: token, json: #"{"route": "shop", "route": "home"}"#)
            #expect(repeated.status == .badRequest)
            #expect(
                try repeated.errorBody().error.message.contains(#"line 1, column 19: the member name "route" appears twice"#), "\(repeated.text)")
            let missing = try await Self.call(.put, root, "pages/shop/draft", token: token, json: #"{"route":"shop"}"#)
            #expect(missing.status == .unprocessableContent)
            #expect(try missing.errorBody().error.path == "$.title", "\(missing.text)")
            let mismatch = try await Self.call(
                .put, root, "pages/shop/draft", token: token, json: #"{"route":"home","title":"H","revision":0,"sections":[]}"#)
            #expect(mismatch.status == .unprocessableContent)
            #expect(try mismatch.errorBody().error.path == "$.route")
            let huge = try await Self.call(.put, root, "pages/shop/draft", token: token, json: String(repeating: " ", count: 600 * 1024))
            #expect(huge.status == .contentTooLarge)
            let method = try await Self.call(.get, root, "pages/shop/publish", token: token)
            #expect(method.status == .methodNotAllowed && method.headers[.allow] == "POST")
            #expect(try await Self.call(.get, root, "pages/shop", token: token).status == .ok, "nothing above changed the page")
        }
    }

    @Test("a work that does not exist is refused at its parameter, for each widget naming it; real works save")
    func missingWork() async throws {
        try await Self.withAdmin { root, token in
            let detail = try Self.object(try await Self.call(.get, root, "pages/shop", token: token))
            let live = try #require(detail["live"]?["template"])
            // Every widget that names work 26 (its offer, price and buy button) now names 99999.
            let text = String(decoding: try JSONEncoder().encode(live), as: UTF8.self).replacingOccurrences(of: #""workID":26"#, with: #""workID":99999"#)
            let refused = try await Self.call(.put, root, "pages/shop/draft", token: token, json: text)
            #expect(refused.status == .unprocessableContent, "\(refused.text.prefix(300))")
            let problems = try Self.object(refused)["problems"]?.arrayValue ?? []
            let paths = problems.compactMap { $0["path"]?.stringValue }
            #expect(paths.count == text.components(separatedBy: #""workID":99999"#).count - 1, "\(paths)")
            #expect(paths.allSatisfy { $0.hasSuffix(".parameters.workID") }, "\(paths)")
            #expect(problems.first?["message"]?.stringValue?.contains("no work 99999") == true, "\(problems)")
            let after = try Self.object(try await Self.call(.get, root, "pages/shop", token: token))["draft"]
            #expect(after == nil || after == .null, "nothing saved")
            // Work 1 exists: the same change to it saves.
            let real = text.replacingOccurrences(of: #""workID":99999"#, with: #""workID":1"#)
            #expect(try await Self.call(.put, root, "pages/shop/draft", token: token, json: real).status == .ok)
        }
    }

    @Test("experiments: refused with paths when broken, saved, reported per variant, deleted")
    func experiments() async throws {
        try await Self.withAdmin { root, token in
            let broken = try await Self.call(
                .put, root, "experiments/price-test", token: token, json: #"{"key":"price-test","variants":[{"name":"a","weight":-1}]}"#)
            #expect(broken.status == .unprocessableContent)
            #expect(try Self.object(broken)["problems"]?.arrayValue?.contains { $0["path"] == "$.variants[0].weight" } == true)
            let saved = try await Self.call(
                .put, root, "experiments/price-test", token: token,
                json: #"{"key":"price-test","variants":[{"name":"a","weight":1},{"name":"b","weight":1}]}"#)
            #expect(saved.status == .ok, "\(saved.text)")
            let all = try Self.object(try await Self.call(.get, root, "experiments", token: token)).arrayValue ?? []
            let keys = all.compactMap { $0["key"]?.stringValue }
            #expect(keys.contains("price-test"))
            let report = try Self.object(try await Self.call(.get, root, "experiments/home-shop-teaser/report", token: token))
            #expect(report["experiment"] == "home-shop-teaser" && report["exposures"]?["teaser"] != nil)
            #expect(try await Self.call(.delete, root, "experiments/price-test", token: token).status == .ok)
            #expect(try await Self.call(.delete, root, "experiments/price-test", token: token).status == .notFound)
            #expect(try await Self.call(.get, root, "experiments/price-test/report", token: token).status == .notFound)
            // The key may come from the URL alone; weights are bounded; a live page's experiment stays.
            let keyless = try await Self.call(
                .put, root, "experiments/keyless", token: token, json: #"{"variants":[{"name":"a","weight":1}]}"#)
            #expect(keyless.status == .ok, "\(keyless.text)")
            let huge = try await Self.call(
                .put, root, "experiments/big", token: token,
                json: #"{"variants":[{"name":"a","weight":9223372036854775807},{"name":"b","weight":9223372036854775807}]}"#)
            #expect(huge.status == .unprocessableContent, "\(huge.text)")
            let inUse = try await Self.call(.delete, root, "experiments/shop-free-shipping", token: token)
            #expect(inUse.status == .conflict)
            #expect(try inUse.errorBody().error.code == "experimentInUse")
            let wrongShape = try await Self.call(.put, root, "experiments/shape", token: token, json: #"{"variants":{"a":1}}"#)
            #expect(try wrongShape.errorBody().error.message == "expected an array here", "\(wrongShape.text)")
        }
    }
}
