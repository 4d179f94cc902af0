import Synchronization
public import ScreenplayContract

/// A widget parameter that names something in a vertical's world: `workID` names a work. The
/// widget's contract declares it (``WidgetContract/references``); the vertical's provider says
/// what exists (``WidgetReferenceChecking``). The contract alone can only say "an integer"; this
/// is how the layout admin refuses work 99999 when there is no such work.
public struct WidgetReference: Sendable, Hashable {
    /// The parameter's name (top level of the instance's `parameters`).
    public let parameter: String
    /// What it names, in a word a person reads in an error: `work`, `recording`.
    public let names: String

    /// `parameter` names a `names`.
    public init(parameter: String, names: String) {
        self.parameter = parameter
        self.names = names
    }
}

/// A provider that can say which of the things a template names exist. Adopted by a vertical's
/// provider beside ``WidgetProvider``; a provider that does not adopt it is not asked, and what
/// its widgets name is taken on trust.
public protocol WidgetReferenceChecking: Sendable {
    /// Whether this provider checks references at all; `false` makes it one that does not adopt
    /// the protocol: never asked, its widgets' references taken on trust. For a type that checks
    /// only when configured to (``RemoteWidgetProvider`` without a references URL), since
    /// conformance cannot depend on configuration and answering "nothing is missing" would claim
    /// a check that never happened. `true` unless the adopter says otherwise.
    var checksReferences: Bool { get }

    /// Of `values` (parameter values naming `names`, as the template holds them), the ones that
    /// name nothing this vertical knows. Called when a template is saved, once per vertical and
    /// kind of thing, with every value the template uses.
    func missingReferences(_ names: String, among values: Set<JSONValue>) async throws -> Set<JSONValue>
}

extension WidgetReferenceChecking {
    /// A provider that adopts the protocol checks, unless it says otherwise.
    public var checksReferences: Bool { true }
}

extension PageTemplate {
    /// Every parameter of this template that names something its vertical does not know, as an
    /// error at the parameter's JSON path; a vertical whose lookup failed gives one warning per
    /// parameter it could not check (saving is not blocked by another team's outage). Providers
    /// that do not adopt ``WidgetReferenceChecking``, or say they do not check
    /// (``WidgetReferenceChecking/checksReferences``), are not asked.
    ///
    /// Kinds the catalog does not know and verticals without a provider are left to
    /// ``validate(catalog:verticals:experiments:)``, which reports them.
    public func referenceProblems(catalog: WidgetCatalog, providers: [String: any WidgetProvider]) async -> [TemplateProblem] {
        func checker(of vertical: String) -> (any WidgetReferenceChecking)? {
            guard let checker = providers[vertical] as? any WidgetReferenceChecking, checker.checksReferences else { return nil }
            return checker
        }
        let uses = referenceUses(catalog: catalog) { checker(of: $0) != nil }
        var problems: [TemplateProblem] = []
        for (question, found) in uses {
            guard let checker = checker(of: question.vertical) else { continue }
            do {
                let missing = try await checker.missingReferences(question.names, among: Set(found.map(\.value)))
                for use in found where missing.contains(use.value) {
                    problems.append(
                        TemplateProblem(
                            path: use.path, message: "no \(question.names) \(Self.describe(use.value)): the \(question.vertical) vertical knows none"))
                }
            } catch {
                for use in found {
                    problems.append(
                        TemplateProblem(
                            path: use.path,
                            message: "could not check \(question.names) \(Self.describe(use.value)) with the \(question.vertical) vertical: \(error)",
                            isWarning: true))
                }
            }
        }
        return problems.sorted { $0.path < $1.path }
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): "“\(text.prefix(60))”"
        case .integer(let number): String(number)
        case .number(let number): String(number)
        case .bool(let flag): String(flag)
        case .null: "null"
        case .array, .object: "(\(value.typeName))"
        }
    }
}

/// A provider that can name what a template's parameters point at, so the layout admin shows a
/// product person "work 21: Cello Suite No. 1 · Johann Sebastian Bach" rather than a bare number
/// they would have to look up. Optional, beside ``WidgetReferenceChecking``: a vertical that does
/// not adopt it leaves its parameters shown as they are stored.
public protocol WidgetReferenceNaming: Sendable {
    /// For those of `values` (parameter values naming `names`) this vertical knows, a short name a
    /// person reads: a title and who made it, not a paragraph. Values it does not know are left
    /// out (the reference check says what is missing). Called when the editor is shown, once per
    /// vertical and kind of thing, with every value the template uses.
    func referenceNames(_ names: String, for values: Set<JSONValue>) async throws -> [JSONValue: String]
}

