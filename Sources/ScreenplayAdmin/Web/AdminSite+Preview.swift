import Foundation
public import HTTPTypes
import ScreenplayComposer
import ScreenplayContract
import ScreenplayLayoutStore
public import ScreenplayServer
import ScreenplayStore
import ScreenplayWeb

/// The preview, `/admin/pages/{route}/preview`: the draft beside the live page, each composed for
/// the platform, API version, user and experiment variants chosen in the form, rendered by the
/// web renderer (apps' own kinds through their fallbacks; iOS and Android in a phone of theirs),
/// with each widget's provider latency and bytes under it. Each widget keeps the answer its
/// provider first gave this admin's preview (``PreviewPins``) until they ask for fresh ones. Nothing is recorded: previews use variant overrides and no exposure recorder
/// is consulted for them.
///
/// The preview is live: with the site's script, it follows `/admin/preview-events/{route}`
/// (the screen event stream's protocol, with the preview's own tag) and morphs itself in place
/// within a second of a publish, a kill switch, an experiment change or a saved draft.
extension AdminSite {
    /// What a preview shows, as its form chose it (the page's query).
    struct PreviewSettings {
        var platform: String
        var version: Int
        var user: String?
        var locale: String?
        var segments: Set<String>
        var overrides: [String: String]
        /// The query the settings came from, to ask the stream for the same preview.
        var query: [String: String]
        /// The experiments the preview was composed with (the form offers their variants).
        var catalog = ExperimentCatalog()

