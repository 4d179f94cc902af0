import Foundation
import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer
import ScreenplayTestSupport
import Testing

@Suite("Composer: content the layout writes")
struct WidgetContentTests {
    /// A promotion whose copy, picture, link and colour are the layout's; the provider answers a
    /// headline of its own, which the content replaces.
    static let promo = try! WidgetContract(
        type: "promo", summary: "A promotion.", versioning: KindVersioning(introduced: .v2, fallback: "a text: the headline"),
        fields: [
            .required("headline", .string), .optional("detail", .string), .optional("image", .url), .optional("imageAlt", .string),
            .optional("link", .url), WidgetField.optional("tone", .string).bindable(),
        ],
        content: [
            ContentField("headline", label: "Headline", kind: .text(maximumLength: 20), isRequired: true),
            ContentField("image", label: "Image", kind: .image(altField: "imageAlt")),
            ContentField("link", label: "Link", kind: .screenLink),
            ContentField("tone", label: "Colour", kind: .colorToken),
        ],
        fallback: { json in [.text(.init(json["headline"]?.stringValue ?? "?"))] })

    static let rules = ContentRules(locales: ["en", "de"], screens: [.init("work/:id", title: "A work"), .init("shop", title: "Shop")])
    static let catalog = try! WidgetCatalog([promo], content: rules)

    static let valid: JSONValue = [
        "headline": ["en": "Spring sale", "de": "Frühlingsangebot"],
        "image": ["url": "/images/work/1.svg", "alt": ["en": "A cello", "de": "Ein Cello"]],
        "link": "screens/work/1", "tone": "accent",
    ]

    func with(_ changes: [String: JSONValue?]) -> JSONValue {
        var members = Self.valid.objectValue ?? [:]
        for (key, value) in changes { members[key] = value }
        return .object(members)
    }

    // MARK: Declaring

