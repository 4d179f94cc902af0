/// What a command is expected to change, applied by the client before the server answers (v5).
///
/// A favorite toggle flips at once: the client patches the named entity members on every screen of
/// its stack, marks the nodes bound to them pending, sends the command, then takes the server's
/// answer (which wins) or puts the members back when the command fails or times out. Only entity
/// members can be predicted this way: they are facts the server also patches in its answer, so a
/// wrong guess is corrected by the same mechanism that confirms a right one. Clients older than v5
/// never see it and wait for the answer, as before.
public struct OptimisticOutcome: Sendable, Hashable {
    /// The version that introduced optimistic outcomes.
    public static let introduced = APIVersion.v5

    /// Entity members to set at once, by entity id (the same shape as a result's patch).
    public var entities: Entities

    /// Creates an expected outcome.
    public init(entities: Entities) { self.entities = entities }
}

extension OptimisticOutcome: Codable {
    enum CodingKeys: String, CodingKey { case entities }

    /// Decodes `entities`, held to the same limits as a screen's entities.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        entities = try container.decode(checkedBy: ValueRules.EntityValues.self, forKey: .entities)
    }

    /// Writes `entities`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entities, forKey: .entities)
    }
}
