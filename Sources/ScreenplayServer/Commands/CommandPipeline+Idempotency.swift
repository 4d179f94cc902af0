import Logging
import HTTPTypes
import ScreenplayContract

extension CommandPipeline {
    /// A command, answered once per `Idempotency-Key`: a retry with the same key and request gets
    /// the first answer (with `Idempotent-Replayed: true`) and changes nothing; the same key with
    /// another request is a 422; a retry while the first attempt runs is a 409. Without a key, or
    /// without a token, the command simply runs.
    /// `route`: the command's route (`nil`: none, answered 404 before anything runs).
    func idempotently(
        _ request: HTTPRequest, at endpoint: APIEndpoint, route: ScreenplayRoutes.CommandRoute?, body: [UInt8]
    ) async throws -> ScreenplayService.Response {
        // A client's first command (no token) is never replayed: the answer carries a new
        // identity's token, which must go to nobody else, whatever key they send.
        guard let key = request.headerFields[ScreenplayService.idempotencyKeyHeader],
            let token = ScreenplayService.token(in: request.headerFields)
        else {
            return try await performOnce(request, at: endpoint, route: route, body: body)
        }
        guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw ScreenplayError(
                status: .badRequest, code: "invalidHeader", message: "Idempotency-Key must be 1...255 visible ASCII characters",
                path: "Idempotency-Key")
        }
        // Scoped by the user the token resolves to (a revoked or unknown token is refused here,
        // before anything is replayed).
        let owner = try await identity.resolve(token: token, creating: false).user
        let entry = IdempotencyKey(scope: "user:\(owner.id)", key: key)
        let fingerprint = ETag.strong(for: Array((request.path ?? "").utf8) + [0] + body)
        switch try await ledger.begin(entry, fingerprint: fingerprint) {
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
        case .fresh:
            break
        }
        let answer: ScreenplayService.Response
        let failure: ScreenplayError?
        do {
            answer = try await performOnce(request, at: endpoint, route: route, body: body)
            failure = nil
        } catch let failed as ExecutedCommandFailure where failed.error.code == ScreenplayError.storeUnavailableCode {
            // The database was unreachable before anything committed: a retry may run it.
            try? await ledger.abandon(entry)
            throw failed.error
        } catch let failed as ExecutedCommandFailure {
            // The handler ran (and may have written): a retry must not run it again, so the
            // failure is the answer, as a refusal is.
            (answer, failure) = (ScreenplayService.errorResponse(failed.error), failed.error)
        } catch let error as ScreenplayError where error.status.code < 500 {
            // A refusal is an answer too: the retry gets the same one.
            (answer, failure) = (ScreenplayService.errorResponse(error), error)
        } catch {
            // Failed before the handler ran (the database was busy resolving the token): nothing
            // happened, so a retry may run it.
            try? await ledger.abandon(entry)
            throw error
        }
        do {
            try await ledger.finish(entry, fingerprint: fingerprint, response: answer)
        } catch {
            // The command's answer stands; the ledger keeps the claim, so a retry is told the
            // first attempt is in progress rather than run again.
            logger.error("an idempotent answer could not be recorded", metadata: ["key": "\(key)", "error": "\(error)"])
        }
        if let failure { throw failure }
        return answer
    }
}
