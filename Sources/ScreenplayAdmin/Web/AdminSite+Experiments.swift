import Foundation
import HTTPTypes
import ScreenplayComposer
import ScreenplayContract
import ScreenplayLayoutStore
import ScreenplayServer
import ScreenplayWeb

/// Experiments in the browser, `/admin/experiments`: the list with each one's state, a form to
/// create one, and a page per experiment to change its variants and weights, its segment and its
/// schedule (date and time pickers, in UTC), to start or stop it now, to delete it (refused, with
/// the pages named, while a page's conditions use it), and its results per variant on a chosen
/// metric with 95 % confidence intervals. Every change goes through ``ExperimentStore/save(_:by:)``
/// (checked, audited, announced to every replica), exactly as the JSON API's.
extension AdminSite {
    /// What the experiment form sent, and what was wrong with it, to show it again.
    struct ExperimentAttempt {
        var values: [String: String]
        var errors: [String: String]
        /// The experiment as someone else saved it after this form was loaded: shown beside what
        /// was typed, which is kept.
        var theirs: StoredExperiment? = nil
        /// 422 for what was typed wrong; 409 for a form that read a version no longer there.
        var status: HTTPResponse.Status = .unprocessableContent
    }

    // MARK: Pages

    func experimentList(_ session: AdminDirectory.Session, notice: String?) async throws -> ScreenplayService.Response {
        var rows = ""
        let now = Date()
        for experiment in try await experiments.all() {
            let report = try await experiments.report(for: experiment.key)
            let split = HTML.escape(Self.weights(experiment))
            rows += """
                <tr><td><a href="\(prefix)/experiments/\(Self.pathEscape(experiment.key))">\(HTML.escape(experiment.key))</a></td>\
                <td>\(HTML.escape(Self.state(of: experiment, at: now)))</td><td>\(split)</td>\
                <td>\(HTML.escape(experiment.targetSegment ?? "everyone"))</td><td>\(report.total)</td></tr>
                """
        }
        return Self.page(
            title: "Experiments", session: session, prefix: prefix, notice: notice,
            body: """
                <p><a href="\(prefix)/experiments/new" id="new-experiment" class="button">New experiment</a></p>
                <table id="experiment-list"><thead><tr><th>Key</th><th>State</th><th>Variants and weights</th><th>Who</th><th>Users exposed</th></tr></thead>
                <tbody>\(rows)</tbody></table>
                """)
    }

