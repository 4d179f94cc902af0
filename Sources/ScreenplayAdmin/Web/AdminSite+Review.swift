import Foundation
import HTTPTypes
import ScreenplayComposer
import ScreenplayLayoutStore
import ScreenplayServer
import ScreenplayWeb

/// Looking before leaping: a publish and a rollback first show what they will change and ask to
/// confirm (a page of its own, so it works without the script), and any two revisions of a page
/// can be compared. Every list of changes comes from ``TemplateDiff``, as the audit log's do.
extension AdminSite {
    /// `GET …/publish`: the draft against the live page, the note, and the button that publishes.
    func publishReview(
        _ route: String, _ session: AdminDirectory.Session, scheduleError: String? = nil, values: [String: String] = [:]
    ) async throws -> ScreenplayService.Response {
        let action = "\(prefix)/pages/\(Self.pathEscape(route))"
        guard let draft = try await layouts.draft(of: route) else {
            return Self.page(
                title: "Nothing to publish", session: session, prefix: prefix,
                body: "<p>Page '\(HTML.escape(route))' has no draft. <a href=\"\(action)\">Back to the page</a></p>", status: .notFound)
        }
        let live = try await layouts.published(route: route)
        let diff = TemplateDiff(from: live?.template, to: draft.template)
        let stale =
            live.map { $0.revision != draft.basedOn } == true
            ? "<p class=\"warning\" id=\"stale-draft\">This draft started from revision \(draft.basedOn); revision \(live?.revision ?? 0) is live now. Publishing replaces it.</p>"
            : ""
        // What the editor's cards warn about (a widget no client will see, a vertical that may
        // leave it out) and what the world says now (a work or an experiment gone since the save),
        // here too: a review that hid them would publish a surprise.
        let world = (try? await WorldCheck.problems(in: draft.template, pages: pages, experiments: experiments)) ?? []
        let problems = layouts.problems(in: draft.template) + world
        let attention =
            problems.isEmpty
            ? ""
            : """
            <section id="review-warnings" class="review-warnings" aria-labelledby="review-warnings-title">\
            <h2 id="review-warnings-title">Look at these first (\(problems.count))</h2><ul>\
            \(problems.map { problem in
                let place = Self.input(for: problem.path, in: draft.template)?.0 ?? problem.path
                return "<li>\(HTML.escape(place)): \(problem.isWarning ? "" : "<strong>not allowed:</strong> ")\(HTML.escape(problem.message))</li>"
            }.joined())</ul></section>
            """
        let audience = Self.audience(of: diff, in: draft.template, mix: clientMix?.counts())
        let scheduled = try await layouts.scheduledPublish(route: route).map { schedule in
            "<p id=\"already-scheduled\">A publish is scheduled for \(Self.time(ScheduledPublish.stored(schedule.at))) by \(HTML.escape(schedule.scheduledBy)); scheduling again replaces it.</p>"
        } ?? ""
        return Self.page(
            title: "Publish the draft of \(route)?", session: session, prefix: prefix,
            body: """
                <p>Live now: \(live.map { "revision \($0.revision)" } ?? "nothing (first publish)"). \
                Publishing makes the draft by \(HTML.escape(draft.updatedBy)) live for every app and browser on the next request.</p>
                \(stale)\(attention)\(Self.changeList(diff, id: "changes", caption: "What will change"))\(audience)
                <form method="post" action="\(action)/publish" class="confirm">\(Self.csrfField(session))\
                <input type="hidden" name="confirm" value="yes"><input type="hidden" name="expectedLive" value="\(live?.revision ?? 0)">\
                <input type="hidden" name="expectedDraft" value="\(HTML.escape(draft.template.digest))">\
                <label for="note">Note for the history (why)</label><input id="note" name="note" maxlength="200">\
                <div class="actions"><button type="submit" id="confirm-publish">Publish</button> <a href="\(action)" id="cancel">Cancel</a></div></form>
                <h2 id="later-title">Or publish it later</h2>\(scheduled)
                <form method="post" action="\(action)/schedule" class="confirm" aria-labelledby="later-title">\(Self.csrfField(session))\
                <input type="hidden" name="confirm" value="yes"><input type="hidden" name="expectedDraft" value="\(HTML.escape(draft.template.digest))">\
                \(Self.field(name: "at", label: "Publish at (\(AdminTime.zoneName))", value: values["at"] ?? "", error: scheduleError, id: "schedule-at", extra: "type=\"datetime-local\" step=\"60\" required", hint: "The draft as reviewed here is what goes live then, whatever is edited meanwhile. Times are \(AdminTime.zoneName) (Time zone, at the top, changes it); now it is \(AdminTime.words(Date()))."))\
                <label for="schedule-note">Note for the history (why)</label><input id="schedule-note" name="note" maxlength="200" value="\(HTML.escape(values["note"] ?? ""))">\
                <div class="actions"><button type="submit" id="confirm-schedule">Schedule the publish</button></div></form>
                """, status: scheduleError == nil ? .ok : .unprocessableContent)
    }

