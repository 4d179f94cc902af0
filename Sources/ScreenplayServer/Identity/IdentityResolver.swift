/// Turns the token a client sends into a user, handing out a new identity when a client without
/// one first writes.
///
/// Apps send the token as `Authorization: Bearer <token>`; browsers carry it in a cookie.
/// - A client that only reads needs no identity and costs no row: without a token it is
///   ``UserIdentity/anonymous``, and every anonymous reader shares the same cached screens.
/// - A client's first command creates its identity; the response carries the new token.
/// - A token the resolver does not know (never issued, or revoked) is refused with
///   ``ScreenplayError/unknownToken(_:)``, a 401: it never silently becomes someone new, so a
///   command can never "succeed" for a user nobody will see again.
public protocol IdentityResolver: Sendable {
    /// Resolves `token`; `nil` means the client has none. `creating` says whether the request
    /// writes (a command): then a client without a token gets a new identity; a read gets
    /// ``UserIdentity/anonymous``.
    ///
    /// Throw ``ScreenplayError/invalidToken(_:)`` for a malformed token and
    /// ``ScreenplayError/unknownToken(_:)`` for a well-formed one that resolves to nobody.
    func resolve(token: String?, creating: Bool) async throws -> ResolvedIdentity
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