    func experimentPage(
        _ key: String?, _ session: AdminDirectory.Session, query: [String: String], notice: String?, attempt: ExperimentAttempt? = nil
    ) async throws -> ScreenplayService.Response {
        var stored: StoredExperiment?
        if let key { stored = try await experiments.stored(key) }
        let existing = stored?.experiment
        if key != nil && existing == nil {
            return Self.page(
                title: "Not found", session: session, prefix: prefix,
                body: "<p>No experiment '\(HTML.escape(key ?? ""))'. <a href=\"\(prefix)/experiments\">All experiments</a></p>", status: .notFound)
        }
        // What was typed, when the attempt was a form's; else (a refused start, stop or delete) what is stored.
        let typed = attempt.flatMap { $0.values.isEmpty ? nil : $0.values }
        let values = typed ?? existing.map(Self.formValues) ?? ["variants": "control 50\nvariant 50"]
        let errors = attempt?.errors ?? [:]
        let action = existing.map { "\(prefix)/experiments/\(Self.pathEscape($0.key))" } ?? "\(prefix)/experiments/new"
        // Every form on the page names the version it shows: a change made to another is refused.
        let csrf = Self.csrfField(session) + (stored.map { "<input type=\"hidden\" name=\"version\" value=\"\(HTML.escape($0.version))\">" } ?? "")
        var summary: [(target: String, label: String, message: String)] = []
        for (name, target, label) in [
            ("key", "experiment-key", "Key"), ("variants", "experiment-variants", "Variants"), ("targetSegment", "experiment-segment", "Segment"),
            ("start", "experiment-start", "Starts"), ("stop", "experiment-stop", "Stops"),
        ] {
            if let error = errors[name] { summary.append((target, label, error)) }
        }
        let keyField =
            existing == nil
            ? Self.field(name: "key", label: "Key (letters, digits and . _ : / ~ -; pages name it)", value: values["key"] ?? "", error: errors["key"], id: "experiment-key")
            : ""
        var body = Self.errorSummary(summary, pageProblems: errors[Self.pageErrorKey].map { [$0] } ?? [], refused: attempt != nil)
        if let theirs = attempt?.theirs { body += Self.theirValues(theirs) }
        if let existing {
            body += "<p id=\"experiment-state\">\(HTML.escape(Self.state(of: existing, at: Date())))</p>"
            // The one action its state allows, saying what it replaces: a scheduled start is
            // brought forward in words, not silently.
            let now = Date()
            let button =
                existing.isRunning(at: now)
                ? "<form method=\"post\" action=\"\(action)/stop\">\(csrf)<button type=\"submit\" id=\"stop-now\">Stop now</button></form>"
                : """
                <form method="post" action="\(action)/start">\(csrf)<button type="submit" id="start-now">\
                \(existing.start.map { $0 > now ? "Start now, not \(AdminTime.words($0))" : "Start again now" } ?? "Start now")</button></form>
                """
            body += "<div class=\"actions\">\(button)</div>"
            body += Self.usesSection(try await experiments.uses(of: existing.key), prefix: prefix)
        }
        body += """
            <h2>Settings</h2>
            <form method="post" action="\(action)" class="edit" id="experiment-form">\(csrf)\(keyField)\
            <label for="experiment-variants">Variants, one per line: a name and a weight (the first is the control)</label>\
            <textarea id="experiment-variants" name="variants" rows="4"\(errors["variants"] == nil ? "" : " aria-invalid=\"true\" aria-describedby=\"experiment-variants-error\"")>\(HTML.escape(values["variants"] ?? ""))</textarea>\
            \(errors["variants"].map { "<span class=\"error\" id=\"experiment-variants-error\">\(HTML.escape($0))</span>" } ?? "")\
            \(Self.field(name: "targetSegment", label: "Only users in segment (empty: everyone)", value: values["targetSegment"] ?? "", error: errors["targetSegment"], id: "experiment-segment"))\
            \(Self.dateField(name: "start", label: "Starts (\(AdminTime.zoneName); empty: at once)", value: values["start"] ?? "", error: errors["start"], id: "experiment-start"))\
            \(Self.dateField(name: "stop", label: "Stops (\(AdminTime.zoneName); empty: never)", value: values["stop"] ?? "", error: errors["stop"], id: "experiment-stop"))\
            <button type="submit" id="save-experiment">\(existing == nil ? "Create" : "Save")</button></form>
            """
        if let existing {
            body += try await results(of: existing, query: query, csrf: csrf)
            let users = try await experiments.routes(naming: existing.key)
            body += "<h2>Delete</h2>"
            if users.isEmpty {
                body += """
                    <form method="post" action="\(action)/delete">\(csrf)<button type="submit" id="delete-experiment">Delete \(HTML.escape(existing.key))</button></form>
                    """
            } else {
                let links = users.map { "<a href=\"\(prefix)/pages/\(Self.pathEscape($0))\">\(HTML.escape($0))</a>" }.joined(separator: ", ")
                body += """
                    <p id="delete-refused">It cannot be deleted while these pages name it in a widget's conditions (live or in a draft): \(links). \
                    Change those widgets first.</p><button type="button" id="delete-experiment" disabled>Delete \(HTML.escape(existing.key))</button>
                    """
            }
        }
        body += "<p><a href=\"\(prefix)/experiments\">All experiments</a></p>"
        return Self.page(
            title: existing.map { "Experiment \($0.key)" } ?? "New experiment", session: session, prefix: prefix, notice: notice, body: body,
            status: attempt?.status ?? .ok)
    }

