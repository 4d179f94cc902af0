import Foundation
import ScreenplayContract
import ScreenplayContractTools
import Testing

@Suite("Generated contract artifacts")
struct ContractDocsTests {
    @Test("every component kind has a page that names its fields, versions and fallback")
    func pages() throws {
        let files = try ContractDocs.files()
        #expect(files.count == Component.catalog.count + 1)
        let grid = try #require(files["components/grid.md"])
        #expect(grid.contains("| introduced | v2 |"))
        #expect(grid.contains("| `columns` | integer, 1…6 | yes | v2 |"))
        #expect(grid.contains("What a v1 client receives instead"))
        let track = try #require(files["components/trackRow.md"])
        #expect(track.contains("text `m:ss` or `h:mm:ss` (v1–v2), integer, ≥ 0 (v3"))
        let button = try #require(files["components/button.md"])
        #expect(button.contains("open enum: `primary`, `secondary`, `plain`; unknown values show as `secondary`"))
        #expect(track.contains("| `title` | string | yes | v1 |"))
    }

    @Test("an app-defined kind gets a page under widgets/ and a row in the index; the built-in pages do not change")
    func appDefinedPages() throws {
        let kind = AppDefinedKind(
            type: "productCard", summary: "A product.", versioning: KindVersioning(introduced: .v2, fallback: "a list row"),
            fields: [
                .required("title", .string, summary: "The name."), .required("discount", .boolean, introduced: .v4),
                WidgetField.optional("badge", .string).deprecated("use 'tags'"),
            ], linkPolicy: .endpoint)
        let plain = try ContractDocs.files()
        let files = try ContractDocs.files(appKinds: [kind])
        #expect(files.count == plain.count + 1)
        for (path, text) in plain where path != "README.md" { #expect(files[path] == text, "\(path)") }
        let page = try #require(files["widgets/productCard.md"])
        #expect(page.contains("| sent to | apps that list `productCard` in `Screenplay-Components` |"))
        #expect(page.contains("| `title` | string | yes | v2 | The name. |"))
        #expect(page.contains("| `discount` | boolean | yes | v4 |  |"))
        #expect(page.contains("| `badge` | string | no | v2 | Deprecated: use 'tags' |"))
        #expect(files["README.md"]?.contains("| [`productCard`](widgets/productCard.md) | v2 | – | a list row | A product. |") == true)
    }

    @Test("each kind's example round-trips at the latest version")
    func examples() throws {
        for payload in Component.catalog {
            let component = payload.example.component
            let bytes = try ScreenplayEncoder().encode(component)
            let decoded = try ScreenplayDecoder(mode: .strict).decode(Component.self, from: bytes)
            #expect(decoded.value == component, "\(payload.kind)")
        }
    }

    @Test("the schema marks required and optional fields, enums and versions")
    func schemaShape() throws {
        let v1 = try ContractSchema.document(for: .v1)
        let v3 = try ContractSchema.document(for: .v3)
        let definitions = try #require(v1["$defs"]?.objectValue)
        #expect(definitions["component.grid"] == nil)
        #expect(v3["$defs"]?["component.grid"]?["x-introduced"] == .integer(2))
        let carousel = try #require(definitions["component.carousel"])
        #expect(carousel["required"] == ["type", "itemStyle", "items"])
        #expect(carousel["properties"]?["itemStyle"]?["x-known-values"] == ["portrait", "square", "wide"])
        #expect(carousel["properties"]?["itemStyle"]?["x-open-enum"] == true)
        #expect(carousel["properties"]?["itemStyle"]?["default"] == "square")
        #expect(carousel["properties"]?["itemStyle"]?["enum"] == nil)
        #expect(definitions["component.grid"] == nil)
        #expect(v3["$defs"]?["component.grid"]?["properties"]?["columns"] == ["type": "integer", "minimum": 1, "maximum": 6])
        #expect(v3["$defs"]?["action.share"]?["properties"]?["url"]?["x-link-schemes"] == ["http", "https", "mailto", "tel"])
        #expect(v3["$defs"]?["request.command"]?["x-direction"] == "request")
        #expect(v3["$defs"]?["Screen"]?["x-direction"] == "response")
        #expect(
            v3["$defs"]?["component.text"]?["additionalProperties"] == nil, "decoders ignore unknown members, so the schema must allow them"
        )
        #expect(definitions["component.trackRow"]?["properties"]?["duration"]?["type"] == ["string", "null"])
        #expect(v3["$defs"]?["component.trackRow"]?["properties"]?["duration"]?["type"] == ["integer", "null"])
        #expect(definitions["Screen"]?["required"] == ["id", "title", "sections"])
        #expect(try ContractSchema.text(for: .v2) == ContractSchema.text(for: .v2))
    }
}
