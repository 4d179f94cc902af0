import ScreenplayContract
import ScreenplayContractTools
import Testing

/// Edits to a schema document for building deliberately changed copies of the real schemas.
enum SchemaEdit {
    /// `document` with the value at `path` (object keys) replaced by `transform`'s result;
    /// returning `nil` removes the member.
    static func editing(_ document: JSONValue, at path: [String], _ transform: (JSONValue?) -> JSONValue?) -> JSONValue {
        guard var object = document.objectValue, let key = path.first else { return document }
        if path.count == 1 {
            object[key] = transform(object[key])
        } else {
            object[key] = editing(object[key] ?? [:], at: Array(path.dropFirst()), transform)
        }
        return .object(object)
    }

    /// `document` with `value` set at `path`.
    static func setting(_ document: JSONValue, at path: [String], to value: JSONValue?) -> JSONValue {
        editing(document, at: path) { _ in value }
    }

    /// `document` with the strings in the array at `path` filtered.
    static func filtering(_ document: JSONValue, at path: [String], keep: @escaping (String) -> Bool) -> JSONValue {
        editing(document, at: path) { value in
            guard case .array(let items)? = value else { return value }
            return .array(items.filter { $0.stringValue.map(keep) ?? true })
        }
    }

    /// `document` with `name` appended to the array at `path`.
    static func appending(_ document: JSONValue, at path: [String], _ name: JSONValue) -> JSONValue {
        editing(document, at: path) { value in
            guard case .array(let items)? = value else { return value }
            return .array(items + [name])
        }
    }

    /// Removes the field `name` of definition `definition` (its property and its `required` entry).
    static func removingField(_ document: JSONValue, definition: String, name: String) -> JSONValue {
        let document = setting(document, at: ["$defs", definition, "properties", name], to: nil)
        return filtering(document, at: ["$defs", definition, "required"]) { $0 != name }
    }
}

@Suite("Contract diff")
struct ContractDiffTests {
    static func schema(_ version: APIVersion) throws -> JSONValue { try ContractSchema.document(for: version) }

    static func diff(_ old: JSONValue, _ new: JSONValue) throws -> ContractDiff { try ContractDiff(old: old, new: new) }

    static func codes(_ diff: ContractDiff) -> [String] { diff.changes.map { "\($0.code) \($0.location)" } }

    static func verdicts(_ diff: ContractDiff) -> [String] { diff.changes.map { "\($0.code) \($0.location) \($0.isBreaking)" } }

    @Suite("The real schemas")
    struct RealSchemas {
        @Test("v1 → v2 adds the favorite button and the grid, downgraded for v1, and breaks nothing")
        func v1ToV2() throws {
            let diff = try ContractDiffTests.diff(ContractDiffTests.schema(.v1), ContractDiffTests.schema(.v2))
            #expect(!diff.isBreaking)
            #expect(ContractDiffTests.codes(diff) == ["kindAdded component.favoriteButton", "kindAdded component.grid"])
            #expect(diff.changes.allSatisfy { $0.newRule == "component kind introduced in v2" && $0.reason.contains("downgrades it") })
            #expect(diff.changes.allSatisfy { $0.direction == .response })
            #expect(diff.oldAPIVersion == .v1 && diff.newAPIVersion == .v2)
            #expect(diff.summary == "0 breaking changes, 2 non-breaking changes")
        }

        @Test("v2 → v3 changes the track duration's type, handled by downgrade")
        func v2ToV3() throws {
            let diff = try ContractDiffTests.diff(ContractDiffTests.schema(.v2), ContractDiffTests.schema(.v3))
            #expect(!diff.isBreaking)
            let change = try #require(diff.changes.only)
            #expect(change.code == .fieldTypeChangedWithDowngrade)
            #expect(change.location == "component.trackRow.duration")
            #expect(change.schemaPath == "#/$defs/component.trackRow/properties/duration")
            #expect(change.oldRule == "null or string" && change.newRule == "integer or null")
            #expect(change.reason.hasPrefix("changed in v3; the server writes the old shape for older clients"))
        }