    /// Where an experiment is used: each page's widgets (live or in the draft) shown to a variant.
    static func usesSection(_ uses: [ExperimentUse], prefix: String) -> String {
        guard !uses.isEmpty else {
            return "<section id=\"experiment-uses\"><h2>Where it is used</h2><p>No page names it yet: add a widget shown only to a variant in the editor.</p></section>"
        }
        let items = uses.map { use in
            """
            <li><a href="\(prefix)/pages/\(pathEscape(use.route))/edit#widget-\(HTML.escape(use.widget))">\(HTML.escape(use.route))</a> \
            (\(HTML.escape(use.place))): \(HTML.escape(use.widget)) (\(HTML.escape(use.kind))), shown to \(HTML.escape(use.variants.joined(separator: ", ")))</li>
            """
        }.joined()
        return "<section id=\"experiment-uses\" aria-labelledby=\"experiment-uses-title\"><h2 id=\"experiment-uses-title\">Where it is used</h2><ul>\(items)</ul></section>"
    }

    /// What starting or stopping changes, in words naming the widgets.
    static func switchWords(_ experiment: Experiment, starting: Bool, uses: [ExperimentUse]) -> String {
        let live = uses.filter { $0.place == "live" }.map { "\($0.widget) on \($0.route) (\($0.variants.joined(separator: ", ")))" }
        let widgets = live.isEmpty ? "No live page shows a widget for it." : "Live widgets shown only to a variant: \(live.joined(separator: "; "))."
        if starting {
            return "From the next request, users\(experiment.targetSegment.map { " in segment \($0)" } ?? "") are bucketed into \(weights(experiment)), "
                + "and each sees the widgets of their variant. \(widgets)"
        }
        return "From the next request, everyone sees what they would without it: widgets shown only to a variant are hidden from everyone. \(widgets) "
            + "The exposures and results stay."
    }

    /// What someone else saved meanwhile, field by field, beside the form that keeps what was typed.
    static func theirValues(_ theirs: StoredExperiment) -> String {
        let values = formValues(theirs.experiment)
        let variants = theirs.experiment.variants.map { "\($0.name) \($0.weight)" }.joined(separator: ", ")
        func row(_ label: String, _ value: String) -> String { "<tr><th scope=\"row\">\(label)</th><td>\(HTML.escape(value))</td></tr>" }
        return """
            <section class="theirs" id="their-values" aria-labelledby="their-values-title"><h2 id="their-values-title">\
            Saved meanwhile by \(HTML.escape(theirs.updatedBy)) at \(time(theirs.updatedAt))</h2><table>\
            \(row("Variants", variants))\(row("Segment", values["targetSegment"].flatMap { $0.isEmpty ? nil : $0 } ?? "everyone"))\
            \(row("Starts (\(AdminTime.zoneName))", values["start"].flatMap { $0.isEmpty ? nil : $0 } ?? "at once"))\
            \(row("Stops (\(AdminTime.zoneName))", values["stop"].flatMap { $0.isEmpty ? nil : $0 } ?? "never"))</table>\
            <p class="hint">The form below keeps what you typed. Save again to replace these values with yours, or change yours first.</p></section>
            """
    }