        init(query: [String: String], experiments: Set<String>) {
            self.query = query
            platform = (query["platform"] ?? "web").lowercased()
            version = Int(query["version"] ?? "") ?? APIVersion.latest.rawValue
            user = query["user"].flatMap { $0.isEmpty ? nil : $0 }
            locale = query["locale"].flatMap { $0.isEmpty ? nil : $0 }
            segments = Set((query["segments"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
            overrides = [:]
            for key in experiments { if let variant = query["variant." + key], !variant.isEmpty { overrides[key] = variant } }
        }
    }

    /// The draft and the live revision of a route, composed as `settings` say.
    struct PreviewColumns {
        var draft: (template: PageTemplate, page: ComposedPage)?
        var live: (template: PageTemplate, page: ComposedPage)?

        /// A tag that moves when either column's screen does: what the preview stream compares.
        var etag: String {
            ETag.strong(for: (draft?.page.bytes ?? []) + [0] + (live?.page.bytes ?? []) + Array("\(live?.template.revision ?? 0)".utf8))
        }
    }

    /// Composes the preview of `route`, or explains why there is none.
    ///
    /// With a `session`, widgets its admin pinned are answered with their pinned answers, and
    /// every answer is remembered for a later pin (``PreviewPins``).
    func composePreview(
        _ route: String, query: [String: String], session: String? = nil
    ) async throws -> Result<(PreviewSettings, PreviewColumns), PreviewRefusal> {
        guard let pages else { return .failure(.noComposer) }
        let live = try await layouts.published(route: route)
        let draft = try await layouts.draft(of: route)
        guard live != nil || draft != nil else { return .failure(.noPage(route)) }
        let catalog = try await experiments.catalog()
        var settings = PreviewSettings(query: query, experiments: Set(catalog.experiments.keys))
        settings.catalog = catalog
        guard APIVersion.supported.contains(APIVersion(settings.version)) else { return .failure(.version(settings.version)) }
        let context = CompositionContext(
            route: route, userID: settings.user, platform: Platform(settings.platform), apiVersion: APIVersion(settings.version),
            clientKinds: [], locale: settings.locale, segments: settings.segments, now: Date(), experiments: catalog,
            variantOverrides: settings.overrides)
        // Previews never count as exposures: compose with the same catalog and providers, no recorder.
        var providers = pages.composer.providers
        if let session {
            providers = providers.mapValues { PinningProvider(base: $0, pins: pins, session: session, route: route) }
        }
        let composer = Composer(catalog: pages.composer.catalog, providers: providers, configuration: pages.composer.configuration)
        var columns = PreviewColumns()
        if let template = draft?.template { columns.draft = (template, await composer.compose(template: template, context: context)) }
        if let template = live?.template { columns.live = (template, await composer.compose(template: template, context: context)) }
        return .success((settings, columns))
    }

    /// Why a route has no preview.
    enum PreviewRefusal: Error {
        case noComposer
        case noPage(String)
        case version(Int)

        var response: ScreenplayService.Response {
            switch self {
            case .noComposer: AdminSite.page(title: "No composer", body: "<p>This server composes no pages.</p>", status: .notFound)
            case .noPage(let route):
                AdminSite.page(title: "Not found", body: "<p>No page '\(HTML.escape(route))'.</p>", status: .notFound)
            case .version(let version):
                AdminSite.page(title: "Not shown", body: "<p>API version \(version) is not served.</p>", status: .unprocessableContent)
            }
        }
    }

    func preview(_ route: String, _ session: AdminDirectory.Session, query: [String: String]) async throws -> ScreenplayService.Response {
        // What was just done (a pin) is said once, and is no part of the preview's settings.
        var query = query
        let notice = query.removeValue(forKey: "done").flatMap { Self.notices[$0] }
        let (settings, composed): (PreviewSettings, PreviewColumns)
        // An answer from before this look was kept, not asked for now.
        let looked = Date()
        switch try await composePreview(route, query: query, session: session.id) {
        case .success(let result): (settings, composed) = result
        case .failure(let refusal): return refusal.response
        }
        let pinned = await pins.pins(session: session.id, route: route)
        let answered = await pins.lastAnswers(session: session.id, route: route)
        let pinAction = "\(prefix)/pages/\(Self.pathEscape(route))/preview/pins"
        let csrf = "<input type=\"hidden\" name=\"csrf\" value=\"\(session.csrf)\">"
        let backQuery = "<input type=\"hidden\" name=\"query\" value=\"\(HTML.escape(Self.queryString(query)))\">"
        /// Pin or unpin, for one widget's row; nothing for a widget that never answered.
        func pinControl(_ widget: WidgetReport, instance: WidgetInstance?, column: String) -> String {
            let key = HTML.escape(Self.fieldID(widget.instanceID))
            let name = HTML.escape(widget.instanceID)
            if let pin = pinned[widget.instanceID], pin.kind == instance?.kind, pin.parameters == instance?.parameters {
                return """
                    <form method="post" action="\(pinAction)">\(csrf)\(backQuery)<input type="hidden" name="widget" value="\(name)">\
                    <input type="hidden" name="pin" value="no"><button type="submit" id="unpin-\(column)-\(key)" aria-label="Unpin \(name)">Unpin</button></form>
                    """
            }
            guard answered[widget.instanceID] != nil else { return "" }
            return """
                <form method="post" action="\(pinAction)">\(csrf)\(backQuery)<input type="hidden" name="widget" value="\(name)">\
                <input type="hidden" name="pin" value="yes"><button type="submit" id="pin-\(column)-\(key)" aria-label="Pin the last answer of \(name)">Pin</button></form>
                """
        }
        // What the draft changes against the live page: listed above the columns, outlined in
        // the draft (added, moved, changed) and in the live page (removed), and named in each
        // widget's row, so the difference reads without color too.
        let diff = composed.draft.map { TemplateDiff(from: composed.live?.template, to: $0.template) }
        var marks = ""
        // What the app draws instead, and failures: before the change marks, which win an outline.
        var fateMarks = ""
        var changeOf: [String: String] = [:]
        for (ids, change, column) in [
            (diff?.addedWidgets ?? [], "added", "draft"), (diff?.movedWidgets ?? [], "moved", "draft"),
            (diff?.changedWidgets ?? [], "changed", "draft"), (diff?.removedWidgets ?? [], "removed", "live"),
        ] {
            for id in ids.sorted() {
                changeOf[column + ":" + id] = change
                marks += "#preview-\(column) .rendered [data-node=\"id:\(Self.cssString(id))\"]{outline:3px \(change == "removed" ? "dashed" : "solid") var(--mark-\(change));outline-offset:3px}"
            }
        }
        let catalogOfKinds = pages?.composer.catalog
        // iOS and Android are drawn in a phone of theirs, in the appearance chosen.
        let device = PreviewDevice(rawValue: settings.platform)
        let appearance = Self.appearance(query)
        var columns = ""
        for (name, column) in [("Draft", composed.draft), ("Live", composed.live)] {
            guard let (template, page) = column else {
                columns += "<section class=\"column\" id=\"preview-\(name.lowercased())\"><h2>\(name)</h2><p>None.</p></section>"
                continue
            }
            let decoded = (try? ScreenplayDecoder(apiVersion: APIVersion(settings.version)).decode(Screen.self, from: Data(page.bytes)).value)
            // A failed widget is a marked box where it would be, not a gap.
            let fates = "\(device?.name ?? settings.platform) at API version \(settings.version)"
            // Placed by component ids, which versions before 4 do not send: there the table alone says.
            let placed = settings.version >= Self.firstVersionWithIDs
            let screen = decoded.map {
                placed
                    ? Self.labellingFallbacks(
                        in: Self.showingFailures(in: $0, template: template, reports: page.widgets), reports: page.widgets, catalog: catalogOfKinds,
                        version: settings.version, context: fates) : $0
            }
            // Inert: its buttons and links are the app's, not a way out of the preview.
            let html = screen.map { "<main inert>" + HTMLRenderer().content(for: $0, currentPath: "/admin") + "</main>" } ?? "<p>Not readable.</p>"
            let instances = Dictionary(template.instances.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            if placed { fateMarks += Self.fateMarks(column: name.lowercased(), reports: page.widgets) }
            let unplaced =
                placed || !page.widgets.contains(where: { $0.outcome.isFallback || WidgetFate.isProviderFailure($0.outcome) })
                ? ""
                : "<p class=\"hint\" id=\"\(name.lowercased())-unplaced\">API version \(settings.version) sends no component ids, so its fallbacks and failures are not marked in the screen: the table below names each.</p>"
            let rendered =
                unplaced
                + (device.map { Self.deviceFrame(html, device: $0, appearance: appearance, column: name, version: settings.version) }
                    ?? "<div class=\"rendered\" tabindex=\"0\" role=\"region\" aria-label=\"\(name) as rendered\">\(html)</div>")
            var rows = ""
            for widget in page.widgets {
                let latency = widget.providerLatency.map(Self.milliseconds) ?? "–"
                let fate = WidgetFate.words(
                    for: widget, instance: instances[widget.instanceID], contract: catalogOfKinds?[widget.kind],
                    context: "\(settings.platform) at API version \(settings.version)")
                let failed = WidgetFate.isProviderFailure(widget.outcome)
                let change = changeOf[name.lowercased() + ":" + widget.instanceID].map { "<span class=\"mark mark-\($0)\">\($0)</span>" } ?? ""
                let instance = instances[widget.instanceID]
                let pin = pinned[widget.instanceID].flatMap { $0.kind == instance?.kind && $0.parameters == instance?.parameters ? $0 : nil }
                let kept = pin == nil ? answered[widget.instanceID].flatMap { $0.at < looked && $0.kind == instance?.kind && $0.parameters == instance?.parameters ? $0 : nil } : nil
                let pinWords =
                    pin.map { "<strong>Pinned answer</strong> (from <time datetime=\"\($0.at.formatted(.iso8601))\">\(AdminTime.words($0.at))</time>): " }
                    ?? kept.map { "Kept answer (from <time datetime=\"\($0.at.formatted(.iso8601))\">\(AdminTime.words($0.at))</time>): " } ?? ""
                rows += """
                    <tr\(failed ? " class=\"failed\"" : "")><td>\(HTML.escape(widget.instanceID))</td><td>\(change)</td><td>\(pin == nil && kept == nil ? latency : "–")</td><td>\(widget.bytes)</td>\
                    <td>\(failed ? "<strong>Provider failure:</strong> " : "")\(pinWords)\(HTML.escape(fate))</td>\
                    <td>\(pinControl(widget, instance: instance, column: name.lowercased()))</td></tr>
                    """
            }
            let anyFailed = page.widgets.contains { WidgetFate.isProviderFailure($0.outcome) }
            let retry =
                anyFailed
                ? "<p class=\"warning\" id=\"\(name.lowercased())-failures\">A provider failed for this column: what it shows is not what the layout decides. <a href=\"\(prefix)/pages/\(Self.pathEscape(route))/preview\(Self.queryString(settings.query))\" id=\"retry-\(name.lowercased())\">Retry</a>; once it answers, its answer is kept while you edit.</p>"
                : ""
            columns += """
                <section class="column" id="preview-\(name.lowercased())"><h2>\(name == "Live" ? "Live (revision \(template.revision))" : "Draft")</h2>
                \(retry)\(rendered)
                <table><caption>\(page.bytes.count) bytes in \(Self.milliseconds(page.duration))\(page.isOverBudget ? ", over budget" : "")</caption>
                <thead><tr><th>Widget</th><th>Change</th><th>Latency</th><th>Bytes</th><th>What happened</th><th>Its answer</th></tr></thead><tbody>\(rows)</tbody></table></section>
                """
        }
        let changes = diff.map { Self.changeList($0, id: "preview-changes", caption: "The draft against the live page") } ?? ""
        let catalog = settings.catalog
        var variantInputs = ""
        for key in catalog.experiments.keys.sorted() {
            let names = catalog[key]?.variants.map(\.name) ?? []
            let options = ([""] + names).map { option in
                let label = option.isEmpty ? "as the user is bucketed" : option
                return "<option value=\"\(HTML.escape(option))\"\(query["variant." + key, default: ""] == option ? " selected" : "")>\(HTML.escape(label))</option>"
            }.joined()
            variantInputs +=
                "<label for=\"variant-\(HTML.escape(key))\">Variant of \(HTML.escape(key))</label><select id=\"variant-\(HTML.escape(key))\" name=\"variant.\(HTML.escape(key))\">\(options)</select>"
        }
        let platforms = [("web", "Web"), ("ios", "iOS"), ("android", "Android")].map { value, label in
            "<option value=\"\(value)\"\(value == settings.platform ? " selected" : "")>\(label)</option>"
        }.joined()
        let versions = APIVersion.supported.lowerBound.rawValue...APIVersion.supported.upperBound.rawValue
        let versionOptions = versions.map { "<option\($0 == settings.version ? " selected" : "")>\($0)</option>" }.joined()
        let appearanceOptions = [("light", "Light"), ("dark", "Dark")].map { value, label in
            "<option value=\"\(value)\"\(value == appearance ? " selected" : "")>\(label)</option>"
        }.joined()
        let path = "\(prefix)/pages/\(Self.pathEscape(route))/preview"
        let body = """
            <form method="get" action="\(path)" class="edit" id="preview-form">
            <label for="platform">Device</label><select id="platform" name="platform">\(platforms)</select>
            <label for="version">API version</label><select id="version" name="version">\(versionOptions)</select>
            <label for="appearance">Appearance (iOS and Android)</label><select id="appearance" name="appearance">\(appearanceOptions)</select>
            <label for="user">User id (empty: anonymous)</label><input id="user" name="user" value="\(HTML.escape(settings.user ?? ""))">
            <label for="locale">Language (de, fr-CH; empty: none)</label><input id="locale" name="locale" value="\(HTML.escape(settings.locale ?? ""))">
            <label for="segments">Segments (comma-separated)</label><input id="segments" name="segments" value="\(HTML.escape(settings.segments.sorted().joined(separator: ", ")))">
            \(variantInputs)<button type="submit" id="show">Show</button></form>
            <p><a href="\(prefix)/pages/\(Self.pathEscape(route))/edit">Back to the editor</a></p>
            <style id="preview-marks">\(fateMarks)\(marks)</style>
            \(changes)
            <p class="legend">Outlined: <span class="mark mark-added">added</span> <span class="mark mark-moved">moved</span> \
            <span class="mark mark-changed">changed</span> in the draft; <span class="mark mark-removed">removed</span> in the live page. \
            Dotted and labelled in the screen: a widget this app draws as its fallback; dashed: a provider failure.</p>
            <form method="post" action="\(pinAction)" id="fresh">\(csrf)\(backQuery)<input type="hidden" name="pin" value="fresh">\
            <p>Each widget keeps the answer its provider gave this preview, so what changes here is the layout's doing. \
            <button type="submit" id="fresh-answers">Ask the providers again</button></p></form>
            \(pinned.isEmpty ? "" : """
                <form method="post" action="\(pinAction)" id="pins">\(csrf)\(backQuery)<input type="hidden" name="pin" value="none">\
                <p>\(pinned.count) pinned answer\(pinned.count == 1 ? "" : "s"): \(HTML.escape(pinned.keys.sorted().joined(separator: ", "))); \
                those keep their answers even when the providers are asked again. <button type="submit" id="unpin-all">Unpin all</button></p></form>
                """)<div class="columns\(device == nil ? "" : " devices")">\(columns)</div>
            """
        // Live when the server announces changes: the stream names this same preview.
        let live =
            events == nil
            ? ""
            : " data-live=\"\(HTML.escape(previewEventsPath(route) + Self.queryString(settings.query)))\" data-etag=\"\(HTML.escape(composed.etag))\""
        // The screens in the site's own look, confined to the preview boxes.
        return Self.page(
            title: "Preview of \(route)", session: session, prefix: prefix, notice: notice, body: body,
            extraStyle: HTMLRenderer.stylesheet(scopedTo: ".rendered") + Self.markStyle + Self.deviceStyle, mainAttributes: live)
    }

    /// The colors of the change marks, light and dark; the words beside them say the same.
    static let markStyle = """
        :root{--mark-added:#1a7f37;--mark-moved:#0b57d0;--mark-changed:#8a5a00;--mark-removed:#b3261e}
        @media (prefers-color-scheme:dark){:root{--mark-added:#56d364;--mark-moved:#79b8ff;--mark-changed:#e3b341;--mark-removed:#ff7b72}}
        .mark{display:inline-block;padding:0 .35rem;border:2px solid;border-radius:.25rem;font-size:.85em;font-weight:600}
        .mark-added{border-color:var(--mark-added)}.mark-moved{border-color:var(--mark-moved)}
        .mark-changed{border-color:var(--mark-changed)}.mark-removed{border-color:var(--mark-removed);border-style:dashed}
        tr.failed td{background:rgba(179,38,30,.08)}.columns>.column{min-width:0}
        """

    /// `id` inside a double-quoted CSS string: quotes and backslashes escaped (ids cannot hold
    /// them, but the marks must not depend on that).
    static func cssString(_ id: String) -> String {
        id.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    /// Pins a widget's last answer (`pin=yes`), unpins it (`no`) or every pin of the page
    /// (`none`), then shows the preview again as it was (`query`).
    func actOnPins(_ route: String, form: [String: String], session: AdminDirectory.Session) async -> ScreenplayService.Response {
        let widget = form["widget"] ?? ""
        var done = "unpinned"
        switch form["pin"] {
        case "yes":
            guard await pins.pin(.init(session: session.id, route: route, widget: widget)) else {
                return Self.page(
                    title: "Not pinned", session: session, prefix: prefix,
                    body: "<p>'\(HTML.escape(widget))' has no answer to pin yet: its provider has not answered this preview.</p>",
                    status: .unprocessableContent)
            }
            done = "pinned"
        case "no": await pins.unpin(session: session.id, route: route, widget: widget)
        case "fresh":
            await pins.forgetAnswers(session: session.id, route: route)
            done = "fresh"
        default: await pins.unpin(session: session.id, route: route, widget: nil)
        }
        // Back to the same preview: the query is the preview's own, read again as a query.
        var query = RequestFields.query(form["query"] ?? "")
        query["done"] = done
        return Self.redirect(to: "\(prefix)/pages/\(Self.pathEscape(route))/preview\(Self.queryString(query))")
    }

    /// The path of the stream that follows previews of `route` (a path of its own, outside
    /// `pages/`, so a router can mount it beside the site's catch-all).
    func previewEventsPath(_ route: String) -> String { "\(prefix)/preview-events/\(Self.pathEscape(route))" }

    /// Opens the stream a live preview follows (`GET /admin/preview-events/{route}?…`, the
    /// preview's own query): one entry, `preview`, whose tag moves when the draft or the live
    /// page as previewed does. Signed-in admins only; once the session ends (signed out,
    /// expired) the stream's next look ends it (`end`, reason `identity`), saying nothing of
    /// what changed, so the page learns on its next fetch that it must sign in again.
    public func openPreviewEvents(_ request: HTTPRequest, clientAddress: String? = nil) async -> ScreenplayService.StreamingResponse {
        let path = (request.path ?? "/").split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        let rest = path.dropFirst(prefix.count).split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
        guard let hub = events, rest.count == 2, rest[0] == "preview-events" else {
            return .whole(ScreenplayService.errorResponse(.notFound("no preview stream here", path: path)))
        }
        let route = rest[1]
        let query = RequestFields.query(request.path ?? "")
        do {
            guard let id = RequestFields.cookie(Self.sessionCookie, in: request.headerFields), let session = try await admins.session(id: id)
            else { return .whole(ScreenplayService.errorResponse(ScreenplayError(status: .unauthorized, code: "signInFirst", message: "sign in to the admin first"))) }
            let client = EventStreamClient(user: .anonymous, token: nil, apiVersion: .latest, limitKey: "admin:" + session.admin)
            let site = self
            let stream = try await hub.open(
                watching: ["preview"], client: client, lastEventID: request.headerFields[ScreenplayService.lastEventID], followsDrafts: true,
                endsWhenUnauthorized: true,
                etag: { _, _ throws(ScreenplayError) in
                    // A session that ended hears nothing more: its stream ends. A store that cannot
                    // say (the database away) is no reason to end it.
                    let current: AdminDirectory.Session?
                    do {
                        current = try await site.admins.session(id: id)
                    } catch {
                        throw .unavailable(code: ScreenplayError.storeUnavailableCode, "the admin sessions cannot be read now")
                    }
                    guard current != nil else {
                        throw ScreenplayError(status: .unauthorized, code: "signInFirst", message: "the admin session ended")
                    }
                    switch try? await site.composePreview(route, query: query, session: id) {
                    case .success(let (_, columns)): return WatchedVersion(etag: columns.etag)
                    case .failure(.noPage): throw .notFound("no page '\(route)'", path: route)
                    default: throw .internalError("the preview did not compose")
                    }
                },
                identity: { _ in .anonymous }, logger: logger)
            return .events(ScreenplayService.eventStreamHead, stream)
        } catch let error as ScreenplayError {
            return .whole(ScreenplayService.errorResponse(error))
        } catch {
            return .whole(ScreenplayService.errorResponse(.internalError("the admin could not open the preview stream")))
        }
    }

    /// `?key=value&…` for `query`, sorted, or empty.
    static func queryString(_ query: [String: String]) -> String {
        guard !query.isEmpty else { return "" }
        return "?" + query.sorted { $0.key < $1.key }.map { queryEscape($0.key) + "=" + queryEscape($0.value) }.joined(separator: "&")
    }
}
