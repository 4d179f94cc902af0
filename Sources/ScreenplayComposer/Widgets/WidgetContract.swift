public import ScreenplayContract
public import ScreenplayServer

/// What a widget kind promises its clients: its wire `type`, its fields (each with a JSON type,
/// required or optional, the version that introduced it, deprecated ones with a note), the API
/// version the kind needs, and what clients that cannot show it get instead.
///
/// A widget kind is an app-defined component kind (``CustomComponentKind``) whose JSON comes from
/// another team's service, so its shape cannot be left to goodwill: the composer checks every
/// provider answer against the contract before it reaches a client, and a violation costs only
/// that widget. Instance parameters (what the layout admin sets: "show 4 items") have a contract
/// of their own, ``parameters``, checked when a template is saved.
///
/// Everything but the fallback closures is data (``WidgetField`` is `Codable`), so a contract can
/// be printed (``description``) and listed by the schema generator and the contract docs beside the built-in
/// kinds (``appDefinedKind``).
public struct WidgetContract: Sendable {
    /// The wire `type` of the kind's components (`productCard`).
    public let type: String
    /// One sentence on what the widget is for, for docs and the admin.
    public let summary: String
    /// The version the kind needs and what older clients get, in words; the same record built-in
    /// kinds carry, so downgrade and docs treat both alike.
    public let versioning: KindVersioning
    /// The component's fields, in the order docs list them.
    public let fields: [WidgetField]
    /// The fields of an instance's `parameters` (set in the layout admin, sent to the provider).
    public let parameters: [WidgetField]
    /// What the product team writes for each instance (a headline per locale, an image, a link,
    /// a colour), which the composer writes into the component over what the provider answered
    /// (``ContentField``).
    public let content: [ContentField]
    /// Parameters that name something in the vertical's world (a work, a recording): when a
    /// template is saved, the vertical's provider is asked whether each exists
    /// (``WidgetReferenceChecking``), so a page cannot be published pointing at nothing.
    public let references: [WidgetReference]
    /// Which URLs ``WidgetFieldType/url`` fields may hold.
    public let linkPolicy: LinkPolicy
    /// Builds what a client that does not render the kind gets (an older API version, or an app
    /// that did not register it), from the widget's JSON with its bindings resolved; `[]` drops it.
    public let fallback: @Sendable (JSONValue) -> [Component]
    /// What the page shows when the widget's provider is slow, fails or answers badly; `[]` (the
    /// default) omits the widget.
    public let unavailable: @Sendable (WidgetInstance) -> [Component]
    /// Whether the widget's data depends on who asks. A composed page showing a `.perUser` widget
    /// is cached per user; a page of `.everyone` widgets is shared by every user with the same
    /// request shape. `.perUser` by default: a provider that personalizes can never leak one
    /// user's data to another because its contract forgot to say so.
    public let sharing: ScreenplayRoutes.Sharing
    /// A sample instance and answer: what the layout admin's palette renders for the kind and
    /// what a widget added from it starts with. Checked against the contract when declared, so
    /// the palette never shows an example the kind would refuse.
    public let example: WidgetExample?

    /// The example's component with its `type`: what the palette renders.
    public var exampleComponent: JSONValue? { example?.component(ofKind: type) }

    /// The member names every component may carry besides its fields: the kind's `type` and the v4
    /// attributes. A contract cannot declare fields with these names.
    public static let reservedNames: Set<String> = ["type", "id", "accessibility", "bind"]

