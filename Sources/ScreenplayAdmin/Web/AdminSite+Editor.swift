import Foundation
import HTTPTypes
import ScreenplayComposer
import ScreenplayContract
import ScreenplayLayoutStore
import ScreenplayServer
import ScreenplayStore
import ScreenplayWeb

/// The draft editor, `/admin/pages/{route}/edit`: every widget of the draft (or, before there is
/// one, of a copy of the live revision) with its parameters as the kind's contract lists them and
/// its conditions; move up, move down, remove; add a widget. Every save is validated first: a
/// change with errors is not saved, and the form comes back with what was typed and each error
/// beside its field.
extension AdminSite {
    /// What one widget's form sent and what was wrong with it, to show it again.
    struct EditAttempt {
        let instanceID: String
        let values: [String: String]
        let errors: [String: String]
    }

    // MARK: Page

    func editor(
        _ route: String, _ session: AdminDirectory.Session, notice: String?, attempt: EditAttempt? = nil, query: [String: String] = [:]
    ) async throws
        -> ScreenplayService.Response
    {
        // Back where the last action was: that card open (after a save) and the button or field
        // that did it focused (so "Move up" pressed again moves the same widget again).
        var focus = query["focus"].map(Self.fieldID)
        let openCard = query["open"]
        var notice = notice
        if query["done"] == "undone",
            let undo = try await layouts.auditLog(subject: route, limit: 10).first(where: { $0.action == "undo draft" && $0.actor == session.admin })
        {
            // What the undo took back, in the audit log's words.
            notice = "Undone: " + undo.detail
        }
        let (template, source) = try await editable(route)
        guard let template else {
            return Self.page(title: "Not found", body: "<p>No page '\(HTML.escape(route))'.</p>", status: .notFound)
        }
        let action = "\(prefix)/pages/\(Self.pathEscape(route))/edit"
        let csrf = "<input type=\"hidden\" name=\"csrf\" value=\"\(session.csrf)\">"
        // Problems of the stored draft, by input name, for widgets nobody is editing right now.
        var stored: [String: [String: String]] = [:]
        // Problems of the page as a whole (its route, its size): no field to show them beside.
        var pageProblems = attempt?.errors[Self.pageErrorKey].map { [$0] } ?? []
        for problem in layouts.problems(in: template) {
            guard let (instance, input) = Self.input(for: problem.path, in: template) else {
                if attempt == nil { pageProblems.append("\(problem.path): \((problem.isWarning ? "warning: " : "") + problem.message)") }
                continue
            }
            stored[instance, default: [:]][input] = (problem.isWarning ? "warning: " : "") + problem.message
        }
        // The refused change's problems, each linking to its field, for the summary at the top.
        var summary: [(target: String, label: String, message: String)] = []
        var body = "<p id=\"source\">\(source)</p>"
        let canUndo = try await layouts.draft(of: route)?.canUndo == true
        // Undo is one step: once taken, its button is gone and the notice saying what it did
        // holds the focus instead of nothing.
        let focusNotice = focus == "undo" && !canUndo && notice != nil
        if focusNotice { focus = nil }
        if canUndo {
            body += """
                <form method="post" action="\(action)/undo">\(csrf)<button type="submit" id="undo"\(focus == "undo" ? " autofocus" : "")>Undo the last change</button></form>
                """
        }
        body +=
            "<p><a href=\"\(prefix)/pages/\(Self.pathEscape(route))\">Back to the page</a> · <a href=\"\(prefix)/pages/\(Self.pathEscape(route))/preview\" id=\"preview-link\">Preview the draft beside the live page</a></p>"
        // A long page's shortcut for the keyboard: straight to a section.
        if template.sections.count > 1 {
            let links = template.sections.map { "<a href=\"#heading-\(Self.fieldID($0.id))\">\(HTML.escape($0.id))</a>" }.joined(separator: " · ")
            body += "<nav aria-label=\"Sections of the page\" id=\"jump\"><p>Sections: \(links)</p></nav>"
        }
        let catalog = pages?.composer.catalog
        // What the parameters point at, in words ("Cello Suite No. 1 · Johann Sebastian Bach"),
        // from the verticals that can say; a nicety that never holds the page past a second.
        // The experiments a widget can be shown to a variant of, for each card's menu.
        let experimentCatalog = try await experiments.catalog()
        var names: [WidgetParameterKey: String] = [:]
        if let composer = pages?.composer { names = await template.referenceNames(catalog: composer.catalog, providers: composer.providers, timeout: namingWait) }
        func autofocus(_ id: String) -> String { focus == Self.fieldID(id) ? " autofocus" : "" }
        for (sectionIndex, section) in template.sections.enumerated() {
            body += "<h2 id=\"heading-\(Self.fieldID(section.id))\">Section \(HTML.escape(section.id))\(section.title.map { ": " + HTML.escape($0) } ?? "")</h2>"
            let sectionAction = "\(action)/sections/\(Self.pathEscape(section.id))"
            let sectionKey = HTML.escape(section.id)
            // The section's own tools, folded: what a person does most is move and edit widgets.
            body += """
                <details class="section-tools" id="section-\(sectionKey)"\(openCard == "section:" + section.id ? " open" : "")>\
                <summary>Title, order, removal<span class="visually-hidden"> of section \(sectionKey)</span></summary>\
                <form method="post" action="\(sectionAction)" class="edit">\(csrf)\
                \(Self.field(name: "title", label: "Section title (empty: none)", value: section.title ?? "", error: nil, id: "section-\(section.id)-title", extra: focus == Self.fieldID("section-\(section.id)-title") ? "autofocus" : ""))\
                <button type="submit" id="section-save-\(sectionKey)"\(autofocus("section-save-" + section.id))>Save title</button></form>\
                <form method="post" action="\(sectionAction)/move">\(csrf)<input type="hidden" name="by" value="-1">\
                <button type="submit" id="section-up-\(sectionKey)" \(sectionIndex == 0 ? "disabled" : "")\(autofocus("section-up-" + section.id))>Move section up</button></form>\
                <form method="post" action="\(sectionAction)/move">\(csrf)<input type="hidden" name="by" value="1">\
                <button type="submit" id="section-down-\(sectionKey)" \(sectionIndex == template.sections.count - 1 ? "disabled" : "")\(autofocus("section-down-" + section.id))>Move section down</button></form>\
                <form method="post" action="\(sectionAction)/remove">\(csrf)<button type="submit" id="section-remove-\(sectionKey)" \
                \(section.widgets.isEmpty ? "" : "disabled title=\"Move or remove its widgets first\"")>Remove section</button></form></details>
                """
            body += "<div class=\"cards\" data-section=\"\(sectionKey)\" role=\"group\" aria-label=\"Widgets of \(sectionKey)\">"
            defer { body += "</div>" }
            for (index, widget) in section.widgets.enumerated() {
                let attemptHere = attempt?.instanceID == widget.id ? attempt : nil
                let errors = attemptHere?.errors ?? stored[widget.id] ?? [:]
                let values = attemptHere?.values ?? Self.formValues(of: widget)
                let widgetAction = "\(action)/widgets/\(Self.pathEscape(widget.id))"
                var fields = ""
                let parameters = catalog?[widget.kind]?.parameters ?? []
                for field in parameters {
                    let id = "\(widget.id)-p-\(field.name)"
                    // The name of what is stored, only while the field still shows what is stored.
                    let stored = Self.formValues(of: widget)["p.\(field.name)"]
                    let name = values["p.\(field.name)"] == stored ? names[WidgetParameterKey(instance: widget.id, parameter: field.name)] : nil
                    fields += Self.field(
                        name: "p.\(field.name)", label: "\(field.name) (\(field.type)\(field.isRequired ? ", required" : ""))",
                        value: values["p.\(field.name)"] ?? "", error: errors["p.\(field.name)"], id: id,
                        extra: focus == Self.fieldID(id) ? "autofocus" : "", hint: name)
                    if attemptHere != nil, let error = errors["p.\(field.name)"] {
                        summary.append((Self.fieldID(id), "\(widget.id): \(field.name)", error))
                    }
                }
                for (name, label) in Self.conditionInputs {
                    let id = "\(widget.id)-\(name)"
                    switch name {
                    case "c.platforms":
                        fields += Self.platformBoxes(ticked: Self.platforms(in: values), error: errors[name], id: id)
                    case "c.experiment":
                        fields += Self.experimentMenu(value: values[name] ?? "", experiments: experimentCatalog, error: errors[name], id: id)
                    case _ where Self.dateInputs.contains(name):
                        fields += Self.dateField(name: name, label: label, value: values[name] ?? "", error: errors[name], id: id)
                    default:
                        fields += Self.field(name: name, label: label, value: values[name] ?? "", error: errors[name], id: id)
                    }
                    if attemptHere != nil, let error = errors[name] {
                        summary.append((Self.fieldID(id), "\(widget.id): \(label.prefix { $0 != "(" }.trimmingCharacters(in: .whitespaces))", error))
                    }
                }
                if attemptHere != nil, let error = errors[""] { summary.append(("widget-\(widget.id)", widget.id, error)) }
                let general = errors[""].map { "<p class=\"error\">\(HTML.escape($0))</p>" } ?? ""
                let key = HTML.escape(widget.id)
                let isOpen = !errors.isEmpty || openCard == widget.id
                let last = sectionIndex == template.sections.count - 1 && index == section.widgets.count - 1
                // The card itself takes the focus when asked to, or when the button asked for is
                // disabled now (moved to the very top or bottom: a disabled button cannot hold it).
                let firstOfAll = index == 0 && sectionIndex == 0
                let cardFocus =
                    autofocus("widget-" + widget.id).isEmpty && !(firstOfAll && !autofocus("up-" + widget.id).isEmpty)
                        && !(last && !autofocus("down-" + widget.id).isEmpty) ? "" : " autofocus"
                // A card: what it is and does in one glance; its settings open in place.
                body += """
                    <article class="card\(widget.isEnabled ? "" : " off")" id="widget-\(key)" aria-labelledby="widget-\(key)-title" tabindex="-1" \
                    data-widget="\(key)" data-move="\(HTML.escape(widgetAction))/move"\(cardFocus)>\
                    <h3 id="widget-\(key)-title">\(key) <span class="kind">\(HTML.escape(widget.kind)) · \(HTML.escape(widget.vertical))\
                    \(widget.isEnabled ? "" : " · switched off")</span></h3>\
                    <p class="summary">\(HTML.escape(Self.parameterSummary(widget, names: names)))</p>\(Self.chips(widget.conditions))\(general)
                    <details\(isOpen ? " open" : "")><summary>Edit \(key)</summary>
                    <form method="post" action="\(widgetAction)" class="edit">\(csrf)<input type="hidden" name="seen" value="\(HTML.escape(Self.digest(of: widget)))">\(fields)\
                    <button type="submit" id="save-\(key)"\(autofocus("save-" + widget.id))>Save</button></form>\
                    \(Self.moveTo(widget.id, in: template, action: widgetAction + "/move", csrf: csrf, focused: focus == Self.fieldID("moveto-" + widget.id)))</details>
                    <div class="actions"><form method="post" action="\(widgetAction)/move">\(csrf)<input type="hidden" name="by" value="-1">\
                    <button type="submit" id="up-\(key)" aria-label="Move \(key) up" \(index == 0 && sectionIndex == 0 ? "disabled" : "")\(autofocus("up-" + widget.id))>Move up</button></form>
                    <form method="post" action="\(widgetAction)/move">\(csrf)<input type="hidden" name="by" value="1">\
                    <button type="submit" id="down-\(key)" aria-label="Move \(key) down" \(last ? "disabled" : "")\(autofocus("down-" + widget.id))>Move down</button></form>
                    <form method="post" action="\(widgetAction)/remove">\(csrf)<button type="submit" id="remove-\(key)" aria-label="Remove \(key)">Remove</button></form></div>
                    </article>
                    """
            }
        }
        // After a refused add, the menus keep what was chosen, as the text fields keep what was typed.
        let chosen = attempt?.instanceID == "" ? attempt?.values ?? [:] : [:]
        func options(_ values: [String], selected: String?) -> String {
            values.map { "<option\($0 == selected ? " selected" : "")>\(HTML.escape($0))</option>" }.joined()
        }
        let kinds = options(catalog?.contracts.keys.sorted() ?? [], selected: chosen["kind"])
        let verticals = options(pages?.composer.providers.keys.sorted() ?? [], selected: chosen["vertical"])
        let sections = options(template.sections.map(\.id), selected: chosen["section"])
        let addErrors = attempt?.instanceID == "" ? attempt?.errors ?? [:] : [:]
        if let error = addErrors["id"] { summary.append(("add-id", "new widget: id", error)) }
        if let error = addErrors["section"] { summary.append(("add-section", "new widget: section", error)) }
        if let error = addErrors["parameters"] { summary.append(("add-parameters", "new widget: parameters", error)) }
        // Every setting at once (an id of one's choosing, parameters as JSON): for whoever needs
        // more than the palette's example; open again after a refused add.
        body += """
            <details id="add-details"\(attempt?.instanceID == "" ? " open" : "")><summary>Add a widget with every setting</summary>
            <form method="post" action="\(action)/add" class="edit" id="add">\(csrf)
            \(Self.field(name: "id", label: "Widget id", value: attempt?.instanceID == "" ? attempt?.values["id"] ?? "" : "", error: addErrors["id"], id: "add-id"))
            <label for="add-kind">Kind</label><select id="add-kind" name="kind">\(kinds)</select>
            <label for="add-vertical">Vertical</label><select id="add-vertical" name="vertical">\(verticals)</select>
            <label for="add-section">Section</label><select id="add-section" name="section"\
            \(addErrors["section"] == nil ? "" : " aria-invalid=\"true\" aria-describedby=\"add-section-error\"")>\(sections)</select>\
            \(addErrors["section"].map { "<span class=\"error\" id=\"add-section-error\">\(HTML.escape($0))</span>" } ?? "")
            \(Self.field(name: "parameters", label: "Parameters (a JSON object)", value: attempt?.instanceID == "" ? attempt?.values["parameters"] ?? "" : "", error: addErrors["parameters"], id: "add-parameters"))
            <button type="submit" id="add-widget">Add</button></form></details>
            <h2>Add a section</h2><form method="post" action="\(action)/sections/add" class="edit" id="add-section-form">\(csrf)
            \(Self.field(name: "section-id", label: "Section id", value: attempt?.instanceID == Self.sectionAttempt ? attempt?.values["section-id"] ?? "" : "", error: nil, id: "new-section-id"))
            \(Self.field(name: "title", label: "Title (optional)", value: attempt?.instanceID == Self.sectionAttempt ? attempt?.values["title"] ?? "" : "", error: nil, id: "new-section-title"))
            <button type="submit" id="add-section-button">Add the section at the end</button></form>
            """
        // With the script, cards are dragged to a place and moves save without a reload; the
        // announcer says what happened to screen readers.
        return Self.page(
            title: "Edit \(template.title) (\(route))", session: session, prefix: prefix, notice: notice, focusNotice: focusNotice,
            body: Self.errorSummary(summary, pageProblems: pageProblems, refused: attempt != nil)
                + "<div data-editor data-seen=\"\(HTML.escape(template.digest))\" class=\"editor\"><div class=\"draft\">\(body)</div>"
                + palette(action: action, csrf: csrf, template: template, filter: query["filter"] ?? "", section: query["to"])
                + "</div><div id=\"sp-announcer\" class=\"visually-hidden\" aria-live=\"polite\"></div>",
            status: attempt == nil ? .ok : .unprocessableContent, extraStyle: Self.editorStyle + HTMLRenderer.stylesheet(scopedTo: ".example"),
            script: WebSite.scriptPath)
    }

    /// The box at the top of a refused save: how many problems, each a link to its field (the
    /// page's own problems, which have no field, listed as they are). It takes the focus when the
    /// page loads, so a keyboard or screen reader user starts at what went wrong rather than at
    /// the top of a long page.
    static func errorSummary(_ items: [(target: String, label: String, message: String)], pageProblems: [String], refused: Bool) -> String {
        guard !items.isEmpty || !pageProblems.isEmpty else { return "" }
        let count = items.count + pageProblems.count
        let heading = refused ? "Not saved: \(count) problem\(count == 1 ? "" : "s")" : "The draft has \(count) problem\(count == 1 ? "" : "s")"
        let links = items.map { item in
            "<li><a href=\"#\(HTML.escape(item.target))\">\(HTML.escape(item.label)): \(HTML.escape(item.message.trimmingCharacters(in: .whitespaces)))</a></li>"
        }.joined()
        let pageList =
            pageProblems.isEmpty ? "" : "<ul id=\"page-errors\">\(pageProblems.map { "<li>\(HTML.escape($0))</li>" }.joined())</ul>"
        return """
            <div class="error-summary" id="error-summary" role="alert" tabindex="-1"\(refused ? " autofocus" : "")>\
            <h2>\(heading)</h2>\(links.isEmpty ? "" : "<ul>\(links)</ul>")\(pageList)</div>
            """
    }

    /// An element id made of what ids may hold (letters, digits, `-`, `_`), as ``field(name:label:value:error:id:)`` writes it.
    static func fieldID(_ id: String) -> String {
        String(id.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
    }

    /// The draft, or a copy of the live revision, with words (HTML) saying which; the time is a
    /// `<time>` the script shows on the reader's clock, as every admin time.
    func editable(_ route: String) async throws -> (PageTemplate?, String) {
        if let draft = try await layouts.draft(of: route) {
            return (
                draft.template,
                "Editing the draft, saved by \(HTML.escape(draft.updatedBy)) at \(Self.time(draft.updatedAt)), based on revision \(draft.basedOn)."
            )
        }
        if let live = try await layouts.published(route: route) {
            return (live.template, "No draft yet: this is revision \(live.revision) as it is live; the first save makes the draft.")
        }
        return (nil, "")
    }

    // MARK: Actions

    /// Applies one editor action. Each is a change to the draft as read (add this widget, move
    /// that one), saved only if nobody saved in between; when someone did, it is read again and
    /// the action redone on their version, so two people's changes at once both land.
    func edit(
        _ route: String, _ rest: [String], form: [String: String], session: AdminDirectory.Session
    ) async throws -> ScreenplayService.Response {
        for attempt in 1... {
            do {
                return try await applyEdit(route, rest, form: form, session: session)
            } catch {
                // Many at once take turns: one wins each round; a short random pause spreads the rest.
                guard case .draftChanged? = error as? LayoutError, attempt < 20 else { throw error }
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...20)))
            }
        }
        preconditionFailure("unreachable")
    }

    private func applyEdit(
        _ route: String, _ rest: [String], form: [String: String], session: AdminDirectory.Session
    ) async throws
        -> ScreenplayService.Response
    {
        let (found, _) = try await editable(route)
        guard var template = found else {
            return Self.page(title: "Not found", body: "<p>No page '\(HTML.escape(route))'.</p>", status: .notFound)
        }
        // What the change is made to: saved only if it is still what is stored.
        let original = template
        let back = "\(prefix)/pages/\(Self.pathEscape(route))/edit"
        if rest.first == "sections" {
            return try await editSection(template, Array(rest.dropFirst()), route: route, form: form, session: session, back: back)
        }
        if rest == ["undo"] {
            let undone = try await layouts.undoDraft(of: route, by: session.admin)
            return Self.redirect(to: back + (undone ? "?done=undone&focus=undo" : ""))
        }
        if rest == ["add"] {
            // From the palette: an id of its own, the example's vertical and parameters, and the
            // place it was dropped (or the end of the chosen section).
            var form = form
            let fromPalette = form["from"] == "palette"
            let example = pages?.composer.catalog[form["kind"] ?? ""]?.example
            if fromPalette {
                if (form["id"] ?? "").isEmpty { form["id"] = Self.newWidgetID(kind: form["kind"] ?? "", in: template) }
                if (form["vertical"] ?? "").isEmpty { form["vertical"] = example?.vertical }
            }
            let id = form["id"] ?? ""
            guard let sectionIndex = template.sections.firstIndex(where: { $0.id == form["section"] }) else {
                return try await editor(
                    route, session, notice: nil, attempt: EditAttempt(instanceID: "", values: form, errors: ["section": "choose one of the page's sections"]))
            }
            let parametersText = (form["parameters"] ?? "").trimmingCharacters(in: .whitespaces)
            var parameters: JSONValue = [:]
            if !parametersText.isEmpty {
                guard let parsed = try? JSONDecoder().decode(JSONValue.self, from: Data(parametersText.utf8)), parsed.objectValue != nil
                else {
                    return try await editor(
                        route, session, notice: nil,
                        attempt: EditAttempt(
                            instanceID: "", values: form, errors: ["parameters": "write a JSON object, like {\"workID\": 12}"]))
                }
                parameters = parsed
            } else if fromPalette, let example {
                parameters = example.parameters
            }
            let widgets = template.sections[sectionIndex].widgets
            let place = form["index"].flatMap(Int.init).map { min(max(0, $0), widgets.count) } ?? widgets.count
            template.sections[sectionIndex].widgets.insert(
                WidgetInstance(id: id, kind: form["kind"] ?? "", vertical: form["vertical"] ?? "", parameters: parameters), at: place)
            // The new card open, the focus in its first parameter (or on the card): what comes
            // after adding is saying what it shows.
            let first = pages?.composer.catalog[form["kind"] ?? ""]?.parameters.first.map { "\(id)-p-\($0.name)" }
            return try await save(
                template, replacing: original, route: route, session: session, attemptID: "", form: form, back: back,
                returnTo: Self.returnTo(widget: id, focus: first ?? "widget-" + id, open: true)
                    + "&to=\(Self.queryEscape(template.sections[sectionIndex].id))")
        }
        guard rest.count >= 2, rest[0] == "widgets", let position = Self.position(of: rest[1], in: template) else {
            return Self.page(title: "Not found", body: "<p>No such widget in the draft.</p>", status: .notFound)
        }
        let (section, index) = position
        let widget = template.sections[section].widgets[index]
        switch Array(rest.dropFirst(2)) {
        case []:
            // A form opened before someone else saved this widget would write over their change:
            // shown again instead, with what they saved named and what was typed kept.
            if let seen = form["seen"], seen != Self.digest(of: widget) {
                return try await editor(
                    route, session, notice: nil,
                    attempt: EditAttempt(
                        instanceID: widget.id, values: form,
                        errors: ["": "changed by someone else since you opened it; it now shows “\(Self.parameterSummary(widget))”. What you typed is kept: Save again to replace it."]))
            }
            var errors: [String: String] = [:]
            let updated = Self.widget(widget, from: form, contract: pages?.composer.catalog[widget.kind], errors: &errors)
            guard errors.isEmpty else {
                return try await editor(
                    route, session, notice: nil, attempt: EditAttempt(instanceID: widget.id, values: form, errors: errors))
            }
            template.sections[section].widgets[index] = updated
            return try await save(
                template, replacing: original, route: route, session: session, attemptID: widget.id, form: form, back: back,
                returnTo: Self.returnTo(widget: widget.id, focus: "save-" + widget.id, open: true))
        case ["remove"]:
            template.sections[section].widgets.remove(at: index)
        case ["move"] where form["section"] != nil || form["place"] != nil:
            // To a place: a section and a position in it, counted without the widget (what a drop
            // onto the page says, or the "Move to" menu's `position@section`).
            let place = form["place"].map { $0.split(separator: "@", maxSplits: 1).map(String.init) }
            let (sectionID, indexText) = place.map { ($0.count == 2 ? $0[1] : nil, $0.first) } ?? (form["section"], form["index"])
            // A place counted on a page someone has changed since may not be where it was meant.
            if let seen = form["seen"], seen != original.digest {
                return try await editor(
                    route, session, notice: nil,
                    attempt: EditAttempt(
                        instanceID: Self.sectionAttempt, values: [:],
                        errors: [Self.pageErrorKey: "The page changed since you loaded it (someone else saved): this is it now. Move \(widget.id) again."]))
            }
            guard let target = template.sections.firstIndex(where: { $0.id == sectionID }),
                let position = indexText.flatMap(Int.init)
            else {
                return Self.page(title: "Not done", body: "<p>The move named no section or position of this draft.</p>", status: .unprocessableContent)
            }
            template.sections[section].widgets.remove(at: index)
            template.sections[target].widgets.insert(widget, at: min(max(0, position), template.sections[target].widgets.count))
        case ["move"]:
            // Within the section, or across into the neighbouring one at an end.
            guard let by = Self.step(form) else { return Self.page(title: "Not done", body: "<p>Move up or down? The form said neither.</p>", status: .unprocessableContent) }
            template.sections[section].widgets.remove(at: index)
            let target = index + by
            if target < 0, section > 0 {
                template.sections[section - 1].widgets.append(widget)
            } else if target > template.sections[section].widgets.count, section + 1 < template.sections.count {
                template.sections[section + 1].widgets.insert(widget, at: 0)
            } else {
                template.sections[section].widgets.insert(widget, at: min(max(0, target), template.sections[section].widgets.count))
            }
        default:
            return Self.page(title: "Not found", body: "<p>Nothing to do here.</p>", status: .notFound)
        }
        // After a move, back at the widget with the same button focused; after a removal, at the
        // card that took its place (or the one before it), else at Undo, which brings it back.
        let returnTo: String
        if rest.last != "move" {
            let neighbours = template.sections[section].widgets
            let neighbour = neighbours.indices.contains(index) ? neighbours[index] : neighbours.last
            returnTo = Self.returnTo(widget: neighbour?.id ?? "", focus: neighbour.map { "widget-" + $0.id } ?? "undo", open: false)
        } else if form["place"] != nil {
            returnTo = Self.returnTo(widget: widget.id, focus: "moveto-" + widget.id, open: true)
        } else if form["section"] != nil {
            returnTo = Self.returnTo(widget: widget.id, focus: "widget-" + widget.id, open: false)
        } else {
            returnTo = Self.returnTo(widget: widget.id, focus: (form["by"] == "-1" ? "up-" : "down-") + widget.id, open: false)
        }
        return try await save(template, replacing: original, route: route, session: session, attemptID: widget.id, form: form, back: back, returnTo: returnTo)
    }

    /// `&focus=…&open=…`: where a redirect after an action puts the editor back. The focused
    /// control (`autofocus`) scrolls itself into view; a `#fragment` would do the scrolling but
    /// stop the browser from applying `autofocus` at all.
    static func returnTo(widget: String, focus: String, open: Bool) -> String {
        "&focus=\(queryEscape(focus))" + (open ? "&open=\(queryEscape(widget))" : "")
    }

    /// A move's step: `by` is -1 (up) or 1 (down); anything else is no move.
    static func step(_ form: [String: String]) -> Int? { ["-1": -1, "1": 1][form["by"] ?? ""] }

    /// A digest of one widget as stored: what its form sends back as `seen`.
    static func digest(of widget: WidgetInstance) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return ETag.strong(for: Array((try? encoder.encode(widget)) ?? Data()))
    }

    /// "Move to": every place the widget can go, as a menu (the keyboard's way to put a widget
    /// anywhere in one step, as a drag does): `deal: first`, `deal: after deal-offer`, … Positions
    /// are counted without the widget, `position@section`; its own place is chosen.
    static func moveTo(_ id: String, in template: PageTemplate, action: String, csrf: String, focused: Bool) -> String {
        var options = ""
        for section in template.sections {
            let others = section.widgets.filter { $0.id != id }
            let current = section.widgets.firstIndex { $0.id == id }
            for position in 0...others.count {
                let label = position == 0 ? "\(section.id): first" : "\(section.id): after \(others[position - 1].id)"
                options += "<option value=\"\(position)@\(HTML.escape(section.id))\"\(current == position ? " selected" : "")>\(HTML.escape(label))</option>"
            }
        }
        let key = HTML.escape(fieldID("moveto-" + id))
        return """
            <form method="post" action="\(action)" class="move-to">\(csrf)<input type="hidden" name="seen" value="\(HTML.escape(template.digest))">\
            <label for="\(key)">Move to</label>\
            <select id="\(key)" name="place"\(focused ? " autofocus" : "")>\(options)</select>\
            <button type="submit" id="\(key)-button" aria-label="Move \(HTML.escape(id)) to the chosen place">Move</button></form>
            """
    }

    /// The parameters in one line: `workID 26 · slot top`, or `no parameters`.
    /// One line of `widget`'s parameters: `workID 21 (Cello Suite No. 1 · Johann Sebastian Bach)
    /// · slot top`, with the name of what a parameter points at where its vertical gave one.
    static func parameterSummary(_ widget: WidgetInstance, names: [WidgetParameterKey: String] = [:]) -> String {
        let members = widget.parameters.objectValue ?? [:]
        guard !members.isEmpty else { return "no parameters" }
        return members.keys.sorted().map { key in
            let value = members[key]!
            let text = value.stringValue ?? value.integerValue.map(String.init) ?? (try? String(decoding: JSONEncoder().encode(value), as: UTF8.self)) ?? ""
            let name = names[WidgetParameterKey(instance: widget.id, parameter: key)].map { " (\($0.prefix(80)))" } ?? ""
            return "\(key) \(text.prefix(60))\(name)"
        }.joined(separator: "; ")
    }

    /// The conditions as chips, in words: `only Android, Web`, `app versions 4 and later`.
    static func chips(_ conditions: WidgetConditions) -> String {
        var chips: [String] = []
        if let platforms = conditions.platforms {
            let names = platforms.map(\.rawValue).sorted().map { platform in knownPlatforms.first { $0.value == platform }?.label ?? platform }
            chips.append("only " + names.joined(separator: ", "))
        }
        if let range = conditions.apiVersions {
            switch (range.minimum, range.maximum) {
            case (let low?, let high?): chips.append("app versions \(low.rawValue) to \(high.rawValue)")
            case (let low?, nil): chips.append("app versions \(low.rawValue) and later")
            case (nil, let high?): chips.append("app versions up to \(high.rawValue)")
            case (nil, nil): break
            }
        }
        if let locales = conditions.locales { chips.append("languages " + locales.joined(separator: ", ")) }
        if let segments = conditions.segments { chips.append("segments " + segments.sorted().joined(separator: ", ")) }
        if let experiment = conditions.experiment {
            chips.append("experiment \(experiment.key): " + experiment.variants.sorted().joined(separator: ", "))
        }
        if let window = conditions.window {
            chips.append(
                [window.start.map { "from " + AdminTime.words($0) }, window.end.map { "until " + AdminTime.words($0) }].compactMap { $0 }
                    .joined(separator: " "))
        }
        guard !chips.isEmpty else { return "<p class=\"chips\"><span class=\"chip\">everyone, always</span></p>" }
        return "<p class=\"chips\">" + chips.map { "<span class=\"chip\">\(HTML.escape($0))</span>" }.joined() + "</p>"
    }

    /// Saves `template` as the draft, or shows the editor again with every error by field.
    private func save(
        _ template: PageTemplate, replacing original: PageTemplate, route: String, session: AdminDirectory.Session, attemptID: String,
        form: [String: String], back: String, returnTo: String = ""
    ) async throws -> ScreenplayService.Response {
        var problems: [TemplateProblem] = []
        do {
            // Experiments named in conditions and works named in parameters must exist: the
            // store's validator knows the widget kinds, the admin also asks the world. A vertical
            // that could not answer (a warning) does not block the save.
            problems = try await WorldCheck.problems(in: template, pages: pages, experiments: experiments).filter { !$0.isWarning }
            if !problems.isEmpty { throw LayoutError.invalid(problems) }
            try await layouts.saveDraft(template, by: session.admin, replacing: original)
            return Self.redirect(to: back + "?done=saved" + returnTo)
        } catch {
            // A switch, not `catch .invalid(…)`: that pattern on a typed throw crashed the compiler.
            switch error as? LayoutError {
            case .invalid(let found)?: problems = found
            default: throw error
            }
        }
        do {
            var errors: [String: String] = [:]
            for problem in problems {
                let input = Self.input(for: problem.path, in: template)
                guard let input, attemptID.isEmpty ? input.0 == form["id"] : true else {
                    // Not about a field of the form that was sent (the page's size, its route, or
                    // another widget): listed at the top, with its path.
                    errors[Self.pageErrorKey, default: ""] += "\(problem.path): \(problem.message) "
                    continue
                }
                if attemptID.isEmpty {
                    // A new widget: its parameters' problems beside the parameters, the rest beside its id.
                    errors[input.1.hasPrefix("p.") ? "parameters" : "id"] = problem.message
                } else if input.0 == attemptID {
                    errors[input.1, default: ""] += problem.message + " "
                } else {
                    errors[Self.pageErrorKey, default: ""] += "\(problem.path) (widget \(input.0)): \(problem.message) "
                }
            }
            return try await editor(route, session, notice: nil, attempt: EditAttempt(instanceID: attemptID, values: form, errors: errors))
        }
    }

    /// Adds a section at the end, retitles, moves or removes one (only an empty one: widgets are
    /// never dropped as a side effect). Problems (a taken or malformed id) come back at the top of
    /// the editor, as every problem that belongs to no widget does.
    private func editSection(
        _ template: PageTemplate, _ rest: [String], route: String, form: [String: String], session: AdminDirectory.Session,
        back: String
    ) async throws -> ScreenplayService.Response {
        let original = template
        var template = template
        if rest == ["undo"] {
            let undone = try await layouts.undoDraft(of: route, by: session.admin)
            return Self.redirect(to: back + (undone ? "?done=undone&focus=undo" : ""))
        }
        if rest == ["add"] {
            let id = (form["section-id"] ?? "").trimmingCharacters(in: .whitespaces)
            let title = (form["title"] ?? "").trimmingCharacters(in: .whitespaces)
            template.sections.append(.init(id: id, title: title.isEmpty ? nil : title, widgets: []))
            return try await save(
                template, replacing: original, route: route, session: session, attemptID: Self.sectionAttempt, form: form, back: back,
                returnTo: Self.returnTo(widget: "section:" + id, focus: "section-\(id)-title", open: true))
        }
        guard let id = rest.first, let index = template.sections.firstIndex(where: { $0.id == id }) else {
            return Self.page(title: "Not found", body: "<p>No such section in the draft.</p>", status: .notFound)
        }
        switch Array(rest.dropFirst()) {
        case []:
            let title = (form["title"] ?? "").trimmingCharacters(in: .whitespaces)
            template.sections[index].title = title.isEmpty ? nil : title
            return try await save(
                template, replacing: original, route: route, session: session, attemptID: Self.sectionAttempt, form: form, back: back,
                returnTo: Self.returnTo(widget: "section:" + id, focus: "section-save-" + id, open: true))
        case ["move"]:
            guard let by = Self.step(form) else { return Self.page(title: "Not done", body: "<p>Move up or down? The form said neither.</p>", status: .unprocessableContent) }
            let target = index + by
            guard template.sections.indices.contains(target) else { return Self.redirect(to: back) }
            template.sections.swapAt(index, target)
            // Back at the same button, its section's tools open: Enter again moves it again.
            let button = (form["by"] == "-1" ? "section-up-" : "section-down-") + id
            return try await save(
                template, replacing: original, route: route, session: session, attemptID: Self.sectionAttempt, form: form, back: back,
                returnTo: Self.returnTo(widget: "section:" + id, focus: button, open: true))
        case ["remove"]:
            guard template.sections[index].widgets.isEmpty else {
                return try await editor(
                    route, session, notice: nil,
                    attempt: EditAttempt(
                        instanceID: Self.sectionAttempt, values: [:],
                        errors: [
                            Self.pageErrorKey:
                                "$.sections[\(index)]: section '\(id)' still has \(template.sections[index].widgets.count) widget(s); move or remove them first"
                        ]))
            }
            template.sections.remove(at: index)
        default:
            return Self.page(title: "Not found", body: "<p>Nothing to do here.</p>", status: .notFound)
        }
        return try await save(template, replacing: original, route: route, session: session, attemptID: Self.sectionAttempt, form: form, back: back)
    }

    // MARK: Forms

    /// The attempt id of a section form: no widget has it (ids cannot hold `§`).
    static let sectionAttempt = "§section"

    /// Where an attempt's errors that belong to no input of the sent form are kept.
    static let pageErrorKey = "!page"

    static let conditionInputs: [(String, String)] = [
        ("c.platforms", "Platforms"),
        ("c.locales", "Locales (comma-separated prefixes: de, fr-CH; empty: all)"),
        ("c.segments", "Segments (comma-separated; empty: everyone)"),
        ("c.experiment", "Only in an experiment's variant"),
        ("c.from", "Shown from (UTC; empty: at once)"),
        ("c.until", "Shown until (UTC; empty: no end)"),
        ("c.minVersion", "Lowest API version (number)"),
        ("c.maxVersion", "Highest API version (number)"),
    ]

    /// The condition inputs that are date and time pickers.
    static let dateInputs: Set<String> = ["c.from", "c.until"]

    /// The platforms offered as boxes to tick; others a widget names (platforms are open) are
    /// shown ticked beside them, so saving the card keeps them.
    static let knownPlatforms: [(value: String, label: String)] = [("ios", "iOS"), ("android", "Android"), ("web", "Web")]

    /// The platforms a form (or a widget's form values) names: each ticked box
    /// (`c.platforms.ios=yes`), and any in a `c.platforms` list, as a script may send them.
    static func platforms(in values: [String: String]) -> [String] {
        let ticked = values.filter { $0.key.hasPrefix("c.platforms.") && $0.value == "yes" }.map { String($0.key.dropFirst("c.platforms.".count)) }
        let listed = (values["c.platforms"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        var seen = Set<String>()
        return (ticked + listed).map { $0.lowercased() }.filter { !$0.isEmpty && seen.insert($0).inserted }.sorted()
    }

    /// A box per platform, none ticked meaning every platform: a group labelled "Platforms", the
    /// first box carrying the id errors link to.
    static func platformBoxes(ticked: [String], error: String?, id: String) -> String {
        let safeID = fieldID(id)
        let extra = ticked.filter { platform in !knownPlatforms.contains { $0.value == platform } }
        let boxes = (knownPlatforms + extra.map { ($0, $0) }).enumerated().map { index, platform in
            let boxID = index == 0 ? safeID : "\(safeID)-\(fieldID(platform.value))"
            return """
                <label class="box"><input type="checkbox" id="\(boxID)" name="c.platforms.\(HTML.escape(platform.value))" value="yes"\
                \(ticked.contains(platform.value) ? " checked" : "")>\(HTML.escape(platform.label))</label>
                """
        }.joined()
        let errorID = "\(safeID)-error"
        let message = error.map { "<span class=\"error\" id=\"\(errorID)\">\(HTML.escape($0))</span>" } ?? ""
        return """
            <span class="label" id="\(safeID)-legend">Platforms</span><div class="boxes" role="group" aria-labelledby="\(safeID)-legend"\
            \(error == nil ? "" : " aria-describedby=\"\(errorID)\"")>\(boxes)<span class="hint">none ticked: every platform</span></div>\(message)
            """
    }

    /// A menu of the variants a widget can be limited to ("shop-free-shipping: banner"), "Everyone"
    /// first; a value the menu does not list (several variants, an experiment since deleted, what
    /// a script sent) is kept as an option of its own, so nothing is lost by saving the card.
    static func experimentMenu(value: String, experiments: ExperimentCatalog, error: String?, id: String) -> String {
        var options: [(value: String, label: String)] = [("", "Everyone (no experiment)")]
        for key in experiments.experiments.keys.sorted() {
            for variant in experiments[key]?.variants.map(\.name) ?? [] { options.append(("\(key)=\(variant)", "\(key): \(variant)")) }
        }
        let current = value.trimmingCharacters(in: .whitespaces)
        if !options.contains(where: { $0.value == current }) {
            let label = current.replacingOccurrences(of: "=", with: ": ").replacingOccurrences(of: "|", with: ", ")
            options.append((current, label))
        }
        let safeID = fieldID(id)
        let errorID = "\(safeID)-error"
        let menu = options.map { option in
            "<option value=\"\(HTML.escape(option.value))\"\(option.value == current ? " selected" : "")>\(HTML.escape(option.label))</option>"
        }.joined()
        let message = error.map { "<span class=\"error\" id=\"\(errorID)\">\(HTML.escape($0))</span>" } ?? ""
        return """
            <label for="\(safeID)">Only in an experiment's variant</label><select id="\(safeID)" name="c.experiment"\
            \(error == nil ? "" : " aria-invalid=\"true\" aria-describedby=\"\(errorID)\"")>\(menu)</select>\(message)
            """
    }

    /// A labelled input with its error beside it; `extra` adds attributes (`type="datetime-local"`).
    /// A labelled input, its error (if any) and a hint (if any) under it, both read with it.
    static func field(name: String, label: String, value: String, error: String?, id: String, extra: String = "", hint: String? = nil) -> String {
        let safeID = fieldID(id)
        let errorID = "\(safeID)-error"
        let hintID = "\(safeID)-hint"
        let describedBy = (hint == nil ? [] : [hintID]) + (error == nil ? [] : [errorID])
        let described =
            (error == nil ? "" : " aria-invalid=\"true\"") + (describedBy.isEmpty ? "" : " aria-describedby=\"\(describedBy.joined(separator: " "))\"")
        let message = error.map { "<span class=\"error\" id=\"\(errorID)\">\(HTML.escape($0))</span>" } ?? ""
        let note = hint.map { "<span class=\"hint\" id=\"\(hintID)\">\(HTML.escape($0))</span>" } ?? ""
        return """
            <label for="\(safeID)">\(HTML.escape(label))</label><input\(extra.isEmpty ? "" : " " + extra) id="\(safeID)" \
            name="\(HTML.escape(name))" value="\(HTML.escape(value))"\(described)>\(note)\(message)
            """
    }

    /// The form values showing `widget` as it is.
    static func formValues(of widget: WidgetInstance) -> [String: String] {
        var values: [String: String] = [:]
        for (name, value) in widget.parameters.objectValue ?? [:] {
            values["p.\(name)"] = value.stringValue ?? (try? String(decoding: JSONEncoder().encode(value), as: UTF8.self)) ?? ""
        }
        let conditions = widget.conditions
        for platform in conditions.platforms ?? [] { values["c.platforms.\(platform.rawValue)"] = "yes" }
        values["c.locales"] = conditions.locales?.joined(separator: ", ") ?? ""
        values["c.segments"] = conditions.segments.map { $0.sorted().joined(separator: ", ") } ?? ""
        values["c.experiment"] = conditions.experiment.map { "\($0.key)=\($0.variants.sorted().joined(separator: "|"))" } ?? ""
        values["c.from"] = conditions.window?.start.map(localValue) ?? ""
        values["c.until"] = conditions.window?.end.map(localValue) ?? ""
        values["c.minVersion"] = conditions.apiVersions?.minimum.map { String($0.rawValue) } ?? ""
        values["c.maxVersion"] = conditions.apiVersions?.maximum.map { String($0.rawValue) } ?? ""
        return values
    }

    /// `widget` with the form's parameters and conditions; what cannot be read goes to `errors`
    /// by input name.
    static func widget(
        _ widget: WidgetInstance, from form: [String: String], contract: WidgetContract?, errors: inout [String: String]
    ) -> WidgetInstance {
        var updated = widget
        var parameters: [String: JSONValue] = [:]
        for field in contract?.parameters ?? [] {
            let text = (form["p.\(field.name)"] ?? "").trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            switch field.type {
            case .string, .url: parameters[field.name] = .string(text)
            case .integer:
                if let number = Int(text) {
                    parameters[field.name] = .integer(number)
                } else {
                    errors["p.\(field.name)"] = "'\(text)' is not a whole number"
                }
            case .number:
                if let number = Double(text), number.isFinite {
                    parameters[field.name] = .number(number)
                } else {
                    errors["p.\(field.name)"] = "'\(text)' is not a number"
                }
            case .boolean:
                if text == "true" || text == "false" {
                    parameters[field.name] = .bool(text == "true")
                } else {
                    errors["p.\(field.name)"] = "write true or false"
                }
            case .object, .array:
                if let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) {
                    parameters[field.name] = value
                } else {
                    errors["p.\(field.name)"] = "not valid JSON"
                }
            }
        }
        updated.parameters = .object(parameters)
        func list(_ name: String) -> [String]? {
            let items = (form[name] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return items.isEmpty ? nil : items
        }
        func date(_ name: String) -> Date? {
            let text = (form[name] ?? "").trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return nil }
            // The picker's value (UTC), or ISO 8601 with its zone, as a script might send it.
            if let value = try? Date(text, strategy: .iso8601) { return value }
            return parseDate(text, field: name, errors: &errors)
        }
        func version(_ name: String) -> APIVersion? {
            let text = (form[name] ?? "").trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return nil }
            guard let number = Int(text), (1...999).contains(number) else {
                errors[name] = "'\(text)' is not an API version number"
                return nil
            }
            return APIVersion(number)
        }
        var conditions = WidgetConditions()
        let platforms = Self.platforms(in: form)
        conditions.platforms = platforms.isEmpty ? nil : Set(platforms.map { Platform($0) })
        conditions.locales = list("c.locales")
        conditions.segments = list("c.segments").map(Set.init)
        let experiment = (form["c.experiment"] ?? "").trimmingCharacters(in: .whitespaces)
        if !experiment.isEmpty {
            let parts = experiment.split(separator: "=", maxSplits: 1)
            if parts.count == 2, !parts[0].isEmpty {
                conditions.experiment = ExperimentCondition(
                    key: String(parts[0]).trimmingCharacters(in: .whitespaces),
                    variants: Set(parts[1].split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }))
            } else {
                errors["c.experiment"] = "write key=variant, or key=variant|variant"
            }
        }
        let (from, until) = (date("c.from"), date("c.until"))
        if from != nil || until != nil { conditions.window = DateWindow(start: from, end: until) }
        let (minimum, maximum) = (version("c.minVersion"), version("c.maxVersion"))
        if minimum != nil || maximum != nil { conditions.apiVersions = APIVersionRange(minimum: minimum, maximum: maximum) }
        updated.conditions = conditions
        return updated
    }

    /// The widget and the input a problem's JSON path points at (`$.sections[0].widgets[2].parameters.workID`
    /// → that widget, `p.workID`); `""` for the widget as a whole.
    static func input(for path: String, in template: PageTemplate) -> (String, String)? {
        guard let match = path.firstMatch(of: /^\$\.sections\[(\d+)\]\.widgets\[(\d+)\](.*)$/),
            let section = Int(match.1), let index = Int(match.2), template.sections.indices.contains(section),
            template.sections[section].widgets.indices.contains(index)
        else { return nil }
        let id = template.sections[section].widgets[index].id
        let rest = String(match.3)
        if rest.hasPrefix(".parameters.") {
            return (id, "p." + (rest.dropFirst(".parameters.".count).split(separator: ".").first.map(String.init) ?? ""))
        }
        let conditions: [String: String] = [
            ".conditions.platforms": "c.platforms", ".conditions.locales": "c.locales", ".conditions.segments": "c.segments",
            ".conditions.experiment": "c.experiment", ".conditions.window": "c.from", ".conditions.apiVersions": "c.minVersion",
        ]
        for (prefix, input) in conditions where rest.hasPrefix(prefix) { return (id, input) }
        if rest == ".id" { return (id, "id") }
        return (id, "")
    }

    static func position(of id: String, in template: PageTemplate) -> (Int, Int)? {
        for (section, content) in template.sections.enumerated() {
            if let index = content.widgets.firstIndex(where: { $0.id == id }) { return (section, index) }
        }
        return nil
    }
}
