import Foundation
import ScreenplayContract
import ScreenplayContractTools
import Testing

/// The detector's verdict against what really happens to an app built against the old contract.
///
/// Each row changes the released v3 schema the way a contract change would, and names what the
/// new server then sends a v3 client (after its downgrade, when the change declares one). The
/// real v3 decoder of this repository decodes that payload. The change is breaking exactly when
/// that decoder drops or rejects something: a failed decode, an element set aside or skipped,
/// fewer components than the server meant to show, or a field marked `x-must-understand` that
/// the decoder silently ignored. `contract-diff` must say "breaking" for exactly those rows; a
/// mismatch either way fails.
@Suite("Ground truth: contract-diff against the real decoders")
struct GroundTruthTests {
    /// What the new server sends a client of the old version.
    enum Sent: Sendable {
        /// Components of one screen; `intended` is how many the server meant the client to show.
        case components([JSONValue], intended: Int? = nil)
        /// A command result.
        case result(JSONValue)
    }

    struct Mutation: Sendable, CustomTestStringConvertible {
        let name: String
        let change: @Sendable (JSONValue) -> (old: JSONValue, new: JSONValue)
        let sent: Sent
        /// A member of a sent component that a reader must understand to render it correctly.
        var mustUnderstand: String? = nil

        var testDescription: String { name }
    }

    static func unchangedOld(
        _ edit: @escaping @Sendable (JSONValue) -> JSONValue
    ) -> @Sendable (JSONValue) -> (old: JSONValue, new: JSONValue) {
        { old in (old, edit(old)) }
    }

    static func asVersion4(_ document: JSONValue) -> JSONValue { SchemaEdit.setting(document, at: ["x-api-version"], to: 4) }

    static func addingDefinition(
        _ document: JSONValue, name: String, union: String, introduced: Int, downgrades: Bool, properties: JSONValue = [:]
    ) -> JSONValue {
        var props = properties.objectValue ?? [:]
        props["type"] = ["const": .string(String(name.split(separator: ".").last!))]
        let definition: JSONValue = [
            "type": "object", "properties": .object(props), "required": ["type"], "x-direction": "response",
            "x-introduced": .integer(introduced), "x-server-downgrades": .bool(downgrades), "x-fallback": "a text with the same words",
        ]
        let added = SchemaEdit.setting(document, at: ["$defs", name], to: definition)
        return SchemaEdit.appending(added, at: ["$defs", union, "oneOf"], ["$ref": .string("#/$defs/" + name)])
    }

    static let button: JSONValue = ["type": "button", "title": "Open", "action": ["type": "openURL", "url": "https://example.com"]]
    static func openURL(_ url: String) -> JSONValue {
        ["type": "button", "title": "Open", "action": ["type": "openURL", "url": .string(url)]]
    }
    static let listRow: JSONValue = ["type": "listRow", "title": "Symphony No. 40", "subtitle": "K. 550"]
    static let grid: JSONValue = [
        "type": "grid", "columns": 3,
        "cards": [["title": "Late Night Piano", "action": ["type": "navigate", "url": "screens/playlist/2"]]],
    ]

