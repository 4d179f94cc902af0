/// Who is asking: an identity the server handed out on the client's first request.
public struct UserIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The user's stable id in the store.
    public let id: Int64

    /// Wraps a stored id.
    public init(id: Int64) { self.id = id }

    /// Whoever reads without a token: no row, no data of their own, one shared cache entry per
    /// screen. Id 0, which no store hands out.
    public static let anonymous = UserIdentity(id: 0)

    /// Whether this is ``anonymous``.
    public var isAnonymous: Bool { id == 0 }

    /// `user 42`.
    public var description: String { "user \(id)" }
}
