import Foundation
import HTTPTypes
import ScreenplayComposer
import ScreenplayContract
import ScreenplayDemo
import ScreenplayLayoutStore
import ScreenplayServer
import Testing

/// The admin JSON API's versions over HTTP: every read an ETag, every write made only to the
/// version its If-Match names, a stale one a 412 saying what changed; and admin API tokens
/// listed and revoked.
@Suite("Admin JSON API: versions and tokens over HTTP")
struct AdminVersionsTests {
    static func call(
        _ method: HTTPRequest.Method, _ root: URL, _ path: String, token: String, json: String? = nil, headers extra: HTTPFields = [:]
    ) async throws -> RawResponse {
        var headers: HTTPFields = [.contentType: "application/json", .authorization: "Bearer \(token)"]
        headers.append(contentsOf: extra)
        return try await raw(method, root, "/admin/api/" + path, headers: headers, body: json.map { Array($0.utf8) })
    }

    @Test("experiments: GET has an ETag; a PUT naming a stale one is a 412 with what changed; none, or the current one, writes")
    func experiments() async throws {
        try await AdminAPITests.withAdmin { root, token in
            let created = try await Self.call(
                .put, root, "experiments/teaser", token: token, json: #"{"variants": [{"name": "control", "weight": 50}, {"name": "banner", "weight": 50}]}"#,
                headers: [.ifNoneMatch: "*"])
            #expect(created.status == .ok, "\(created.text)")
            let read = try await Self.call(.get, root, "experiments/teaser", token: token)
            let etag = try #require(read.headers[.eTag])
            #expect(read.status == .ok && etag == created.headers[.eTag])
            #expect(try AdminAPITests.object(read)["variants"]?.arrayValue?.count == 2)
            #expect(try await Self.call(.get, root, "experiments/teaser", token: token, headers: [.ifNoneMatch: etag]).status == .notModified)
            let again = #"{"variants": [{"name": "control", "weight": 1}]}"#
            #expect(try await Self.call(.put, root, "experiments/teaser", token: token, json: again, headers: [.ifNoneMatch: "*"]).status == .preconditionFailed)

            // Bob, in another script, moves the weights to 70/30.
            let bobs = #"{"variants": [{"name": "control", "weight": 70}, {"name": "banner", "weight": 30}]}"#
            let moved = try await Self.call(.put, root, "experiments/teaser", token: token, json: bobs, headers: [.ifMatch: etag])
            #expect(moved.status == .ok)
            // Ada's write from her stale copy is refused, saying what changed since hers.
            let adas = #"{"variants": [{"name": "control", "weight": 50}, {"name": "banner", "weight": 50}], "targetSegment": "beta"}"#
            let stale = try await Self.call(.put, root, "experiments/teaser", token: token, json: adas, headers: [.ifMatch: etag])
            #expect(stale.status == .preconditionFailed)
            let body = try AdminAPITests.object(stale)
            #expect(body["error"]?["code"] == "preconditionFailed")
            #expect(body["changes"]?.stringValue == "weights control 50 → 70, banner 50 → 30", "\(stale.text)")
            #expect(body["etag"]?.stringValue == moved.headers[.eTag] && stale.headers[.eTag] == moved.headers[.eTag])
            #expect(try AdminAPITests.object(try await Self.call(.get, root, "experiments/teaser", token: token))["targetSegment"] == nil)
            // Malformed preconditions are refused, not ignored.
            let unquoted = try await Self.call(.put, root, "experiments/teaser", token: token, json: adas, headers: [.ifMatch: "sp-123"])
            #expect(unquoted.status == .badRequest)
            #expect(try unquoted.errorBody().error.code == "invalidPrecondition")
            // Without If-Match, a script's write goes through as it always did.
            #expect(try await Self.call(.put, root, "experiments/teaser", token: token, json: adas).status == .ok)
            let deleted = try await Self.call(.delete, root, "experiments/teaser", token: token, headers: [.ifMatch: etag])
            #expect(deleted.status == .preconditionFailed)
            #expect(try await Self.call(.get, root, "experiments/nothing-here", token: token).status == .notFound)
        }
    }