    /// The results table on the metric the query chose (the first by default), with a form to choose another.
    func results(of experiment: Experiment, query: [String: String], csrf: String) async throws -> String {
        let report = try await experiments.report(for: experiment.key)
        guard let metric = metrics.first(where: { $0.id == query["metric"] }) ?? metrics.first else {
            let rows = report.exposures.keys.sorted().map { "<tr><td>\(HTML.escape($0))</td><td>\(report.exposures[$0] ?? 0)</td></tr>" }.joined()
            return "<h2>Exposures</h2><table id=\"results\"><thead><tr><th>Variant</th><th>Users exposed</th></tr></thead><tbody>\(rows)</tbody></table>"
        }
        let results = try await experiments.results(for: experiment.key, metric: metric)
        let options = metrics.map { "<option value=\"\(HTML.escape($0.id))\"\($0.id == metric.id ? " selected" : "")>\(HTML.escape($0.name))</option>" }
            .joined()
        var rows = ""
        for variant in results.variants {
            let weight = experiment.variants.first { $0.name == variant.name }.map { String($0.weight) } ?? "removed"
            let interval = variant.interval.map { "\(Self.figure($0.lowerBound)) to \(Self.figure($0.upperBound))" } ?? "too few users"
            let difference: String
            if variant.name == results.variants.first?.name {
                difference = "control"
            } else if let (value, range) = variant.difference {
                let verdict = range.lowerBound > 0 ? " (higher)" : range.upperBound < 0 ? " (lower)" : " (no clear difference)"
                difference = "\(value >= 0 ? "+" : "")\(Self.figure(value)) [\(Self.figure(range.lowerBound)) to \(Self.figure(range.upperBound))]\(verdict)"
            } else {
                difference = "too few users"
            }
            rows += """
                <tr><td>\(HTML.escape(variant.name))</td><td>\(weight)</td><td>\(variant.users)</td><td>\(Self.figure(variant.mean))</td>\
                <td>\(interval)</td><td>\(difference)</td></tr>
                """
        }
        // The sample the chosen effect needs, against what each variant has.
        let effectText = (query["effect"] ?? "").trimmingCharacters(in: .whitespaces)
        let effect = Double(effectText).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        var sample = ""
        if let effect {
            if let needed = results.usersNeeded(toFind: effect) {
                let fewest = results.variants.map(\.users).min() ?? 0
                sample = "<p id=\"sample-needed\">To find a difference of \(Self.figure(effect)) with 95 % confidence and 80 % power, each variant needs about \(needed) users; "
                    + (fewest >= needed ? "every variant has that many: what the table says is as clear as it will get.</p>" : "the smallest has \(fewest) (\(Self.percent(Double(fewest) / Double(needed))) of it).</p>")
            } else {
                sample = "<p id=\"sample-needed\">Too few users yet to say how many a difference of \(Self.figure(effect)) needs.</p>"
            }
        } else if !effectText.isEmpty {
            sample = "<p id=\"sample-needed\" class=\"error\">“\(HTML.escape(String(effectText.prefix(40))))” is not a positive number.</p>"
        }
        let key = Self.pathEscape(experiment.key)
        let rollouts = experiment.variants.map { variant in
            """
            <form method="post" action="\(prefix)/experiments/\(key)/rollout">\(csrf)<input type="hidden" name="variant" value="\(HTML.escape(variant.name))">\
            <button type="submit" id="rollout-\(HTML.escape(variant.name))">Roll out \(HTML.escape(variant.name))…</button></form>
            """
        }.joined(separator: " ")
        return """
            <h2>Results</h2>
            <form method="get" action="\(prefix)/experiments/\(key)" class="pick"><label for="metric">Metric</label>\
            <select id="metric" name="metric">\(options)</select> \
            <label for="effect">Smallest difference worth finding</label><input id="effect" name="effect" inputmode="decimal" size="6" value="\(HTML.escape(effectText))"> \
            <button type="submit" id="show-metric">Show</button></form>
            <p id="verdict" role="status">\(HTML.escape(results.verdict))</p>\(sample)
            <table id="results"><caption>\(HTML.escape(metric.name)): mean per user, 95 % interval, and the difference to the control</caption>
            <thead><tr><th>Variant</th><th>Weight</th><th>Users exposed</th><th>Mean</th><th>95 % interval</th><th>Against the control</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            <h2>Decide</h2><p>Rolling out a variant makes it the layout of every page that names the experiment, as drafts you review and publish; the experiment runs until you stop it.</p>
            <div class="actions">\(rollouts)</div>
            """
    }

    // MARK: Actions