        @Test("no older → newer pair of supported versions breaks", arguments: [(APIVersion.v1, APIVersion.v3), (.v1, .v2), (.v2, .v3)])
        func forwardNeverBreaks(old: APIVersion, new: APIVersion) throws {
            #expect(try !ContractDiffTests.diff(ContractDiffTests.schema(old), ContractDiffTests.schema(new)).isBreaking)
        }

        @Test("going back from v3 to v2 is a breaking type change: v2 declares no downgrade")
        func backwards() throws {
            let diff = try ContractDiffTests.diff(ContractDiffTests.schema(.v3), ContractDiffTests.schema(.v2))
            #expect(ContractDiffTests.codes(diff) == ["fieldTypeChanged component.trackRow.duration"])
            #expect(diff.isBreaking)
        }

        @Test("identical schemas give no changes", arguments: [APIVersion.v1, .v2, .v3])
        func identical(version: APIVersion) throws {
            let diff = try ContractDiffTests.diff(ContractDiffTests.schema(version), ContractDiffTests.schema(version))
            #expect(diff.changes.isEmpty)
            #expect(diff.summary == "no changes")
        }
    }

    @Suite("App-defined kinds")
    struct AppDefinedKinds {
        static let card = AppDefinedKind(
            type: "productCard", summary: "A product.", versioning: KindVersioning(introduced: .v2, fallback: "a list row"),
            fields: [.required("title", .string), .optional("image", .url)], linkPolicy: .endpoint)

        @Test("adding an app-defined kind breaks nobody, even at a released version: only apps that ask receive it")
        func addedKind() throws {
            let diff = try ContractDiffTests.diff(ContractDiffTests.schema(.v3), ContractSchema.document(for: .v3, appKinds: [Self.card]))
            #expect(ContractDiffTests.verdicts(diff) == ["kindAdded component.productCard false"])
            #expect(diff.changes.first?.reason.contains("Screenplay-Components") == true)
            // The same kind without the annotation is what a built-in kind added to a released
            // version looks like: old apps would set it aside, so that breaks.
            let unannotated = SchemaEdit.setting(
                try ContractSchema.document(for: .v3, appKinds: [Self.card]),
                at: ["$defs", "component.productCard", "x-requested-by-header"],
                to: nil)
            #expect(try ContractDiffTests.diff(ContractDiffTests.schema(.v3), unannotated).isBreaking)
        }

        @Test("an app-defined kind's fields are judged like any kind's: a new required field is safe, a removed one breaks")
        func changedFields() throws {
            let released = try ContractSchema.document(for: .v3, appKinds: [Self.card])
            let withSKU = AppDefinedKind(
                type: "productCard", summary: "A product.", versioning: Self.card.versioning,
                fields: Self.card.fields + [.required("sku", .string)], linkPolicy: .endpoint)
            let grown = try ContractDiffTests.diff(released, ContractSchema.document(for: .v3, appKinds: [withSKU]))
            #expect(!grown.isBreaking, "\(grown.changes)")
            let shrunk = try ContractDiffTests.diff(
                ContractSchema.document(for: .v3, appKinds: [withSKU]), ContractSchema.document(for: .v3, appKinds: [Self.card]))
            #expect(ContractDiffTests.verdicts(shrunk) == ["requiredFieldRemoved component.productCard.sku true"])
        }