    /// Who sees each widget the publish adds or changes, in words, with the share of the last
    /// seven days' requests its platforms, versions and languages reach.
    static func audience(of diff: TemplateDiff, in template: PageTemplate, mix: ClientMix.Counts?) -> String {
        var ids: [String] = []
        for change in diff.changes {
            switch change {
            case .addedWidget(let id, _, _, _), .changedWidget(let id, _): if !ids.contains(id) { ids.append(id) }
            case .addedSection(_, _, let widgets): ids += widgets.filter { !ids.contains($0) }
            default: break
            }
        }
        let widgets = ids.compactMap { id in template.instances.first { $0.id == id } }
        guard !widgets.isEmpty else { return "" }
        let rows = widgets.map { widget in
            let words = conditionWords(widget.conditions)
            let share = mix.flatMap { Self.reach(of: widget.conditions, in: $0) }.map { " — about \(Self.percent($0)) of requests in the last 7 days" } ?? ""
            return "<li><strong>\(HTML.escape(widget.id))</strong>: \(HTML.escape(words.isEmpty ? "everyone, always" : words.joined(separator: "; ")))\(share)</li>"
        }.joined()
        return """
            <section id="review-audience" aria-labelledby="review-audience-title"><h2 id="review-audience-title">Who sees what is added or changed</h2>\
            <ul>\(rows)</ul></section>
            """
    }

    /// Discarding asks first: what the draft holds, against the live page, and the button, which
    /// names the draft's version so that a draft saved since is shown again instead of thrown away
    /// unseen (`refusal` says so, with a 409).
    func discardReview(_ route: String, session: AdminDirectory.Session, refusal: String? = nil) async throws -> ScreenplayService.Response {
        let back = "\(prefix)/pages/\(Self.pathEscape(route))"
        guard let draft = try await layouts.draft(of: route) else {
            guard let refusal else { return Self.redirect(to: back) }
            return Self.page(
                title: "Not discarded", session: session, prefix: prefix,
                body: "<p id=\"refusal\">\(HTML.escape(refusal))</p><p><a href=\"\(back)\">Back to the page</a></p>", status: .conflict)
        }
        let diff = TemplateDiff(from: try await layouts.published(route: route)?.template, to: draft.template)
        let refused = refusal.map { "<p class=\"error\" role=\"alert\" id=\"refusal\">\(HTML.escape($0))</p>" } ?? ""
        return Self.page(
            title: "Discard the draft of \(route)?", session: session, prefix: prefix,
            body: """
                \(refused)<p>The draft by \(HTML.escape(draft.updatedBy)) is thrown away; the live page stays as it is. This cannot be undone.</p>
                \(Self.changeList(diff, id: "changes", caption: "What the draft holds"))
                <form method="post" action="\(back)/discard" class="confirm">\(Self.csrfField(session))<input type="hidden" name="confirm" value="yes">\
                <input type="hidden" name="version" value="\(HTML.escape(draft.version))">\
                <div class="actions"><button type="submit" id="confirm-discard">Discard the draft</button> <a href="\(back)" id="cancel">Keep it</a></div></form>
                """, status: refusal == nil ? .ok : .conflict)
    }

    /// `GET …/rollback?revision=N`: the live page against revision N, and the button that rolls back.
    func rollbackReview(_ route: String, query: [String: String], _ session: AdminDirectory.Session) async throws -> ScreenplayService.Response {
        let action = "\(prefix)/pages/\(Self.pathEscape(route))"
        guard let number = query["revision"].flatMap(Int.init) else {
            return Self.page(
                title: "Which revision?", session: session, prefix: prefix,
                body: "<p>Choose a revision to roll back to from the page's history. <a href=\"\(action)\">Back to the page</a></p>",
                status: .unprocessableContent)
        }
        let target = try await layouts.revision(number, of: route)
        let live = try await layouts.published(route: route)
        let diff = TemplateDiff(from: live?.template, to: target.template)
        return Self.page(
            title: "Roll \(route) back to revision \(number)?", session: session, prefix: prefix,
            body: """
                <p>Revision \(number) was published by \(HTML.escape(target.publishedBy)) at \(Self.time(target.publishedAt))\
                \(target.note.isEmpty ? "" : " (“\(HTML.escape(target.note))”)"). Rolling back publishes a copy of it as the newest \
                revision; revision \(live?.revision ?? 0) stays in the history, and the draft is left alone.</p>
                \(Self.changeList(diff, id: "changes", caption: "What will change"))
                <form method="post" action="\(action)/rollback" class="confirm">\(Self.csrfField(session))\
                <input type="hidden" name="confirm" value="yes"><input type="hidden" name="revision" value="\(number)">\
                <input type="hidden" name="expectedLive" value="\(live?.revision ?? 0)">\
                <div class="actions"><button type="submit" id="confirm-rollback">Roll back to revision \(number)</button> <a href="\(action)" id="cancel">Cancel</a></div></form>
                """)
    }

