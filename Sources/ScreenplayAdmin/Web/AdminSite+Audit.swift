import Foundation
import ScreenplayLayoutStore
import ScreenplayServer
import ScreenplayWeb

/// The audit log page: every change, by whom, with what it kept.
extension AdminSite {
    /// `GET /admin/audit`: the log a page at a time (50 rows, newest first), filtered by page,
    /// person and action and searched by words (`?page=shop&who=ada&action=publish&q=deal`), a
    /// GET form that works without the script; "Older" pages on from the last row shown.
    func audit(_ session: AdminDirectory.Session, query: [String: String]) async throws -> ScreenplayService.Response {
        let filters = AuditQuery(
            subject: query["page"], actor: query["who"], action: query["action"], text: String((query["q"] ?? "").prefix(400)),
            before: query["before"].flatMap(Int64.init), limit: 50)
        let page = try await layouts.auditLog(filters)
        let facets = try await layouts.auditFacets()
        var rows = ""
        for entry in page.entries {
            rows += """
                <tr><td>\(Self.time(entry.at))</td><td>\(HTML.escape(entry.actor))</td><td>\(HTML.escape(entry.action))</td>\
                <td>\(HTML.escape(entry.subject))</td><td>\(entry.revision.map(String.init) ?? "")</td><td class="detail">\(Self.auditDetail(entry.detail))</td></tr>
                """
        }
        func menu(_ name: String, _ label: String, _ values: [String], _ chosen: String?, all: String) -> String {
            let options = ([("", all)] + values.map { ($0, $0) }).map { value, text in
                "<option value=\"\(HTML.escape(value))\"\(value == (chosen ?? "") ? " selected" : "")>\(HTML.escape(String(text.prefix(80))))</option>"
            }.joined()
            return "<label for=\"audit-\(name)\">\(label)</label><select id=\"audit-\(name)\" name=\"\(name)\">\(options)</select>"
        }
        // The filters as a query, for the links that page on.
        var kept: [String] = []
        for (key, value) in [("page", filters.subject), ("who", filters.actor), ("action", filters.action), ("q", filters.text)] {
            if let value, !value.isEmpty { kept.append("\(key)=\(Self.queryEscape(value))") }
        }
        let base = "\(prefix)/audit" + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&amp;"))
        let joiner = kept.isEmpty ? "?" : "&amp;"
        let filtered = !kept.isEmpty
        let summary =
            page.entries.isEmpty
            ? (filtered ? "Nothing matches these filters." : "Nothing yet.")
            : "\(page.entries.count) \(page.entries.count == 1 ? "entry" : "entries")\(filters.before == nil ? ", the newest" : ", older ones")\(filtered ? " matching the filters" : "")."
        var paging: [String] = []
        if filters.before != nil { paging.append("<a href=\"\(base)\" id=\"audit-newest\">Newest</a>") }
        if let next = page.next { paging.append("<a href=\"\(base)\(joiner)before=\(next)\" id=\"audit-older\" rel=\"next\">Older entries</a>") }
        return Self.page(
            title: "Audit log", session: session, prefix: prefix, notice: nil,
            body: """
                <form method="get" action="\(prefix)/audit" class="pick" id="audit-filters" role="search" aria-label="Filter the audit log">\
                \(menu("page", "Page", facets.subjects, filters.subject, all: "Every page"))\
                \(menu("who", "Person", facets.actors, filters.actor, all: "Everyone"))\
                \(menu("action", "Action", facets.actions, filters.action, all: "Every action"))\
                <label for="audit-q">Words</label><input id="audit-q" name="q" type="search" value="\(HTML.escape(filters.text))" maxlength="400">\
                <button type="submit" id="audit-filter">Filter</button>\(filtered ? " <a href=\"\(prefix)/audit\" id=\"audit-clear\">Clear</a>" : "")</form>
                <p id="audit-summary" role="status">\(summary)</p>
                <table id="audit"><caption class="visually-hidden">Audit log</caption><thead><tr><th>At</th><th>Who</th><th>What</th><th>Subject</th><th>Revision</th><th>Detail</th></tr></thead>
                <tbody>\(rows)</tbody></table>
                <nav aria-label="Audit log pages" id="audit-pages"><p>\(paging.joined(separator: " · "))</p></nav>
                """)
    }

    /// An audit row's detail: the summary in words (cut like any long value), and a definition it
    /// keeps (an experiment's JSON, after ` — `) folded away for whoever needs it, saying so when
    /// only its beginning is shown.
    static func auditDetail(_ detail: String) -> String {
        guard let mark = detail.range(of: " — was {") ?? detail.range(of: " — {") else { return elided(detail) }
        let kept = detail[mark.lowerBound...].dropFirst(3)
        let definition = kept.drop { $0 != "{" }
        let shown = 4_000
        let cut = definition.count > shown ? " (its first \(shown) of \(definition.count) characters)" : ""
        return elided(String(detail[..<mark.lowerBound]))
            + "<details><summary>\(kept.hasPrefix("was") ? "The definition before" : "The definition")\(cut)</summary>"
            + "<code>\(HTML.escape(String(definition.prefix(shown))))</code></details>"
    }

    /// A long text cut to its first 300 characters, the whole of it (up to 20 000) a click away:
    /// one pasted paragraph does not make a row a screen tall, or the page a hundred screens wide.
    static func elided(_ text: String, keeping shown: Int = 300) -> String {
        guard text.count > shown else { return HTML.escape(text) }
        return HTML.escape(String(text.prefix(shown))) + "…"
            + "<details class=\"whole\"><summary>The whole of it (\(text.count) characters)</summary>\(HTML.escape(String(text.prefix(20_000))))</details>"
    }
}
