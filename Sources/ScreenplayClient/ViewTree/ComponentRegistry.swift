public import ScreenplayContract

/// The app-defined component kinds this client renders, and how each becomes nodes.
///
/// Two ways to plug a kind in: resolve it into ordinary nodes (a decodable model and a function,
/// so every renderer draws it with no extra code), or resolve it into one ``NodeRole/custom``
/// node that each renderer's own registry draws (a native map, a video player). Kinds not
/// registered resolve to nothing and are logged.
public struct ComponentRegistry: Sendable {
    /// How one kind resolves: the component's JSON (with `type`) and the id its node gets.
    public typealias Resolve = @Sendable (_ json: JSONValue, _ id: NodeID) throws -> [ViewNode]

    private var resolvers: [String: Resolve] = [:]

    /// An empty registry.
    public init() {}

    /// The kinds registered; what a loader sends in `Screenplay-Components`.
    public var kinds: Set<String> { Set(resolvers.keys) }

    /// Registers `kind`, decoded as `model` and turned into nodes by `resolve`. A component that
    /// does not decode as the model is left out and logged with the decoder's reason.
    public mutating func register<Model: Decodable & Sendable>(
        _ kind: String, as model: Model.Type, resolve: @escaping @Sendable (Model, NodeID) -> [ViewNode]
    ) {
        resolvers[kind] = { json, id in
            let data = try ScreenplayEncoder().encode(json)
            let decoded = try ScreenplayDecoder(mode: .strict).decode(Model.self, from: data)
            return resolve(decoded.value, id)
        }
    }

    /// Registers `kind` as one ``NodeRole/custom`` node carrying the component's JSON, for a
    /// renderer's own view; `label` gives it an accessibility label from that JSON.
    public mutating func registerCustomNode(_ kind: String, label: (@Sendable (JSONValue) -> String?)? = nil) {
        resolvers[kind] = { json, id in
            [
                ViewNode(
                    id: id, role: .custom, accessibility: NodeAccessibility(label: label?(json)), customKind: kind, customData: json)
            ]
        }
    }

    /// Resolves a component of an app-defined kind, or `nil` when the kind is not registered.
    func resolve(kind: String, json: JSONValue, id: NodeID) throws -> [ViewNode]? {
        guard let resolver = resolvers[kind] else { return nil }
        return try resolver(json, id)
    }
}
