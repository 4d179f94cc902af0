import HTTPTypes
import ScreenplayContract

extension ScreenplayService {
    /// The policy of each of the API's endpoints, declared once: ``routeTable(version:)`` states
    /// it for each route (and the OpenAPI description with it), and ``admit(_:at:bodySize:clientAddress:)``
    /// applies it to every request before its pipeline runs.
    func policy(for kind: APIEndpoint.Kind) -> RequestPolicy {
        switch kind {
        case .screens: RequestPolicy(callers: [.anonymous, .user])
        case .commands:
            RequestPolicy(callers: [.anonymous, .user], crossSite: .cookieWrites, admission: .commands, bodyLimit: configuration.maximumBodySize)
        case .events: RequestPolicy(callers: [.anonymous, .user], admission: .eventStreams)
        case .sync: RequestPolicy(callers: [.anonymous, .user], bodyLimit: configuration.maximumBodySize)
        // Reports are writes: budgeted as a command that may create an identity, JSON only when
        // sent with the site's cookie.
        case .reports:
            RequestPolicy(callers: [.anonymous, .user], crossSite: .cookieWrites, admission: .commands, bodyLimit: ClientEvent.Limits.batchBytes)
        }
    }

    /// Applies the policy of `endpoint` to `request`, before anything else about it is read: the
    /// body limit (413), the cross-site rule for writes made with the site's cookie (403; a
    /// command with the cookie must also be JSON, which a cross-site form cannot send), and the
    /// admission budget (429). The one place the API's policies are enforced; the pipelines
    /// behind it check none of this.
    ///
    /// The command budget depends on who the command runs as: a client without a token spends
    /// from the new-identity budgets unless the command runs anonymously
    /// (``ScreenplayRoutes/CommandIdentity/anonymous``); an unknown command is charged as one
    /// that creates an identity (its 404 comes later, so probing paths is not free). The event
    /// stream's limits are per user, so they are spent where the stream opens, once the token is
    /// resolved (``openEventStream(screens:client:lastEventID:)``).
    func admit(_ request: HTTPRequest, at endpoint: APIEndpoint, bodySize: Int, clientAddress: String?) throws(ScreenplayError) {
        let policy = policy(for: endpoint.kind)
        if let refusal = policy.refusal(of: request, bodySize: bodySize, cookie: Self.tokenCookie) { throw refusal }
        switch policy.admission {
        case .unmetered, .eventStreams, .signIn: return
        case .commands:
            if policy.crossSite != .none, let refusal = CommandAdmission.jsonRefusal(request) { throw refusal }
            let identity = commands.routes.commandRoute(for: endpoint.segments)?.0.identity ?? .created
            try commands.admission.admit(from: request.headerFields, clientAddress: clientAddress, createsIdentity: identity == .created)
        }
    }
}
