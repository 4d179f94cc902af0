import Foundation
public import HTTPTypes
public import Logging
public import ScreenplayComposer
import ScreenplayContract
public import ScreenplayLayoutStore
public import ScreenplayServer
import ScreenplayStore
import ScreenplayWeb

/// The layout admin in the browser, `/admin`: sign in, the pages with their live revision, each
/// page's widgets with their kill switches and the newest composition's latency and bytes per
/// widget, publishing the draft, the history with rollback, the experiments with their reports,
/// and the audit log.
///
/// Server-rendered HTML; only the preview carries the site's script, to follow changes live, and
/// works without it. Every page needs a session (a cookie made at sign-in,
/// `HttpOnly`, `SameSite=Strict`, path `/admin`); without one, a page redirects to the sign-in form.
/// Every form that changes something carries the session's CSRF token, and a post without it (or
/// with another session's) is refused with a 403. The sign-in form itself is protected by a
/// double-submit token (a cookie and a hidden field that must agree).
///
/// The draft editor and the side-by-side preview are in `AdminSite+Editor.swift` and
/// `AdminSite+Preview.swift`.
public struct AdminSite: Sendable {
    let admins: AdminDirectory
    let layouts: LayoutStore
    let experiments: ExperimentStore
    let pages: ComposedScreens?
    /// The hub the previews' streams join; `nil`: previews are not live.
    let events: ScreenEventHub?
    /// What experiments are measured on (the app's own metrics), the first by default.
    let metrics: [ExperimentMetric]
    /// Where the site is mounted.
    public let prefix: String
    /// Its pages (``routeTable(prefix:)``): what a request is dispatched by.
    let table: RouteTable
    /// Where sign-ins (refused, throttled, accepted) are logged.
    let logger: Logger
    /// How long an editor page waits for the verticals to name what parameters point at before
    /// it is shown without the names that have not come.
    let namingWait: Duration
    /// Who asks for screens (API versions, platforms, languages over seven days): what the
    /// editor's version menus say each choice reaches. `nil`: not known.
    let clientMix: ClientMix?
    /// Provider answers pinned in previews (this process's memory, per session).
    let pins = PreviewPins()

    /// The session cookie's name.
    public static let sessionCookie = "screenplay_admin_session"
    /// The sign-in form's double-submit cookie.
    public static let loginCookie = "screenplay_admin_login"

    /// The site over the stores; `pages` adds each page's newest composition report; `events`
    /// (the service's hub, when it has an invalidation bus) makes the previews live; `metrics`
    /// are what an experiment's results page measures; `namingWait` is how long an editor page
    /// waits for the names of what its parameters point at (a second: names are a nicety);
    /// `clientMix` (the service's) says in the version menus what share of requests each reaches.
    public init(
        admins: AdminDirectory, layouts: LayoutStore, experiments: ExperimentStore, pages: ComposedScreens?,
        events: ScreenEventHub? = nil, metrics: [ExperimentMetric] = [], prefix: String = "/admin",
        namingWait: Duration = .seconds(1), clientMix: ClientMix? = nil, logger: Logger = Logger(label: "screenplay.admin")
    ) {
        self.clientMix = clientMix
        self.namingWait = namingWait
        self.metrics = metrics
        self.admins = admins
        self.layouts = layouts
        self.experiments = experiments
        self.pages = pages
        self.events = events
        self.prefix = prefix
        self.logger = logger
        table = Self.routeTable(prefix: prefix)
    }

    /// The site's pages, for the router and for documentation.
    public var routes: RouteTable { table }

    /// Answers one request under ``prefix``; `clientAddress` (the peer's IP address, when the host
    /// knows it) limits sign-in attempts per address.
    public func respond(to request: HTTPRequest, body: [UInt8], clientAddress: String? = nil) async -> ScreenplayService.Response {
        // Every time on the answer, and every picker read from the form, in the admin's zone.
        let zone = RequestFields.cookie(Self.zoneCookie, in: request.headerFields).flatMap { $0.removingPercentEncoding }.flatMap(AdminTime.known)
        return await AdminTime.$zone.withValue(zone ?? AdminTime.utcZone) {
            await answer(request, body: body, clientAddress: clientAddress)
        }
    }

