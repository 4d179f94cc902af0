import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer
import ScreenplayTestSupport
import Testing

/// Parameters that name something in a vertical's world, checked with that vertical when a
/// template is saved: a work that does not exist is refused at its parameter's path.
@Suite("Widget references")
struct WidgetReferenceTests {
    /// `offer` names a work through `workID`; `note` names nothing.
    static let offer = try! WidgetContract(
        type: "offer", summary: "A work on offer.", versioning: KindVersioning(introduced: .v1, fallback: "nothing"),
        fields: [.required("title", .string)], parameters: [.required("workID", .integer), .optional("label", .string)],
        references: [WidgetReference(parameter: "workID", names: "work")], fallback: { _ in [] })
    static let note = try! WidgetContract(
        type: "note", summary: "A note.", versioning: KindVersioning(introduced: .v1, fallback: "nothing"),
        fields: [.required("text", .string)], parameters: [.optional("workID", .integer)], fallback: { _ in [] })
    static let catalog = try! WidgetCatalog([offer, note])

    /// Knows works 1 and 2; records each question it was asked.
    struct Works: WidgetProvider, WidgetReferenceChecking {
        let asked: Shared<[[JSONValue]]>
        var failure: (any Error)?
        /// `false`: configured not to check, as a remote provider without a references URL.
        var checksReferences = true

        func fragments(for request: WidgetRequest) async throws -> WidgetResponse { WidgetResponse(fragments: [:]) }

        func missingReferences(_ names: String, among values: Set<JSONValue>) async throws -> Set<JSONValue> {
            asked.update { $0.append(values.sorted { "\($0)" < "\($1)" }) }
            if let failure { throw failure }
            #expect(names == "work")
            return values.filter { $0 != .integer(1) && $0 != .integer(2) }
        }
    }

    static func template(_ widgets: [WidgetInstance]) -> PageTemplate {
        PageTemplate(route: "shop", title: "Shop", revision: 0, sections: [.init(id: "main", widgets: widgets)])
    }

    @Test("a work the vertical does not know is an error at the parameter's path; known ones pass; one question per vertical")
    func missingWork() async {
        let asked = Shared<[[JSONValue]]>([])
        let template = Self.template([
            WidgetInstance(id: "a", kind: "offer", vertical: "catalog", parameters: ["workID": 1]),
            WidgetInstance(id: "b", kind: "offer", vertical: "catalog", parameters: ["workID": 99999]),
            WidgetInstance(id: "c", kind: "offer", vertical: "catalog", parameters: ["workID": 2]),
            // Not a reference in its kind's contract: never asked about.
            WidgetInstance(id: "d", kind: "note", vertical: "catalog", parameters: ["workID": 123456]),
        ])
        let problems = await template.referenceProblems(catalog: Self.catalog, providers: ["catalog": Works(asked: asked)])
        #expect(problems.map(\.path) == ["$.sections[0].widgets[1].parameters.workID"])
        #expect(problems.first?.message == "no work 99999: the catalog vertical knows none")
        #expect(problems.first?.isWarning == false)
        #expect(asked.value == [[.integer(1), .integer(2), .integer(99999)]])
    }

    @Test("a vertical whose lookup fails gives warnings, not errors: its outage does not block a save")
    func lookupFails() async {
        struct Down: Error, CustomStringConvertible { var description: String { "catalog database unreachable" } }
        let template = Self.template([WidgetInstance(id: "a", kind: "offer", vertical: "catalog", parameters: ["workID": 1])])
        let problems = await template.referenceProblems(
            catalog: Self.catalog, providers: ["catalog": Works(asked: Shared([]), failure: Down())])
        #expect(problems.count == 1)
        #expect(problems.first?.isWarning == true)
        #expect(problems.first?.message.contains("catalog database unreachable") == true)
    }

    @Test("a provider that checks nothing or says it does not, an unknown kind or vertical, and a missing parameter are not asked about")
    func notAsked() async {
        let asked = Shared<[[JSONValue]]>([])
        let template = Self.template([
            WidgetInstance(id: "a", kind: "offer", vertical: "trusting", parameters: ["workID": 99999]),
            WidgetInstance(id: "b", kind: "unknown", vertical: "catalog", parameters: ["workID": 99999]),
            WidgetInstance(id: "c", kind: "offer", vertical: "nobody", parameters: ["workID": 99999]),
            WidgetInstance(id: "d", kind: "offer", vertical: "catalog", parameters: [:]),
            WidgetInstance(id: "e", kind: "offer", vertical: "unchecked", parameters: ["workID": 99999]),
        ])
        let trusting = ScriptedProvider { _ in nil }
        let problems = await template.referenceProblems(
            catalog: Self.catalog,
            providers: ["catalog": Works(asked: asked), "trusting": trusting, "unchecked": Works(asked: asked, checksReferences: false)])
        #expect(problems.isEmpty)
        #expect(asked.value.isEmpty)
    }

