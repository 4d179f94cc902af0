import ScreenplayContract
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

    @Suite("The real schemas")
    struct RealSchemas {
        @Test("v1 → v2 adds the favorite button and the grid and breaks nothing")
        func v1ToV2() throws {
            let diff = try ContractDiffTests.diff(ContractDiffTests.schema(.v1), ContractDiffTests.schema(.v2))
            #expect(!diff.isBreaking)
            #expect(diff.breakingChanges.isEmpty)
            #expect(ContractDiffTests.codes(diff) == ["kindAdded component.favoriteButton", "kindAdded component.grid"])
            #expect(diff.changes.allSatisfy { $0.message.contains("introduced in v2") })
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
            #expect(!change.isBreaking)
            #expect(change.message.hasPrefix("type changed from string to integer in v3, handled by downgrade"))
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

    @Suite("Fields")
    struct Fields {
        @Test("removing a required field breaks")
        func requiredFieldRemoved() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            let broken = SchemaEdit.removingField(v3, definition: "component.listRow", name: "title")
            let diff = try ContractDiffTests.diff(v3, broken)
            let change = try #require(diff.changes.only)
            #expect(change.code == .requiredFieldRemoved)
            #expect(change.location == "component.listRow.title")
            #expect(change.isBreaking)
            #expect(diff.isBreaking)
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
            #expect(change.message.contains("`heading`"))
            #expect(change.isBreaking)
        }

        @Test("a new required field with a different schema is not a rename")
        func notARename() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            var changed = SchemaEdit.removingField(v3, definition: "component.listRow", name: "title")
            changed = SchemaEdit.setting(changed, at: ["$defs", "component.listRow", "properties", "rank"], to: ["type": "integer"])
            changed = SchemaEdit.appending(changed, at: ["$defs", "component.listRow", "required"], "rank")
            let diff = try ContractDiffTests.diff(v3, changed)
            #expect(
                ContractDiffTests.codes(diff) == [
                    "requiredFieldAdded component.listRow.rank", "requiredFieldRemoved component.listRow.title",
                ])
            #expect(diff.breakingChanges.map(\.location) == ["component.listRow.title"])
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
            let diff = try ContractDiffTests.diff(v3, changed)
            #expect(
                diff.changes.map { "\($0.code) \($0.location) \($0.isBreaking)" } == [
                    "fieldBecameRequired component.listRow.subtitle false", "fieldBecameOptional component.listRow.title true",
                ])
        }

        @Test("nested objects and array items are walked, with `[]` for an element")
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
            #expect(diff.changes.allSatisfy { $0.isBreaking })
        }
    }

    @Suite("Types")
    struct Types {
        @Test("a type change without x-field-changes breaks")
        func undeclared() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            let changed = SchemaEdit.setting(
                v3, at: ["$defs", "component.listRow", "properties", "recordingCount"], to: ["type": "string"])
            let diff = try ContractDiffTests.diff(v3, changed)
            let change = try #require(diff.changes.only)
            #expect(change.code == .fieldTypeChanged)
            #expect(change.location == "component.listRow.recordingCount")
            #expect(change.message == "type changed from integer to string")
            #expect(change.isBreaking)
        }

        @Test("a declared change outside the versions compared still breaks")
        func declaredOutsideWindow() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            // Same version on both sides: the v3 declaration cannot cover a change made within v3.
            let changed = SchemaEdit.setting(v3, at: ["$defs", "component.trackRow", "properties", "duration"], to: ["type": "number"])
            let diff = try ContractDiffTests.diff(v3, changed)
            let change = try #require(diff.changes.only)
            #expect(change.code == .fieldTypeChanged)
            #expect(change.isBreaking)
            #expect(change.message.contains("x-field-changes declares it in v3"))
        }

        @Test("a `$ref` compares as a type name, without expanding it")
        func references() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            let changed = SchemaEdit.setting(
                v3, at: ["$defs", "component.listRow", "properties", "action"], to: ["$ref": "#/$defs/CommandResult"])
            let diff = try ContractDiffTests.diff(v3, changed)
            #expect(diff.changes.map(\.message) == ["type changed from #/$defs/Action to #/$defs/CommandResult"])
        }

        @Test("an enum losing a value breaks")
        func enumNarrowed() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            let changed = SchemaEdit.filtering(v3, at: ["$defs", "component.button", "properties", "style", "enum"]) { $0 != "plain" }
            let diff = try ContractDiffTests.diff(v3, changed)
            let change = try #require(diff.changes.only)
            #expect(change.code == .enumNarrowed)
            #expect(change.location == "component.button.style")
            #expect(change.message == #"allowed values removed: "plain""#)
            #expect(change.isBreaking)
        }

        @Test("an enum gaining a value does not break")
        func enumWidened() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            let changed = SchemaEdit.appending(v3, at: ["$defs", "component.button", "properties", "style", "enum"], "destructive")
            let diff = try ContractDiffTests.diff(v3, changed)
            let change = try #require(diff.changes.only)
            #expect(change.code == .enumWidened)
            #expect(!change.isBreaking)
        }

        @Test("a stricter constraint breaks; an unknown keyword's change is breaking too")
        func constraints() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            let properties = ["$defs", "component.listRow", "properties"]
            var changed = SchemaEdit.setting(v3, at: properties + ["title", "maxLength"], to: 80)
            changed = SchemaEdit.setting(changed, at: properties + ["subtitle", "allOf"], to: [["minLength": 1]])
            let diff = try ContractDiffTests.diff(v3, changed)
            #expect(
                diff.changes.map { "\($0.code) \($0.location) \($0.isBreaking)" } == [
                    "keywordChanged component.listRow.subtitle true", "constraintTightened component.listRow.title true",
                ])
            let loosened = try ContractDiffTests.diff(changed, v3)
            #expect(loosened.changes.contains { $0.code == .constraintLoosened && !$0.isBreaking })
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

        @Test("a removed kind breaks, reported once at its definition")
        func removed() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            let diff = try ContractDiffTests.diff(v3, Self.removingKind("component.listRow", from: v3))
            let change = try #require(diff.changes.only)
            #expect(change.code == .kindRemoved)
            #expect(change.location == "component.listRow")
            #expect(change.isBreaking)
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
            let diff = try ContractDiffTests.diff(v3, deprecated)
            #expect(ContractDiffTests.codes(diff) == ["deprecated component.grid"])
            #expect(!diff.isBreaking)
        }

        @Test("a removed shared definition breaks")
        func definitionRemoved() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            let diff = try ContractDiffTests.diff(v3, SchemaEdit.setting(v3, at: ["$defs", "ErrorBody"], to: nil))
            #expect(ContractDiffTests.codes(diff) == ["definitionRemoved ErrorBody"])
            #expect(diff.isBreaking)
        }
    }

    @Suite("Reports")
    struct Reports {
        @Test("changes come sorted by location, then code, whatever order they were found in")
        func order() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            var changed = SchemaEdit.removingField(v3, definition: "component.text", name: "text")
            changed = SchemaEdit.removingField(changed, definition: "action.share", name: "url")
            changed = SchemaEdit.appending(changed, at: ["$defs", "component.button", "properties", "style", "enum"], "destructive")
            let diff = try ContractDiffTests.diff(v3, changed)
            let keys = diff.changes.map { [$0.location, $0.code.rawValue] }
            #expect(keys == keys.sorted { $0.lexicographicallyPrecedes($1) })
            #expect(diff.changes.count == 3)
            #expect(try ContractDiffTests.diff(v3, changed) == diff)
        }

        @Test("a document that is not a contract schema is refused, naming the side")
        func notASchema() throws {
            let v3 = try ContractDiffTests.schema(.v3)
            let error = #expect(throws: ContractDiff.DocumentError.self) { try ContractDiff(old: v3, new: ["id": "home"]) }
            #expect(error?.side == .new)
            #expect(error?.description == "the new schema is not a contract schema: it has no `$defs` object")
            let arrayError = #expect(throws: ContractDiff.DocumentError.self) { try ContractDiff(old: [1, 2], new: v3) }
            #expect(arrayError?.side == .old)
        }
    }
}

extension Collection {
    /// The sole element, or `nil` when there are none or several.
    fileprivate var only: Element? { count == 1 ? first : nil }
}
