import Foundation
import HTTPTypes
import ScreenplayContract
import ScreenplayServer
import ScreenplayWeb

/// Command payloads: the bytes are the body of `POST /api/v{N}/commands/…` (and, the same bytes,
/// a browser's form post to the web pages).
///
/// Oracles:
/// 1. `ScreenplayService.parsePayload` either refuses with a 400 `malformedJSON`, or returns a
///    value that encodes and parses back to the same JSON (numbers compared by value).
/// 2. A body `JSONSerialization` accepts is not refused as malformed (where Foundation follows
///    RFC 8259: see ``JSONSyntaxHarness``).
/// 3. Through the whole service (`respond(to:body:)`, the real routing, storage check, command,
///    downgrade and encoding) every answer is 200, 400 or 422: never a 500. A 400 exactly when
///    the body is malformed; a 200 body decodes strictly as a `CommandResult` of the request's
///    version with no issue; an error body decodes as an `ErrorBody`.
/// 4. The payload accessors keep their promises: `text` is trimmed, non-empty and within both
///    limits; `integer` is the number sent; `storedText` is what `storage` holds.
/// 5. `WebForm(urlEncoded:)`: a parsed form has a `commands/` URL the link policy allows and a
///    `back` path that stays on the site as a browser reads it (``HTMLOracle/urlViolation``).
public enum CommandPayloadHarness {
    static let target = "FuzzCommandPayload"

    public static func run(_ bytes: UnsafeRawBufferPointer) {
        let body = [UInt8](bytes)
        let parsed = checkParse(body)
        checkService(body, parsed: parsed)
        checkWebForm(body)
    }

    // MARK: parsePayload