    @Test("a contract cannot check a parameter it does not declare")
    func undeclaredReference() {
        #expect(throws: WidgetContractError.self) {
            try WidgetContract(
                type: "bad", summary: "", versioning: KindVersioning(introduced: .v1, fallback: ""), fields: [],
                parameters: [.optional("label", .string)], references: [WidgetReference(parameter: "workID", names: "work")],
                fallback: { _ in [] })
        }
    }
}

/// What a template's parameters point at, named by the verticals that can: the editor's words
/// for "workID 21".
@Suite("Widget reference names")
struct WidgetReferenceNameTests {
    /// Names works 1 and 2 (after `delay`), or fails; records each question.
    struct NamedWorks: WidgetProvider, WidgetReferenceNaming {
        let asked: Shared<[[JSONValue]]>
        var delay: Duration = .zero
        var fails = false

        func fragments(for request: WidgetRequest) async throws -> WidgetResponse { WidgetResponse(fragments: [:]) }

        func referenceNames(_ names: String, for values: Set<JSONValue>) async throws -> [JSONValue: String] {
            asked.update { $0.append(values.sorted { "\($0)" < "\($1)" }) }
            if delay > .zero { try? await Task.sleep(for: delay) }
            struct Down: Error {}
            if fails { throw Down() }
            return [.integer(1): "Cello Suite No. 1 · Bach", .integer(2): "Symphony No. 5 · Beethoven"]
                .filter { values.contains($0.key) }
        }
    }

    static func template(_ widgets: [WidgetInstance]) -> PageTemplate { WidgetReferenceTests.template(widgets) }

    @Test("each reference is named where its vertical knows it, one question per vertical; unknown values and non-references are not")
    func named() async {
        let asked = Shared<[[JSONValue]]>([])
        let template = Self.template([
            WidgetInstance(id: "a", kind: "offer", vertical: "catalog", parameters: ["workID": 1, "label": "x"]),
            WidgetInstance(id: "b", kind: "offer", vertical: "catalog", parameters: ["workID": 99999]),
            WidgetInstance(id: "c", kind: "offer", vertical: "catalog", parameters: ["workID": 2]),
            WidgetInstance(id: "d", kind: "note", vertical: "catalog", parameters: ["workID": 1]),
            WidgetInstance(id: "e", kind: "offer", vertical: "plain", parameters: ["workID": 1]),
        ])
        let started = ContinuousClock.now
        let names = await template.referenceNames(
            catalog: WidgetReferenceTests.catalog,
            providers: ["catalog": NamedWorks(asked: asked), "plain": ScriptedProvider { _ in nil }], timeout: .seconds(30))
        #expect(ContinuousClock.now - started < .seconds(20), "answered once every vertical has, not at the timeout")
        #expect(
            names == [
                WidgetParameterKey(instance: "a", parameter: "workID"): "Cello Suite No. 1 · Bach",
                WidgetParameterKey(instance: "c", parameter: "workID"): "Symphony No. 5 · Beethoven",
            ])
        #expect(asked.value == [[.integer(1), .integer(2), .integer(99999)]])
    }

    @Test("a failing or slow vertical costs only its own names, and never more than the timeout")
    func failingAndSlow() async {
        let template = Self.template([
            WidgetInstance(id: "a", kind: "offer", vertical: "down", parameters: ["workID": 1]),
            WidgetInstance(id: "b", kind: "offer", vertical: "slow", parameters: ["workID": 1]),
            WidgetInstance(id: "c", kind: "offer", vertical: "catalog", parameters: ["workID": 2]),
        ])
        let started = ContinuousClock.now
        let names = await template.referenceNames(
            catalog: WidgetReferenceTests.catalog,
            providers: [
                "down": NamedWorks(asked: Shared([]), fails: true),
                "slow": NamedWorks(asked: Shared([]), delay: .seconds(30)),
                "catalog": NamedWorks(asked: Shared([])),
            ], timeout: .milliseconds(300))
        #expect(names == [WidgetParameterKey(instance: "c", parameter: "workID"): "Symphony No. 5 · Beethoven"])
        #expect(ContinuousClock.now - started < .seconds(20), "answered at the timeout, not after the slow vertical's 30 s")
    }

    @Test("nothing to name answers at once, without waiting for the timeout")
    func nothingToName() async {
        let started = ContinuousClock.now
        let names = await Self.template([WidgetInstance(id: "a", kind: "note", vertical: "catalog", parameters: ["workID": 1])])
            .referenceNames(catalog: WidgetReferenceTests.catalog, providers: ["catalog": NamedWorks(asked: Shared([]))], timeout: .seconds(30))
        #expect(names.isEmpty)
        #expect(ContinuousClock.now - started < .seconds(20))
    }
}
