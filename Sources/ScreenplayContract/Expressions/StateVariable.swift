/// A variable a screen declares (contract/expressions/README.md, "Screens, state and bindings"):
/// its type, the value a fresh screen starts from, and how long it lives.
public struct StateVariable: Sendable, Hashable {
    /// How long a value lives.
    public enum Scope: String, Sendable, Hashable, CaseIterable {
        /// As long as the screen is shown; a fresh screen starts from ``StateVariable/initial``.
        case screen
        /// Kept in the client's storage across launches, under the variable's name.
        case app
    }

    /// Its type: what every expression that reads it is checked against.
    public let type: ExpressionType
    /// The value a fresh screen (or a first launch, for ``Scope/app``) starts from.
    public let initial: ExpressionValue
    /// How long a value lives.
    public let scope: Scope

    /// A declaration, or ``ContractViolation`` when `initial` is not of `type` (checked by reading
    /// it back as that type, as decoding would).
    public init(_ type: ExpressionType, initial: ExpressionValue, scope: Scope = .screen) throws(ContractViolation) {
        guard ExpressionValue(json: initial.json, as: type) != nil else {
            throw ContractViolation("the initial value \(String(describing: initial).prefix(80)) is not a \(type)")
        }
        self.type = type
        self.initial = initial
        self.scope = scope
    }

    /// Whether `name` may be declared: an identifier of the language (letters, digits, `_`, not
    /// starting with a digit, at most 64 characters), not `true` or `false`, not a client variable.
    public static func isDeclarable(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 64, !("0"..."9").contains(first) else { return false }
        let identifier = name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
        return identifier && !["true", "false"].contains(name) && ClientVariables.types[name] == nil
    }
}

/// The variables the client provides to every screen, read-only: what is playing, the platform,
/// the clock. A screen cannot declare these names.
public enum ClientVariables {
    /// The type of `player`.
    public static let playerType = ExpressionType.record(["trackID": .string, "playing": .bool, "position": .number, "title": .string])

    /// Their types.
    public static let types: [String: ExpressionType] = ["player": playerType, "platform": .string, "now": .int]

    /// The client's variables and those `state` declares: what a screen's expressions may read.
    /// (A declaration of a client variable's name is refused when decoded; here the client's wins.)
    public static func types(with state: [String: StateVariable]) -> [String: ExpressionType] {
        types.merging(state.mapValues(\.type)) { client, _ in client }
    }

    /// What they are before the client says otherwise, and on the server when it evaluates
    /// bindings for old apps: nothing playing, an unnamed platform, the start of 1970.
    public static let defaults: [String: ExpressionValue] = [
        "player": .record(["trackID": .string(""), "playing": .bool(false), "position": .number(0), "title": .string("")]),
        "platform": .string(""), "now": .int(0),
    ]
}

/// A property of a component an expression may compute (the README's table of bindings).
public enum BindableProperty: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The kind's text (a text's text, a button's title, a row's title).
    case text
    /// Whether it is shown at all.
    case visible
    /// Whether it can be used.
    case enabled
    /// Marked as the current one (`aria-current` on the web).
    case selected
    /// A style token of the kind.
    case style
    /// A text field's verdict on what was typed: the message it shows while the text is not
    /// acceptable (its submit disabled meanwhile), empty while it is. The server still checks.
    case validation

    /// The type its expression must have.
    public var type: ExpressionType {
        switch self {
        case .text, .style, .validation: .string
        case .visible, .enabled, .selected: .bool
        }
    }

    /// By name, for a stable order.
    public static func < (lhs: BindableProperty, rhs: BindableProperty) -> Bool { lhs.rawValue < rhs.rawValue }
}
