import SQLKit

/// One change to layouts or experiments: who did what to which page, when.
/// Encodable: the admin API sends it as it is, member for member.
public struct AuditEntry: Sendable, Hashable, Encodable {
    /// Increasing.
    public var id: Int64
    /// When (ISO 8601, UTC).
    public var at: String
    /// The admin who did it.
    public var actor: String
    /// `save draft`, `publish`, `rollback`, `disable widget`, `save experiment`…
    public var action: String
    /// The route, or `experiment:KEY`.
    public var subject: String
    /// The revision it produced, for publishes.
    public var revision: Int?
    /// What else there is to say (the note, the widget).
    public var detail: String

    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: Int64.self)
        at = try row.decode(column: "at", as: String.self)
        actor = try row.decode(column: "actor", as: String.self)
        action = try row.decode(column: "action", as: String.self)
        subject = try row.decode(column: "subject", as: String.self)
        revision = try row.decode(column: "revision", as: Int?.self)
        detail = try row.decode(column: "detail", as: String.self)
    }
}
