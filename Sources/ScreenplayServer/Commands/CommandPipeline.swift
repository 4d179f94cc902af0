import HTTPTypes
import Logging
import ScreenplayContract

/// How a command is answered: admission → (idempotency) → perform → result.
///
/// Over HTTP (``respond(to:at:body:clientAddress:)``), once the route's policy has admitted the
/// request (``ScreenplayService/admit(_:at:bodySize:clientAddress:)``: its body's size, the
/// cross-site rule, the sender's budget): with an `Idempotency-Key`, the ledger
/// (CommandPipeline+Idempotency.swift); then the payload is parsed, the identity resolved (a
/// client's first command creates it, unless the command runs anonymously for clients without a
/// token: ``ScreenplayRoutes/CommandIdentity/anonymous``), the handler run, and its result
/// downgraded for the client's version and encoded. In process (``perform(command:payload:apiVersion:user:)``), the
/// handler and the checks of its result only, for hosts such as the web pages.
struct CommandPipeline: Sendable {
    let routes: ScreenplayRoutes
    let identity: any IdentityResolver
    let admission: CommandAdmission
    let ledger: any IdempotencyStore
    let boundary: BuilderBoundary
    let versions: APIVersionPolicy
    let logger: Logger

    /// Answers `POST {prefix}/v{N}/commands/{path}`.
    func respond(to request: HTTPRequest, at endpoint: APIEndpoint, body: [UInt8], clientAddress: String?) async throws
        -> ScreenplayService.Response
    {
        let route = routes.commandRoute(for: endpoint.segments)?.0
        var response = try await idempotently(request, at: endpoint, route: route, body: body)
        versions.addDeprecation(to: &response.head, version: endpoint.version)
        return response
    }

    /// Performs the command at `path` under `commands/` for `user`, the result's screen (if any)
    /// checked as a built screen is. Not downgraded: in-process hosts speak the latest version.
    func perform(
        command path: String, payload: JSONValue, apiVersion: APIVersion, user: UserIdentity
    ) async throws(ScreenplayError) -> CommandResult {
        let segments = RequestTarget.segments(of: path)
        guard let (route, parameters) = routes.commandRoute(for: segments) else { throw Self.noCommand(path) }
        try CommandPayload.checkStorage(in: payload)
        if route.payload != nil, payload.objectValue == nil {
            // A command that declares its fields reads them from an object (an empty body is `{}`).
            throw ScreenplayError.invalidField("$", "the body must be a JSON object with the command's fields, found \(payload.typeName)")
        }
        let request = CommandRequest(
            path: segments.joined(separator: "/"), parameters: parameters, payload: payload, apiVersion: apiVersion, user: user)
        var result: CommandResult
        do {
            result = try await route.perform(request)
        } catch {
            throw boundary.answer(for: error, in: "command '\(request.path)'")
        }
        if case .screen(let replacement) = result.outcome {
            result.outcome = .screen(try boundary.checked(replacement, what: "the screen command '\(request.path)' answered with"))
        }
        return result
    }

    /// Parses, identifies, performs and encodes one command (no idempotency: see
    /// CommandPipeline+Idempotency.swift). A server failure once the handler has started is an
    /// ``ExecutedCommandFailure``: what failed after a write may have been committed.
    func performOnce(
        _ request: HTTPRequest, at endpoint: APIEndpoint, route: ScreenplayRoutes.CommandRoute?, body: [UInt8]
    ) async throws -> ScreenplayService.Response {
        let payload = try CommandPayload.parse(body, contentType: request.headerFields[.contentType])
        let path = endpoint.path
        guard let route else { throw Self.noCommand(path) }
        let resolved = try await identity.resolve(
            token: ScreenplayService.token(in: request.headerFields), creating: route.identity == .created)
        try CommandPayload.checkStorage(in: payload)
        // From here on the handler runs: a failure is an answer a retry must get, not a reason to
        // run the command again.
        // What the handler's writes commit is recorded, for the answer's revision header.
        let result: CommandResult
        let revision: Int64?
        do {
            (result, revision) = try await RevisionWatermark.recordingWrites(of: resolved.user) { () async throws(ScreenplayError) in
                try await perform(command: path, payload: payload, apiVersion: endpoint.version, user: resolved.user)
            }
        } catch {
            if error.status.code >= 500 { throw ExecutedCommandFailure(error: error) }
            throw error
        }
        var head = ScreenplayService.jsonHead(cacheControl: "no-store")
        if let token = resolved.issuedToken { head.headerFields[ScreenplayService.tokenHeader] = token }
        if let revision { head.headerFields[ScreenplayService.revisionHeader] = String(revision) }
        let clientKinds = ScreenplayService.clientKinds(in: request.headerFields, known: routes.customKinds)
        var shaped = Downgrade(to: endpoint.version, customKinds: routes.customKinds, clientKinds: clientKinds).result(result)
        if case .screen(let replacement) = shaped.outcome { shaped.outcome = .screen(replacement.identified(for: endpoint.version)) }
        do {
            return ScreenplayService.Response(head: head, body: Array(try ScreenplayEncoder(apiVersion: endpoint.version).encode(shaped)))
        } catch {
            logger.error("the answer of command '\(path)' could not be encoded", metadata: ["error": "\(error)"])
            throw ExecutedCommandFailure(error: .internalError("the command ran but its answer could not be encoded"))
        }
    }

    /// A command that failed once its handler had started: what failed after a write may have
    /// been committed (the handler itself, or encoding its answer). Only the idempotency path
    /// sees it; everywhere else it is its ``error``.
    struct ExecutedCommandFailure: Error {
        let error: ScreenplayError
    }

    static func noCommand(_ path: String) -> ScreenplayError {
        .notFound("no command at 'commands/\(path)'", path: "commands/" + path)
    }
}