    /// The cookie naming the time zone the admin reads and writes times in (`Europe/Zurich`).
    public static let zoneCookie = "screenplay_admin_zone"

    private func answer(_ request: HTTPRequest, body: [UInt8], clientAddress: String?) async -> ScreenplayService.Response {
        let path = (request.path ?? "/").split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        let segments = path.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
        let rest = Array(segments.dropFirst(prefix.split(separator: "/").count))
        let form = RequestFields.form(body)
        // By the table: the route's policy first (a form posted from another site is refused
        // before anything else, sign-in included, against login CSRF: the session cookie's
        // SameSite=Strict is then one layer of two); then the routes for anyone; then everything
        // else behind the session.
        let resolution = table.resolve(request.method, segments)
        if case .route(let route, _) = resolution, let refusal = route.policy.refusal(of: request, bodySize: body.count, cookie: Self.sessionCookie) {
            guard refusal.status == .forbidden else {
                return Self.page(title: "Too large", body: "<p>\(HTML.escape(refusal.message))</p>", status: refusal.status)
            }
            return Self.page(
                title: "Refused", body: "<p>Admin forms are accepted only from this site's own pages.</p>", status: .forbidden)
        }
        let query = RequestFields.query(request.path ?? "")
        do {
            if case .route(let route, _) = resolution, route.policy.callers.contains(.anonymous) {
                switch route.operation {
                case "adminEditorModule":
                    guard let editor = AdminScript.editor else { break }
                    let (head, body) = editor.response(to: request)
                    return ScreenplayService.Response(head: head, body: request.method == .head ? [] : body)
                case "adminSignInPage": return loginPage(message: nil, status: .ok, next: query["next"], request: request)
                case "adminSignIn": return try await login(request, form: form, address: clientAddress)
                default: break
                }
            }
            // A path anyone may use says which methods it answers without a session.
            if case .methodNotAllowed(let allowed) = resolution, table.isOpen(segments) {
                return Self.methodNotAllowed(allowed.map(\.rawValue).joined(separator: ", "))
            }
            guard let id = RequestFields.cookie(Self.sessionCookie, in: request.headerFields),
                let session = try await admins.session(id: id)
            else {
                // Back to where they were going after signing in (a GET only: a form post
                // without a session is not replayed).
                let next = request.method == .get ? "?next=" + Self.queryEscape(request.path ?? prefix) : ""
                return Self.redirect(to: prefix + "/login" + next)
            }
            let route: SiteRoute
            let parameters: [String: String]
            switch resolution {
            case .route(let found, let values): (route, parameters) = (found, values)
            case .methodNotAllowed(let allowed): return Self.methodNotAllowed(allowed.map(\.rawValue).joined(separator: ", "))
            case .notFound:
                guard request.method != .post else { return Self.page(title: "Not found", body: "<p>Nothing to do here.</p>", status: .notFound) }
                return Self.page(title: "Not found", body: "<p>Nothing here. <a href=\"\(prefix)\">Back to the pages</a>.</p>", status: .notFound)
            }
            if request.method == .post {
                guard let csrf = form["csrf"], Self.constantTimeEqual(csrf, session.csrf) else {
                    return Self.page(
                        title: "Refused",
                        body:
                            "<p>This form was not sent from this admin session (its CSRF token is missing or stale). Go back, reload and try again.</p>",
                        status: .forbidden)
                }
            }
            let page = parameters["route"] ?? ""
            // Only the server's own notices: a link cannot put words in this banner.
            let notice = query["done"].flatMap { Self.notices[$0] }
            switch route.operation {
            case "adminSignOut":
                try await admins.endSession(id: session.id)
                var response = Self.redirect(to: prefix + "/login")
                response.head.headerFields.append(HTTPField(name: .setCookie, value: "\(Self.sessionCookie)=; Path=\(prefix); Max-Age=0"))
                return response
            case "adminOverview": return try await overview(session, notice: notice)
            case "adminAuditPage": return try await audit(session, query: query)
            case "adminTimeZonePage": return timeZonePage(session, notice: notice)
            case "adminSetTimeZone": return setTimeZone(form: form, session: session)
            case "adminExperimentsPage": return try await experimentList(session, notice: notice)
            case "adminExperimentPage":
                let key = parameters["key"] ?? ""
                return try await experimentPage(key == "new" ? nil : key, session, query: query, notice: notice)
            case "adminCreateExperiment", "adminSaveExperiment", "adminStartExperiment", "adminStopExperiment", "adminDeleteExperiment",
                "adminRolloutExperiment":
                return try await actOnExperiment(Array(rest.dropFirst()), form: form, session: session)
            case "adminPageView": return try await pageView(page, session, notice: notice)
            case "adminEditor": return try await editor(page, session, notice: notice, query: query)
            case "adminEdit": return try await edit(page, Array(rest.dropFirst(3)), form: form, session: session)
            case "adminPublishReview": return try await publishReview(page, session)
            case "adminRollbackReview": return try await rollbackReview(page, query: query, session)
            case "adminCompare": return try await compare(page, query: query, session)
            case "adminPreview": return try await preview(page, session, query: query)
            case "adminPreviewPins": return await actOnPins(page, form: form, session: session)
            case "adminPublish", "adminDiscard", "adminRollback", "adminSwitchWidget", "adminSchedulePublish", "adminCancelSchedule":
                return try await act(page, Array(rest.dropFirst(2)), form: form, session: session)
            default:
                // The preview's stream is the host's streaming route; anything else is not a page.
                return Self.page(title: "Not found", body: "<p>Nothing here. <a href=\"\(prefix)\">Back to the pages</a>.</p>", status: .notFound)
            }
        } catch let error as LayoutError {
            return Self.page(
                title: "Not done", body: "<p>\(HTML.escape(error.description))</p><p><a href=\"\(prefix)\">Back</a></p>", status: error.answer.status)
        } catch let error as any ScreenplayErrorConvertible {
            // The database away (a 503), and the like: the words the API would send, not a 500.
            let failure = error.screenplayError
            var page = Self.page(
                title: "Not done", body: "<p>\(HTML.escape(failure.message))</p><p><a href=\"\(prefix)\">Back</a></p>", status: failure.status)
            if let seconds = failure.retryAfter { page.head.headerFields[.retryAfter] = String(seconds) }
            return page
        } catch {
            return Self.page(
                title: "Something went wrong", body: "<p>\(HTML.escape(String(describing: error)))</p>", status: .internalServerError)
        }
    }