    /// Declares a widget kind.
    ///
    /// - Throws: ``WidgetContractError`` when `type` is a built-in kind or not an identifier, a
    ///   field name is empty, reserved or repeated, a reference names no declared parameter, or a
    ///   content field fills no field of a fitting type.
    public init(
        type: String, summary: String, versioning: KindVersioning, fields: [WidgetField], parameters: [WidgetField] = [],
        content: [ContentField] = [], references: [WidgetReference] = [], linkPolicy: LinkPolicy = .endpoint, fallback: @escaping @Sendable (JSONValue) -> [Component],
        unavailable: @escaping @Sendable (WidgetInstance) -> [Component] = { _ in [] }, sharing: ScreenplayRoutes.Sharing = .perUser,
        example: WidgetExample? = nil
    ) throws(WidgetContractError) {
        guard !Component.knownKinds.map(\.rawValue).contains(type) else {
            throw WidgetContractError("'\(type)' is a built-in component kind; a widget kind needs a name of its own")
        }
        guard ValueRules.isIdentifier(type, maximum: ValueRules.Key.maximum), !type.contains("/") else {
            throw WidgetContractError("'\(type.prefix(40))' is not a kind name: 1...64 of A-Z a-z 0-9 . _ : ~ -")
        }
        for (list, what) in [(fields, "field"), (parameters, "parameter")] {
            var seen: Set<String> = []
            for field in list {
                guard !field.name.isEmpty else { throw WidgetContractError("'\(type)' has a \(what) with an empty name") }
                guard what == "parameter" || !Self.reservedNames.contains(field.name) else {
                    throw WidgetContractError("'\(type)' declares the field '\(field.name)', a name every component reserves")
                }
                guard seen.insert(field.name).inserted else {
                    throw WidgetContractError("'\(type)' declares the \(what) '\(field.name)' twice")
                }
            }
        }
        for reference in references where !parameters.contains(where: { $0.name == reference.parameter }) {
            throw WidgetContractError("'\(type)' checks the parameter '\(reference.parameter)', which it does not declare")
        }
        try Self.checkContent(content, fields: fields, type: type)
        self.content = content
        self.references = references
        self.example = example
        self.type = type
        self.summary = summary
        self.versioning = versioning
        self.fields = fields
        self.parameters = parameters
        self.linkPolicy = linkPolicy
        self.fallback = fallback
        self.unavailable = unavailable
        self.sharing = sharing
        if let example {
            let problems =
                validateParameters(example.parameters).map { "parameters\($0.path.dropFirst())" + ": " + $0.message }
                + validate(example.component(ofKind: type)).map { "component\($0.path.dropFirst())" + ": " + $0.message }
            if let first = problems.first { throw WidgetContractError("'\(type)' has an example its contract refuses: \(first)") }
        }
    }

    /// The kind as the downgrade knows it: registered under ``type``, sent only to clients that
    /// render it at a version it exists in, replaced by ``fallback`` for everyone else.
    public var customKind: CustomComponentKind {
        CustomComponentKind(type: type, versioning: versioning, fallback: fallback)
    }

    /// Every problem of a widget's component JSON, each with its JSON path, for a client of
    /// `apiVersion`: not an object, a wrong or missing `type`, a missing required field (fields
    /// introduced after `apiVersion` are not required), a value of the wrong JSON type, a URL the
    /// link policy refuses. Unknown members and deprecated fields are warnings: old providers and
    /// new fields must be able to overlap during a migration.
    public func validate(_ json: JSONValue, apiVersion: APIVersion = .latest) -> [WidgetProblem] {
        guard case .object(let members) = json else {
            return [WidgetProblem(.notAnObject, path: "$", "a widget is a JSON object, found \(json.typeName)")]
        }
        var problems: [WidgetProblem] = []
        switch members["type"] {
        case .string(let found) where found == type:
            break
        case .string(let found):
            problems.append(WidgetProblem(.wrongKind, path: "$.type", "expected '\(type)', found '\(found.prefix(40))'"))
        case nil:
            problems.append(WidgetProblem(.missingField, path: "$.type", "missing required field 'type' (expected '\(type)')"))
        case let other?:
            problems.append(WidgetProblem(.wrongType, path: "$.type", "expected the string '\(type)', found \(other.typeName)"))
        }
        problems += Self.check(members, against: fields, apiVersion: apiVersion, linkPolicy: linkPolicy, ignoring: Self.reservedNames)
        return problems
    }

    /// Every problem of an instance's `parameters`, with paths relative to them (`$.limit`).
    public func validateParameters(_ json: JSONValue) -> [WidgetProblem] {
        guard case .object(let members) = json else {
            return [WidgetProblem(.notAnObject, path: "$", "parameters are a JSON object, found \(json.typeName)")]
        }
        return Self.check(members, against: parameters, apiVersion: .latest, linkPolicy: linkPolicy, ignoring: [])
    }

    static func check(
        _ members: [String: JSONValue], against fields: [WidgetField], apiVersion: APIVersion, linkPolicy: LinkPolicy,
        ignoring: Set<String>
    ) -> [WidgetProblem] {
        var problems: [WidgetProblem] = []
        for field in fields {
            let path = JSONPath.render([AnyCodingKey(field.name)])
            guard let value = members[field.name], value != .null else {
                if field.isRequired && field.introduced <= apiVersion {
                    let found = members[field.name] == nil ? "missing" : "null for"
                    problems.append(WidgetProblem(.missingField, path: path, "\(found) required field '\(field.name)'"))
                }
                continue
            }
            if let note = field.deprecation {
                problems.append(WidgetProblem(.deprecatedField, path: path, "'\(field.name)' is deprecated: \(note)"))
            }
            if let problem = field.type.problem(with: value, linkPolicy: linkPolicy) {
                problems.append(WidgetProblem(problem.kind, path: path, "'\(field.name)': \(problem.message)"))
            }
        }
        let known = Set(fields.map(\.name)).union(ignoring)
        for name in members.keys.sorted() where !known.contains(name) {
            problems.append(
                WidgetProblem(.unknownField, path: JSONPath.render([AnyCodingKey(name)]), "'\(name.prefix(40))' is not in the contract"))
        }
        return problems
    }
}