    func actOnExperiment(_ rest: [String], form: [String: String], session: AdminDirectory.Session) async throws -> ScreenplayService.Response {
        let list = "\(prefix)/experiments"
        if rest == ["new"] {
            return try await saveExperiment(existing: nil, form: form, session: session)
        }
        guard let key = rest.first, let existing = try await experiments.experiment(key) else {
            return Self.page(title: "Not found", body: "<p>No such experiment.</p>", status: .notFound)
        }
        let page = "\(list)/\(Self.pathEscape(key))"
        // The version the form showed; a form without one (an old page) changes what is there.
        let version = form["version"].map(ExpectedVersion.version) ?? .any
        switch Array(rest.dropFirst()) {
        case []:
            return try await saveExperiment(existing: existing, form: form, session: session)
        case ["start"], ["stop"]:
            let starting = rest.last == "start"
            // Said first, with what changes where, and asked: the button is one click from everyone's pages.
            guard form["confirm"] == "yes" else {
                return Self.page(
                    title: "\(starting ? "Start" : "Stop") experiment \(key)?", session: session, prefix: prefix,
                    body: """
                        <p id="what-changes">\(HTML.escape(Self.switchWords(existing, starting: starting, uses: try await experiments.uses(of: key))))</p>
                        <form method="post" action="\(page)/\(starting ? "start" : "stop")" class="confirm">\(Self.csrfField(session))\
                        <input type="hidden" name="confirm" value="yes"><input type="hidden" name="version" value="\(HTML.escape(form["version"] ?? ""))">\
                        <div class="actions"><button type="submit" id="confirm-\(starting ? "start" : "stop")">\(starting ? "Start" : "Stop") \(HTML.escape(key))</button> \
                        <a href="\(page)" id="cancel">Cancel</a></div></form>
                        """)
            }
            var changed = existing
            let now = Date()
            if starting {
                changed.start = now
                if let stop = changed.stop, stop <= now { changed.stop = nil }
            } else {
                changed.stop = now
            }
            do {
                try await experiments.save(changed, by: session.admin, expecting: version)
            } catch {
                guard case .stale(let stale) = error else { throw error }
                return try await experimentPage(
                    key, session, query: [:], notice: nil,
                    attempt: ExperimentAttempt(
                        values: [:], errors: [Self.pageErrorKey: "Not \(starting ? "started" : "stopped"): \(Self.staleWords(stale, "this experiment")) This is it now; press \(starting ? "Start" : "Stop") again if you still mean it."],
                        status: .conflict))
            }
            return Self.redirect(to: page + (starting ? "?done=experimentStarted" : "?done=experimentStopped"))
        case ["rollout"]:
            guard let variant = form["variant"], existing.variants.contains(where: { $0.name == variant }) else {
                return Self.page(title: "Not done", body: "<p>Which variant? The form named none of this experiment's.</p>", status: .unprocessableContent)
            }
            let uses = try await experiments.uses(of: key)
            let routes = Array(Set(uses.map(\.route))).sorted()
            guard form["confirm"] == "yes" else {
                var items = ""
                for route in routes {
                    let draft = try await layouts.draft(of: route)?.template
                    let live = try await layouts.published(route: route)?.template
                    guard let base = draft ?? live else { continue }
                    let rolled = base.rollingOut(variant, of: key)
                    let kept = rolled.kept.isEmpty ? "" : "shown to everyone: \(rolled.kept.joined(separator: ", "))"
                    let removed = rolled.removed.isEmpty ? "" : "removed (shown only to other variants): \(rolled.removed.joined(separator: ", "))"
                    items += "<li><strong>\(HTML.escape(route))</strong> (its \(draft == nil ? "live page" : "draft")): \(HTML.escape([kept, removed].filter { !$0.isEmpty }.joined(separator: "; ")))</li>"
                }
                return Self.page(
                    title: "Roll out \(variant) of \(key)?", session: session, prefix: prefix,
                    body: """
                        <p>Every page that names \(HTML.escape(key)) gets a draft in which \(HTML.escape(variant)) is the layout. Nothing goes live until \
                        you publish those drafts; the experiment keeps running until you stop it (stop it once they are published).</p>
                        <ul id="rollout-changes">\(items.isEmpty ? "<li>No page names it: nothing to change.</li>" : items)</ul>
                        <form method="post" action="\(page)/rollout" class="confirm">\(Self.csrfField(session))<input type="hidden" name="confirm" value="yes">\
                        <input type="hidden" name="variant" value="\(HTML.escape(variant))">\
                        <div class="actions"><button type="submit" id="confirm-rollout">Make the drafts</button> <a href="\(page)" id="cancel">Cancel</a></div></form>
                        """)
            }
            let done = try await layouts.rollOut(variant, of: key, routes: routes, by: session.admin)
            return Self.redirect(to: done.count == 1 ? "\(prefix)/pages/\(Self.pathEscape(done[0].route))?done=experimentRolledOut" : page + "?done=experimentRolledOut")
        case ["delete"]:
            // Nothing brings it back: first say what goes and ask.
            guard form["confirm"] == "yes" else {
                return Self.page(
                    title: "Delete experiment \(key)?", session: session, prefix: prefix,
                    body: """
                        <p>Experiment \(HTML.escape(key)) is \(HTML.escape(Self.state(of: existing, at: Date()))), with variants \
                        \(HTML.escape(Self.weights(existing))). Deleting it ends it for everyone and cannot be undone; its exposures stay for \
                        the record.</p>
                        <form method="post" action="\(page)/delete" class="confirm">\(Self.csrfField(session))<input type="hidden" name="confirm" value="yes">\
                        <input type="hidden" name="version" value="\(HTML.escape(form["version"] ?? ""))">\
                        <div class="actions"><button type="submit" id="confirm-delete">Delete \(HTML.escape(key))</button> \
                        <a href="\(page)" id="cancel">Keep it</a></div></form>
                        """)
            }
            // The store refuses while a page names it (LayoutError.experimentInUse, said on a page of its own).
            do {
                _ = try await experiments.delete(key, by: session.admin, expecting: (form["version"] ?? "").isEmpty ? .any : version)
            } catch {
                guard case .stale(let stale) = error as? LayoutError else { throw error }
                return try await experimentPage(
                    key, session, query: [:], notice: nil,
                    attempt: ExperimentAttempt(
                        values: [:], errors: [Self.pageErrorKey: "Not deleted: \(Self.staleWords(stale, "this experiment")) This is it now; delete it again if you still mean it."],
                        status: .conflict))
            }
            return Self.redirect(to: list + "?done=experimentDeleted")
        default:
            return Self.page(title: "Not found", body: "<p>Nothing to do here.</p>", status: .notFound)
        }
    }

