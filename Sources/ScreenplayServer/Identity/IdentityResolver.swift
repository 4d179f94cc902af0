/// Turns the token a client sends into a user, handing out a new identity when there is none.
///
/// Apps send the token as `Authorization: Bearer <token>`; browsers carry it in a cookie. A
/// client without a token (or with one the store does not know) gets a fresh user, and the
/// response carries the new token so the client can keep it.
public protocol IdentityResolver: Sendable {
    /// Resolves `token`; `nil` means the client has none yet.
    ///
    /// Throw ``ScreenplayError/invalidToken(_:)`` for a token that is malformed.
    func resolve(token: String?) async throws -> ResolvedIdentity
}

/// The outcome of resolving a token.
public struct ResolvedIdentity: Sendable, Hashable {
    /// Who the request is from.
    public let user: UserIdentity
    /// A token to hand the client, when this request created the identity.
    public let issuedToken: String?

    /// Creates an outcome.
    public init(user: UserIdentity, issuedToken: String?) {
        self.user = user
        self.issuedToken = issuedToken
    }
}