/// A sample of a widget kind, declared with its contract (``WidgetContract/example``): the vertical
/// that answers the kind, the parameters a new instance starts with, and a component the vertical
/// could answer. The layout admin's palette renders the component as web clients and older apps
/// see it (through the kind's fallback), so a product person sees what they are adding.
public struct WidgetExample: Sendable, Hashable {
    /// The vertical whose provider answers the kind: a widget added from the palette asks it.
    public let vertical: String
    /// The parameters a new instance starts with; valid against ``WidgetContract/parameters``.
    public let parameters: JSONValue
    /// A component the vertical could answer, `type` included; valid against the kind's fields.
    public let component: JSONValue

    /// An example; `component` may leave out `type`, which the contract's is.
    public init(vertical: String, parameters: JSONValue = [:], component: JSONValue) {
        self.vertical = vertical
        self.parameters = parameters
        self.component = component
    }

    /// The component with `type` set to `kind` when it has none.
    func component(ofKind kind: String) -> JSONValue {
        guard case .object(var members) = component, members["type"] == nil else { return component }
        members["type"] = .string(kind)
        return .object(members)
    }
}

/// A contract that cannot be declared: a clash with a built-in kind, a reserved or repeated
/// field name. A programming error in the app's setup, reported with the kind's name.
public struct WidgetContractError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the kind and field.
    public let message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}

extension WidgetFieldType {
    /// What is wrong with `value` for this type, or `nil`.
    func problem(with value: JSONValue, linkPolicy: LinkPolicy) -> (kind: WidgetProblem.Kind, message: String)? {
        let fits: Bool
        switch self {
        case .string: fits = value.stringValue != nil
        case .integer: fits = value.integerValue != nil
        case .number: fits = value.numberValue.map(\.isFinite) ?? false
        case .boolean: fits = value.boolValue != nil
        case .object: fits = value.objectValue != nil
        case .array: fits = value.arrayValue != nil
        case .url:
            guard let link = value.stringValue else { return (.wrongType, "expected a URL string, found \(value.typeName)") }
            do {
                try linkPolicy.check(link)
                return nil
            } catch {
                return (.invalidURL, error.message)
            }
        }
        return fits ? nil : (.wrongType, "expected \(article) \(rawValue), found \(value.typeName)")
    }

    private var article: String { self == .integer || self == .object || self == .array ? "an" : "a" }
}

/// One thing wrong with a widget's JSON or an instance's parameters, and where.
public struct WidgetProblem: Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is; decides the severity.
    public enum Kind: String, Sendable, Hashable {
        /// The value is not a JSON object.
        case notAnObject
        /// `type` names another kind.
        case wrongKind
        /// A required field is absent or null.
        case missingField
        /// A field has the wrong JSON type.
        case wrongType
        /// A `url` field holds a link the policy refuses.
        case invalidURL
        /// A member the contract does not declare (a warning: clients ignore it).
        case unknownField
        /// A deprecated field is still sent (a warning).
        case deprecatedField
        /// Content the kind does not declare, or text in a locale the app does not write in: an
        /// error, not a warning, since what someone wrote would silently never show.
        case unknownContent
        /// A text longer than its content field allows.
        case tooLong
        /// The component's v4 attributes break a rule (`id`, `bind`, `accessibility`).
        case invalidAttribute
        /// A client of the page's version could not decode it (a number out of range, a string
        /// that is not text); the message says where.
        case unreadable
    }

    /// What kind of problem it is.
    public let kind: Kind
    /// The JSON path, relative to the widget's object (`$.price`).
    public let path: String
    /// What is wrong, naming the field and the value's type.
    public let message: String

    /// Creates a problem.
    public init(_ kind: Kind, path: String, _ message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    /// Whether the widget may still be shown: unknown and deprecated fields are warnings, the
    /// rest errors.
    public var isWarning: Bool { kind == .unknownField || kind == .deprecatedField }

    /// `$.price: 'price': expected a string, found a number`.
    public var description: String { "\(path): \(message)\(isWarning ? " (warning)" : "")" }
}
