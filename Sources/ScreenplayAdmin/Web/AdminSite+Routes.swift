public import ScreenplayServer
import HTTPTypes

/// The layout admin's pages as data: what ``AdminSite/respond(to:body:clientAddress:)``
/// dispatches on (the routes for anyone first: its script and the sign-in; every other one needs
/// a session, and its posts the session's CSRF token), and what the Hummingbird adapter
/// registers. `HEAD` is answered wherever `GET` is. Every post, sign-in included, must come from
/// this site (``RequestPolicy/CrossSiteRule/allWrites``).
extension AdminSite {
    /// The admin's table under `prefix`.
    public static func routeTable(prefix: String = "/admin") -> RouteTable {
        let base = prefix.split(separator: "/").joined(separator: "/")
        let anyone = RequestPolicy(callers: [.anonymous])
        let signIn = RequestPolicy(callers: [.anonymous], crossSite: .allWrites, admission: .signIn, bodyLimit: maximumFormBytes)
        let read = RequestPolicy(callers: [.adminSession])
        let write = RequestPolicy(callers: [.adminSession], crossSite: .allWrites, bodyLimit: maximumFormBytes)
        let page = [RouteAnswer(.ok, "The page.", body: .html), RouteAnswer(.seeOther, "No session: to the sign-in page.", body: .none, headers: ["Location"])]
        let done = [
            RouteAnswer(.seeOther, "Done: back to the page it was sent from, with a notice.", body: .none, headers: ["Location"]),
            RouteAnswer(.conflict, "The form read what has changed since: the page again, saying what changed.", body: .html),
            RouteAnswer(.forbidden, "From another site, or without the session's CSRF token.", body: .html),
        ]
        let route = RouteParameter("route", in: .path, summary: "The page's route.")
        let key = RouteParameter("key", in: .path, summary: "The experiment's key (`new` for a new one).")
        func get(_ path: String, _ operation: String, _ summary: String, _ parameters: [RouteParameter] = []) -> SiteRoute {
            SiteRoute(.get, path.isEmpty ? base : base + "/" + path, operation: operation, summary: summary, policy: read, parameters: parameters, answers: page)
        }
        func post(_ path: String, _ operation: String, _ summary: String, _ parameters: [RouteParameter] = []) -> SiteRoute {
            SiteRoute(
                .post, base + "/" + path, operation: operation, summary: summary, policy: write, parameters: parameters, request: .form, answers: done)
        }
        return RouteTable(
            site: "admin",
            routes: [
                SiteRoute(
                    .get, base + "/" + AdminScript.file, operation: "adminEditorModule", summary: "The editor's script module.", policy: anyone,
                    answers: [RouteAnswer(.ok, "The module.", body: .bytes(mediaType: "text/javascript"))]),
                SiteRoute(.get, base + "/login", operation: "adminSignInPage", summary: "The sign-in form.", policy: anyone, answers: page),
                SiteRoute(
                    .post, base + "/login", operation: "adminSignIn", summary: "Signs in: a session cookie, and a device cookie for this browser.",
                    policy: signIn, request: .form,
                    answers: [
                        RouteAnswer(.seeOther, "Signed in.", body: .none, headers: ["Location", "Set-Cookie"]),
                        RouteAnswer(.unauthorized, "Wrong name or password: the form again.", body: .html),
                        RouteAnswer(.tooManyRequests, "Too many attempts for this name from this browser.", body: .html, headers: ["Retry-After"]),
                    ]),
                post("logout", "adminSignOut", "Ends the session."),
                get("", "adminOverview", "Every page, its live revision and draft."),
                get("audit", "adminAuditPage", "The audit log."),
                get("time-zone", "adminTimeZonePage", "The time zone the admin reads and writes times in."),
                post("time-zone", "adminSetTimeZone", "Chooses the time zone (a cookie of this browser)."),
                get("experiments", "adminExperimentsPage", "Every experiment."),
                get("experiments/:key", "adminExperimentPage", "One experiment: its variants, its pages and widgets, its results.", [key]),
                post("experiments/new", "adminCreateExperiment", "Creates an experiment."),
                post("experiments/:key", "adminSaveExperiment", "Saves an experiment's variants and targeting.", [key]),
                post("experiments/:key/start", "adminStartExperiment", "Starts an experiment.", [key]),
                post("experiments/:key/stop", "adminStopExperiment", "Stops an experiment.", [key]),
                post(
                    "experiments/:key/rollout", "adminRolloutExperiment",
                    "Makes a variant the layout of every page that names the experiment, as drafts to review.", [key]),
                post("experiments/:key/delete", "adminDeleteExperiment", "Deletes an experiment, once the question is answered.", [key]),
                get("pages/:route", "adminPageView", "A page: live, draft, history.", [route]),
                get("pages/:route/edit", "adminEditor", "The draft editor.", [route]),
                post(
                    "pages/:route/edit/*action", "adminEdit",
                    "One editor action (`add`, `undo`, `redo`, `widgets/{id}[/move|/remove]`, `sections/add|undo`, `sections/{id}[/move|/remove]`): a DraftEdit saved as a step.",
                    [route, RouteParameter("action", in: .path, summary: "The action.")]),
                get("pages/:route/publish", "adminPublishReview", "What publishing the draft would change.", [route]),
                post("pages/:route/publish", "adminPublish", "Publishes the draft reviewed.", [route]),
                post("pages/:route/schedule", "adminSchedulePublish", "Publishes the draft reviewed at a time (in the admin's time zone).", [route]),
                post("pages/:route/schedule/cancel", "adminCancelSchedule", "Cancels the scheduled publish.", [route]),
                post("pages/:route/discard", "adminDiscard", "Discards the draft.", [route]),
                get("pages/:route/rollback", "adminRollbackReview", "What going back to a revision would change.", [route]),
                post("pages/:route/rollback", "adminRollback", "Publishes an earlier revision again.", [route]),
                get("pages/:route/compare", "adminCompare", "Two revisions side by side.", [route]),
                get("pages/:route/preview", "adminPreview", "The draft as a platform, version, user and variant would get it.", [route]),
                post(
                    "pages/:route/widgets/:id/enabled", "adminSwitchWidget", "The kill switch: a live widget off or on, at once.",
                    [route, RouteParameter("id", in: .path, summary: "The widget's id.")]),
                post("pages/:route/preview/pins", "adminPreviewPins", "Pins or unpins the preview's provider answers, or asks the providers again.", [route]),
                SiteRoute(
                    .get, base + "/preview-events/:route", operation: "adminPreviewEvents", summary: "A live preview's stream.", policy: read,
                    parameters: [route], answers: [RouteAnswer(.ok, "The stream.", body: .eventStream)]),
            ])
    }
}
