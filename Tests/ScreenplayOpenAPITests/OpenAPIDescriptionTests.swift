import Foundation
import HTTPTypes
import ScreenplayContract
import ScreenplayOpenAPI
import ScreenplayServer
import ScreenplayTestSupport
import Testing

@Suite("OpenAPI description")
struct OpenAPIDescriptionTests {
    static func table() -> RouteTable {
        var routes = ScreenplayRoutes()
        routes.screen("home") { _ in Screen(id: "home", title: "Home") { Section("s") { Text("x") } } }
        routes.screen("albums/:id") { _ in Screen(id: "album", title: "Album") { Section("s") { Text("x") } } }
        routes.command("favorites/:id/add") { _ in .done(.init(message: "ok")) }
        let service = ScreenplayService(routes: routes, identity: CountingIdentities(), configuration: .init(maximumBodySize: 2048))
        var table = service.routeTable(version: .v5)
        table.add(OpenAPIDescription.route())
        return table
    }

    static func document() throws -> [String: JSONValue] {
        try #require(OpenAPIDescription.document(tables: [table()], version: .v5, title: "Test").objectValue)
    }

    @Test("a 3.1 document: each route an operation at its OpenAPI path, tagged with its site, with its policy")
    func operations() throws {
        let document = try Self.document()
        #expect(document["openapi"] == "3.1.0")
        #expect(document["info"]?.objectValue?["version"] == "v5")
        let paths = try #require(document["paths"]?.objectValue)
        #expect(
            Set(paths.keys) == [
                "/api/v5/screens/home", "/api/v5/screens/albums/{id}", "/api/v5/commands/favorites/{id}/add", "/api/v5/events", "/api/v5/sync",
                "/api/openapi.json",
            ])
        let album = try #require(paths["/api/v5/screens/albums/{id}"]?.objectValue)
        #expect(Set(album.keys) == ["get", "head"])
        let command = try #require(paths["/api/v5/commands/favorites/{id}/add"]?.objectValue?["post"]?.objectValue)
        #expect(command["tags"] == ["api"])
        let policy = try #require(command["x-screenplay-policy"]?.objectValue)
        #expect(policy["crossSite"] == "cookieWrites" && policy["admission"] == "commands" && policy["bodyLimit"] == 2048)
        #expect(command["security"] == [[:], ["userToken": []], ["userCookie": []]], "anonymous, or a user by token or cookie")
        let body = command["requestBody"]?.objectValue?["content"]?.objectValue?["application/json"]?.objectValue?["schema"]
        #expect(body == ["$ref": "#/components/schemas/request.command"])
        let ok = command["responses"]?.objectValue?["200"]?.objectValue?["content"]?.objectValue?["application/json"]?.objectValue?["schema"]
        #expect(ok == ["$ref": "#/components/schemas/CommandResult"])
        #expect(command["responses"]?.objectValue?["default"] != nil, "any other error is ErrorBody")
        // HEAD answers carry no content.
        let head = try #require(album["head"]?.objectValue?["responses"]?.objectValue?["200"]?.objectValue)
        #expect(head["content"] == nil)
    }

    @Test("every $ref resolves inside the document, and every path template's names are declared path parameters")
    func references() throws {
        let document = try Self.document()
        let schemas = try #require(document["components"]?.objectValue?["schemas"]?.objectValue)
        #expect(schemas["Screen"] != nil && schemas["CommandResult"] != nil && schemas["ErrorBody"] != nil && schemas["SyncAnswer"] != nil)
        var references: [String] = []
        func collect(_ value: JSONValue) {
            switch value {
            case .object(let members):
                if case .string(let target)? = members["$ref"] { references.append(target) }
                members.values.forEach(collect)
            case .array(let values): values.forEach(collect)
            default: break
            }
        }
        collect(.object(document))
        #expect(references.count > 50)
        for target in Set(references) {
            #expect(target.hasPrefix("#/components/schemas/"), "\(target)")
            #expect(schemas[String(target.dropFirst("#/components/schemas/".count))] != nil, "\(target) resolves")
        }
        for (path, item) in try #require(document["paths"]?.objectValue) {
            let names = Set(path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) })
            for (method, operation) in try #require(item.objectValue) {
                let declared = Set(
                    (operation.objectValue?["parameters"]?.arrayValue ?? []).compactMap { parameter -> String? in
                        parameter.objectValue?["in"] == "path" ? parameter.objectValue?["name"]?.stringValue : nil
                    })
                #expect(declared == names, "\(method) \(path)")
            }
        }
    }

    @Test("the JSON is key-sorted and stable; the contract's app kinds join its schemas")
    func bytes() throws {
        let first = try OpenAPIDescription.json(tables: [Self.table()], version: .v5, title: "Test")
        let second = try OpenAPIDescription.json(tables: [Self.table()], version: .v5, title: "Test")
        #expect(first == second)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(first))
        #expect(decoded.objectValue?["openapi"] == "3.1.0")
        let kind = AppDefinedKind(
            type: "loyaltyCard", summary: "A card.", versioning: KindVersioning(introduced: .v2, fallback: "a list row"),
            fields: [.required("title", .string, summary: "The name.")], linkPolicy: .endpoint)
        let withKind = try OpenAPIDescription.document(tables: [Self.table()], version: .v5, title: "Test", appKinds: [kind])
        #expect(withKind.objectValue?["components"]?.objectValue?["schemas"]?.objectValue?["component.loyaltyCard"] != nil)
    }
}
