import HTTPTypes
import ScreenplayContract

extension ScreenPipeline {
    /// Answers `GET`/`HEAD {prefix}/v{N}/screens/{path}`: the screen for the request's identity
    /// (never creating one: reading needs none), with its ETag, a 304 for a matching
    /// `If-None-Match`, gzip when accepted, deprecation headers, and, for screens that allow it,
    /// what the revalidation memory keeps to answer the next revalidation before routing.
    func respond(to request: HTTPRequest, at endpoint: APIEndpoint) async throws -> ScreenplayService.Response {
        let path = endpoint.path
        mix.record(
            version: endpoint.version, platform: ScreenplayService.platform(in: request.headerFields),
            locale: ScreenplayService.locale(in: request.headerFields))
        let coded = routes.screenRoute(for: endpoint.segments) != nil
        // An unknown path is a 404 before anyone gets an identity: no user rows for garbage URLs.
        guard coded || pages != nil else { throw Self.noScreen(path) }
        // Taken before anything is read: an answer is remembered only if no write announced a
        // change while it was computed.
        let ticket = revalidations?.ticket()
        let resolved = try await identity.resolve(token: ScreenplayService.token(in: request.headerFields), creating: false)
        let encoded: EncodedBody
        var remembered: Remembered?
        if coded {
            let clientKinds = ScreenplayService.clientKinds(in: request.headerFields, known: routes.customKinds)
            let answer = try await self.coded(
                path: path, segments: endpoint.segments, query: endpoint.query, apiVersion: endpoint.version, clientKinds: clientKinds,
                user: resolved.user, remembering: request.method == .get && resolved.issuedToken == nil ? ticket?.taken : nil)
            encoded = answer.body
            remembered = answer.remembered
        } else {
            guard let pages, let page = try await pages.page(for: pageRequest(request, path: path, version: endpoint.version, user: resolved.user))
            else { throw Self.noScreen(path) }
            encoded = page.body
            if request.method == .get, resolved.issuedToken == nil, let kept = page.remembered {
                remembered = Remembered(owner: kept.owner, expiry: kept.until)
            }
        }
        let vary =
            coded
            ? "Authorization, Cookie, Accept-Encoding"
            : "Authorization, Cookie, Accept-Encoding, Accept-Language, Screenplay-Platform, Screenplay-Components"
        // gzip when the client asks, from the bytes compressed once when the screen was cached.
        let sent = encoded.representation(acceptEncoding: request.headerFields[.acceptEncoding])
        var head = HTTPResponse(status: .ok)
        head.headerFields[.eTag] = sent.etag
        head.headerFields[.cacheControl] = "private, no-cache"
        head.headerFields[.vary] = vary
        head.headerFields[ScreenplayService.contentTypeOptions] = "nosniff"
        if let token = resolved.issuedToken { head.headerFields[ScreenplayService.tokenHeader] = token }
        versions.addDeprecation(to: &head, version: endpoint.version)
        let notModified = head.headerFields
        head.headerFields[.contentType] = "application/json; charset=utf-8"
        if sent.gzip { head.headerFields[.contentEncoding] = "gzip" }
        // HEAD: the headers a GET would get, Content-Length included, and no body.
        head.headerFields[.contentLength] = String(sent.bytes.count)
        // Both answers are complete here: remembered as they are, for the next request, which is
        // then answered before routing (a 304 when it names the tag, else this 200).
        if let remembered, let ticket, let revalidations {
            revalidations.remember(
                request, owner: remembered.owner, etag: encoded.etag, fields: notModified, ok: (head.headerFields, sent.bytes),
                expiry: remembered.expiry, ticket: ticket)
        }
        if request.headerFields.contains(where: { $0.name == .ifNoneMatch && encoded.matches(ifNoneMatch: $0.value) }) {
            return ScreenplayService.Response(head: HTTPResponse(status: .notModified, headerFields: notModified), body: [])
        }
        if request.method == .head {
            return ScreenplayService.Response(head: head, body: [])
        }
        return ScreenplayService.Response(head: head, body: sent.bytes)
    }

    /// A page request from an HTTP request: platform from ``ScreenplayService/platformHeader``
    /// (`unknown` when missing), locale from the first `Accept-Language` tag, kinds from
    /// ``ScreenplayService/componentsHeader``.
    private func pageRequest(_ request: HTTPRequest, path: String, version: APIVersion, user: UserIdentity) -> PageRequest {
        PageRequest(
            route: path, user: user, apiVersion: version,
            clientKinds: ScreenplayService.clientKinds(in: request.headerFields, known: pages?.customKinds ?? [:]),
            platform: ScreenplayService.platform(in: request.headerFields), locale: ScreenplayService.locale(in: request.headerFields))
    }
}