    private func saveExperiment(existing: Experiment?, form: [String: String], session: AdminDirectory.Session) async throws
        -> ScreenplayService.Response
    {
        var errors: [String: String] = [:]
        let key = existing?.key ?? (form["key"] ?? "").trimmingCharacters(in: .whitespaces)
        if existing == nil, try await experiments.experiment(key) != nil {
            errors["key"] = "an experiment '\(key)' exists already"
        }
        var variants: [Experiment.Variant] = []
        for (index, line) in (form["variants"] ?? "").split(whereSeparator: \.isNewline).enumerated() {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard !parts.isEmpty else { continue }
            guard parts.count == 2, let weight = Int(parts[1]) else {
                errors["variants", default: ""] += "line \(index + 1): write a name and a whole-number weight, like “control 50”. "
                continue
            }
            variants.append(.init(String(parts[0]), weight: weight))
        }
        let start = Self.parseDate(form["start"], field: "start", errors: &errors)
        let stop = Self.parseDate(form["stop"], field: "stop", errors: &errors)
        let segment = (form["targetSegment"] ?? "").trimmingCharacters(in: .whitespaces)
        // An empty start is "at once" (running from now, as an experiment without a start is).
        let experiment = Experiment(key: key, variants: variants, targetSegment: segment.isEmpty ? nil : segment, start: start, stop: stop)
        // A new one is created, never written over one someone else created meanwhile; a change
        // is made to the version the form showed.
        let version: ExpectedVersion = existing == nil ? .absent : form["version"].map(ExpectedVersion.version) ?? .any
        if errors.isEmpty {
            do {
                try await experiments.save(experiment, by: session.admin, expecting: version)
                return Self.redirect(to: "\(prefix)/experiments/\(Self.pathEscape(key))?done=experimentSaved")
            } catch {
                if case .stale(let stale) = error {
                    // Refused in words, what was typed kept, and what they saved shown beside it.
                    let theirs = try await experiments.stored(key)
                    let words =
                        existing == nil
                        ? "\(Self.staleWords(stale, "an experiment '\(key)'", created: true)) Your values are kept in the form; theirs are shown above it. Save again to replace theirs with yours."
                        : "\(Self.staleWords(stale, "this experiment")) Your values are kept in the form; theirs are shown above it. Save again to replace theirs with yours."
                    return try await experimentPage(
                        theirs == nil ? existing?.key : key, session, query: [:], notice: nil,
                        attempt: ExperimentAttempt(values: form, errors: [Self.pageErrorKey: words], theirs: theirs, status: .conflict))
                }
                // A switch, not `catch .invalid(…)`: that pattern on a typed throw crashed the compiler.
                guard case .invalid(let problems) = error else { throw error }
                for problem in problems {
                    let field =
                        problem.path.hasPrefix("$.key") ? "key"
                        : problem.path.hasPrefix("$.variants") ? "variants"
                        : problem.path.hasPrefix("$.targetSegment") ? "targetSegment"
                        : problem.path.hasPrefix("$.start") ? "start" : problem.path.hasPrefix("$.stop") ? "stop" : Self.pageErrorKey
                    let line = Self.variantLine(problem.path).map { "line \($0): " } ?? ""
                    errors[field, default: ""] += line + problem.message + " "
                }
            }
        }
        return try await experimentPage(existing?.key, session, query: [:], notice: nil, attempt: ExperimentAttempt(values: form, errors: errors))
    }