    // MARK: Signing in and out

    /// The sign-in form. Its double-submit token is the browser's (the request's login cookie,
    /// when it has a sound one), not the page's: a second sign-in form (another tab, a
    /// background fetch redirected here) must not make the first one stale.
    private func loginPage(message: String?, status: HTTPResponse.Status, next: String? = nil, request: HTTPRequest) -> ScreenplayService.Response {
        let nextInput = next.flatMap(localPath).map { "<input type=\"hidden\" name=\"next\" value=\"\(HTML.escape($0))\">" } ?? ""
        let token = RequestFields.cookie(Self.loginCookie, in: request.headerFields).flatMap { SecretToken.isWellFormed($0) ? $0 : nil }
            ?? SecretToken.make()
        let error = message.map { "<p class=\"error\" role=\"alert\" id=\"login-error\">\(HTML.escape($0))</p>" } ?? ""
        var response = Self.page(
            title: "Sign in",
            body: """
                \(error)<form method="post" action="\(prefix)/login" class="login">
                <input type="hidden" name="login" value="\(token)">\(nextInput)
                <label for="name">Name</label><input id="name" name="name" autocomplete="username" required maxlength="64">
                <label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
                <button type="submit" id="sign-in">Sign in</button></form>
                """, status: status)
        response.head.headerFields.append(
            HTTPField(name: .setCookie, value: "\(Self.loginCookie)=\(token); Path=\(prefix); HttpOnly; SameSite=Strict; Max-Age=3600"))
        return response
    }