    @Test("draft edits as data: applied in order to the live page, one undoable step; a refusal names the edit and saves nothing; If-Match holds")
    func draftEdits() async throws {
        try await AdminAPITests.withAdmin { root, token in
            let live = try AdminAPITests.object(try await Self.call(.get, root, "pages/shop/live", token: token))
            let sections = try #require(live["template"]?["sections"]?.arrayValue)
            let first = try #require(sections.first?["id"]?.stringValue)
            let ids = try #require(sections.first?["widgets"]?.arrayValue?.compactMap { $0["id"]?.stringValue })
            try #require(ids.count >= 2)
            func draftIDs() async throws -> [String] {
                let draft = try AdminAPITests.object(try await Self.call(.get, root, "pages/shop/draft", token: token))
                return draft["template"]?["sections"]?.arrayValue?.first?["widgets"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
            }

            // Swap the first two widgets, then add a section: one request, one step.
            let edits = #"{"edits": [{"op": "nudge", "id": "\#(ids[0])", "by": 1}, {"op": "addSection", "section": "extras", "title": "Extras"}]}"#
            let applied = try await Self.call(.post, root, "pages/shop/draft/edits", token: token, json: edits)
            #expect(applied.status == .ok, "\(applied.text)")
            let tag = try #require(applied.headers[.eTag])
            #expect(try await draftIDs().prefix(2) == [ids[1], ids[0]])
            let draft = try AdminAPITests.object(try await Self.call(.get, root, "pages/shop/draft", token: token))
            #expect(draft["template"]?["sections"]?.arrayValue?.last?["id"] == "extras")
            let audit = try AdminAPITests.object(try await Self.call(.get, root, "audit?subject=shop", token: token))
            #expect(audit.arrayValue?.first?["action"] == "save draft", "\(audit)")

            // A refusal names the edit and where; the first edit of the list is not saved either.
            let refused = try await Self.call(
                .post, root, "pages/shop/draft/edits", token: token,
                json: #"{"edits": [{"op": "remove", "id": "\#(ids[1])"}, {"op": "removeSection", "section": "\#(first)"}]}"#)
            #expect(refused.status == .unprocessableContent, "\(refused.text)")
            let problem = try #require(try AdminAPITests.object(refused)["problems"]?.arrayValue?.first)
            #expect(problem["path"]?.stringValue == "edits[1]: $.sections[0]", "\(refused.text)")
            #expect(problem["message"]?.stringValue?.contains("still has") == true)
            #expect(try await draftIDs().prefix(2) == [ids[1], ids[0]], "nothing of a refused list is saved")

            // Malformed: an unknown op, an empty list, a widget the page does not have.
            let unknown = try await Self.call(.post, root, "pages/shop/draft/edits", token: token, json: #"{"edits": [{"op": "explode"}]}"#)
            #expect(unknown.status.code / 100 == 4 && unknown.text.contains("explode"), "\(unknown.text)")
            #expect(try await Self.call(.post, root, "pages/shop/draft/edits", token: token, json: #"{"edits": []}"#).status == .unprocessableContent)
            let missing = try await Self.call(.post, root, "pages/shop/draft/edits", token: token, json: #"{"edits": [{"op": "remove", "id": "nobody"}]}"#)
            #expect(missing.status == .unprocessableContent && missing.text.contains("no widget 'nobody'"), "\(missing.text)")
            #expect(try await Self.call(.get, root, "pages/shop/draft/edits", token: token).status == .methodNotAllowed)

            // With If-Match: only to that draft. Someone's save in between makes it a 412.
            let moved = try await Self.call(
                .post, root, "pages/shop/draft/edits", token: token, json: #"{"edits": [{"op": "nudge", "id": "\#(ids[0])", "by": -1}]}"#,
                headers: [.ifMatch: tag])
            #expect(moved.status == .ok, "\(moved.text)")
            #expect(try await draftIDs().prefix(2) == [ids[0], ids[1]])
            let stale = try await Self.call(
                .post, root, "pages/shop/draft/edits", token: token, json: #"{"edits": [{"op": "nudge", "id": "\#(ids[0])", "by": 1}]}"#,
                headers: [.ifMatch: tag])
            #expect(stale.status == .preconditionFailed, "\(stale.text)")
            #expect(try await draftIDs().prefix(2) == [ids[0], ids[1]])
        }
    }

    @Test("routes by the table: a 405 names the path's methods (TRACE too), a path it lacks is a JSON 404, the token comes first; preconditions as RFC 9110 reads them")
    func routesAndPreconditions() async throws {
        try await AdminAPITests.withAdmin { root, token in
            for method in [HTTPRequest.Method.trace, .patch, .options] {
                let wrong = try await Self.call(method, root, "pages/shop/draft", token: token)
                #expect(wrong.status == .methodNotAllowed && wrong.headers[.allow] == "GET, PUT, DELETE", "\(method): \(wrong.status) \(wrong.text)")
            }
            let nowhere = try await Self.call(.get, root, "pages/shop/draft/nowhere", token: token)
            #expect(nowhere.status == .notFound && (try? nowhere.errorBody().error.code) == "notFound", "\(nowhere.text)")
            #expect(try await Self.call(.get, root, "nothing/at/all", token: token).status == .notFound)
            let anonymous = try await raw(.trace, root, "/admin/api/pages/shop/draft")
            #expect(anonymous.status == .unauthorized, "no token: 401 before anything else")
            // The description is served to the same token, and lists itself.
            let described = try await Self.call(.get, root, "openapi.json", token: token)
            #expect(described.status == .ok && described.headers[.eTag] != nil)
            let document = try AdminAPITests.object(described)
            #expect(document["openapi"] == "3.1.0")
            #expect(document["paths"]?["/admin/api/openapi.json"]?["get"] != nil)
            #expect(document["paths"]?["/admin/api/pages/{route}/draft/edits"]?["post"] != nil)
            #expect(try await raw(.get, root, "/admin/api/openapi.json").status == .unauthorized)

            let experiment = #"{"variants": [{"name": "control", "weight": 1}]}"#
            // An empty If-Match (a script's unset variable) is a list of no tags: nothing is written.
            let empty = try await Self.call(.put, root, "experiments/empty-tag", token: token, json: experiment, headers: [.ifMatch: ""])
            #expect(empty.status == .preconditionFailed, "\(empty.text)")
            #expect(try await Self.call(.get, root, "experiments/empty-tag", token: token).status == .notFound)
            // Both headers: one of the two cannot hold.
            let both = try await Self.call(
                .put, root, "experiments/empty-tag", token: token, json: experiment, headers: [.ifMatch: "*", .ifNoneMatch: "*"])
            #expect(both.status == .preconditionFailed, "\(both.text)")
            // A comma inside quotes belongs to its tag; a list of them is read as a list.
            let created = try await Self.call(.put, root, "experiments/listed", token: token, json: experiment, headers: [.ifNoneMatch: "*"])
            let tag = try #require(created.headers[.eTag])
            let odd = try await Self.call(.put, root, "experiments/listed", token: token, json: experiment, headers: [.ifMatch: #""a,b", W/"c""#])
            #expect(odd.status == .preconditionFailed, "\(odd.text)")
            let listed = try await Self.call(.put, root, "experiments/listed", token: token, json: experiment, headers: [.ifMatch: #""x,y" , \#(tag)"#])
            #expect(listed.status == .ok, "\(listed.text)")
            #expect(try await Self.call(.put, root, "experiments/listed", token: token, json: experiment, headers: [.ifMatch: #""open"#]).status == .badRequest)
        }
    }

    @Test("drafts and the live page: versions at their own addresses, If-Match on save, publish, rollback and the kill switch")
    func drafts() async throws {
        try await AdminAPITests.withAdmin { root, token in
            let live = try await Self.call(.get, root, "pages/shop/live", token: token)
            let liveTag = try #require(live.headers[.eTag])
            var template = try #require(try AdminAPITests.object(live)["template"]?.objectValue)
            #expect(try await Self.call(.get, root, "pages/shop/draft", token: token).status == .notFound)
            template["title"] = "Shop, first"
            let first = String(decoding: try JSONEncoder().encode(JSONValue.object(template)), as: UTF8.self)
            let saved = try await Self.call(.put, root, "pages/shop/draft", token: token, json: first, headers: [.ifNoneMatch: "*"])
            #expect(saved.status == .ok, "\(saved.text)")
            let draftTag = try #require(saved.headers[.eTag])
            #expect(try AdminAPITests.object(try await Self.call(.get, root, "pages/shop", token: token))["draft"]?["etag"]?.stringValue == draftTag)
            template["title"] = "Shop, second"
            let second = String(decoding: try JSONEncoder().encode(JSONValue.object(template)), as: UTF8.self)
            #expect(try await Self.call(.put, root, "pages/shop/draft", token: token, json: second, headers: [.ifMatch: draftTag]).status == .ok)
            let stale = try await Self.call(.put, root, "pages/shop/draft", token: token, json: first, headers: [.ifMatch: draftTag])
            #expect(stale.status == .preconditionFailed)
            let changes = try AdminAPITests.object(stale)["changes"]?.stringValue ?? ""
            #expect(changes.contains("ada: Saved the draft") && changes.contains("“Shop, first” → “Shop, second”"), "\(changes)")
            let publishStale = try await Self.call(.post, root, "pages/shop/publish", token: token, json: "{}", headers: [.ifMatch: draftTag])
            #expect(publishStale.status == .preconditionFailed)
            let current = try #require(try await Self.call(.get, root, "pages/shop/draft", token: token).headers[.eTag])
            let published = try await Self.call(.post, root, "pages/shop/publish", token: token, json: "{}", headers: [.ifMatch: current])
            #expect(published.status == .ok)
            let newLive = try #require(published.headers[.eTag])
            #expect(newLive != liveTag)
            let rollback = try await Self.call(.post, root, "pages/shop/rollback", token: token, json: #"{"revision": 1}"#, headers: [.ifMatch: liveTag])
            #expect(rollback.status == .preconditionFailed)
            #expect((try AdminAPITests.object(rollback)["changes"]?.stringValue ?? "").hasPrefix("revision 2 is live now, not 1"))
            let widget = try #require(template["sections"]?.arrayValue?.last?["widgets"]?.arrayValue?.first?["id"]?.stringValue)
            let switched = try await Self.call(
                .post, root, "pages/shop/widgets/\(widget)/enabled", token: token, json: #"{"enabled": false}"#, headers: [.ifMatch: newLive])
            #expect(switched.status == .ok, "\(switched.text)")
            // A precondition on a read is a mistake said out loud.
            #expect(try await Self.call(.get, root, "pages/shop/live", token: token, headers: [.ifMatch: newLive]).status == .badRequest)
        }
    }

    @Test("an admin API token is listed by id and revoked through the API by itself; it is refused at once; an app user's token still revokes as before")
    func tokens() async throws {
        try await AdminAPITests.withAdmin { root, token in
            // A second token for ada, made through the demo's own directory (as the CLI does), then listed.
            let listed = try AdminAPITests.object(try await Self.call(.get, root, "tokens", token: token))
            let ids = listed.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
            #expect(ids.count == 1 && ids[0].count == 12 && !token.hasPrefix(ids[0]))
            #expect(listed.arrayValue?.first?["label"] == "ci" && listed.arrayValue?.first?["admin"] == "ada")
            // Naming nobody, or a token id that is no id, is said as such.
            let nobody = try await Self.call(.get, root, "tokens?admin=zed", token: token)
            #expect(nobody.status == .notFound)
            #expect(try nobody.errorBody().error.message.contains("no admin named 'zed'"))
            let malformed = try await Self.call(.post, root, "tokens/revoke", token: token, json: #"{"admin": "ada", "ids": ["not hex"]}"#)
            #expect(malformed.status == .unprocessableContent)
            #expect(try malformed.errorBody().error.code == "invalidTokenID")
            let neither = try await Self.call(.post, root, "tokens/revoke", token: token, json: #"{"admin": "ada"}"#)
            #expect(neither.status == .unprocessableContent)
            #expect(try neither.errorBody().error.path == "$.ids")
            let listing = try await Self.call(.get, root, "tokens", token: token)
            #expect(!listing.text.contains(token), "never the token itself")

            let user = try await raw(.post, root, "/api/v5/commands/playlists/create", headers: [.contentType: "application/json"], body: Array(#"{"name": "x"}"#.utf8))
            let userToken = try #require(user.headers[ScreenplayService.tokenHeader])
            let revokedUser = try await Self.call(.post, root, "tokens/revoke", token: token, json: #"{"token": "\#(userToken)"}"#)
            #expect(try AdminAPITests.object(revokedUser) == ["revoked": true])

            let revoked = try await Self.call(.post, root, "tokens/revoke", token: token, json: #"{"token": "\#(token)"}"#)
            #expect(revoked.status == .ok, "\(revoked.text)")
            let body = try AdminAPITests.object(revoked)
            #expect(body["revoked"] == true && body["tokens"]?.arrayValue?.first?["id"]?.stringValue == ids[0], "\(revoked.text)")
            let after = try await Self.call(.get, root, "pages", token: token)
            #expect(after.status == .unauthorized, "a revoked admin token keeps working")
        }
    }

    @Test("the CLI lists an admin's tokens by id and revokes them by id or all at once; a revoked token is refused by the API")
    func tokensOnTheCommandLine() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("screenplay-admin-tokens-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        #expect(try await runCLI(["admin", "create-user", "ada", "--data", data], input: Data("correct horse battery\n".utf8)).status == 0)
        let ci = try await runCLI(["admin", "create-token", "ada", "--label", "ci", "--data", data]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try await runCLI(["admin", "create-token", "ada", "--label", "deploy bot", "--data", data])
        let listed = try await runCLI(["admin", "tokens", "ada", "--data", data])
        let lines = listed.output.split(separator: "\n").map(String.init)
        #expect(listed.status == 0 && lines.count == 2, "\(listed.output)")
        #expect(lines.allSatisfy { $0.wholeMatch(of: /[0-9a-f]{12}  \d{4}-\d\d-\d\dT[0-9:]+Z  .+/) != nil }, "\(listed.output)")
        #expect(!listed.output.contains(ci), "the token itself is never shown again")
        let ciLine = try #require(lines.first { $0.hasSuffix("  ci") })
        let ciID = String(ciLine.prefix(12))

        let missing = try await runCLI(["admin", "revoke-token", "ada", "--data", data])
        #expect(missing.status != 0 && missing.output.contains("--all"), "\(missing.output)")
        let unknown = try await runCLI(["admin", "revoke-token", "ada", "0123456789ab", "--data", data])
        #expect(unknown.status == 1 && unknown.output.contains("has no token with id '0123456789ab'"), "\(unknown.output)")
        let revoked = try await runCLI(["admin", "revoke-token", "ada", ciID, "--data", data])
        #expect(revoked.status == 0 && revoked.output.hasPrefix("revoked \(ciID)"), "\(revoked.output)")
        #expect(try await runCLI(["admin", "tokens", "ada", "--data", data]).output.split(separator: "\n").count == 1)
        let all = try await runCLI(["admin", "revoke-token", "ada", "--all", "--data", data])
        #expect(all.status == 0 && all.output.contains("deploy bot"), "\(all.output)")
        #expect(try await runCLI(["admin", "tokens", "ada", "--data", data]).output.contains("has no API tokens"))
        let nobody = try await runCLI(["admin", "tokens", "zed", "--data", data])
        #expect(nobody.status == 1 && nobody.output.contains("no admin named 'zed'"), "\(nobody.output)")
    }

    @Test("the pages' forms name what they read: a discard or an experiment start from an older page is refused, a kill switch is applied and says the page moved on")
    func formsNameWhatTheyRead() async throws {
        try await AdminEditorTests.signedIn { root, demo, cookie, post in
            // A discard confirmed on a draft someone saved again since: shown again, not thrown away.
            #expect(try await post("/admin/pages/shop/edit/widgets/deal-buy/move", ["by": "-1"]).status == .seeOther)
            let asked = try await post("/admin/pages/shop/discard", [:])
            let version = try #require(asked.text.firstMatch(of: /name="version" value="([^"]+)"/)).output.1
            let read = String(version).replacingOccurrences(of: "&quot;", with: "\"")
            #expect(try await post("/admin/pages/shop/edit/widgets/deal-price/move", ["by": "-1"]).status == .seeOther)
            let refused = try await post("/admin/pages/shop/discard", ["confirm": "yes", "version": read])
            #expect(refused.status == .conflict)
            #expect(refused.text.contains("Not discarded: ada changed the draft at"), "\(refused.text.prefix(2_000))")
            #expect(try await demo.layouts.draft(of: "shop") != nil, "nothing thrown away")
            let current = try #require(try await demo.layouts.draft(of: "shop")).version
            #expect(try await post("/admin/pages/shop/discard", ["confirm": "yes", "version": current]).status == .seeOther)
            #expect(try await demo.layouts.draft(of: "shop") == nil)

            // An experiment started from a page older than someone's change: refused, nothing changed.
            let page = try await raw(.get, root, "/admin/experiments/shop-free-shipping", headers: cookie)
            let shown = try #require(page.text.firstMatch(of: /name="version" value="([^"]+)"/)).output.1
            let stale = String(shown).replacingOccurrences(of: "&quot;", with: "\"")
            var changed = try #require(try await demo.experiments.experiment("shop-free-shipping"))
            changed.targetSegment = "beta-testers"
            try await demo.experiments.save(changed, by: "bob")
            let stopped = try await post("/admin/experiments/shop-free-shipping/stop", ["version": stale, "confirm": "yes"])
            #expect(stopped.status == .conflict)
            #expect(stopped.text.contains("Not stopped: bob changed this experiment at"), "\(stopped.text.prefix(2_000))")
            #expect(stopped.text.contains("segment none → beta-testers"))
            #expect(try await demo.experiments.experiment("shop-free-shipping")?.stop == nil)

            // A kill switch from a page showing an older live revision: applied (an emergency
            // cannot wait), and the notice says the live page had moved on.
            let live = try #require(try await demo.layouts.published(route: "shop")).revision
            let switched = try await post("/admin/pages/shop/widgets/deal-price/enabled", ["enabled": "false", "seen": String(live - 1)])
            #expect(switched.headers[.location] == "/admin/pages/shop?done=switchedOffNewer")
            let again = try await post("/admin/pages/shop/widgets/deal-price/enabled", ["enabled": "true", "seen": String(live + 1)])
            #expect(again.headers[.location] == "/admin/pages/shop?done=switchedOn")
        }
    }
}