    static let mutations: [Mutation] = [
        // Enums.
        Mutation(
            name: "open enum value added: button style 'destructive'",
            change: unchangedOld {
                SchemaEdit.appending($0, at: ["$defs", "component.button", "properties", "style", "x-known-values"], "destructive")
            },
            sent: .components([
                ["type": "button", "title": "Delete", "style": "destructive", "action": ["type": "navigate", "url": "screens/x"]]
            ])),
        Mutation(
            name: "open enum value added: text weight 'black'",
            change: unchangedOld {
                SchemaEdit.appending($0, at: ["$defs", "component.text", "properties", "weight", "x-known-values"], "black")
            },
            sent: .components([["type": "text", "text": "Loud", "weight": "black"]])),
        Mutation(
            name: "open enum value removed: presentation 'modal'",
            change: unchangedOld {
                SchemaEdit.filtering($0, at: ["$defs", "action.navigate", "properties", "presentation", "x-known-values"]) { $0 != "modal" }
            },
            sent: .components([
                ["type": "button", "title": "Go", "action": ["type": "navigate", "url": "screens/x", "presentation": "push"]]
            ])),
        // Closed sets: the kinds of components, actions and results.
        Mutation(
            name: "component kind added within v3 (closed set grows)",
            change: unchangedOld { addingDefinition($0, name: "component.badge", union: "Component", introduced: 3, downgrades: true) },
            sent: .components([["type": "badge", "text": "New"]])),
        Mutation(
            name: "component kind added in v4 with a fallback the server sends v3",
            change: unchangedOld {
                asVersion4(addingDefinition($0, name: "component.badge", union: "Component", introduced: 4, downgrades: true))
            },
            sent: .components([["type": "text", "text": "New"]])),
        Mutation(
            name: "action kind added in v4: actions are not downgraded",
            change: unchangedOld {
                asVersion4(addingDefinition($0, name: "action.call", union: "Action", introduced: 4, downgrades: false))
            },
            sent: .components([["type": "button", "title": "Call", "action": ["type": "call", "number": "+431234"]]])),
        Mutation(
            name: "command result kind added within v3",
            change: unchangedOld { addingDefinition($0, name: "result.toast", union: "CommandResult", introduced: 3, downgrades: true) },
            sent: .result(["type": "toast", "message": "Saved"])),
        Mutation(
            name: "command result kind added in v4, downgraded to done for v3",
            change: unchangedOld {
                asVersion4(addingDefinition($0, name: "result.toast", union: "CommandResult", introduced: 4, downgrades: true))
            },
            sent: .result(["type": "done", "message": "Done. Update the app to see more.", "refresh": true])),
        // Ranges and lengths.
        Mutation(
            name: "range widened: grid columns up to 8",
            change: unchangedOld { SchemaEdit.setting($0, at: ["$defs", "component.grid", "properties", "columns", "maximum"], to: 8) },
            sent: .components([SchemaEdit.setting(grid, at: ["columns"], to: 8)])),
        Mutation(
            name: "range narrowed: grid columns up to 4",
            change: unchangedOld { SchemaEdit.setting($0, at: ["$defs", "component.grid", "properties", "columns", "maximum"], to: 4) },
            sent: .components([SchemaEdit.setting(grid, at: ["columns"], to: 4)])),
        Mutation(
            name: "minimum lowered: rectangle width from -100",
            change: unchangedOld {
                SchemaEdit.setting($0, at: ["$defs", "component.rectangle", "properties", "width", "minimum"], to: -100)
            },
            sent: .components([["type": "rectangle", "width": -5, "height": 4, "color": "accent"]])),
        Mutation(
            name: "length widened: open-URL links up to 8192 characters",
            change: unchangedOld { SchemaEdit.setting($0, at: ["$defs", "action.openURL", "properties", "url", "maxLength"], to: 8192) },
            sent: .components([openURL("https://example.com/" + String(repeating: "a", count: 5000))])),
        Mutation(
            name: "length narrowed: open-URL links up to 2048 characters",
            change: unchangedOld { SchemaEdit.setting($0, at: ["$defs", "action.openURL", "properties", "url", "maxLength"], to: 2048) },
            sent: .components([openURL("https://example.com/" + String(repeating: "a", count: 100))])),
        // Patterns.
        Mutation(
            name: "pattern removed: open-URL links of any scheme",
            change: unchangedOld { SchemaEdit.setting($0, at: ["$defs", "action.openURL", "properties", "url", "pattern"], to: nil) },
            sent: .components([openURL("ftp://example.com/file")])),
        Mutation(
            name: "pattern added: text without angle brackets",
            change: unchangedOld {
                SchemaEdit.setting($0, at: ["$defs", "component.text", "properties", "text", "pattern"], to: "^[^<>]*$")
            },
            sent: .components([["type": "text", "text": "Plain words"]])),
        // Types.
        Mutation(
            name: "type changed without downgrade: track duration as text",
            change: unchangedOld {
                SchemaEdit.setting($0, at: ["$defs", "component.trackRow", "properties", "duration"], to: ["type": "string"])
            },
            sent: .components([["type": "trackRow", "title": "I. Allegro", "duration": "7:41"]])),
        Mutation(
            name: "type changed in v4 with a declared downgrade: v3 still gets seconds",
            change: unchangedOld { document in
                var changed = SchemaEdit.setting(
                    document, at: ["$defs", "component.trackRow", "properties", "duration"], to: ["type": "string"])
                changed = SchemaEdit.appending(
                    changed, at: ["$defs", "component.trackRow", "x-field-changes"],
                    ["field": "duration", "version": 4, "summary": "ISO 8601 text from v4; seconds before"])
                return asVersion4(changed)
            },
            sent: .components([["type": "trackRow", "title": "I. Allegro", "duration": 461]])),
        // Fields.
        Mutation(
            name: "required field removed: list row title",
            change: unchangedOld { SchemaEdit.removingField($0, definition: "component.listRow", name: "title") },
            sent: .components([["type": "listRow", "subtitle": "K. 550"]])),
        Mutation(
            name: "required field made optional: list row title",
            change: unchangedOld { SchemaEdit.filtering($0, at: ["$defs", "component.listRow", "required"]) { $0 != "title" } },
            sent: .components([["type": "listRow", "subtitle": "K. 550"]])),
        Mutation(
            name: "required field added: list row rank",
            change: unchangedOld { document in
                let added = SchemaEdit.setting(document, at: ["$defs", "component.listRow", "properties", "rank"], to: ["type": "integer"])
                return SchemaEdit.appending(added, at: ["$defs", "component.listRow", "required"], "rank")
            },
            sent: .components([SchemaEdit.setting(listRow, at: ["rank"], to: 1)])),
        Mutation(
            name: "optional field added: list row badge",
            change: unchangedOld {
                SchemaEdit.setting($0, at: ["$defs", "component.listRow", "properties", "badge"], to: ["type": "string"])
            },
            sent: .components([SchemaEdit.setting(listRow, at: ["badge"], to: "New")])),
        Mutation(
            name: "optional field removed: list row subtitle",
            change: unchangedOld { SchemaEdit.removingField($0, definition: "component.listRow", name: "subtitle") },
            sent: .components([["type": "listRow", "title": "Symphony No. 40"]])),
        Mutation(
            name: "field old apps must understand added: secure text",
            change: unchangedOld {
                SchemaEdit.setting(
                    $0, at: ["$defs", "component.text", "properties", "secure"], to: ["type": "boolean", "x-must-understand": true])
            },
            sent: .components([["type": "text", "text": "4111 1111 1111 1111", "secure": true]]), mustUnderstand: "secure"),
        Mutation(
            name: "field old apps must understand added in v4, downgraded: v3 gets the text masked",
            change: unchangedOld { document in
                var changed = SchemaEdit.setting(
                    document, at: ["$defs", "component.text", "properties", "secure"], to: ["type": "boolean", "x-must-understand": true])
                changed = SchemaEdit.setting(
                    changed, at: ["$defs", "component.text", "x-field-changes"],
                    to: [["field": "secure", "version": 4, "summary": "older clients get the text masked by the server"]])
                return asVersion4(changed)
            },
            sent: .components([["type": "text", "text": "•••• 1111"]]), mustUnderstand: "secure"),
        // Kinds removed.
        Mutation(
            name: "kind removed without deprecation or fallback: list row",
            change: unchangedOld { ContractDiffTests.Kinds.removingKind("component.listRow", from: $0) },
            sent: .components([], intended: 1)),
        Mutation(
            name: "kind deprecated in v3 with a fallback, then removed: grid becomes rows",
            change: { old in
                let deprecated = SchemaEdit.setting(old, at: ["$defs", "component.grid", "x-deprecated"], to: 3)
                return (deprecated, ContractDiffTests.Kinds.removingKind("component.grid", from: deprecated))
            },
            sent: .components([
                ["type": "detailButton", "title": "Late Night Piano", "action": ["type": "navigate", "url": "screens/playlist/2"]]
            ])),
    ]