    private func login(_ request: HTTPRequest, form: [String: String], address: String?) async throws -> ScreenplayService.Response {
        guard let sent = form["login"], let cookie = RequestFields.cookie(Self.loginCookie, in: request.headerFields),
            Self.constantTimeEqual(sent, cookie)
        else {
            return loginPage(message: "This sign-in form has expired. Please sign in again.", status: .forbidden, next: form["next"], request: request)
        }
        guard let name = form["name"], let password = form["password"] else {
            return loginPage(message: "Wrong name or password.", status: .unauthorized, next: form["next"], request: request)
        }
        let admin: String
        // A browser that signed in to this account before shows its device cookie: judged by its
        // own failures, not the account's (OWASP's device cookies; see AdminDirectory.signIn).
        let device = DeviceCookie.cookieName(for: name).flatMap { RequestFields.cookie($0, in: request.headerFields) }
        switch try await admins.signIn(name: name, password: password, address: address, device: device) {
        case .admin(let signedIn):
            admin = signedIn
        case .rejected:
            logger.notice("admin sign-in refused", metadata: ["name": "\(name.prefix(64))", "address": "\(address ?? "unknown")"])
            return loginPage(message: "Wrong name or password.", status: .unauthorized, next: form["next"], request: request)
        case .throttled(let retryAfter):
            let seconds = max(1, Int(retryAfter.components.seconds) + 1)
            logger.warning(
                "admin sign-in throttled", metadata: ["name": "\(name.prefix(64))", "address": "\(address ?? "unknown")"])
            var page = loginPage(
                message: "Too many sign-in attempts. Try again in \(seconds) seconds.", status: .tooManyRequests, next: form["next"], request: request)
            page.head.headerFields[.retryAfter] = String(seconds)
            return page
        }
        logger.info(
            "admin signed in", metadata: ["name": "\(admin)", "address": "\(address ?? "unknown")", "trustedDevice": "\(device != nil)"])
        let session = try await admins.startSession(for: admin)
        var response = Self.redirect(to: form["next"].flatMap(localPath) ?? prefix)
        response.head.headerFields.append(
            HTTPField(name: .setCookie, value: "\(Self.sessionCookie)=\(session.id); Path=\(prefix); HttpOnly; SameSite=Strict"))
        response.head.headerFields.append(HTTPField(name: .setCookie, value: "\(Self.loginCookie)=; Path=\(prefix); Max-Age=0"))
        // A fresh device cookie at every success; only the sign-in form's post needs it back.
        if let cookieName = DeviceCookie.cookieName(for: admin) {
            let value = try await admins.deviceCookie(for: admin)
            response.head.headerFields.append(
                HTTPField(
                    name: .setCookie,
                    value: "\(cookieName)=\(value); Path=\(prefix)/login; HttpOnly; SameSite=Strict; Max-Age=\(admins.deviceLifetime.components.seconds)"))
        }
        return response
    }

    /// `path` when it is a page of this site (under ``prefix``, no scheme, no `//`, no
    /// backslash), so a sign-in link cannot send anyone elsewhere afterwards.
    func localPath(_ path: String) -> String? {
        guard path == prefix || path.hasPrefix(prefix + "/") || path.hasPrefix(prefix + "?"), !path.contains("//"),
            !path.contains("\\"), path.utf8.count <= 512, path.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else { return nil }
        return path
    }

