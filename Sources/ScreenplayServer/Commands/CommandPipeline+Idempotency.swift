import HTTPTypes
import ScreenplayContract

extension CommandPipeline {
    /// A command, answered once per `Idempotency-Key`: a retry with the same key and request gets
    /// the first answer (with `Idempotent-Replayed: true`) and changes nothing; the same key with
    /// another request is a 422; a retry while the first attempt runs is a 409. The answer is
    /// recorded with the command's writes (``IdempotencyStore``), so a crash between them cannot
    /// leave a write without its answer. Without a key, or without a token, the command simply runs.
    /// `route`: the command's route (`nil`: none, answered 404 before anything runs).
    func idempotently(
        _ request: HTTPRequest, at endpoint: APIEndpoint, route: ScreenplayRoutes.CommandRoute?, body: [UInt8]
    ) async throws -> ScreenplayService.Response {
        // A client's first command (no token) is never replayed: the answer carries a new
        // identity's token, which must go to nobody else, whatever key they send.
        let key = request.headerFields[ScreenplayService.idempotencyKeyHeader]
        // A malformed key is refused whether or not it would be used: a client learns of its bug
        // on its first command, not on the first one it retries.
        if let key, !(1...255).contains(key.utf8.count) || !key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) {
            throw ScreenplayError(
                status: .badRequest, code: "invalidHeader", message: "Idempotency-Key must be 1...255 visible ASCII characters",
                path: "Idempotency-Key")
        }
        guard let key, let token = ScreenplayService.token(in: request.headerFields) else {
            return try await performOnce(request, at: endpoint, route: route, body: body)
        }
        // Scoped by the user the token resolves to (a revoked or unknown token is refused here,
        // before anything is replayed).
        let owner = try await identity.resolve(token: token, creating: false).user
        let entry = IdempotencyKey(scope: "user:\(owner.id)", key: key)
        let fingerprint = ETag.strong(for: Array((request.path ?? "").utf8) + [0] + body)
        let outcome = try await ledger.once(entry, fingerprint: fingerprint) { [self] in
            do {
                return try await performOnce(request, at: endpoint, route: route, body: body)
            } catch let error as ScreenplayError where error.status.code < 500 {
                // A refusal is an answer too: the retry gets the same one.
                return ScreenplayService.errorResponse(error)
            }
            // Anything else (the handler failed, the database went away) is thrown: the ledger
            // records nothing and rolls back what the command wrote, so a retry runs it again.
        }
        switch outcome {
        case .answered(let response):
            return response
        case .replay(var response):
            response.head.headerFields[ScreenplayService.replayedHeader] = "true"
            return response
        case .conflict:
            throw ScreenplayError(
                status: .unprocessableContent, code: "idempotencyKeyReused",
                message: "this Idempotency-Key was used for a different command or body; use a new key", path: "Idempotency-Key")
        case .inProgress:
            throw ScreenplayError(
                status: .conflict, code: "idempotencyKeyInProgress",
                message: "the first request with this Idempotency-Key is still running; retry in a moment", path: "Idempotency-Key")
        }
    }
}
