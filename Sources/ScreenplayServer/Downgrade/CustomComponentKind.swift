public import ScreenplayContract

/// A component kind an app adds on its own, without forking the library: a wire name, the
/// version it needs, and a fallback for clients that cannot show it.
///
/// Server code builds instances with ``ScreenplayContract/Component/custom(_:fields:)``. A
/// client receives the kind only when its API version is at least ``versioning``'s `introduced`
/// and it named the kind in the `Screenplay-Components` request header (apps list the custom
/// renderers they registered); every other client gets ``fallback``'s components instead.
public struct CustomComponentKind: Sendable {
    /// The wire `type`; must not clash with a built-in kind.
    public let type: String
    /// When it joined the contract, and what older clients get, in words.
    public let versioning: KindVersioning
    /// Builds the replacement from the component's JSON (return `[]` to drop it).
    public let fallback: @Sendable (JSONValue) -> [Component]

    /// Declares a custom kind.
    public init(type: String, versioning: KindVersioning, fallback: @escaping @Sendable (JSONValue) -> [Component]) {
        precondition(!Component.knownKinds.map(\.rawValue).contains(type), "'\(type)' is a built-in component kind")
        self.type = type
        self.versioning = versioning
        self.fallback = fallback
    }
}

extension Component {
    /// An instance of an app-defined kind: `type` plus its fields, sent as one JSON object.
    public static func custom(_ type: String, fields: [String: JSONValue]) -> Component {
        var object = fields
        object["type"] = .string(type)
        return .unknown(Unknown(type: type, json: .object(object)))
    }
}