    /// `text` escaped for a query parameter's value.
    static func queryEscape(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    // MARK: Actions

    /// Publish, discard, rollback and the kill switch: `action` is the path after the page's route.
    private func act(_ route: String, _ action: [String], form: [String: String], session: AdminDirectory.Session) async throws
        -> ScreenplayService.Response
    {
        let back = "\(prefix)/pages/\(Self.pathEscape(route))"
        switch action {
        case ["publish"]:
            // Only from the page that showed what will change: anything else (a stale form, a
            // form from before confirmation existed) is shown that page first.
            // It names the live revision and the draft it showed: either changed since, and the
            // publish is refused (409) rather than making live what nobody reviewed.
            guard form["confirm"] == "yes", let expectedLive = form["expectedLive"].flatMap(Int.init), let expectedDraft = form["expectedDraft"]
            else { return Self.redirect(to: back + "/publish") }
            let note = form["note"] ?? ""
            guard note.count <= Self.noteLimit else {
                return Self.page(
                    title: "Not published", session: session, prefix: prefix,
                    body: "<p>The note is \(note.count) characters; at most \(Self.noteLimit).</p><p><a href=\"\(back)/publish\">Back to the review</a></p>",
                    status: .unprocessableContent)
            }
            _ = try await layouts.publish(route: route, by: session.admin, expectedLive: expectedLive, expectedDraft: expectedDraft, note: note)
            return Self.redirect(to: back + "?done=published")
        case ["schedule"]:
            // As a publish: only the draft the review showed, and a time in the future.
            guard form["confirm"] == "yes", let expectedDraft = form["expectedDraft"] else { return Self.redirect(to: back + "/publish") }
            let note = form["note"] ?? ""
            var errors: [String] = []
            if note.count > Self.noteLimit { errors.append("The note is \(note.count) characters; at most \(Self.noteLimit).") }
            var scheduleErrors: [String: String] = [:]
            let at = Self.parseDate(form["at"], field: "at", errors: &scheduleErrors)
            if let message = scheduleErrors["at"] { errors.append(message) } else if at == nil { errors.append("Choose when to publish.") }
            if errors.isEmpty, let at {
                do {
                    _ = try await layouts.schedulePublish(route: route, at: at, by: session.admin, expectedDraft: expectedDraft, note: note)
                    return Self.redirect(to: back + "?done=scheduled")
                } catch {
                    guard case .invalid(let problems) = error, problems.contains(where: { $0.path == "$.at" }) else { throw error }
                    errors += problems.map(\.message)
                }
            }
            return try await publishReview(route, session, scheduleError: errors.joined(separator: " "), values: form)
        case ["schedule", "cancel"]:
            let cancelled = try await layouts.cancelScheduledPublish(route: route, by: session.admin)
            return Self.redirect(to: back + (cancelled == nil ? "?done=notScheduled" : "?done=unscheduled"))
        case ["discard"]:
            // Nothing brings a discarded draft back: first say what it holds and ask.
            guard form["confirm"] == "yes" else { return try await discardReview(route, session: session) }
            // Only the draft the confirmation showed: one saved since is shown again, not thrown away unseen.
            let version = (form["version"] ?? "").isEmpty ? ExpectedVersion.any : .version(form["version"] ?? "")
            let discarded: Bool
            do {
                discarded = try await layouts.discardDraft(of: route, by: session.admin, expecting: version)
            } catch {
                guard case .stale(let stale) = error as? LayoutError else { throw error }
                return try await discardReview(
                    route, session: session,
                    refusal: "Not discarded: \(Self.staleWords(stale, "the draft")) This is what it holds now; discard it if you still mean it.")
            }
            guard discarded else {
                return Self.page(
                    title: "Not done",
                    body: "<p>Page '\(HTML.escape(route))' has no draft to discard.</p><p><a href=\"\(back)\">Back</a></p>",
                    status: .notFound)
            }
            return Self.redirect(to: back + "?done=discarded")
        case ["rollback"]:
            guard let revision = form["revision"].flatMap(Int.init) else {
                return Self.page(title: "Not done", body: "<p>Which revision? The form sent none.</p>", status: .unprocessableContent)
            }
            guard form["confirm"] == "yes" else { return Self.redirect(to: back + "/rollback?revision=\(revision)") }
            _ = try await layouts.rollback(
                route: route, to: revision, by: session.admin, expectedLive: form["expectedLive"].flatMap(Int.init))
            return Self.redirect(to: back + "?done=rolledBack")
        case let action where action.count == 3 && action[0] == "widgets" && action[2] == "enabled":
            // A switch is "true" or "false"; anything else is not read as either.
            guard let enabled = ["true": true, "false": false][form["enabled"] ?? ""] else {
                return Self.page(title: "Not done", body: "<p>Switch on or off? The form said neither.</p>", status: .unprocessableContent)
            }
            // The form names the revision it showed. A kill switch must work in an emergency, so
            // it is not refused when the live page moved on (on or off is the same on any
            // revision); the notice says it was applied to a newer revision than the one seen.
            let seen = form["seen"].flatMap(Int.init)
            let live = try await layouts.published(route: route)?.revision
            _ = try await layouts.setEnabled(enabled, instance: action[1], route: route, by: session.admin)
            let newer = seen != nil && live != nil && seen != live ? "Newer" : ""
            return Self.redirect(to: back + "?done=" + (enabled ? "switchedOn" : "switchedOff") + newer)
        default:
            return Self.page(title: "Not found", body: "<p>Nothing to do here.</p>", status: .notFound)
        }
    }

    // MARK: Pages

    private func overview(_ session: AdminDirectory.Session, notice: String?) async throws -> ScreenplayService.Response {
        let list = try await layouts.pages()
        var rows = ""
        for page in list {
            let live = page.liveRevision.map { "revision \($0) since \(Self.time(page.publishedAt ?? ""))" } ?? "not published"
            let draft = page.draftUpdatedBy.map { "draft by \(HTML.escape($0))" } ?? ""
            // The newest composition of the live revision, when it broke the page's budget.
            let composed = pages?.latestReport(for: page.route).flatMap { $0.templateRevision == page.liveRevision ? $0 : nil }
            let flag = composed?.isOverBudget == true ? " <strong class=\"warning\">over budget</strong>" : ""
            rows += """
                <tr><td><a href="\(prefix)/pages/\(Self.pathEscape(page.route))">\(HTML.escape(page.route))</a></td>\
                <td>\(HTML.escape(page.title ?? ""))</td><td>\(live)\(flag)</td><td>\(draft)</td></tr>
                """
        }
        var experimentRows = ""
        for experiment in try await experiments.all() {
            let report = try await experiments.report(for: experiment.key)
            let split = experiment.variants.map { "\(HTML.escape($0.name)) \($0.weight)" }.joined(separator: " · ")
            let counts = report.exposures.keys.sorted().map { "\(HTML.escape($0)): \(report.exposures[$0] ?? 0)" }.joined(separator: " · ")
            experimentRows +=
                "<tr><td><a href=\"\(prefix)/experiments/\(Self.pathEscape(experiment.key))\">\(HTML.escape(experiment.key))</a></td><td>\(split)</td><td>\(counts)</td></tr>"
        }
        return Self.page(
            title: "Pages", session: session, prefix: prefix, notice: notice,
            body: """
                <table id="pages"><caption>Pages arranged here</caption><thead><tr><th>Route</th><th>Title</th><th>Live</th><th>Draft</th></tr></thead>
                <tbody>\(rows)</tbody></table>
                <table id="experiments"><caption>Experiments (first exposures per variant)</caption>
                <thead><tr><th>Key</th><th>Variants and weights</th><th>Exposures</th></tr></thead><tbody>\(experimentRows)</tbody></table>
                <p><a href="\(prefix)/audit">Audit log</a></p>
                """)
    }

    private func pageView(_ route: String, _ session: AdminDirectory.Session, notice: String?) async throws -> ScreenplayService.Response {
        let live = try await layouts.published(route: route)
        let draft = try await layouts.draft(of: route)
        guard live != nil || draft != nil else {
            return Self.page(title: "Not found", body: "<p>No page '\(HTML.escape(route))'.</p>", status: .notFound)
        }
        let action = "\(prefix)/pages/\(Self.pathEscape(route))"
        let csrf = "<input type=\"hidden\" name=\"csrf\" value=\"\(session.csrf)\">"
        // Only a composition of the live revision describes it; an older one would mislead.
        let newest = pages?.latestReport(for: route)
        let report = newest.flatMap { $0.templateRevision == live?.revision ? $0 : nil }
        var widgets = ""
        for section in live?.template.sections ?? [] {
            for widget in section.widgets {
                let measured = report?.report(for: widget.id)
                let latency = measured?.providerLatency.map { Self.milliseconds($0) } ?? "–"
                let bytes = measured.map { "\($0.bytes)" } ?? "–"
                let outcome =
                    measured.map {
                        HTML.escape(
                            WidgetFate.words(for: $0, instance: widget, contract: pages?.composer.catalog[widget.kind], context: "the app that asked"))
                    } ?? "not composed yet"
                let toggle = """
                    <form method="post" action="\(action)/widgets/\(Self.pathEscape(widget.id))/enabled">\(csrf)\
                    <input type="hidden" name="seen" value="\(live?.revision ?? 0)">\
                    <input type="hidden" name="enabled" value="\(widget.isEnabled ? "false" : "true")">\
                    <button type="submit" id="switch-\(HTML.escape(widget.id))">\(widget.isEnabled ? "Switch off" : "Switch on")</button></form>
                    """
                widgets += """
                    <tr class="\(widget.isEnabled ? "on" : "off")"><td>\(HTML.escape(section.id))</td><td>\(HTML.escape(widget.id))</td>\
                    <td>\(HTML.escape(widget.kind))</td><td>\(HTML.escape(widget.vertical))</td><td>\(widget.isEnabled ? "on" : "off")</td>\
                    <td>\(latency)</td><td>\(bytes)</td><td>\(outcome)</td><td>\(toggle)</td></tr>
                    """
            }
        }
        let budget =
            report.map { page in
                page.isOverBudget
                    ? "<p class=\"warning\" id=\"over-budget\">Over budget: \(HTML.escape(page.overruns.map(\.description).joined(separator: "; "))). Heaviest: \(HTML.escape(page.heaviestWidgets().map(\.instanceID).joined(separator: ", ")))</p>"
                    : "<p>Within budget: \(page.bytes.count) bytes in \(Self.milliseconds(page.duration)).</p>"
            }
            ?? "<p id=\"not-composed\">Revision \(live?.revision ?? 0) has not been composed since it went live: open the page in an app or a browser to measure it.</p>"
        var draftPart = "<p id=\"no-draft\">No draft. <a href=\"\(action)/edit\" id=\"edit\">Edit the layout</a> to start one.</p>"
        if let draft {
            draftPart = """
                <p id="draft">Draft by \(HTML.escape(draft.updatedBy)), \(Self.time(draft.updatedAt)), based on revision \(draft.basedOn): \
                \(draft.template.instances.count) widgets. <a href="\(action)/edit" id="edit">Edit it</a> · \
                <a href="\(action)/preview" id="preview">Preview it beside the live page</a></p>
                \(Self.changeList(TemplateDiff(from: live?.template, to: draft.template), id: "draft-changes", caption: "The draft against the live page"))
                <p><a href="\(action)/publish" id="publish" class="button">Review and publish…</a></p>
                <form method="post" action="\(action)/discard">\(csrf)<input type="hidden" name="version" value="\(HTML.escape(draft.version))">\
                <button type="submit" id="discard">Discard the draft</button></form>
                """
        }
        var history = ""
        for entry in try await layouts.history(of: route) {
            let rollback =
                entry.revision == live?.revision
                ? "live"
                : "<a href=\"\(action)/rollback?revision=\(entry.revision)\" id=\"rollback-\(entry.revision)\">Roll back to this…</a>"
            let changes =
                entry.revision > 1
                ? "<a href=\"\(action)/compare?from=\(entry.revision - 1)&amp;to=\(entry.revision)\" id=\"changes-\(entry.revision)\">What changed</a>"
                : ""
            history += """
                <tr><td>\(entry.revision)</td><td>\(HTML.escape(entry.publishedBy))</td><td>\(Self.time(entry.publishedAt))</td>\
                <td>\(HTML.escape(entry.note))</td><td>\(changes)</td><td>\(rollback)</td></tr>
                """
        }
        var schedulePart = ""
        if let schedule = try await layouts.scheduledPublish(route: route) {
            let changes = TemplateDiff(from: live?.template, to: schedule.template)
            let editedSince = draft.map { $0.template.digest != schedule.template.digest } == true
            schedulePart = """
                <section id="schedule" aria-labelledby="schedule-title"><h2 id="schedule-title">Scheduled publish</h2>                <p>\(HTML.escape(schedule.scheduledBy)) scheduled the draft as reviewed to go live at                 \(Self.time(ScheduledPublish.stored(schedule.at)))\(schedule.note.isEmpty ? "" : ": “\(HTML.escape(schedule.note))”").                \(editedSince ? " The draft was edited since: those edits are not part of it." : "")</p>                \(Self.changeList(changes, id: "schedule-changes", caption: "What it will change"))                <form method="post" action="\(action)/schedule/cancel">\(csrf)<button type="submit" id="cancel-schedule">Cancel the scheduled publish</button></form></section>
                """
        }
        let title = live?.template.title ?? draft?.template.title ?? route
        return Self.page(
            title: "\(title) (\(route))", session: session, prefix: prefix, notice: notice,
            body: """
                <p>Live: \(live.map { "revision \($0.revision), published by \(HTML.escape($0.publishedBy)) at \(Self.time($0.publishedAt))" } ?? "nothing")</p>
                \(schedulePart)\(budget)
                <table id="widgets"><caption>Live widgets, with the newest composition's provider latency and bytes</caption>
                <thead><tr><th>Section</th><th>Widget</th><th>Kind</th><th>Vertical</th><th>Switch</th><th>Latency</th><th>Bytes</th><th>Outcome</th><th></th></tr></thead>
                <tbody>\(widgets)</tbody></table>
                <h2>Draft</h2>\(draftPart)
                <table id="history"><caption>History</caption><thead><tr><th>Revision</th><th>By</th><th>At</th><th>Note</th><th>Changes</th><th></th></tr></thead>
                <tbody>\(history)</tbody></table>
                <p><a href="\(action)/compare" id="compare-revisions">Compare any two revisions</a></p>
                """)
    }

    // MARK: HTML and HTTP

    /// The largest form the admin's pages read: far above anything typed by hand.
    public static let maximumFormBytes = 16 * 1024

    /// The page for a form that was too large or too slow to arrive (the host's body limit): in
    /// words, with nothing changed, rather than the API's JSON error.
    public func refused(_ error: ScreenplayError) -> ScreenplayService.Response {
        let words =
            error.status == .contentTooLarge
            ? "The form sent more than \(Self.maximumFormBytes / 1024) KB: something typed is far too long. Nothing was changed."
            : error.message + ". Nothing was changed."
        var page = Self.page(
            title: "Not saved", prefix: prefix,
            body: "<p id=\"refusal\">\(HTML.escape(words))</p><p><a href=\"\(prefix)\">Back to the pages</a> (or your browser's Back, to keep what you typed)</p>",
            status: error.status)
        if let seconds = error.retryAfter { page.head.headerFields[.retryAfter] = String(seconds) }
        return page
    }

    /// The longest note a publish keeps (what the form's `maxlength` says too).
    static let noteLimit = 200

    /// The banners a redirect may ask for, by code.
    static let notices: [String: String] = [
        "published": "Published: the draft is the live revision now.",
        "scheduled": "Scheduled: the draft as you reviewed it is published at the time shown below. Editing on does not change what is published then.",
        "unscheduled": "The scheduled publish is cancelled: nothing is published then.",
        "notScheduled": "Nothing was scheduled any more: it was published or cancelled meanwhile.",
        "discarded": "The draft was discarded.",
        "rolledBack": "Rolled back: the chosen revision is live again, as the newest.",
        "switchedOn": "Switched on, from the next request.",
        "switchedOff": "Switched off, from the next request.",
        "saved": "Saved to the draft. The live page changes only once you publish it (Back to the page, then Publish).",
        "undone": "Your last change was undone.",
        "redone": "Your change was done again.",
        "switchedOnNewer": "Switched on, from the next request, on the live page as it is now: someone published since you loaded this page.",
        "switchedOffNewer": "Switched off, from the next request, on the live page as it is now: someone published since you loaded this page.",
        "pinned": "Pinned: that widget shows this answer in your preview until you unpin it or sign out.",
        "unpinned": "Unpinned: the provider is asked again.",
        "zone": "Times are now shown and read in this zone.",
        "fresh": "Asked the providers again: each widget not pinned shows its new answer, kept from now on.",
        "experimentSaved": "Experiment saved: every page uses it from the next request.",
        "experimentStarted": "Started: users are bucketed into its variants from the next request.",
        "experimentStopped": "Stopped: everyone sees what they would without it from the next request.",
        "experimentRolledOut": "Rolled out: each page that names it has a draft showing the chosen variant to everyone. Review and publish those drafts, then stop the experiment.",
        "experimentDeleted": "Experiment deleted; its exposures stay for the record.",
    ]
}