    /// What the real v3 decoder does with what the server sends: whether it drops or rejects anything.
    static func v3ClientLosesSomething(_ mutation: Mutation) throws -> (Bool, String) {
        let decoder = ScreenplayDecoder(mode: .lossy, apiVersion: .v3)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        switch mutation.sent {
        case .result(let result):
            do {
                let decoded = try decoder.decode(CommandResult.self, from: try encoder.encode(result))
                let lost = !decoded.issues.allSatisfy { $0.kind == .unknownValue }
                return (lost, decoded.issues.map(\.description).joined(separator: "; "))
            } catch {
                return (true, "\(error)")
            }
        case .components(let components, let intended):
            let screen: JSONValue = ["id": "truth", "title": "Truth", "sections": [["id": "main", "components": .array(components)]]]
            let decoded: Decoded<Screen>
            do {
                decoded = try decoder.decode(Screen.self, from: try encoder.encode(screen))
            } catch {
                return (true, "\(error)")
            }
            let shown = decoded.value.sections.first?.components.filter { $0.payload != nil } ?? []
            if !decoded.issues.allSatisfy({ $0.kind == .unknownValue }) {
                return (true, decoded.issues.map(\.description).joined(separator: "; "))
            }
            if shown.count < (intended ?? components.count) {
                return (true, "\(shown.count) of \(intended ?? components.count) components shown")
            }
            if let field = mutation.mustUnderstand {
                // Re-encode what the client understood: a must-understand member the server sent
                // and the client dropped means the client renders the element wrongly.
                for (sent, understood) in zip(components, shown) where sent[field] != nil {
                    let back = try JSONDecoder().decode(JSONValue.self, from: try ScreenplayEncoder(apiVersion: .v3).encode(understood))
                    if back[field] == nil { return (true, "'\(field)' ignored by the v3 decoder") }
                }
            }
            return (false, "decoded whole")
        }
    }

    @Test("contract-diff says breaking exactly when the old version's real decoder drops or rejects something", arguments: mutations)
    func verdictMatchesDecoder(_ mutation: Mutation) throws {
        let released = try ContractSchema.document(for: .v3)
        let (old, new) = mutation.change(released)
        let diff = try ContractDiff(old: old, new: new)
        #expect(!diff.changes.isEmpty, "the mutation changed nothing the detector sees")
        let (loses, what) = try Self.v3ClientLosesSomething(mutation)
        #expect(
            diff.isBreaking == loses,
            "detector says \(diff.isBreaking ? "breaking" : "safe") but the v3 decoder \(loses ? "loses something" : "loses nothing") (\(what)); findings: \(diff.changes.map(\.description))"
        )
    }

    @Test("the table covers every kind of change in both verdicts")
    func coverage() throws {
        var breaking = 0
        for mutation in Self.mutations where try Self.v3ClientLosesSomething(mutation).0 { breaking += 1 }
        #expect(breaking >= 10 && Self.mutations.count - breaking >= 10, "\(breaking) breaking of \(Self.mutations.count)")
    }
}
