import Foundation
import ScreenplayContract
import Testing

/// Row templates (v6): rows made from an array in the state and one template when a screen is
/// decoded; what a bad template, a bad row or too many rows cost (only themselves).
@Suite("Row templates on the wire (v6)")
struct RowsCodingTests {
    static let worksState = #"""
        {"query": {"type": "string", "initial": ""},
         "works": {"type": {"array": {"record": {"id": "string", "title": "string", "year": "int", "tags": {"array": "string"}}}},
                   "initial": [{"id": "k626", "title": "Requiem", "year": 1791, "tags": ["choral"]},
                               {"id": "k550", "title": "Symphony No. 40", "year": 1788, "tags": []},
                               {"id": "k620", "title": "Die Zauberflöte <script>alert(1)</script>", "year": 1791, "tags": ["opera", "singspiel"]}]}}
        """#

    static let rowTemplate = #"""
        {"type": "listRow", "title": "${item.title}", "subtitle": "${index + 1}. ${item.year} · it's \\$5",
         "action": {"type": "navigate", "url": "/screens/work/${item.id}"},
         "compute": {"visible": "contains(lower(item.title), lower(query))", "selected": "index == 0"}}
        """#

    static func screen(state: String = worksState, _ components: String...) -> Data {
        ClientStateCodingTests.screenJSON(state: state, components.joined(separator: ","))
    }

    static func rows(template: String = rowTemplate, items: String = "works", id: String = "works") -> String {
        #"{"type": "rows", "id": "\#(id)", "items": "\#(items)", "template": \#(template)}"#
    }

    @Test("each element becomes the template filled from it: texts, URLs and ids; bindings read the row's element")
    func expansion() throws {
        let decoded = try ClientStateCodingTests.decode(Self.screen(Self.rows()), mode: .strict)
        #expect(decoded.issues.isEmpty)
        let components = decoded.value.sections[0].components
        #expect(components.count == 3)
        guard case .listRow(let first) = components[0].content, case .listRow(let third) = components[2].content else {
            Issue.record("rows are not list rows: \(components)")
            return
        }
        #expect(first.title == "Requiem")
        #expect(first.subtitle == "1. 1791 · it's $5", "'\\$' writes a dollar sign; a quote is itself")
        #expect(first.action == .navigate(.init(url: "/screens/work/k626")))
        #expect(third.title == "Die Zauberflöte <script>alert(1)</script>", "a hostile string stays text")
        #expect(components.map(\.id) == ["works-0", "works-1", "works-2"])
        #expect(components[1].attributes.compute == [.visible: "contains(lower(works[1].title),lower(query))", .selected: "1==0"])
    }

    @Test("a template's id text names each row; without one, rows are numbered under the rows' id")
    func rowIDs() throws {
        let template = #"{"type": "text", "text": "${item.title}", "id": "work-${item.id}"}"#
        let decoded = try ClientStateCodingTests.decode(Self.screen(Self.rows(template: template)), mode: .strict)
        #expect(decoded.value.sections[0].components.map(\.id) == ["work-k626", "work-k550", "work-k620"])
    }

    @Test("a Swift-built rows encodes as the template and the data: far fewer bytes than the rows, and decodes to the same rows")
    func swiftBuilt() throws {
        let template = Component.listRow(
            .init(title: "${item.title}", subtitle: "${item.year}", action: .navigate(.init(url: "/screens/work/${item.id}"))))
        let elements: [ExpressionValue] = (0..<300).map { index in
            .record(["id": .string("w\(index)"), "title": .string("Work \(index)"), "year": .int(1700 + index)])
        }
        let type = ExpressionType.array(.record(["id": .string, "title": .string, "year": .int]))
        let screen = Screen(
            id: "s", title: "S", sections: [ScreenSection(id: "main", components: [Component.rows(.init(items: "works", template: template)).id("works")])],
            state: ["works": try StateVariable(type, initial: .array(elements))])
        let data = try ScreenplayEncoder(apiVersion: .v6).encode(screen)
        #expect(String(decoding: data, as: UTF8.self).contains(#""type":"rows""#))
        let decoded = try ClientStateCodingTests.decode(data, mode: .strict)
        let rows = decoded.value.sections[0].components
        #expect(rows.count == 300)
        #expect(rows[299] == Component.listRow(.init(title: "Work 299", subtitle: "1999", action: .navigate(.init(url: "/screens/work/w299")))).id("works-299"))
        // The same screen with its rows written out: what a server without templates sends.
        var expanded = decoded.value
        expanded.state = [:]
        let plain = try ScreenplayEncoder(apiVersion: .v6).encode(expanded)
        #expect(data.count * 2 < plain.count, "\(data.count) bytes with the template against \(plain.count) written out")
        #expect(screen.expandingRows().value.sections == decoded.value.sections, "the client's expansion of a Swift-built screen is the decoder's")
    }

    @Test("a bad template refuses the rows at its path; the rest of the screen stays")
    func badTemplates() throws {
        let cases: [(String, String, String)] = [
            (Self.rows(items: "query"), "$.sections[0].components[0].items", "not an array"),
            (Self.rows(items: "nothing"), "$.sections[0].components[0].items", "not an array"),
            (Self.rows(template: #"{"type": "text", "text": "${item.name}"}"#), "$.sections[0].components[0].template.text", "name"),
            (Self.rows(template: #"{"type": "text", "text": "${query}"}"#), "$.sections[0].components[0].template.text", "reads only item and index"),
            (Self.rows(template: #"{"type": "text", "text": "${item.title"}"#), "$.sections[0].components[0].template.text", "syntax error"),
            (Self.rows(template: #"{"type": "text", "text": "x", "id": "t", "compute": {"visible": "item.year"}}"#),
                "$.sections[0].components[0].template.compute.visible", "takes a bool"),
            (Self.rows(template: #"{"type": "verticalStack", "children": [\#(Self.rows())]}"#),
                "$.sections[0].components[0].template.children[0]", "rows cannot hold rows"),
            (Self.rows(template: #"{"type": "rows", "items": "works", "template": {"type": "text", "text": "x"}}"#),
                "$.sections[0].components[0].template", "cannot be rows"),
            (Self.rows(template: #""${item.title}""#), "$.sections[0].components[0].template", "an object with a 'type'"),
        ]
        for (rows, path, words) in cases {
            let decoded = try ClientStateCodingTests.decode(Self.screen(rows, #"{"type": "text", "text": "still here"}"#))
            #expect(decoded.value.sections[0].components == [Component.text(.init("still here"))], "\(rows)")
            let issue = ClientStateCodingTests.issue(at: path, in: decoded)
            #expect(issue?.message.contains(words) == true, "\(path): \(decoded.issues.map { "\($0.path) \($0.message)" })")
            #expect(throws: ScreenplayDecodingError.self) { try ClientStateCodingTests.decode(Self.screen(rows), mode: .strict) }
        }
    }

    @Test("a row whose hole stops, or whose filled JSON is not a component, is left out alone, named by its row")
    func badRows() throws {
        let template = #"{"type": "listRow", "title": "${item.tags[0]}", "action": {"type": "navigate", "url": "${item.id}"}}"#
        let state = Self.worksState.replacingOccurrences(of: #""id": "k550""#, with: #""id": "javascript:alert(1)""#)
        let decoded = try ClientStateCodingTests.decode(Self.screen(state: state, Self.rows(template: template)))
        let titles = decoded.value.sections[0].components.compactMap { component -> String? in
            if case .listRow(let row) = component.content { return row.title } else { return nil }
        }
        #expect(titles == ["choral", "opera"], "row 1 has no tags[0]")
        #expect(ClientStateCodingTests.issue(at: "$.sections[0].components[0].rows[1].title", in: decoded)?.message.contains("index 0 of an array of 0") == true,
                "\(decoded.issues)")
        #expect(decoded.issues.count == 1, "a row left out for its hole is not decoded too: \(decoded.issues)")

        // A link the policy refuses refuses that row's action at the row's own path.
        let all = #"{"type": "listRow", "title": "${item.title}", "action": {"type": "openURL", "url": "${item.id}"}}"#
        let withLink = try ClientStateCodingTests.decode(Self.screen(state: state, Self.rows(template: all)))
        #expect(withLink.issues.contains { $0.path.hasPrefix("$.sections[0].components[0].rows[1]") }, "\(withLink.issues)")
    }

    @Test("rows made from an app-kept array are refused: the list is the server's data")
    func appScope() throws {
        let state = #"{"works": {"type": {"array": "string"}, "initial": ["a"], "scope": "app"}}"#
        let decoded = try ClientStateCodingTests.decode(Self.screen(state: state, Self.rows(template: #"{"type": "text", "text": "${item}"}"#)))
        #expect(decoded.value.sections[0].components.isEmpty)
        #expect(ClientStateCodingTests.issue(at: "$.sections[0].components[0].items", in: decoded)?.message.contains("kept by the app") == true)
    }

    @Test("a template over 100 000 elements makes the first 5 000 rows and says how many were left out")
    func bounded() throws {
        let elements = String(repeating: "\"x\",", count: 100_000) + "\"last\""
        let state = #"{"names": {"type": {"array": "string"}, "initial": [\#(elements)]}}"#
        let template = #"{"type": "text", "text": "${item}"}"#
        let decoded = try ClientStateCodingTests.decode(
            Self.screen(state: state, Self.rows(template: template, items: "names", id: "a"), Self.rows(template: template, items: "names", id: "b")))
        #expect(decoded.value.sections[0].components.count == Component.Rows.maximumRows, "the limit is for the whole screen")
        #expect(ClientStateCodingTests.issue(at: "$.sections[0].components[0].items", in: decoded)?.message.contains("95001 of 100001 rows left out") == true)
        #expect(ClientStateCodingTests.issue(at: "$.sections[0].components[1].items", in: decoded)?.message.contains("100001 of 100001") == true)
    }

    @Test("a v5 reader gets no rows kind: the server sends the rows themselves")
    func olderReaders() throws {
        let decoded = try ClientStateCodingTests.decode(Self.screen(Self.rows()), version: .v5)
        #expect(decoded.value.sections[0].components.allSatisfy { if case .unknown = $0.content { true } else { false } })
        #expect(!Component.kinds(knownAt: .v5).contains(Component.Rows.kind))
        #expect(Component.kinds(knownAt: .v6).contains(Component.Rows.kind))
    }
}

extension RowsCodingTests {
    @Test("a server's own text around a hole is written as it is, whatever it holds")
    func literalText() throws {
        for text in [#"Cost: $5 ${not a hole} C:\path\ "#, "\\${", "$", "\\"] {
            let template = JSONValue.string(Component.Rows.text(text) + "${item.title}").jsonText
            let decoded = try ClientStateCodingTests.decode(Self.screen(Self.rows(template: #"{"type": "text", "text": \#(template)}"#)), mode: .strict)
            #expect(decoded.value.sections[0].components.first == Component.text(.init(text + "Requiem")).id("works-0"), "\(text)")
        }
    }
}

extension RowsCodingTests {
    @Test("a `set` of the variable rows are made from is refused where it stands; the rest of the screen stays")
    func setOfItemsRefused() throws {
        let decoded = try ClientStateCodingTests.decode(
            Self.screen(
                Self.rows(),
                #"{"type": "button", "title": "Clear", "action": {"type": "set", "variable": "works", "value": "works"}}"#,
                #"{"type": "button", "title": "Both", "action": {"type": "sequence", "actions": [{"type": "set", "variable": "works", "value": "works"}, {"type": "set", "variable": "query", "value": "''"}]}}"#,
                #"{"type": "button", "title": "Query", "action": {"type": "set", "variable": "query", "value": "'x'"}}"#))
        let titles = decoded.value.sections[0].components.compactMap { component -> String? in
            if case .button(let button) = component.content { return button.title } else { return nil }
        }
        #expect(titles == ["Both", "Query"], "the button that only set the rows' variable goes")
        #expect(decoded.value.sections[0].components.count == 5)
        guard case .button(let both) = decoded.value.sections[0].components[3].content else { return }
        #expect(both.action == .sequence(.init([.set(.init(variable: "query", value: "''"))])))
        #expect(ClientStateCodingTests.issue(at: "$.sections[0].components[1]", in: decoded)?.message.contains("'works' is refused") == true, "\(decoded.issues)")
        #expect(ClientStateCodingTests.issue(at: "$.sections[0].components[2]", in: decoded) != nil)
        #expect(decoded.issues.count == 2)
    }
}

/// What a hostile review of row templates found, each now refused or bounded.
extension RowsCodingTests {
    static let names = #"{"works": {"type": {"array": "string"}, "initial": ["a", "b"]}}"#

    @Test("a set of the rows' array inside the template itself is refused in every row")
    func setInsideTemplate() throws {
        let template = #"{"type": "button", "title": "${item}", "action": {"type": "sequence", "actions": [{"type": "set", "variable": "works", "value": "works"}, {"type": "openURL", "url": "https://example.com"}]}}"#
        let decoded = try ClientStateCodingTests.decode(Self.screen(state: Self.names, Self.rows(template: template)))
        let actions = decoded.value.sections[0].components.compactMap { component -> Action? in
            if case .button(let button) = component.content { return button.action } else { return nil }
        }
        #expect(actions == [.sequence(.init([.openURL(.init(url: "https://example.com"))]))] + [.sequence(.init([.openURL(.init(url: "https://example.com"))]))])
        #expect(decoded.issues.map(\.path) == ["$.sections[0].components[0].rows[0]", "$.sections[0].components[0].rows[1]"], "\(decoded.issues)")
        #expect(decoded.issues.allSatisfy { $0.message.contains("'works' is refused") })
    }

    @Test("rows made by a hole are refused like rows written in the template")
    func rowsByHole() throws {
        let template = #"{"type": "ro${''}ws", "items": "works", "template": {"type": "text", "text": "${item}"}}"#
        let decoded = try ClientStateCodingTests.decode(Self.screen(state: Self.names, Self.rows(template: template)))
        #expect(decoded.value.sections[0].components.isEmpty)
        #expect(ClientStateCodingTests.issue(at: "$.sections[0].components[0].rows[0]", in: decoded)?.message.contains("rows cannot hold rows") == true)
        // And the screen decoded again is the same screen: nothing is left to make.
        let again = try ClientStateCodingTests.decode(try ScreenplayEncoder(apiVersion: .v6).encode(decoded.value))
        #expect(again.value == decoded.value)
    }

    @Test("a template of an app-defined kind the client renders makes rows of it, with no issue")
    func customKind() throws {
        let data = Self.screen(state: Self.names, Self.rows(template: #"{"type": "myCard", "title": "${item}"}"#))
        let decoded = try ScreenplayDecoder(mode: .strict, apiVersion: .v6, customKinds: ["myCard"]).decode(Screen.self, from: data)
        #expect(decoded.issues.isEmpty)
        #expect(decoded.value.sections[0].components.map(\.kind.rawValue) == ["myCard", "myCard"])
    }

    @Test("a binding that fits as the template writes it but not as the last row writes it refuses the template, saying why")
    func bindingPastTheLimitsWhenWritten() throws {
        // 64 levels as written; item as works[1] adds one.
        let deep = String(repeating: "!", count: 60) + "(len(item) > 0)"
        let template = #"{"type": "text", "text": "${item}", "compute": {"visible": "\#(deep)"}}"#
        let decoded = try ClientStateCodingTests.decode(Self.screen(state: Self.names, Self.rows(template: template)))
        #expect(decoded.value.sections[0].components.isEmpty)
        let issue = ClientStateCodingTests.issue(at: "$.sections[0].components[0].template.compute.visible", in: decoded)
        #expect(issue?.message.contains("as the last row writes it, with item as works[1]") == true, "\(decoded.issues)")
    }

    @Test("a large template repeated for many rows is bounded by bytes as well as by rows")
    func boundedByBytes() throws {
        let big = String(repeating: "x", count: 100_000)
        let state = #"{"works": {"type": {"array": "int"}, "initial": [\#((0..<5_000).map(String.init).joined(separator: ","))]}}"#
        let decoded = try ClientStateCodingTests.decode(Self.screen(state: state, Self.rows(template: #"{"type": "listRow", "title": "${item}", "subtitle": "\#(big)"}"#)))
        let made = decoded.value.sections[0].components.count
        #expect(made > 0 && made <= Component.Rows.maximumBytes / 100_000, "\(made) rows")
        #expect(ClientStateCodingTests.issue(at: "$.sections[0].components[0].items", in: decoded)?.message.contains("at most \(Component.Rows.maximumBytes) bytes") == true)
    }

    @Test("rows never share an id with each other or with the screen's components; the rows' own attributes are said to be ignored")
    func uniqueIDs() throws {
        let text = #"{"type": "text", "text": "${item}"}"#
        let same = #"{"type": "text", "text": "${item}", "id": "same", "compute": {"visible": "true"}}"#
        let decoded = try ClientStateCodingTests.decode(
            Self.screen(
                state: Self.names, #"{"type": "text", "text": "mine", "id": "works-1"}"#,
                #"{"type": "rows", "items": "works", "template": \#(text)}"#, #"{"type": "rows", "items": "works", "template": \#(text)}"#,
                #"{"type": "rows", "id": "r", "items": "works", "template": \#(same), "compute": {"visible": "false"}}"#))
        let ids = decoded.value.sections[0].components.compactMap(\.id)
        #expect(ids == ["works-1", "works-0", "works-1~2", "works-0~2", "works-1~3", "same", "same~2"], "\(ids)")
        #expect(decoded.value.duplicateComponentID == nil)
        #expect(ClientStateCodingTests.issue(at: "$.sections[0].components[3]", in: decoded)?.message.contains("not carried") == true)
    }

    @Test("a set inside a template reads the row's element: item is written as the row's, as in bindings")
    func setValueReadsItem() throws {
        let state = #"{"works": {"type": {"array": "string"}, "initial": ["a", "b"]}, "chosen": {"type": "string", "initial": ""}}"#
        let template = #"{"type": "button", "title": "${item}", "action": {"type": "set", "variable": "chosen", "value": "item"}}"#
        let decoded = try ClientStateCodingTests.decode(Self.screen(state: state, Self.rows(template: template)), mode: .strict)
        guard case .button(let second) = decoded.value.sections[0].components[1].content else { return }
        #expect(second.action == .set(.init(variable: "chosen", value: "works[1]")))
    }
}

extension RowsCodingTests {
    @Test("a verdict (validation) on a kind other than a text field is reported and ignored")
    func validationElsewhere() throws {
        let decoded = try ClientStateCodingTests.decode(
            ClientStateCodingTests.screenJSON(#"{"type": "text", "text": "A", "id": "a", "compute": {"validation": "'no'", "visible": "true"}}"#))
        #expect(decoded.value.sections[0].components[0].attributes.compute == [.visible: "true"])
        #expect(ClientStateCodingTests.issue(at: "$.sections[0].components[0].compute.validation", in: decoded)?.kind == .unknownValue)
    }
}
