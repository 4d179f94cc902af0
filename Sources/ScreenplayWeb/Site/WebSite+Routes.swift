public import ScreenplayServer
import HTTPTypes
import ScreenplayContract

/// The web pages' routes as data: what ``WebSite/respond(to:body:clientAddress:)`` dispatches on
/// and what the Hummingbird adapter registers (`router.addScreenplayWeb`), so the router's trie
/// sees the site's real paths. `HEAD` is answered wherever `GET` is.
extension WebSite {
    /// The site's table: its pages (home, screens at any depth, kept results), its own files (the
    /// script modules, the stylesheet, the icon), the command form's path and the event stream.
    public static func routeTable(commandPath: String, bodyLimit: Int) -> RouteTable {
        let pages = RequestPolicy(callers: [.anonymous, .user])
        let files = RequestPolicy(callers: [.anonymous])
        let page = [
            RouteAnswer(.ok, "The page (HTML, never stored by the browser).", body: .html),
            RouteAnswer(.notFound, "No such screen: the site's 404 page.", body: .html),
        ]
        func file(_ path: String, _ operation: String, _ type: String) -> SiteRoute {
            SiteRoute(
                .get, path, operation: operation, summary: "The site's own file, cached for good at its versioned URL.", policy: files,
                answers: [RouteAnswer(.ok, "The file.", body: .bytes(mediaType: type), headers: ["ETag", "Cache-Control"])])
        }
        var routes = [
            SiteRoute(.get, "", operation: "webHome", summary: "The home screen as a page.", policy: pages, answers: page),
            SiteRoute(
                .get, screensPath + "*path", operation: "webScreen", summary: "A screen as a page, at any depth (`/screens/playlist/1`).",
                policy: pages, parameters: [RouteParameter("path", in: .path, summary: "The screen's path.")], answers: page),
            SiteRoute(
                .get, resultsPath + ":id", operation: "webResult", summary: "A command's result, kept so it has a URL.", policy: pages,
                parameters: [RouteParameter("id", in: .path, summary: "The result's id.")], answers: page),
        ]
        for module in WebScript.all { routes.append(file(module.path, "webScript:" + module.path, "text/javascript")) }
        routes.append(file(WebStyle.path, "webStyle", "text/css"))
        routes.append(file(iconPath, "webIcon", "image/svg+xml"))
        routes.append(
            SiteRoute(
                .post, commandPath, operation: "webCommand", summary: "A page's command form: performed, then a redirect (post/redirect/get).",
                policy: RequestPolicy(callers: [.anonymous, .user], crossSite: .allWrites, admission: .commands, bodyLimit: bodyLimit),
                request: .form,
                answers: [
                    RouteAnswer(.seeOther, "Done: back to the page, or to the result's page.", body: .none, headers: ["Location"]),
                    RouteAnswer(.forbidden, "From another site, or without the site's identity.", body: .html),
                ]))
        routes.append(
            SiteRoute(
                .post, reportsPath, operation: "webReports",
                summary: "What the pages saw happen (a row seen, a track played): the API's reports with the site's cookie (v6).",
                policy: RequestPolicy(
                    callers: [.anonymous, .user], crossSite: .allWrites, admission: .commands, bodyLimit: ClientEvent.Limits.batchBytes),
                request: .json("ReportBatch"),
                answers: [
                    RouteAnswer(.ok, "What was stored and what was refused; a browser without a session gets one.", body: .json("ReportReceipt"), headers: ["Set-Cookie"]),
                    RouteAnswer(.forbidden, "From another site.", body: .json(.error)),
                    RouteAnswer(.unprocessableContent, "Not a batch of events.", body: .json(.error)),
                ]))
        routes.append(
            SiteRoute(
                .get, eventsPath, operation: "webEvents", summary: "The pages' live screens as server-sent events.", policy: pages,
                answers: [RouteAnswer(.ok, "The stream.", body: .eventStream)]))
        var table = RouteTable(site: "web", routes: routes)
        table.schemas = ScreenplayService.reportSchemas
        return table
    }

    /// This site's table (``routeTable(commandPath:bodyLimit:)`` with its renderer's command path
    /// and its service's body limit).
    public var routes: RouteTable { table }
}
