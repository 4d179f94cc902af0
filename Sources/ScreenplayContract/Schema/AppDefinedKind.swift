/// A component kind an app adds to the contract (a widget kind), described as data so the
/// schema generator, the Markdown docs and `contract-check` list it beside the built-in kinds.
///
/// Built-in kinds are described by running their decoders; an app-defined kind has no decoder in
/// the library, only its declared fields. It differs from a built-in kind in one way that matters
/// for compatibility: the server sends it only to apps that name it in the
/// ``requestHeader`` header (apps list the renderers they registered), and every other client gets
/// its fallback. Adding such a kind therefore breaks no app in the field, which the schema says
/// with `x-requested-by-header` and `contract-diff` honours.
public struct AppDefinedKind: Sendable, Hashable {
    /// The request header in which apps list the app-defined kinds they render.
    public static let requestHeader = "Screenplay-Components"

    /// The wire `type` of the kind's components.
    public let type: String
    /// One sentence on what the kind is for.
    public let summary: String
    /// The version the kind needs and what older clients (and apps that do not render it) get.
    public let versioning: KindVersioning
    /// The component's fields, in the order the contract declares them.
    public let fields: [WidgetField]
    /// Which links the kind's `url` fields may hold.
    public let linkPolicy: LinkPolicy

    /// Describes a kind. The declaring API (the server's `WidgetContract`) checks names; this is
    /// the data it hands to the tools.
    public init(type: String, summary: String, versioning: KindVersioning, fields: [WidgetField], linkPolicy: LinkPolicy) {
        self.type = type
        self.summary = summary
        self.versioning = versioning
        self.fields = fields
        self.linkPolicy = linkPolicy
    }

    /// The JSON Schema (draft 2020-12) of the kind's components as clients of `version` receive
    /// them: `type` as a constant, the fields that exist at `version` with their JSON types (links
    /// with the link policy's pattern), `required` for the required ones introduced by then, each
    /// field's `x-introduced`, and `deprecated` with the note as `x-deprecation`. From v4, a
    /// required field that is bindable is not in `required` but marked `x-required-unless-bound`:
    /// the component may leave it out when its `bind` names it. Members not
    /// listed are allowed, as for built-in kinds: clients ignore members they do not know.
    ///
    /// The kind-level annotations (`x-introduced`, `x-fallback`, the shared v4 attributes) are
    /// added by the schema generator, the same way for built-in and app-defined kinds.
    public func schema(for version: APIVersion) -> JSONValue {
        var properties: [String: JSONValue] = ["type": ["const": .string(type)]]
        var required: [JSONValue] = ["type"]
        for field in fields where field.introduced <= version {
            var property = field.type.schema(linkPolicy: linkPolicy).objectValue ?? [:]
            // A field cannot reach clients before its kind does.
            property["x-introduced"] = .integer(max(field.introduced, versioning.introduced).rawValue)
            if !field.summary.isEmpty { property["description"] = .string(field.summary) }
            if let note = field.deprecation {
                property["deprecated"] = true
                property["x-deprecation"] = .string(note)
            }
            // From v4 a bound field may be left out: its value is the entity's, sent once.
            let boundMayBeAbsent = field.isBindable && version >= ComponentAttributes.introduced
            if field.isRequired && boundMayBeAbsent { property["x-required-unless-bound"] = true }
            properties[field.name] = .object(property)
            if field.isRequired && !boundMayBeAbsent { required.append(.string(field.name)) }
        }
        var schema: [String: JSONValue] = [
            "type": "object", "properties": .object(properties), "required": .array(required),
            "x-app-defined": true, "x-requested-by-header": .string(Self.requestHeader),
        ]
        if !summary.isEmpty { schema["description"] = .string(summary) }
        return .object(schema)
    }
}
