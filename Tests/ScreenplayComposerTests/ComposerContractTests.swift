import Foundation
import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer
import ScreenplayTestSupport
import Testing

@Suite("Composer: widget contracts")
struct ComposerContractTests {
    let card = Widgets.productCard

    static let valid: JSONValue = [
        "type": "productCard", "title": "Tea", "price": "€12", "discount": false, "image": "https://cdn.example/tea.png",
        "rating": 4.5, "stock": 3, "tags": ["new"],
    ]

    func with(_ changes: [String: JSONValue?]) -> JSONValue {
        var members = Self.valid.objectValue ?? [:]
        for (key, value) in changes { members[key] = value }
        return .object(members)
    }

    @Test("a widget that meets its contract has no problem")
    func valid() {
        #expect(card.validate(Self.valid).isEmpty)
        // The v4 attributes are every component's, not unknown fields.
        let attributed = with([
            "id": "w1", "bind": ["price": ["entity": "product/1", "field": "price"]], "accessibility": ["label": "Tea"],
        ])
        #expect(card.validate(attributed).isEmpty)
    }

    @Test(
        "each problem names its JSON path and kind",
        arguments: [
            (["title": nil], "$.title", WidgetProblem.Kind.missingField),
            (["title": .null], "$.title", .missingField),
            (["price": 12], "$.price", .wrongType),
            (["stock": 2.5], "$.stock", .wrongType),
            (["rating": "high"], "$.rating", .wrongType),
            (["discount": "no"], "$.discount", .wrongType),
            (["tags": ["a": 1]], "$.tags", .wrongType),
            (["image": "javascript:alert(1)"], "$.image", .invalidURL),
            (["image": "//evil.example/x.png"], "$.image", .invalidURL),
            (["image": 7], "$.image", .wrongType),
            (["type": "banner"], "$.type", .wrongKind),
            (["type": nil], "$.type", .missingField),
            (["colour": "red"], "$.colour", .unknownField),
            (["badge": "New!"], "$.badge", .deprecatedField),
            (["my field": 1], "$[\"my field\"]", .unknownField),
        ] as [([String: JSONValue?], String, WidgetProblem.Kind)])
    func problems(change: [String: JSONValue?], path: String, kind: WidgetProblem.Kind) {
        let problems = card.validate(with(change))
        #expect(problems.map(\.path) == [path], "\(problems)")
        #expect(problems.map(\.kind) == [kind])
    }

    @Test("unknown and deprecated fields are warnings; the rest are errors")
    func severities() {
        let problems = card.validate(with(["colour": "red", "badge": "New!", "price": nil]))
        #expect(problems.filter(\.isWarning).map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.deprecatedField, .unknownField])
        #expect(problems.filter { !$0.isWarning }.map(\.path) == ["$.price"])
        #expect(problems.first { $0.kind == .deprecatedField }?.message.contains("use 'tags'") == true)
    }

    @Test("a field introduced after the client's version is not required from its providers")
    func versionedRequirement() {
        let withoutDiscount = with(["discount": nil])
        #expect(card.validate(withoutDiscount, apiVersion: .v3).isEmpty)
        #expect(card.validate(withoutDiscount, apiVersion: .v4).map(\.path) == ["$.discount"])
    }

    @Test("a widget is an object")
    func notAnObject() {
        #expect(card.validate(["a", "b"]).map(\.kind) == [.notAnObject])
        #expect(card.validate("text").first?.path == "$")
    }

    @Test("a contract with a custom link policy accepts what the policy accepts")
    func linkPolicy() throws {
        let share = try WidgetContract(
            type: "shareCard", summary: "", versioning: .original, fields: [.required("link", .url)], linkPolicy: .external,
            fallback: { _ in [] })
        #expect(share.validate(["type": "shareCard", "link": "mailto:shop@example.com"]).isEmpty)
        #expect(card.validate(with(["image": "mailto:shop@example.com"])).map(\.kind) == [.invalidURL])
    }

    @Test("parameters are checked against the kind's parameter contract, paths relative to them")
    func parameters() {
        #expect(card.validateParameters(["productID": "42", "showImage": true]).isEmpty)
        let problems = card.validateParameters(["showImage": "yes", "size": 3])
        #expect(problems.map(\.path) == ["$.productID", "$.showImage", "$.size"])
        #expect(problems.map(\.isWarning) == [false, false, true])
        #expect(card.validateParameters([1]).map(\.kind) == [.notAnObject])
    }