    static func checkParse(_ body: [UInt8]) -> JSONValue? {
        let data = Data(body)
        do {
            let value = try ScreenplayService.parsePayload(body, contentType: "application/json; charset=utf-8")
            let encoded: Data
            do {
                encoded = try ScreenplayEncoder().encode(value)
            } catch {
                Oracle.fail(target, "a parsed payload does not encode: \(error)")
            }
            guard let again = try? JSONDecoder().decode(JSONValue.self, from: encoded), Oracle.sameJSON(again, value) else {
                Oracle.fail(target, "a parsed payload does not survive encode and parse: \(Oracle.excerpt(encoded))")
            }
            return value
        } catch {
            guard error.status == .badRequest, error.code == "malformedJSON" else {
                Oracle.fail(target, "parsePayload refused a body with \(error), not a 400 malformedJSON")
            }
            // A member named twice is JSON that Foundation reads (keeping one of the two), and
            // request bodies refuse it on purpose: readers differ on which one counts.
            if (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil,
                JSONSyntaxHarness.isStrictlyComparable(data),
                JSONSyntax.firstError(in: data, refusingDuplicateNames: true) == nil
            {
                Oracle.fail(target, "parsePayload refused a body JSONSerialization reads (\(error.message)): \(Oracle.excerpt(data))")
            }
            return nil
        }
    }

    // MARK: The service

    /// A user for every request (no identities are created: the fuzzer is one client).
    struct OneUser: IdentityResolver {
        func resolve(token: String?, creating: Bool) async throws -> ResolvedIdentity {
            ResolvedIdentity(user: UserIdentity(id: 1), issuedToken: nil)
        }
    }

    static let commands = ["echo", "count", "results", "ask"]

    static let service: ScreenplayService = {
        var routes = ScreenplayRoutes()
        // Reads every kind of field the accessors offer, then checks what they returned.
        routes.command("echo") { request in
            let text = try request.text("text", maxLength: 10, maxBytes: 20)
            guard !text.isEmpty, text.count <= 10, text.utf8.count <= 20,
                !(text.unicodeScalars.first!.properties.isWhitespace), !(text.unicodeScalars.last!.properties.isWhitespace)
            else { Oracle.fail(target, "text(\"text\") returned \(text.debugDescription), outside its limits or untrimmed") }
            let note = try request.optionalText("note")
            if note != request.payload["note"]?.stringValue { Oracle.fail(target, "optionalText returned \(String(describing: note))") }
            let query = try request.storedText("query")
            if query != request.payload["storage"]?["query"]?.stringValue {
                Oracle.fail(target, "storedText(\"query\") returned \(String(describing: query))")
            }
            #if FUZZ_PLANTED_BUG
            // Planted: a command that mishandles a text of the full ten characters sent with
            // client storage. The seeds send a nine-character text with storage.
            if text.count == 10, query != nil { Oracle.planted(target, "a ten-character text with storage") }
            #endif
            return CommandResult.done(.init(message: "\(text) \(note ?? "")", refresh: true))
                .with(ClientUpdates(storage: query.map { ["query": $0] } ?? [:]))
        }
        routes.command("count") { request in
            let number = try request.integer("n")
            let sent = request.payload["n"]
            let exact: Bool =
                switch sent {
                case .integer(let value): value == number
                case .number(let value): value == Double(number)
                default: false
                }
            guard exact else { Oracle.fail(target, "integer(\"n\") returned \(number) for \(String(describing: sent))") }

            return .done(.init(message: "\(number)"))
        }
        // A screen built from the payload with the DSL, as an app answers a search: user text in
        // titles, rows and links (percent-encoded, as an app must), ids derived by the service.
        routes.command("results") { request in
            let title = try request.optionalText("title") ?? "Results"
            let items = (request.payload["items"]?.arrayValue ?? []).prefix(20).compactMap(\.stringValue)
            let query = try request.storedText("query") ?? ""
            return .screen(
                Screen(id: "results", title: title, storage: ["query": query]) {
                    Section(title, header: title) {
                        for item in items {
                            ListRow(
                                title: item, subtitle: query,
                                action: .navigate(to: "screens/search?q=" + (item.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")))
                            Text(item)
                        }
                        TextField(label: "Search", storageKey: "query", submit: .command("commands/results"))
                    }
                })
        }
        routes.command("ask") { request in
            let name = try request.optionalText("name") ?? "name"
            return .prompt(
                .init(
                    title: name, message: try request.optionalText("message"), field: .init(name: name, placeholder: name),
                    submitTitle: "OK", submit: .init(url: "commands/echo", payload: request.payload["storage"].map { ["storage": $0] })))
        }
        var configuration = ScreenplayService.Configuration(
            maximumBodySize: 1 << 20, commandRate: (1e9, 1e9), identityCreationRate: (1e9, 1e9), identityCreationPerAddress: (1e9, 1e9))
        configuration.verifiesEncodedScreens = true
        return ScreenplayService(routes: routes, identity: OneUser(), configuration: configuration)
    }()

    static func checkService(_ body: [UInt8], parsed: JSONValue?) {
        let version = Oracle.versions[body.count % Oracle.versions.count]
        let responses = Blocking.run {
            var responses: [(String, ScreenplayService.Response)] = []
            for command in commands {
                var request = HTTPRequest(method: .post, scheme: "https", authority: "example.com", path: "/api/\(version)/commands/\(command)")
                request.headerFields[.contentType] = "application/json"
                request.headerFields[.authorization] = "Bearer fuzz"
                responses.append((command, await service.respond(to: request, body: body)))
            }
            return responses
        }
        for (command, response) in responses {
            let status = response.head.status.code
            let what = "commands/\(command) at \(version) answered \(status)"
            let data = Data(response.body)
            switch status {
            case 200:
                guard parsed != nil else { Oracle.fail(target, "\(what) to a body parsePayload refuses") }
                let decoded: Decoded<CommandResult>
                do {
                    decoded = try ScreenplayDecoder(mode: .strict, apiVersion: version).decode(CommandResult.self, from: data)
                } catch {
                    Oracle.fail(target, "\(what) with a result \(version) clients cannot decode: \(error)\n  body: \(Oracle.excerpt(data))")
                }
                if let issue = decoded.issues.first {
                    Oracle.fail(target, "\(what) with a result that decodes with an issue: \(issue)\n  body: \(Oracle.excerpt(data))")
                }
            case 400, 422:
                guard (status == 400) == (parsed == nil) else {
                    Oracle.fail(target, "\(what), but parsePayload \(parsed == nil ? "refused" : "accepted") the body: \(Oracle.excerpt(data))")
                }
                guard let error = try? JSONDecoder().decode(ErrorBody.self, from: data), !error.error.code.isEmpty else {
                    Oracle.fail(target, "\(what) with a body that is not an error: \(Oracle.excerpt(data))")
                }
            default:
                Oracle.fail(target, "\(what): \(Oracle.excerpt(data))")
            }
        }
    }

    // MARK: Web form posts

    static func checkWebForm(_ body: [UInt8]) {
        guard let form = try? WebForm(urlEncoded: body) else { return }
        guard form.commandURL.hasPrefix("commands/"), (try? LinkPolicy.endpoint.check(form.commandURL)) != nil else {
            Oracle.fail(target, "a form post with command URL \(form.commandURL.debugDescription) was accepted")
        }
        if let problem = HTMLOracle.urlViolation(form.back, schemes: []) {
            Oracle.fail(target, "a form post's back path can leave the site: \(problem)")
        }
    }
}
