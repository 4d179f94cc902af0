import Foundation
import HTTPTypes
import ScreenplayComposer
import ScreenplayContract
import ScreenplayLayoutStore
import ScreenplayServer
import ScreenplayStore
import ScreenplayWeb

/// The preview, `/admin/pages/{route}/preview`: the draft beside the live page, each composed for
/// the platform, API version, user and experiment variants chosen in the form, rendered by the
/// web renderer (apps' own kinds through their fallbacks), with each widget's provider latency and
/// bytes under it. Nothing is recorded: previews use variant overrides and no exposure recorder
/// is consulted for them.
extension AdminSite {
    func preview(_ route: String, _ session: AdminDirectory.Session, query: [String: String]) async throws -> ScreenplayService.Response {
        guard let pages else { return Self.page(title: "No composer", body: "<p>This server composes no pages.</p>", status: .notFound) }
        let live = try await layouts.published(route: route)
        let draft = try await layouts.draft(of: route)
        guard live != nil || draft != nil else {
            return Self.page(title: "Not found", body: "<p>No page '\(HTML.escape(route))'.</p>", status: .notFound)
        }
        let catalog = try await experiments.catalog()
        let platform = (query["platform"] ?? "ios").lowercased()
        let version = Int(query["version"] ?? "") ?? APIVersion.latest.rawValue
        let user = query["user"].flatMap { $0.isEmpty ? nil : $0 }
        var overrides: [String: String] = [:]
        for key in catalog.experiments.keys { if let variant = query["variant." + key], !variant.isEmpty { overrides[key] = variant } }
        guard APIVersion.supported.contains(APIVersion(version)) else {
            return Self.page(title: "Not shown", body: "<p>API version \(version) is not served.</p>", status: .unprocessableContent)
        }
        let context = CompositionContext(
            route: route, userID: user, platform: Platform(platform), apiVersion: APIVersion(version), clientKinds: [],
            locale: query["locale"],
            now: Date(), experiments: catalog, variantOverrides: overrides)
        // Previews never count as exposures: compose with the same catalog and providers, no recorder.
        let composer = Composer(
            catalog: pages.composer.catalog, providers: pages.composer.providers, configuration: pages.composer.configuration)
        var columns = ""
        for (name, template) in [("Draft", draft?.template), ("Live", live?.template)] {
            guard let template else {
                columns += "<section class=\"column\"><h2>\(name)</h2><p>None.</p></section>"
                continue
            }
            let page = await composer.compose(template: template, context: context)
            let screen = (try? ScreenplayDecoder(apiVersion: APIVersion(version)).decode(Screen.self, from: Data(page.bytes)).value)
            let rendered = screen.map { "<main>" + HTMLRenderer().content(for: $0, currentPath: "/admin") + "</main>" } ?? "<p>Not readable.</p>"
            var rows = ""
            for widget in page.widgets {
                let latency = widget.providerLatency.map(Self.milliseconds) ?? "–"
                rows +=
                    "<tr><td>\(HTML.escape(widget.instanceID))</td><td>\(latency)</td><td>\(widget.bytes)</td><td>\(HTML.escape(widget.outcome.description))</td></tr>"
            }
            columns += """
                <section class="column" id="preview-\(name.lowercased())"><h2>\(name == "Live" ? "Live (revision \(template.revision))" : "Draft")</h2>
                <div class="rendered">\(rendered)</div>
                <table><caption>\(page.bytes.count) bytes in \(Self.milliseconds(page.duration))\(page.isOverBudget ? ", over budget" : "")</caption>
                <thead><tr><th>Widget</th><th>Latency</th><th>Bytes</th><th>Outcome</th></tr></thead><tbody>\(rows)</tbody></table></section>
                """
        }
        var variantInputs = ""
        for key in catalog.experiments.keys.sorted() {
            let names = catalog[key]?.variants.map(\.name) ?? []
            let options = ([""] + names).map { option in
                "<option\(query["variant." + key] == option ? " selected" : "")>\(HTML.escape(option))</option>"
            }.joined()
            variantInputs +=
                "<label for=\"variant-\(HTML.escape(key))\">\(HTML.escape(key))</label><select id=\"variant-\(HTML.escape(key))\" name=\"variant.\(HTML.escape(key))\">\(options)</select>"
        }
        let platforms = ["ios", "android", "web"].map { "<option\($0 == platform ? " selected" : "")>\($0)</option>" }.joined()
        let versions = APIVersion.supported.lowerBound.rawValue...APIVersion.supported.upperBound.rawValue
        let versionOptions = versions.map { "<option\($0 == version ? " selected" : "")>\($0)</option>" }.joined()
        let body = """
            <form method="get" action="\(prefix)/pages/\(Self.pathEscape(route))/preview" class="edit" id="preview-form">
            <label for="platform">Platform</label><select id="platform" name="platform">\(platforms)</select>
            <label for="version">API version</label><select id="version" name="version">\(versionOptions)</select>
            <label for="user">User id (empty: anonymous)</label><input id="user" name="user" value="\(HTML.escape(user ?? ""))">
            \(variantInputs)<button type="submit" id="show">Show</button></form>
            <p><a href="\(prefix)/pages/\(Self.pathEscape(route))/edit">Back to the editor</a></p>
            <div class="columns">\(columns)</div>
            """
        // The screens in the site's own look, confined to the preview boxes.
        return Self.page(
            title: "Preview of \(route)", session: session, prefix: prefix, notice: nil, body: body,
            extraStyle: HTMLRenderer.stylesheet(scopedTo: ".rendered"))
    }
}