    @Test(
        "a contract that cannot be declared says why",
        arguments: [
            ("text", [WidgetField.required("a", .string)], "built-in"),
            ("product card", [.required("a", .string)], "not a kind name"),
            ("card", [.required("id", .string)], "reserves"),
            ("card", [.required("a", .string), .optional("a", .integer)], "twice"),
            ("card", [.required("", .string)], "empty name"),
        ])
    func invalidDeclarations(type: String, fields: [WidgetField], expected: String) {
        let error = #expect(throws: WidgetContractError.self) {
            try WidgetContract(type: type, summary: "", versioning: .original, fields: fields, fallback: { _ in [] })
        }
        #expect(error?.message.contains(expected) == true, "\(String(describing: error))")
    }

    @Test("an example is checked against its contract when declared: its parameters and its component, by path")
    func examples() throws {
        func declare(_ example: WidgetExample) throws(WidgetContractError) -> WidgetContract {
            try WidgetContract(
                type: "offer", summary: "", versioning: .original, fields: [.required("title", .string), .optional("link", .url)],
                parameters: [.required("workID", .integer)], fallback: { _ in [] }, example: example)
        }
        // Without `type`, the component is taken as the contract's kind.
        let contract = try declare(WidgetExample(vertical: "catalog", parameters: ["workID": 1], component: ["title": "Tea"]))
        #expect(contract.exampleComponent == ["type": "offer", "title": "Tea"])
        #expect(contract.example?.vertical == "catalog")
        for (example, expected) in [
            (WidgetExample(vertical: "c", parameters: ["workID": "one"], component: ["title": "Tea"]), "parameters.workID"),
            (WidgetExample(vertical: "c", parameters: [:], component: ["title": "Tea"]), "parameters.workID: missing"),
            (WidgetExample(vertical: "c", parameters: ["workID": 1], component: [:]), "component.title: missing"),
            (WidgetExample(vertical: "c", parameters: ["workID": 1], component: ["title": "Tea", "link": "javascript:x"]), "component.link"),
            (WidgetExample(vertical: "c", parameters: ["workID": 1], component: ["title": "Tea", "type": "other"]), "component.type"),
        ] {
            let error = #expect(throws: WidgetContractError.self) { try declare(example) }
            #expect(error?.message.contains(expected) == true, "\(String(describing: error)) should name \(expected)")
        }

        // A template pairing the kind with another vertical than its example's is warned, at
        // the vertical, and still saves (a vertical may answer more than its examples say).
        let catalog = try WidgetCatalog([contract])
        func problems(_ vertical: String) -> [TemplateProblem] {
            PageTemplate(
                route: "shop", title: "Shop", revision: 1,
                sections: [.init(id: "s", widgets: [WidgetInstance(id: "o", kind: "offer", vertical: vertical, parameters: ["workID": 1])])]
            ).validate(catalog: catalog, verticals: ["catalog", "pricing"])
        }
        #expect(problems("catalog").isEmpty)
        let mismatch = problems("pricing")
        #expect(mismatch.map(\.path) == ["$.sections[0].widgets[0].vertical"] && mismatch.allSatisfy(\.isWarning), "\(mismatch)")
        #expect(mismatch.first?.message == "'offer' is answered by vertical 'catalog'; 'pricing' may leave it out")
    }

    @Test("a catalog refuses two contracts of one kind, and lists each as a custom kind")
    func catalog() throws {
        #expect(throws: WidgetContractError.self) { try WidgetCatalog([Widgets.banner, Widgets.banner]) }
        let kinds = Widgets.catalog.customKinds
        #expect(Set(kinds.keys) == Widgets.allKinds)
        #expect(kinds["productCard"]?.versioning.introduced == .v2)
        // The custom kind's fallback is the contract's: the existing downgrade path applies.
        let downgraded = Downgrade(to: .v1, customKinds: kinds).components([
            .custom("productCard", fields: ["title": "Tea", "price": "€3"])
        ])
        #expect(downgraded == [.listRow(.init(title: "Tea", subtitle: "€3"))])
    }

    @Test("a contract prints as a table a person can read")
    func description() {
        let text = card.description
        #expect(text.hasPrefix("productCard (from v2; older clients: a list row with the title and the price)"))
        #expect(text.contains("title     string   required  v2   The product's name."))
        #expect(text.contains("badge     string   optional  v2   deprecated: use 'tags'"))
        #expect(text.contains("discount  boolean  required  v4"))
        #expect(text.contains("parameters:"))
        #expect(text.contains("productID  string   required  v1"))
    }

    @Test("a contract's schema per version states types, requirements, versions, deprecation and the link policy")
    func schema() throws {
        let kind = card.appDefinedKind
        let v3 = try #require(kind.schema(for: .v3).objectValue)
        #expect(v3["type"] == "object")
        #expect(v3["required"] == ["type", "title", "price"], "discount is required only from v4, after the kind's v2")
        #expect(v3["x-requested-by-header"] == "Screenplay-Components")
        let properties = try #require(v3["properties"]?.objectValue)
        #expect(properties["type"] == ["const": "productCard"])
        #expect(properties["stock"]?["type"] == "integer")
        #expect(properties["discount"] == nil, "a v3 client never receives a field introduced in v4")
        #expect(properties["badge"]?["deprecated"] == true)
        #expect(properties["badge"]?["x-deprecation"] == "use 'tags'")
        #expect(properties["image"]?["pattern"] == LinkPolicy.endpoint.schema["pattern"])
        let v4 = try #require(kind.schema(for: .v4).objectValue)
        #expect(v4["required"] == ["type", "title", "discount"], "from v4 a bindable price may be left out when bound")
        #expect(v4["properties"]?["price"]?["x-required-unless-bound"] == true)
        #expect(v4["properties"]?["discount"]?["x-introduced"] == 4)
        let late = AppDefinedKind(
            type: "late", summary: "", versioning: KindVersioning(introduced: .v3, fallback: "nothing"), fields: [.required("a", .string)],
            linkPolicy: .endpoint)
        #expect(late.schema(for: .v4)["properties"]?["a"]?["x-introduced"] == 3, "a field reaches clients no earlier than its kind")
        // The schema is JSON: it round-trips through the encoder.
        let data = try ScreenplayEncoder().encode(kind.schema(for: .v4))
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == kind.schema(for: .v4))
    }

    @Test("fields are data: they round-trip through JSON")
    func fieldsAreCodable() throws {
        let data = try JSONEncoder().encode(card.fields)
        #expect(try JSONDecoder().decode([WidgetField].self, from: data) == card.fields)
    }
}
