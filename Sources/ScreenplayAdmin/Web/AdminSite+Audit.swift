import Foundation
import ScreenplayLayoutStore
import ScreenplayServer
import ScreenplayWeb

/// The audit log page: every change, by whom, with what it kept.
extension AdminSite {
    func audit(_ session: AdminDirectory.Session) async throws -> ScreenplayService.Response {
        var rows = ""
        for entry in try await layouts.auditLog(limit: 200) {
            rows += """
                <tr><td>\(Self.time(entry.at))</td><td>\(HTML.escape(entry.actor))</td><td>\(HTML.escape(entry.action))</td>\
                <td>\(HTML.escape(entry.subject))</td><td>\(entry.revision.map(String.init) ?? "")</td><td class="detail">\(Self.auditDetail(entry.detail))</td></tr>
                """
        }
        return Self.page(
            title: "Audit log", session: session, prefix: prefix, notice: nil,
            body: """
                <table id="audit"><thead><tr><th>At</th><th>Who</th><th>What</th><th>Subject</th><th>Revision</th><th>Detail</th></tr></thead>
                <tbody>\(rows)</tbody></table>
                """)
    }

    /// An audit row's detail: the summary in words, and a definition it keeps (an experiment's
    /// JSON, after ` — `) folded away for whoever needs it.
    static func auditDetail(_ detail: String) -> String {
        guard let mark = detail.range(of: " — was {") ?? detail.range(of: " — {") else { return HTML.escape(String(detail.prefix(1_000))) }
        let kept = detail[mark.lowerBound...].dropFirst(3)
        return HTML.escape(String(detail[..<mark.lowerBound].prefix(1_000)))
            + "<details><summary>\(kept.hasPrefix("was") ? "The definition before" : "The definition")</summary>"
            + "<code>\(HTML.escape(String(kept.drop { $0 != "{" }.prefix(4_000))))</code></details>"
    }
}