/// One parameter of one widget instance: where a reference's name belongs.
public struct WidgetParameterKey: Sendable, Hashable {
    /// The widget instance's id.
    public let instance: String
    /// The parameter's name.
    public let parameter: String

    /// The parameter `parameter` of the instance `instance`.
    public init(instance: String, parameter: String) {
        self.instance = instance
        self.parameter = parameter
    }
}

/// A question one vertical answers about a template: which of the `names` (works, recordings)
/// its parameters point at exist, or what they are called.
struct ReferenceQuestion: Hashable {
    let vertical: String
    let names: String
}

/// One parameter value that names something, where it stands in the template.
struct ReferenceUse {
    let key: WidgetParameterKey
    /// Its JSON path, for errors: `$.sections[0].widgets[2].parameters.workID`.
    let path: String
    let value: JSONValue
}

extension PageTemplate {
    /// Every parameter value that names something (as its kind's contract declares, not null),
    /// of widgets whose vertical `asks`, grouped by the question their vertical is asked.
    func referenceUses(catalog: WidgetCatalog, asking asks: (String) -> Bool) -> [ReferenceQuestion: [ReferenceUse]] {
        var uses: [ReferenceQuestion: [ReferenceUse]] = [:]
        for (sectionIndex, section) in sections.enumerated() {
            for (index, instance) in section.widgets.enumerated() {
                guard let contract = catalog[instance.kind], asks(instance.vertical) else { continue }
                for reference in contract.references {
                    guard let value = instance.parameters[reference.parameter], value != .null else { continue }
                    uses[ReferenceQuestion(vertical: instance.vertical, names: reference.names), default: []].append(
                        ReferenceUse(
                            key: WidgetParameterKey(instance: instance.id, parameter: reference.parameter),
                            path: "$.sections[\(sectionIndex)].widgets[\(index)].parameters.\(reference.parameter)", value: value))
                }
            }
        }
        return uses
    }
}

extension PageTemplate {
    /// The names of what this template's parameters point at, as each vertical's provider gives
    /// them (``WidgetReferenceNaming``), keyed by instance and parameter. A nicety, never a gate:
    /// verticals that do not name, lookups that fail, and those not answered within `timeout` are
    /// left out, so an editor page is never held up or refused by another team's service.
    public func referenceNames(
        catalog: WidgetCatalog, providers: [String: any WidgetProvider], timeout: Duration = .seconds(1)
    ) async -> [WidgetParameterKey: String] {
        let uses = referenceUses(catalog: catalog) { providers[$0] is any WidgetReferenceNaming }
        guard !uses.isEmpty else { return [:] }
        // Unstructured lookups raced against the clock: a lookup that ignores cancellation
        // cannot hold the page past `timeout` (a task group would wait for it to return).
        let collection = ReferenceNameCollection(expected: uses.count)
        return await withCheckedContinuation { continuation in
            collection.answer(to: continuation)
            for (question, found) in uses {
                let namer = providers[question.vertical] as? any WidgetReferenceNaming
                Task {
                    var names: [WidgetParameterKey: String] = [:]
                    if let named = try? await namer?.referenceNames(question.names, for: Set(found.map(\.value))) {
                        for use in found { if let name = named[use.value] { names[use.key] = name } }
                    }
                    collection.add(names)
                }
            }
            Task {
                try? await Task.sleep(for: timeout)
                collection.finish()
            }
        }
    }
}

/// The names answered so far for ``PageTemplate/referenceNames(catalog:providers:timeout:)``:
/// answered once, when every lookup has added its names or the clock runs out.
private final class ReferenceNameCollection: Sendable {
    private struct State {
        var names: [WidgetParameterKey: String] = [:]
        var waiting: Int
        var continuation: CheckedContinuation<[WidgetParameterKey: String], Never>?
        var answered = false
    }

    private let state: Mutex<State>

    init(expected: Int) { state = Mutex(State(waiting: expected)) }

    func answer(to continuation: CheckedContinuation<[WidgetParameterKey: String], Never>) {
        state.withLock { $0.continuation = continuation }
    }

    func add(_ names: [WidgetParameterKey: String]) {
        let done = state.withLock { state -> Bool in
            state.names.merge(names) { first, _ in first }
            state.waiting -= 1
            return state.waiting == 0
        }
        if done { finish() }
    }

    func finish() {
        let answer = state.withLock { state -> (CheckedContinuation<[WidgetParameterKey: String], Never>, [WidgetParameterKey: String])? in
            guard !state.answered, let continuation = state.continuation else { return nil }
            state.answered = true
            return (continuation, state.names)
        }
        if let (continuation, names) = answer { continuation.resume(returning: names) }
    }
}
