// Widget fields are contract data: the schema generator, the docs and the composer all read them.

/// One field of a widget contract.
public struct WidgetField: Codable, Sendable, Hashable {
    /// The member name in the component's JSON.
    public var name: String
    /// The JSON type its value must have.
    public var type: WidgetFieldType
    /// Whether every widget of the kind must carry it (from ``introduced`` on).
    public var isRequired: Bool
    /// The API version whose clients first read it: a required field is not required from
    /// providers answering older clients, and docs show when it appeared.
    public var introduced: APIVersion
    /// Why the field should no longer be sent and what replaces it; `nil` while it is current.
    public var deprecation: String?
    /// What the field holds, for docs and the admin.
    public var summary: String
    /// Whether the field may come from a shared entity instead of the widget's own JSON (v4
    /// `bind`): such a field, though required, may be left out of the component when it is bound,
    /// so the fact is sent once, in the entity. Clients older than bindings receive it resolved.
    public var isBindable: Bool

    /// Creates a field; ``required(_:_:introduced:summary:)`` and
    /// ``optional(_:_:introduced:summary:)`` read better at the call site.
    public init(
        name: String, type: WidgetFieldType, isRequired: Bool, introduced: APIVersion = .v1, deprecation: String? = nil,
        summary: String = ""
    ) {
        self.name = name
        self.type = type
        self.isRequired = isRequired
        self.introduced = introduced
        self.deprecation = deprecation
        self.summary = summary
        self.isBindable = false
    }

    private enum CodingKeys: String, CodingKey {
        case name, type, isRequired, introduced, deprecation, summary, isBindable
    }

    /// Reads a field; `isBindable` may be absent (fields written before it existed).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.name = try container.decode(String.self, forKey: .name)
        self.type = try container.decode(WidgetFieldType.self, forKey: .type)
        self.isRequired = try container.decode(Bool.self, forKey: .isRequired)
        self.introduced = try container.decode(APIVersion.self, forKey: .introduced)
        self.deprecation = try container.decodeIfPresent(String.self, forKey: .deprecation)
        self.summary = try container.decodeIfPresent(String.self, forKey: .summary) ?? ""
        self.isBindable = try container.decodeIfPresent(Bool.self, forKey: .isBindable) ?? false
    }

    /// A field every widget of the kind carries.
    public static func required(
        _ name: String, _ type: WidgetFieldType, introduced: APIVersion = .v1, summary: String = ""
    )
        -> WidgetField
    {
        WidgetField(name: name, type: type, isRequired: true, introduced: introduced, summary: summary)
    }

    /// A field a widget may leave out.
    public static func optional(
        _ name: String, _ type: WidgetFieldType, introduced: APIVersion = .v1, summary: String = ""
    )
        -> WidgetField
    {
        WidgetField(name: name, type: type, isRequired: false, introduced: introduced, summary: summary)
    }

    /// The field marked deprecated, with what to do instead: still accepted, but each use is a
    /// warning naming the note.
    public func deprecated(_ note: String) -> WidgetField {
        var copy = self
        copy.deprecation = note
        return copy
    }

    /// The field marked bindable: a component may leave it out when its `bind` names it.
    public func bindable() -> WidgetField {
        var copy = self
        copy.isBindable = true
        return copy
    }

    /// Whether the field is deprecated.
    public var isDeprecated: Bool { deprecation != nil }
}

/// The JSON types a widget field can have. `url` is a string the contract's ``LinkPolicy``
/// accepts, so a widget cannot smuggle a `javascript:` link past the checks built-in kinds get.
public enum WidgetFieldType: String, Codable, Sendable, Hashable, CaseIterable {
    /// Any string.
    case string
    /// A number without fraction.
    case integer
    /// Any number.
    case number
    /// `true` or `false`.
    case boolean
    /// A string holding a link the contract's link policy accepts.
    case url
    /// A JSON object (its members are the widget's business).
    case object
    /// A JSON array.
    case array
}

extension WidgetFieldType {
    /// The JSON Schema of a value of this type; `url` fields carry the link policy's pattern.
    public func schema(linkPolicy: LinkPolicy) -> JSONValue {
        switch self {
        case .string: ["type": "string"]
        case .integer: ["type": "integer"]
        case .number: ["type": "number"]
        case .boolean: ["type": "boolean"]
        case .object: ["type": "object"]
        case .array: ["type": "array"]
        case .url: linkPolicy.schema
        }
    }
}