    @Test(
        "content must fill a declared field of a fitting type, once",
        arguments: [
            ([ContentField("title", label: "Title", kind: .text(maximumLength: 10))], "does not declare"),
            ([ContentField("link", label: "Link", kind: .text(maximumLength: 10))], "url field 'link' with content that is a string"),
            ([ContentField("headline", label: "Headline", kind: .screenLink)], "string field 'headline' with content that is a url"),
            ([ContentField("link", label: "Picture", kind: .image(altField: "missing"))], "does not declare"),
            ([ContentField("headline", label: "A", kind: .colorToken), ContentField("headline", label: "B", kind: .colorToken)], "twice"),
            ([ContentField("headline", label: "Headline", kind: .text(maximumLength: 0))], "holds 0 characters"),
        ])
    func declarations(content: [ContentField], message: String) {
        #expect {
            _ = try WidgetContract(
                type: "bad", summary: "", versioning: .init(introduced: .v1, fallback: "none"),
                fields: [.required("headline", .string), .optional("link", .url)], content: content, fallback: { _ in [] })
        } throws: { error in
            "\(error)".contains(message) || "\(error)".contains(message.replacingOccurrences(of: "holds", with: "hold"))
        }
    }

    // MARK: Checking

    @Test("content as the admin writes it has no problem")
    func valid() {
        #expect(Self.promo.validateContent(Self.valid, rules: Self.rules).isEmpty)
        // Only the default locale is required; links to any declared screen pass.
        #expect(Self.promo.validateContent(["headline": ["en": "Sale"], "link": "screens/shop"], rules: Self.rules).isEmpty)
    }

    @Test(
        "each problem names its JSON path, and none is a warning: what someone wrote never silently goes",
        arguments: [
            (["headline": ["en": "Spring sale", "fr": "Soldes"]], "$.headline.fr", WidgetProblem.Kind.unknownContent),
            (["headline": ["en": "Spring sale: everything must go"]], "$.headline.en", .tooLong),
            (["headline": ["de": "Frühling"]], "$.headline.en", .missingField),
            (["headline": nil], "$.headline.en", .missingField),
            (["image": ["url": "/a.svg", "alt": ["en": "x", "EN": "y"]]], "$.image.alt.EN", .unknownContent),
            (["headline": "Spring sale"], "$.headline", .wrongType),
            (["headline": ["en": 7]], "$.headline.en", .wrongType),
            (["image": ["url": "/images/work/1.svg"]], "$.image.alt", .wrongType),
            (["image": ["url": "/images/work/1.svg", "alt": ["de": "Ein Cello"]]], "$.image.alt.en", .missingField),
            (["image": ["url": "javascript:alert(1)", "alt": ["en": "x"]]], "$.image.url", .invalidURL),
            (["image": ["alt": ["en": "x"]]], "$.image.url", .missingField),
            (["image": ["url": "/a.svg", "alt": ["en": "x"], "width": 3]], "$.image.width", .unknownContent),
            (["link": "screens/composer/bach"], "$.link", .invalidURL),
            (["link": "https://example.com/screens/shop"], "$.link", .invalidURL),
            (["link": "screens/work/1/../../admin"], "$.link", .invalidURL),
            (["link": "screens//shop"], "$.link", .invalidURL),
            (["tone": "hotpink"], "$.tone", .wrongType),
            (["subtitle": ["en": "x"]], "$.subtitle", .unknownContent),
        ] as [([String: JSONValue?], String, WidgetProblem.Kind)])
    func problems(change: [String: JSONValue?], path: String, kind: WidgetProblem.Kind) {
        let problems = Self.promo.validateContent(with(change), rules: Self.rules)
        #expect(problems.map(\.path) == [path], "\(problems)")
        #expect(problems.map(\.kind) == [kind])
        #expect(problems.allSatisfy { !$0.isWarning })
    }

    @Test("a text's length is counted in characters as people see them, not bytes or code units")
    func length() {
        // 20 characters: é as one composed scalar and as e + combining accent, a flag of two scalars.
        let twenty = "Café cafe\u{301} 🇩🇪 ready!!!"
        #expect(twenty.count == 20)
        #expect(Self.promo.validateContent(with(["headline": ["en": .string(twenty)]]), rules: Self.rules).isEmpty)
        let problems = Self.promo.validateContent(with(["headline": ["en": .string(twenty + "!")]]), rules: Self.rules)
        #expect(problems.map(\.message) == ["Headline: 21 characters; at most 20"])
    }

    @Test("content is a JSON object")
    func notAnObject() {
        #expect(Self.promo.validateContent(["a"], rules: Self.rules).map(\.kind) == [.notAnObject])
    }

    @Test("a template's content problems carry the widget's path, and content nests no deeper than parameters")
    func templatePaths() {
        var deep: JSONValue = "x"
        for _ in 0..<20 { deep = ["a": deep] }
        let page = PageTemplate(
            route: "shop", title: "Shop", revision: 1,
            sections: [
                .init(
                    id: "top",
                    widgets: [
                        WidgetInstance(id: "a", kind: "promo", vertical: "marketing", content: with(["headline": ["en": "Sale", "it": "Saldi"]])),
                        WidgetInstance(id: "b", kind: "promo", vertical: "marketing", content: deep),
                        WidgetInstance(id: "c", kind: "promo", vertical: "marketing"),
                    ])
            ])
        let problems = page.validate(catalog: Self.catalog, verticals: ["marketing"])
        #expect(
            problems.map(\.path) == [
                "$.sections[0].widgets[0].content.headline.it", "$.sections[0].widgets[1].content", "$.sections[0].widgets[2].content.headline.en",
            ], "\(problems)")
    }

    @Test("a new widget's content starts as its example's required words, in the default locale and within their length; none without an example")
    func exampleContent() throws {
        let example = try WidgetContract(
            type: "promo", summary: "A promotion.", versioning: KindVersioning(introduced: .v2, fallback: "a text: the headline"),
            fields: Self.promo.fields, content: Self.promo.content,
            fallback: { json in [.text(.init(json["headline"]?.stringValue ?? "?"))] },
            example: WidgetExample(
                vertical: "marketing", parameters: [:],
                component: ["headline": "Spring sale: twenty per cent off", "imageAlt": "A cello", "link": "screens/work/1", "tone": "accent"]))
        let content = example.exampleContent(rules: Self.rules)
        // Only what is required (the headline), cut to its 20 characters; the optional link and
        // colour stay unwritten, and an image is never made up from an example.
        #expect(content == ["headline": ["en": "Spring sale: twenty "]])
        #expect(example.validateContent(content, rules: Self.rules).isEmpty)
        #expect(Self.promo.exampleContent(rules: Self.rules) == [:], "no example, no content")
        // A required link and colour are taken as they are; a required image never is.
        let strict = try WidgetContract(
            type: "promo", summary: "A promotion.", versioning: KindVersioning(introduced: .v2, fallback: "a text: the headline"),
            fields: Self.promo.fields,
            content: [
                ContentField("link", label: "Link", kind: .screenLink, isRequired: true),
                ContentField("tone", label: "Colour", kind: .colorToken, isRequired: true),
                ContentField("image", label: "Image", kind: .image(altField: "imageAlt"), isRequired: true),
            ],
            fallback: { json in [.text(.init(json["headline"]?.stringValue ?? "?"))] },
            example: WidgetExample(
                vertical: "marketing", parameters: [:],
                component: ["headline": "Sale", "image": "/images/work/1.svg", "imageAlt": "A cello", "link": "screens/work/1", "tone": "accent"]))
        #expect(strict.exampleContent(rules: Self.rules) == ["link": "screens/work/1", "tone": "accent"])
    }

    @Test("an instance's content is stored with it, and left out when there is none")
    func coding() throws {
        let instance = WidgetInstance(id: "a", kind: "promo", vertical: "marketing", content: Self.valid)
        let decoded = try JSONDecoder().decode(WidgetInstance.self, from: JSONEncoder().encode(instance))
        #expect(decoded == instance)
        let bare = String(decoding: try JSONEncoder().encode(WidgetInstance(id: "b", kind: "promo", vertical: "marketing")), as: UTF8.self)
        #expect(!bare.contains("content"))
    }

    // MARK: Reading in a locale

    @Test(
        "a reader reads their locale, else its language, else the default locale",
        arguments: [
            ("de-CH", "Frühling"), ("de_AT", "Frühling"), ("DE", "Frühling"), ("en-GB", "Spring"), ("fr-FR", "Spring"), (nil, "Spring"),
        ] as [(String?, String)])
    func locales(locale: String?, expected: String) {
        #expect(Self.rules.text(["en": "Spring", "de": "Frühling"], for: locale) == expected)
    }

    @Test("an empty text in the reader's language is read in the default locale")
    func emptyText() {
        #expect(Self.rules.text(["en": "Spring", "de": ""], for: "de") == "Spring")
        #expect(Self.rules.text(["de": "Frühling"], for: "en") == nil)
    }

    // MARK: Composing

    static let provider = ScriptedProvider { _ in
        .bytes(Array(#"{"type": "promo", "headline": "From the provider", "detail": "Until Sunday", "bind": {"tone": {"entity": "t/1", "field": "tone"}}}"#.utf8))
    }

    func compose(content: JSONValue, locale: String?, version: APIVersion = .latest, kinds: Set<String> = ["promo"]) async throws -> [String: JSONValue] {
        let composer = Composer(
            catalog: Self.catalog, providers: ["marketing": ScriptedProvider(entities: ["t/1": ["tone": "negative"]], answer: Self.provider.answer)],
            configuration: .init(defaultTimeout: .seconds(10)), logger: CapturedLogs().logger)
        let page = await composer.compose(
            template: template([.init(id: "top", widgets: [WidgetInstance(id: "hero", kind: "promo", vertical: "marketing", content: content)])]),
            context: context(version: version, kinds: kinds, locale: locale))
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(page.bytes))
        return json["sections"]?.arrayValue?.first?["components"]?.arrayValue?.first?.objectValue ?? [:]
    }

    @Test("the composer writes the content in the reader's locale over the provider's answer, keeping the provider's own fields")
    func composed() async throws {
        let german = try await compose(content: Self.valid, locale: "de-CH")
        #expect(german["headline"] == "Frühlingsangebot")
        #expect(german["imageAlt"] == "Ein Cello")
        #expect(german["image"] == "/images/work/1.svg")
        #expect(german["link"] == "screens/work/1")
        #expect(german["detail"] == "Until Sunday")
        #expect(german["id"] == "hero")
        // The colour is the layout's now: the provider's binding of it is dropped with it.
        #expect(german["tone"] == "accent")
        #expect(german["bind"] == nil)
        let french = try await compose(content: Self.valid, locale: "fr")
        #expect(french["headline"] == "Spring sale")
        #expect(french["imageAlt"] == "A cello")
    }

    @Test("without content the provider's bytes go out as they came, bindings and all")
    func untouched() async throws {
        let component = try await compose(content: [:], locale: "de")
        #expect(component["headline"] == "From the provider")
        #expect(component["bind"]?["tone"]?["entity"] == "t/1")
    }

    @Test("an app from before v4 that renders the kind gets the content written in too, without the binding it replaced")
    func olderAppRenderingTheKind() async throws {
        let old = try await compose(content: Self.valid, locale: "de", version: .v3, kinds: ["promo"])
        #expect(old["type"] == "promo")
        #expect(old["headline"] == "Frühlingsangebot")
        #expect(old["tone"] == "accent")
        #expect(old["bind"] == nil && old["id"] == nil, "older apps know no bindings or ids")
    }

    @Test("a client that does not render the kind reads the content through its fallback, in its locale")
    func fallback() async throws {
        let old = try await compose(content: Self.valid, locale: "de", version: .v3, kinds: [])
        #expect(old["type"] == "text")
        #expect(old["text"] == "Frühlingsangebot")
    }
}