    // MARK: Words and fields

    /// A refusal in a reader's words: who changed `what`, when, and how, since this page was
    /// loaded (`bob changed this experiment at 2026-11-26 16:56 UTC, after you opened it: weights
    /// control 50 → 70`).
    static func staleWords(_ stale: StaleWrite, _ what: String, created: Bool = false) -> String {
        let who = stale.changedBy ?? "Someone else"
        let when = stale.changedAt.flatMap { try? Date($0, strategy: .iso8601) }.map { " at " + AdminTime.words($0) } ?? ""
        guard stale.currentVersion != nil else { return "\(who) deleted \(what)\(when), after you opened it." }
        let how = stale.changes.map { ": \($0)" } ?? ""
        return "\(who) \(created ? "created" : "changed") \(what)\(when), after you opened it\(how). Nothing was changed."
    }

    /// "running since …", "starts …", "stopped …".
    static func state(of experiment: Experiment, at now: Date) -> String {
        if let stop = experiment.stop, stop <= now { return "stopped \(AdminTime.words(stop))" }
        if let start = experiment.start, start > now {
            return "scheduled: starts \(AdminTime.words(start))" + (experiment.stop.map { ", stops \(AdminTime.words($0))" } ?? "")
        }
        let since = experiment.start.map { " since \(AdminTime.words($0))" } ?? ""
        return "running\(since)" + (experiment.stop.map { ", stops \(AdminTime.words($0))" } ?? "")
    }

    /// Its variants with their weights and shares: `control 2 (67 %), banner 1 (33 %)`.
    static func weights(_ experiment: Experiment) -> String {
        let total = max(1, experiment.variants.reduce(0) { $0 + $1.weight })
        return experiment.variants.map { "\($0.name) \($0.weight) (\(($0.weight * 100 + total / 2) / total) %)" }.joined(separator: ", ")
    }

    static func formValues(_ experiment: Experiment) -> [String: String] {
        [
            "key": experiment.key, "variants": experiment.variants.map { "\($0.name) \($0.weight)" }.joined(separator: "\n"),
            "targetSegment": experiment.targetSegment ?? "", "start": experiment.start.map(localValue) ?? "",
            "stop": experiment.stop.map(localValue) ?? "",
        ]
    }

    /// A date and time picker (`datetime-local`, to the minute, read in the admin's zone).
    static func dateField(name: String, label: String, value: String, error: String?, id: String) -> String {
        field(name: name, label: label, value: value, error: error, id: id, extra: "type=\"datetime-local\" step=\"60\"")
    }

    /// `2026-12-01T09:00`, as a `datetime-local` input holds it (in the admin's zone).
    static func localValue(_ date: Date) -> String { AdminTime.inZone("yyyy-MM-dd'T'HH:mm").string(from: date) }

    /// A picker's value, read in the admin's zone, as a date; empty is `nil`; anything else
    /// unreadable is an error.
    static func parseDate(_ text: String?, field: String, errors: inout [String: String]) -> Date? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        for format in ["yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd"] {
            if let date = AdminTime.inZone(format).date(from: text) { return date }
        }
        errors[field] = "“\(text.prefix(40))” is not a date and time (2026-12-01T09:00)"
        return nil
    }

    /// The line (from 1) of the variants box a problem's path points into: `$.variants[2]…` is 3.
    static func variantLine(_ path: String) -> Int? {
        guard path.hasPrefix("$.variants["), let close = path.firstIndex(of: "]") else { return nil }
        return Int(path[path.index(path.startIndex, offsetBy: "$.variants[".count)..<close]).map { $0 + 1 }
    }

    /// A figure to two decimals.
    static func figure(_ value: Double) -> String { String(format: "%.2f", value) }
}
