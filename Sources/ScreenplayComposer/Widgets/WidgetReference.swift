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
        struct Use {
            let path: String
            let value: JSONValue
        }
        struct Question: Hashable {
            let vertical: String
            let names: String
        }
        func checker(of vertical: String) -> (any WidgetReferenceChecking)? {
            guard let checker = providers[vertical] as? any WidgetReferenceChecking, checker.checksReferences else { return nil }
            return checker
        }
        var uses: [Question: [Use]] = [:]
        for (sectionIndex, section) in sections.enumerated() {
            for (index, instance) in section.widgets.enumerated() {
                guard let contract = catalog[instance.kind], checker(of: instance.vertical) != nil else { continue }
                for reference in contract.references {
                    guard let value = instance.parameters[reference.parameter], value != .null else { continue }
                    let path = "$.sections[\(sectionIndex)].widgets[\(index)].parameters.\(reference.parameter)"
                    uses[Question(vertical: instance.vertical, names: reference.names), default: []].append(Use(path: path, value: value))
                }
            }
        }
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