    /// `GET …/compare?from=A&to=B`: what changed from revision A to revision B (by default the
    /// revision before the live one, and the live one), with a form to pick any two.
    func compare(_ route: String, query: [String: String], _ session: AdminDirectory.Session) async throws -> ScreenplayService.Response {
        let action = "\(prefix)/pages/\(Self.pathEscape(route))"
        let history = try await layouts.history(of: route)
        guard let newest = history.first?.revision else {
            return Self.page(
                title: "Nothing to compare", session: session, prefix: prefix,
                body: "<p>Page '\(HTML.escape(route))' has no revisions yet. <a href=\"\(action)\">Back to the page</a></p>", status: .notFound)
        }
        let to = query["to"].flatMap(Int.init) ?? newest
        let from = query["from"].flatMap(Int.init) ?? max(1, to - 1)
        let older = try await layouts.revision(from, of: route)
        let newer = try await layouts.revision(to, of: route)
        func options(selected: Int) -> String {
            history.map { entry in
                "<option value=\"\(entry.revision)\"\(entry.revision == selected ? " selected" : "")>\(entry.revision) · \(HTML.escape(entry.publishedBy)) · \(Self.time(entry.publishedAt))</option>"
            }.joined()
        }
        return Self.page(
            title: "\(route): revision \(from) → \(to)", session: session, prefix: prefix,
            body: """
                <form method="get" action="\(action)/compare" class="pick">\
                <label for="from">From</label><select id="from" name="from">\(options(selected: from))</select> \
                <label for="to">to</label><select id="to" name="to">\(options(selected: to))</select> \
                <button type="submit" id="compare">Compare</button></form>
                <p>Revision \(from): \(HTML.escape(older.publishedBy)), \(Self.time(older.publishedAt))\(older.note.isEmpty ? "" : ", “\(HTML.escape(older.note))”"). \
                Revision \(to): \(HTML.escape(newer.publishedBy)), \(Self.time(newer.publishedAt))\(newer.note.isEmpty ? "" : ", “\(HTML.escape(newer.note))”").</p>
                \(Self.changeList(TemplateDiff(from: older.template, to: newer.template), id: "changes", caption: "Changes from \(from) to \(to)"))
                <p><a href="\(action)">Back to the page</a></p>
                """)
    }

    /// The changes as a list, each marked by what happened (added, removed, moved, changed), or
    /// a line saying there are none.
    static func changeList(_ diff: TemplateDiff, id: String, caption: String) -> String {
        guard !diff.isEmpty else { return "<h2>\(HTML.escape(caption))</h2><p id=\"\(id)\" class=\"no-changes\">No changes: the two are the same.</p>" }
        // A title pasted whole is cut in the line, the whole of it a click away.
        let items = zip(diff.changes, diff.lines).map { change, line in
            "<li class=\"change \(Self.changeClass(change))\">\(Self.elided(line))</li>"
        }.joined()
        return "<h2>\(HTML.escape(caption)) (\(diff.changes.count))</h2><ul id=\"\(id)\" class=\"changes\">\(items)</ul>"
    }

    static func changeClass(_ change: TemplateDiff.Change) -> String {
        switch change {
        case .addedSection, .addedWidget: "added"
        case .removedSection, .removedWidget: "removed"
        case .movedSection, .movedWidget: "moved"
        case .retitledPage, .retitledSection, .changedWidget: "changed"
        }
    }

    static func csrfField(_ session: AdminDirectory.Session) -> String {
        "<input type=\"hidden\" name=\"csrf\" value=\"\(session.csrf)\">"
    }

    /// A stored time (ISO 8601, UTC) as a `<time>` element, written in the admin's zone (what
    /// cannot be read as a time is shown as it is).
    static func time(_ iso: String) -> String {
        let readable =
            (try? Date(iso, strategy: .iso8601)).map(AdminTime.words)
            ?? iso.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: " UTC")
        return "<time datetime=\"\(HTML.escape(iso))\">\(HTML.escape(readable))</time>"
    }
}
