import HTTPTypes
import ScreenplayContract
import ScreenplayServer

extension WebSite {
    /// The pages' reports (a row seen, a track played), `POST /web/reports`: the API's own
    /// endpoint (`{prefix}/v6/reports`, the same checks, budget and store), reached with the
    /// site's cookie. What differs is only how a browser holds its identity: a new listener's
    /// first report makes one, handed over as the site's cookie rather than a header, and a
    /// cookie naming nobody is cleared so the next report starts afresh. The route's `policy` is
    /// applied first: a post from another site is refused with or without a cookie, so no page
    /// elsewhere can hand a browser an identity.
    func reports(request: HTTPRequest, body: [UInt8], policy: RequestPolicy, clientAddress: String?) async -> Response {
        if let refusal = policy.refusal(of: request, bodySize: body.count, cookie: ScreenplayService.tokenCookie) {
            let refused = ScreenplayService.errorResponse(refusal)
            return Response(head: refused.head, body: refused.body)
        }
        var forwarded = request
        forwarded.path = service.configuration.pathPrefix + "/v\(ClientEvent.introduced.rawValue)/reports"
        // A cookie that is not a usable token counts as none, for the budget too.
        if Self.sessionToken(forwarded.headerFields) == nil { forwarded.headerFields[.cookie] = nil }
        let answer = await service.respond(to: forwarded, body: body, clientAddress: clientAddress)
        var head = answer.head
        if let token = head.headerFields[ScreenplayService.tokenHeader] {
            head.headerFields[ScreenplayService.tokenHeader] = nil
            head.headerFields[.setCookie] = Self.sessionCookie(token)
        } else if head.status == .unauthorized {
            head.headerFields[.setCookie] = Self.expiredCookie
        }
        return Response(head: head, body: answer.body)
    }
}
