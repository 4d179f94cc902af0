// Fixtures shared by the test targets (identities, requests, stores); never part of a product.

import Foundation
public import HTTPTypes
public import ScreenplayContract
public import ScreenplayServer
import Synchronization

/// Hands out sequential users; a token is `"token-<id>"`. Counts how often it was asked.
public final class CountingIdentities: IdentityResolver {
    private let state = Mutex((next: Int64(1), calls: 0))

    public init() {}

    /// How many times a token was resolved.
    public var calls: Int { state.withLock { $0.calls } }

    public func resolve(token: String?, creating: Bool) async throws -> ResolvedIdentity {
        try state.withLock { state in
            state.calls += 1
            if let token {
                guard token.hasPrefix("token-"), let id = Int64(token.dropFirst(6)) else {
                    throw ScreenplayError.invalidToken("bad token '\(token)'")
                }
                return ResolvedIdentity(user: UserIdentity(id: id), issuedToken: nil)
            }
            guard creating else { return ResolvedIdentity(user: .anonymous, issuedToken: nil) }
            defer { state.next += 1 }
            return ResolvedIdentity(user: UserIdentity(id: state.next), issuedToken: "token-\(state.next)")
        }
    }
}

/// Counts calls, for cache assertions.
public final class Counter: Sendable {
    private let value = Mutex(0)

    public init() {}
    public func increment() { value.withLock { $0 += 1 } }
    public var count: Int { value.withLock { $0 } }
}

/// A request to the service as an HTTP client would send it.
public func request(_ method: HTTPRequest.Method, _ path: String, headers: HTTPFields = [:]) -> HTTPRequest {
    HTTPRequest(method: method, scheme: "http", authority: "localhost", path: path, headerFields: headers)
}

public func decodeError(_ response: ScreenplayService.Response) throws -> ErrorBody {
    try ScreenplayDecoder().decode(ErrorBody.self, from: .init(response.body)).value
}