        @Test(
            "a kind's fields introduced after a version are absent from that version's schema; an app-defined kind cannot take a built-in name"
        )
        func versionsAndClashes() throws {
            let late = AppDefinedKind(
                type: "productCard", summary: "", versioning: Self.card.versioning,
                fields: Self.card.fields + [.required("discount", .boolean, introduced: .v4)], linkPolicy: .endpoint)
            #expect(
                try ContractSchema.document(for: .v3, appKinds: [late])["$defs"]?["component.productCard"]?["properties"]?["discount"]
                    == nil)
            #expect(
                try ContractSchema.document(for: .v4, appKinds: [late])["$defs"]?["component.productCard"]?["required"]
                    == ["type", "title", "discount"])
            #expect(try ContractSchema.document(for: .v1, appKinds: [late])["$defs"]?["component.productCard"] == nil)
            let clash = AppDefinedKind(type: "grid", summary: "", versioning: .original, fields: [], linkPolicy: .endpoint)
            #expect(throws: ContractSchema.AppKindClash.self) { try ContractSchema.document(for: .v2, appKinds: [clash]) }
            #expect(throws: ContractSchema.AppKindClash.self) { try ContractSchema.document(for: .v2, appKinds: [Self.card, Self.card]) }
        }
    }

    @Suite("Fields of responses")
    struct Fields {
        @Test("removing a required field breaks")
        func requiredFieldRemoved() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            let broken = SchemaEdit.removingField(v3, definition: "component.listRow", name: "title")
            let diff = try ContractDiffTests.diff(v3, broken)
            let change = try #require(diff.changes.only)
            #expect(change.code == .requiredFieldRemoved)
            #expect(change.location == "component.listRow.title")
            #expect(change.oldRule == "required" && change.newRule == nil)
            #expect(change.isBreaking)
            #expect(diff.breakingChanges == [change])
        }

        @Test("a required field replaced by one with the same schema is a rename, and breaks")
        func renamed() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            var renamed = SchemaEdit.removingField(v3, definition: "component.listRow", name: "title")
            renamed = SchemaEdit.setting(renamed, at: ["$defs", "component.listRow", "properties", "heading"], to: ["type": "string"])
            renamed = SchemaEdit.appending(renamed, at: ["$defs", "component.listRow", "required"], "heading")
            let diff = try ContractDiffTests.diff(v3, renamed)
            let change = try #require(diff.changes.only)
            #expect(change.code == .fieldRenamed)
            #expect(change.location == "component.listRow.title")
            #expect(change.newRule == "required `heading`")
            #expect(change.isBreaking)
        }

        @Test("optional fields come and go, and required fields arrive, without breaking")
        func additiveChanges() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            var changed = SchemaEdit.removingField(v3, definition: "component.listRow", name: "subtitle")
            changed = SchemaEdit.setting(changed, at: ["$defs", "component.listRow", "properties", "badge"], to: ["type": "string"])
            changed = SchemaEdit.setting(changed, at: ["$defs", "component.listRow", "properties", "rank"], to: ["type": "integer"])
            changed = SchemaEdit.appending(changed, at: ["$defs", "component.listRow", "required"], "rank")
            let diff = try ContractDiffTests.diff(v3, changed)
            #expect(
                ContractDiffTests.codes(diff) == [
                    "optionalFieldAdded component.listRow.badge", "requiredFieldAdded component.listRow.rank",
                    "optionalFieldRemoved component.listRow.subtitle",
                ])
            #expect(!diff.isBreaking)
        }

        @Test("a required field made optional breaks; an optional one made required does not")
        func requiredness() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            var changed = SchemaEdit.filtering(v3, at: ["$defs", "component.listRow", "required"]) { $0 != "title" }
            changed = SchemaEdit.appending(changed, at: ["$defs", "component.listRow", "required"], "subtitle")
            #expect(
                ContractDiffTests.verdicts(try ContractDiffTests.diff(v3, changed)) == [
                    "fieldBecameRequired component.listRow.subtitle false", "fieldBecameOptional component.listRow.title true",
                ])
        }

        @Test("a new field old apps must understand breaks, unless a downgrade is declared for the versions compared")
        func mustUnderstand() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            let secure: JSONValue = ["type": "boolean", "x-must-understand": true]
            let changed = SchemaEdit.setting(v3, at: ["$defs", "component.text", "properties", "secure"], to: secure)
            let diff = try ContractDiffTests.diff(v3, changed)
            #expect(ContractDiffTests.verdicts(diff) == ["mustUnderstandFieldAdded component.text.secure true"])

            var v4 = SchemaEdit.setting(changed, at: ["x-api-version"], to: 4)
            v4 = SchemaEdit.setting(
                v4, at: ["$defs", "component.text", "x-field-changes"],
                to: [["field": "secure", "version": 4, "summary": "older clients get the text masked by the server"]])
            #expect(
                ContractDiffTests.verdicts(try ContractDiffTests.diff(v3, v4)) == ["mustUnderstandFieldAdded component.text.secure false"])
            let plain = SchemaEdit.setting(v3, at: ["$defs", "component.text", "properties", "secure"], to: ["type": "boolean"])
            #expect(ContractDiffTests.verdicts(try ContractDiffTests.diff(v3, plain)) == ["optionalFieldAdded component.text.secure false"])
        }

        @Test("nested objects and array items are walked, with `[]` for an element and a JSON pointer for tools")
        func nested() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            let sectionItems = ["$defs", "Screen", "properties", "sections", "items"]
            var changed = SchemaEdit.setting(v3, at: sectionItems + ["properties", "id"], to: nil)
            changed = SchemaEdit.filtering(changed, at: sectionItems + ["required"]) { $0 != "id" }
            changed = SchemaEdit.setting(
                changed, at: ["$defs", "component.grid", "properties", "cards", "items", "properties", "image", "properties", "alt"],
                to: ["type": "integer"])
            let diff = try ContractDiffTests.diff(v3, changed)
            #expect(
                ContractDiffTests.codes(diff) == [
                    "requiredFieldRemoved Screen.sections[].id", "fieldTypeChanged component.grid.cards[].image.alt",
                ])
            #expect(
                diff.changes.map(\.schemaPath) == [
                    "#/$defs/Screen/properties/sections/items/properties/id",
                    "#/$defs/component.grid/properties/cards/items/properties/image/properties/alt",
                ])
            #expect(diff.changes.allSatisfy { $0.isBreaking })
        }
    }

    @Suite("Values of responses")
    struct Values {
        @Test("a type change without x-field-changes breaks")
        func undeclared() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            let changed = SchemaEdit.setting(
                v3, at: ["$defs", "component.listRow", "properties", "recordingCount"], to: ["type": "string"])
            let change = try #require(try ContractDiffTests.diff(v3, changed).changes.only)
            #expect(change.code == .fieldTypeChanged)
            #expect(change.oldRule == "integer or null" && change.newRule == "string")
            #expect(change.isBreaking)
        }

        @Test("a declared change outside the versions compared still breaks")
        func declaredOutsideWindow() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            // Same version on both sides: the v3 declaration cannot cover a change made within v3.
            let changed = SchemaEdit.setting(v3, at: ["$defs", "component.trackRow", "properties", "duration"], to: ["type": "string"])
            let change = try #require(try ContractDiffTests.diff(v3, changed).changes.only)
            #expect(change.code == .fieldTypeChanged)
            #expect(change.isBreaking)
            #expect(change.reason.contains("x-field-changes declares it in v3"))
        }

        @Test("a `$ref` compares as a type name, without expanding it")
        func references() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            let changed = SchemaEdit.setting(
                v3, at: ["$defs", "component.button", "properties", "action"], to: ["$ref": "#/$defs/CommandResult"])
            let change = try #require(try ContractDiffTests.diff(v3, changed).changes.only)
            #expect(change.oldRule == "#/$defs/Action" && change.newRule == "#/$defs/CommandResult")
        }

        @Test("a closed enum gaining a value breaks old readers; losing one does not")
        func closedEnum() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            let closed = SchemaEdit.setting(
                v3, at: ["$defs", "component.listRow", "properties", "badge"], to: ["type": "string", "enum": ["new", "live"]])
            let widened = SchemaEdit.appending(closed, at: ["$defs", "component.listRow", "properties", "badge", "enum"], "sale")
            let change = try #require(try ContractDiffTests.diff(closed, widened).changes.only)
            #expect(change.code == .enumWidened && change.isBreaking)
            #expect(change.reason.hasPrefix(#""sale" added to a closed enum; widened"#))
            #expect(
                ContractDiffTests.verdicts(try ContractDiffTests.diff(widened, closed)) == ["enumNarrowed component.listRow.badge false"])
        }

        @Test("an open enum gains and loses values without breaking: readers show unknown values as the default")
        func openEnum() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            let style = ["$defs", "component.button", "properties", "style"]
            #expect(v3[style]?["x-open-enum"] == true)
            #expect(v3[style]?["default"] == "secondary")
            let widened = SchemaEdit.appending(v3, at: style + ["x-known-values"], "destructive")
            let change = try #require(try ContractDiffTests.diff(v3, widened).changes.only)
            #expect(change.code == .enumWidened && !change.isBreaking)
            #expect(change.reason.contains(#"show it as "secondary""#))
            let narrowed = SchemaEdit.filtering(v3, at: style + ["x-known-values"]) { $0 != "plain" }
            #expect(ContractDiffTests.verdicts(try ContractDiffTests.diff(v3, narrowed)) == ["enumNarrowed component.button.style false"])
        }

        @Test("widening a range or a length breaks old readers; narrowing does not")
        func bounds() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            let columns = ["$defs", "component.grid", "properties", "columns", "maximum"]
            #expect(v3[Array(columns.dropLast())]?["minimum"] == 1 && v3[columns] == 6)
            let widened = SchemaEdit.setting(v3, at: columns, to: 8)
            let change = try #require(try ContractDiffTests.diff(v3, widened).changes.only)
            #expect(change.code == .constraintLoosened && change.isBreaking)
            #expect(change.oldRule == "maximum 6" && change.newRule == "maximum 8")
            #expect(change.schemaPath == "#/$defs/component.grid/properties/columns/maximum")
            #expect(
                ContractDiffTests.verdicts(try ContractDiffTests.diff(widened, v3)) == ["constraintTightened component.grid.columns false"])
            let title = ["$defs", "component.listRow", "properties", "title", "maxLength"]
            let limited = SchemaEdit.setting(v3, at: title, to: 80)
            #expect(
                ContractDiffTests.verdicts(try ContractDiffTests.diff(v3, limited)) == ["constraintTightened component.listRow.title false"]
            )
            #expect(
                ContractDiffTests.verdicts(try ContractDiffTests.diff(limited, v3)) == ["constraintLoosened component.listRow.title true"])
        }

        @Test("a pattern removed breaks old readers, one added does not, and a changed one cannot be ranked")
        func patterns() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            let url = ["$defs", "action.openURL", "properties", "url", "pattern"]
            let removed = SchemaEdit.setting(v3, at: url, to: nil)
            #expect(ContractDiffTests.verdicts(try ContractDiffTests.diff(v3, removed)) == ["constraintLoosened action.openURL.url true"])
            #expect(ContractDiffTests.verdicts(try ContractDiffTests.diff(removed, v3)) == ["constraintTightened action.openURL.url false"])
            let changed = SchemaEdit.setting(v3, at: url, to: "^https:")
            #expect(ContractDiffTests.verdicts(try ContractDiffTests.diff(v3, changed)) == ["constraintChanged action.openURL.url true"])
        }
    }

    @Suite("Findings from review")
    struct ReviewFindings {
        static func document(_ definition: JSONValue, direction: String = "response") -> JSONValue {
            var definition = definition.objectValue ?? [:]
            definition["x-direction"] = .string(direction)
            return ["x-api-version": 3, "$defs": ["D": .object(definition)]]
        }

        @Test("types that contain one another are a widening or a narrowing, judged by direction")
        func rankedTypes() throws {
            let integer = Self.document(["type": "integer"])
            let number = Self.document(["type": "number"])
            #expect(ContractDiffTests.verdicts(try ContractDiffTests.diff(number, integer)) == ["constraintTightened D false"])
            #expect(ContractDiffTests.verdicts(try ContractDiffTests.diff(integer, number)) == ["constraintLoosened D true"])
            let request = Self.document(["type": "string"], direction: "request")
            let nullable = Self.document(["type": ["string", "null"]], direction: "request")
            #expect(ContractDiffTests.verdicts(try ContractDiffTests.diff(request, nullable)) == ["constraintLoosened D false"])
            #expect(ContractDiffTests.verdicts(try ContractDiffTests.diff(nullable, request)) == ["constraintTightened D true"])
        }

        @Test("large integer bounds compare exactly, not as Doubles")
        func exactBounds() throws {
            let old = Self.document(["type": "integer", "maximum": .integer(9_007_199_254_740_992)])
            let new = Self.document(["type": "integer", "maximum": .integer(9_007_199_254_740_993)])
            #expect(ContractDiffTests.verdicts(try ContractDiffTests.diff(old, new)) == ["constraintLoosened D true"])
        }

        @Test("a required name with no property schema still counts, in both directions")
        func requiredWithoutProperty() throws {
            let open = Self.document(["type": "object"], direction: "request")
            let token = Self.document(["type": "object", "required": ["token"]], direction: "request")
            #expect(ContractDiffTests.verdicts(try ContractDiffTests.diff(open, token)) == ["fieldBecameRequired D.token true"])
            let responseOld = Self.document(["type": "object", "required": ["token"]])
            let responseNew = Self.document(["type": "object"])
            #expect(
                ContractDiffTests.verdicts(try ContractDiffTests.diff(responseOld, responseNew)) == ["fieldBecameOptional D.token true"])
        }

        @Test("a minimum length of zero says nothing: dropping it is no change")
        func zeroMinimum() throws {
            let old = Self.document(["type": "string", "minLength": 0])
            #expect(try ContractDiffTests.diff(old, Self.document(["type": "string"])).changes.isEmpty)
        }
    }

    @Suite("Requests")
    struct Requests {
        /// A contract with one request definition: a command body with a bounded name.
        static func document(_ name: JSONValue, required: [JSONValue] = ["name"], extra: [String: JSONValue] = [:]) -> JSONValue {
            var properties: [String: JSONValue] = ["name": name]
            properties.merge(extra) { $1 }
            return [
                "x-api-version": 3, "$ref": "#/$defs/request.createPlaylist",
                "$defs": [
                    "request.createPlaylist": [
                        "type": "object", "x-direction": "request", "properties": .object(properties), "required": .array(required),
                    ]
                ],
            ]
        }

        @Test("narrowing what the server reads breaks old apps that send it; widening does not")
        func narrowing() throws {
            let old = Self.document(["type": "string", "maxLength": 100])
            let tighter = Self.document(["type": "string", "maxLength": 50])
            let change = try #require(try ContractDiffTests.diff(old, tighter).changes.only)
            #expect(change.direction == .request && change.code == .constraintTightened && change.isBreaking)
            #expect(change.reason.hasPrefix("narrowed: the server now rejects values old apps may still send"))
            #expect(
                ContractDiffTests.verdicts(try ContractDiffTests.diff(tighter, old)) == [
                    "constraintLoosened request.createPlaylist.name false"
                ])
        }

        @Test("a closed enum losing a value and a new required field break requests; the opposite does not")
        func enumsAndFields() throws {
            let old = Self.document(["type": "string", "enum": ["a", "b"]])
            let fewer = Self.document(["type": "string", "enum": ["a"]])
            #expect(ContractDiffTests.verdicts(try ContractDiffTests.diff(old, fewer)) == ["enumNarrowed request.createPlaylist.name true"])
            #expect(ContractDiffTests.verdicts(try ContractDiffTests.diff(fewer, old)) == ["enumWidened request.createPlaylist.name false"])
            let withColor = Self.document(
                ["type": "string", "enum": ["a", "b"]], required: ["name", "color"], extra: ["color": ["type": "string"]])
            #expect(
                ContractDiffTests.verdicts(try ContractDiffTests.diff(old, withColor)) == [
                    "requiredFieldAdded request.createPlaylist.color true"
                ])
            #expect(
                ContractDiffTests.verdicts(try ContractDiffTests.diff(withColor, old)) == [
                    "requiredFieldRemoved request.createPlaylist.color false"
                ])
        }

        @Test("a definition that changes direction breaks")
        func direction() throws {
            let old = Self.document(["type": "string"])
            let flipped = SchemaEdit.setting(old, at: ["$defs", "request.createPlaylist", "x-direction"], to: "response")
            #expect(
                ContractDiffTests.verdicts(try ContractDiffTests.diff(old, flipped)) == ["directionChanged request.createPlaylist true"])
        }
    }

    @Suite("Kinds")
    struct Kinds {
        static func removingKind(_ name: String, from document: JSONValue) -> JSONValue {
            let document = SchemaEdit.setting(document, at: ["$defs", name], to: nil)
            return SchemaEdit.editing(document, at: ["$defs", "Component", "oneOf"]) { value in
                guard case .array(let refs)? = value else { return value }
                return .array(refs.filter { $0["$ref"]?.stringValue != "#/$defs/" + name })
            }
        }

        static func addingKind(_ name: String, introduced: Int, downgrades: Bool, to document: JSONValue) -> JSONValue {
            let definition: JSONValue = [
                "type": "object", "properties": ["type": ["const": .string(name)]], "required": ["type"],
                "x-introduced": .integer(introduced), "x-server-downgrades": .bool(downgrades), "x-fallback": "dropped",
                "x-direction": "response",
            ]
            let document = SchemaEdit.setting(document, at: ["$defs", "component." + name], to: definition)
            return SchemaEdit.appending(document, at: ["$defs", "Component", "oneOf"], ["$ref": .string("#/$defs/component." + name)])
        }

        @Test("a removed kind breaks, reported once at its definition")
        func removed() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            let change = try #require(try ContractDiffTests.diff(v3, Self.removingKind("component.listRow", from: v3)).changes.only)
            #expect(change.code == .kindRemoved && change.location == "component.listRow" && change.isBreaking)
        }

        @Test("a kind added within a released version breaks; one introduced later and downgraded does not")
        func added() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            #expect(
                ContractDiffTests.verdicts(
                    try ContractDiffTests.diff(v3, Self.addingKind("badge", introduced: 3, downgrades: true, to: v3))) == [
                        "kindAdded component.badge true"
                    ])
            let v4 = SchemaEdit.setting(Self.addingKind("badge", introduced: 4, downgrades: true, to: v3), at: ["x-api-version"], to: 4)
            #expect(ContractDiffTests.verdicts(try ContractDiffTests.diff(v3, v4)) == ["kindAdded component.badge false"])
            let undowngraded = SchemaEdit.setting(
                Self.addingKind("badge", introduced: 4, downgrades: false, to: v3), at: ["x-api-version"], to: 4)
            #expect(ContractDiffTests.verdicts(try ContractDiffTests.diff(v3, undowngraded)) == ["kindAdded component.badge true"])
        }

        @Test("a kind deprecated by the new version and with a fallback can be removed without breaking")
        func deprecatedThenRemoved() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            let deprecated = SchemaEdit.setting(v3, at: ["$defs", "component.grid", "x-deprecated"], to: 3)
            let diff = try ContractDiffTests.diff(deprecated, Self.removingKind("component.grid", from: deprecated))
            #expect(ContractDiffTests.codes(diff) == ["deprecatedKindRemoved component.grid"])
            #expect(!diff.isBreaking)
        }

        @Test("a newly deprecated kind does not break")
        func newlyDeprecated() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            let deprecated = SchemaEdit.setting(v3, at: ["$defs", "component.grid", "x-deprecated"], to: 3)
            #expect(ContractDiffTests.verdicts(try ContractDiffTests.diff(v3, deprecated)) == ["deprecated component.grid false"])
        }

        @Test("a removed shared definition breaks")
        func definitionRemoved() throws {
            var v3 = try ContractDiffTests.schema(.v3)
            v3 = SchemaEdit.setting(v3, at: ["$defs", "ErrorBody"], to: nil)
            let diff = try ContractDiffTests.diff(try ContractDiffTests.schema(.v3), v3)
            #expect(ContractDiffTests.verdicts(diff) == ["definitionRemoved ErrorBody true"])
        }
    }

    @Suite("Reports and bad documents")
    struct Reports {
        @Test("changes come sorted by location, then code, whatever order they were found in; the JSON report carries every field")
        func order() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            var changed = SchemaEdit.removingField(v3, definition: "component.text", name: "text")
            changed = SchemaEdit.removingField(changed, definition: "action.share", name: "url")
            changed = SchemaEdit.appending(
                changed, at: ["$defs", "component.button", "properties", "style", "x-known-values"], "destructive")
            let diff = try ContractDiffTests.diff(v3, changed)
            let keys = diff.changes.map { [$0.location, $0.code.rawValue] }
            #expect(keys == keys.sorted { $0.lexicographicallyPrecedes($1) })
            #expect(diff.changes.count == 3)
            #expect(try ContractDiffTests.diff(v3, changed) == diff)
            let report = diff.jsonReport
            #expect(report["breaking"] == true)
            let first = try #require(report["changes"]?.arrayValue?.first)
            #expect(
                Set(first.objectValue?.keys.map { $0 } ?? []) == [
                    "code", "direction", "location", "schemaPath", "old", "new", "reason", "breaking",
                ])
        }

        static let badDocumentCases: [(JSONValue, String, String)] = [
            (JSONValue.array([1, 2]), "#", "the top level is an array, not an object"),
            (["id": "home"], "#", "it has no `$defs` object"),
            (["$defs": ["A": ["type": "string", "allOf": [["minLength": 1]]]]], "#/$defs/A/allOf", "keyword `allOf` is not one"),
            (["$defs": ["A": ["$ref": "#/$defs/B"]]], "#/$defs/A/$ref", "names no definition"),
            (["$defs": ["A": ["type": "strin"]]], "#/$defs/A/type", "expected a JSON type name"),
            (["$defs": ["A": ["properties": ["b": ["maximum": "six"]]]]], "#/$defs/A/properties/b/maximum", "expected a number"),
            (["$defs": ["a/b": ["x-direction": "sideways"]]], "#/$defs/a~1b/x-direction", "expected \"response\" or \"request\""),
            (["x-api-version": "3", "$defs": [:]], "#/x-api-version", "expected an API version number"),
        ]

        @Test(
            "a document that is not a contract schema this tool understands is refused, naming the side and the JSON pointer",
            arguments: badDocumentCases)
        func badDocuments(document: JSONValue, path: String, reason: String) throws {
            let v3 = try ContractDiffTests.schema(.v3)
            let error = #expect(throws: ContractDiff.DocumentError.self) { try ContractDiff(old: v3, new: document) }
            #expect(error?.side == .new)
            #expect(error?.path == path)
            #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
            let old = #expect(throws: ContractDiff.DocumentError.self) { try ContractDiff(old: document, new: v3) }
            #expect(old?.side == .old)
        }
    }
}

extension JSONValue {
    /// The value at a path of object keys.
    subscript(path: [String]) -> JSONValue? {
        path.reduce(Optional(self)) { value, key in value?[key] }
    }
}

extension Collection {
    /// The sole element, or `nil` when there are none or several.
    var only: Element? { count == 1 ? first : nil }
}
