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
        /// 422 for what was typed wrong; 409 for a form that read what is no longer there.
        var status: HTTPResponse.Status = .unprocessableContent
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
        if let done = query["done"], done == "undone" || done == "redone", let id = query["step"].flatMap(Int64.init),
            let step = try await layouts.step(id, route: route, actor: session.admin)
        {
            // The step's own name, written when it was done: never another widget's.
            notice = (done == "undone" ? "Undone: " : "Redone: ") + step.label
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
        let mix = clientMix?.counts()
        body += "<datalist id=\"languages-seen\">" + (Self.languagesSeen(mix) ?? []).map { seen in
            "<option value=\"\(HTML.escape(seen.language))\">\(HTML.escape(Self.languageName(seen.language))) — \(Self.percent(seen.share)) of requests</option>"
        }.joined() + "</datalist>"
        // This editor's own undo and redo, each naming its step; once the last is taken, its
        // button is gone and the notice saying what was done holds the focus instead of nothing.
        let steps = try await layouts.steps(of: route, by: session.admin)
        let focusNotice = (focus == "undo" && steps.undo == nil || focus == "redo" && steps.redo == nil) && notice != nil
        if focusNotice { focus = nil }
        body += Self.stepButtons(steps, action: action, csrf: csrf, focus: focus)
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
        // The segment names already in use, offered (and a name used nowhere else questioned).
        let segmentsInUse = try await experiments.segmentsInUse()
        body += "<datalist id=\"segments-in-use\">" + segmentsInUse.keys.sorted().map { "<option value=\"\(HTML.escape($0))\"></option>" }.joined() + "</datalist>"
        var names: [WidgetParameterKey: String] = [:]
        if let composer = pages?.composer { names = await template.referenceNames(catalog: composer.catalog, providers: composer.providers, timeout: namingWait) }
        func autofocus(_ id: String) -> String { focus == Self.fieldID(id) ? " autofocus" : "" }
        body += Self.sectionsMenu(template)
        for (sectionIndex, section) in template.sections.enumerated() {
            body += "<h2 id=\"heading-\(Self.fieldID(section.id))\" tabindex=\"-1\">Section \(HTML.escape(section.id))\(section.title.map { ": " + HTML.escape($0) } ?? "")</h2>"
            let sectionAction = "\(action)/sections/\(Self.pathEscape(section.id))"
            let sectionKey = HTML.escape(section.id)
            let sectionSeen = "<input type=\"hidden\" name=\"seen\" value=\"\(HTML.escape(Self.sectionDigest(template, sectionIndex)))\">"
            // The section's own tools, folded: what a person does most is move and edit widgets.
            body += """
                <details class="section-tools" id="section-\(sectionKey)"\(openCard == "section:" + section.id ? " open" : "")>\
                <summary>Title, order, removal<span class="visually-hidden"> of section \(sectionKey)</span></summary>\
                <form method="post" action="\(sectionAction)" class="edit">\(csrf)\(sectionSeen)\
                \(Self.field(name: "title", label: "Section title (empty: none)", value: section.title ?? "", error: nil, id: "section-\(section.id)-title", extra: focus == Self.fieldID("section-\(section.id)-title") ? "autofocus" : ""))\
                <button type="submit" id="section-save-\(sectionKey)"\(autofocus("section-save-" + section.id))>Save title</button></form>\
                <form method="post" action="\(sectionAction)/move">\(csrf)\(sectionSeen)<input type="hidden" name="by" value="-1">\
                <button type="submit" id="section-up-\(sectionKey)" \(sectionIndex == 0 ? "disabled" : "")\(autofocus("section-up-" + section.id))>Move section up</button></form>\
                <form method="post" action="\(sectionAction)/move">\(csrf)\(sectionSeen)<input type="hidden" name="by" value="1">\
                <button type="submit" id="section-down-\(sectionKey)" \(sectionIndex == template.sections.count - 1 ? "disabled" : "")\(autofocus("section-down-" + section.id))>Move section down</button></form>\
                <form method="post" action="\(sectionAction)/remove">\(csrf)\(sectionSeen)<button type="submit" id="section-remove-\(sectionKey)" \
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
                let rules = catalog?.content ?? ContentRules()
                var picture = ""
                var pictureMenu = ""
                if let contract = catalog?[widget.kind] {
                    let content = Self.contentFields(widget: widget, contract: contract, rules: rules, values: values, errors: errors, focus: focus)
                    fields += content.html
                    if attemptHere != nil { summary += content.problems }
                    picture = Self.contentPicture(widget: widget, contract: contract, rules: rules)
                    pictureMenu = Self.pictureLocaleMenu(contract: contract, rules: rules)
                }
                for (name, label) in Self.conditionInputs {
                    let id = "\(widget.id)-\(name)"
                    switch name {
                    case "c.platforms":
                        fields += Self.platformBoxes(ticked: Self.platforms(in: values), error: errors[name], id: id)
                    case "c.experiment":
                        fields += Self.experimentMenu(value: values[name] ?? "", experiments: experimentCatalog, error: errors[name], id: id)
                    case "c.locales":
                        // The languages readers used, offered as they type, and named with their share.
                        fields += Self.field(
                            name: name, label: label, value: values[name] ?? "", error: errors[name], id: id, extra: "list=\"languages-seen\"",
                            hint: Self.languagesSeen(mix).map { "Seen in the last 7 days: " + $0.map { "\($0.language) \(Self.percent($0.share))" }.joined(separator: ", ") + "." })
                    case "c.segments":
                        fields += Self.field(
                            name: name, label: label, value: values[name] ?? "", error: errors[name], id: id, extra: "list=\"segments-in-use\"",
                            hint: Self.segmentsHint(typed: values[name] ?? "", inUse: segmentsInUse, here: "\(route): \(widget.id)"))
                    case "c.minVersion", "c.maxVersion":
                        fields += Self.versionMenu(name: name, label: label, value: values[name] ?? "", error: errors[name], id: id, mix: mix)
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
                // What Move up and down read: the widget and its section's order.
                let placeSeen = "<input type=\"hidden\" name=\"seen\" value=\"\(HTML.escape(Self.placeDigest(of: widget, in: template)))\">"
                // Open where there is something to see in it: a field's error, or typing kept (a
                // refused move or removal says so on the card, its settings stay folded).
                let isOpen = errors.keys.contains { !$0.isEmpty } || attemptHere.map { $0.values != Self.formValues(of: widget) } == true
                    || openCard == widget.id
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
                    <p class="summary">\(HTML.escape(Self.parameterSummary(widget, names: names)))</p>\
                    \(Self.contentSummary(widget, contract: catalog?[widget.kind], rules: rules).map { "<p class=\"summary content-summary\">\(HTML.escape($0))</p>" } ?? "")\
                    \(picture)\(Self.chips(widget.conditions))\(general)
                    <details\(isOpen ? " open" : "")><summary>Edit \(key)</summary>\(pictureMenu)
                    <form method="post" action="\(widgetAction)" class="edit">\(csrf)<input type="hidden" name="seen" value="\(HTML.escape(Self.digest(of: widget)))">\(fields)\
                    <button type="submit" id="save-\(key)"\(autofocus("save-" + widget.id))>Save</button></form></details>
                    <div class="actions"><form method="post" action="\(widgetAction)/move">\(csrf)\(placeSeen)<input type="hidden" name="by" value="-1">\
                    <button type="submit" id="up-\(key)" aria-label="Move \(key) up" \(index == 0 && sectionIndex == 0 ? "disabled" : "")\(autofocus("up-" + widget.id))>Move up</button></form>
                    <form method="post" action="\(widgetAction)/move">\(csrf)\(placeSeen)<input type="hidden" name="by" value="1">\
                    <button type="submit" id="down-\(key)" aria-label="Move \(key) down" \(last ? "disabled" : "")\(autofocus("down-" + widget.id))>Move down</button></form>
                    <form method="post" action="\(widgetAction)/remove">\(csrf)<input type="hidden" name="seen" value="\(HTML.escape(Self.digest(of: widget)))"><button type="submit" id="remove-\(key)" aria-label="Remove \(key)">Remove</button></form>\
                    \(Self.moveTo(widget.id, in: template, action: widgetAction + "/move", csrf: csrf, focused: focus == Self.fieldID("moveto-" + widget.id)))</div>
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
            <form method="post" action="\(action)/add" class="edit" id="add">\(csrf)<input type="hidden" name="seen" value="\(HTML.escape(template.digest))">
            \(Self.field(name: "id", label: "Widget id", value: attempt?.instanceID == "" ? attempt?.values["id"] ?? "" : "", error: addErrors["id"], id: "add-id"))
            <label for="add-kind">Kind</label><select id="add-kind" name="kind">\(kinds)</select>
            <label for="add-vertical">Vertical</label><select id="add-vertical" name="vertical">\(verticals)</select>
            <label for="add-section">Section</label><select id="add-section" name="section"\
            \(addErrors["section"] == nil ? "" : " aria-invalid=\"true\" aria-describedby=\"add-section-error\"")>\(sections)</select>\
            \(addErrors["section"].map { "<span class=\"error\" id=\"add-section-error\">\(HTML.escape($0))</span>" } ?? "")
            \(Self.field(name: "parameters", label: "Parameters (a JSON object)", value: attempt?.instanceID == "" ? attempt?.values["parameters"] ?? "" : "", error: addErrors["parameters"], id: "add-parameters"))
            <button type="submit" id="add-widget">Add</button></form></details>
            <h2 id="add-section-title" tabindex="-1">Add a section</h2><form method="post" action="\(action)/sections/add" class="edit" id="add-section-form">\(csrf)<input type="hidden" name="seen" value="\(HTML.escape(template.digest))">
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
            status: attempt?.status ?? .ok, extraStyle: Self.editorStyle + HTMLRenderer.stylesheet(scopedTo: ".example"))
    }

    /// The Sections menu at the top of the editor: a link to each section's heading (which takes
    /// the focus, so the next Tab is in that section's first card), to the palette and to adding a
    /// section, so a keyboard reaches any part of a long page in a few keys.
    static func sectionsMenu(_ template: PageTemplate) -> String {
        let links = template.sections.map { section in
            let count = section.widgets.count
            return "<li><a href=\"#heading-\(fieldID(section.id))\">\(HTML.escape(section.id))\(section.title.map { ": " + HTML.escape($0) } ?? "") "
                + "(\(count) widget\(count == 1 ? "" : "s"))</a></li>"
        }
        return """
            <nav aria-label="Sections" id="sections-menu"><ul>\(links.joined())\
            <li><a href="#palette-title">Add a widget</a></li><li><a href="#add-section-title">Add a section</a></li></ul></nav>
            """
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

    static func returnTo(widget: String, focus: String, open: Bool) -> String {
        "&focus=\(queryEscape(focus))" + (open ? "&open=\(queryEscape(widget))" : "")
    }

    /// The editor's own Undo and Redo, each a form naming the step it takes (so it takes what
    /// the button said, or nothing), with how many more there are.
    static func stepButtons(_ steps: EditorSteps, action: String, csrf: String, focus: String?) -> String {
        var forms = ""
        if let undo = steps.undo {
            let more = steps.undoCount > 1 ? " <span class=\"hint\">(\(steps.undoCount - 1) more of your changes before it)</span>" : ""
            forms += """
                <form method="post" action="\(action)/undo">\(csrf)<input type="hidden" name="step" value="\(undo.id)">\
                <button type="submit" id="undo"\(focus == "undo" ? " autofocus" : "")>Undo: \(HTML.escape(undo.label))</button>\(more)</form>
                """
        }
        if let redo = steps.redo {
            forms += """
                <form method="post" action="\(action)/redo">\(csrf)<input type="hidden" name="step" value="\(redo.id)">\
                <button type="submit" id="redo"\(focus == "redo" ? " autofocus" : "")>Redo: \(HTML.escape(redo.label))</button></form>
                """
        }
        return forms.isEmpty ? "" : "<div class=\"actions steps\" id=\"steps\">\(forms)</div>"
    }

    /// What Move up and Move down read: the widget and the order of its section. Another move
    /// in that section since (or a change to the widget) makes "up" mean something else.
    static func placeDigest(of widget: WidgetInstance, in template: PageTemplate) -> String {
        let section = template.sections.first { $0.widgets.contains { $0.id == widget.id } }
        let order = (section.map { [$0.id] + $0.widgets.map(\.id) } ?? []).joined(separator: "\n")
        return ETag.strong(for: Array((digest(of: widget) + "\n" + order).utf8))
    }

    /// What a section's forms read: its id, title, widgets in order, and its place among the sections.
    static func sectionDigest(_ template: PageTemplate, _ index: Int) -> String {
        let section = template.sections[index]
        let text = ([String(index), section.id, section.title ?? "\u{0}"] + section.widgets.map(\.id) + template.sections.map(\.id))
            .joined(separator: "\n")
        return ETag.strong(for: Array(text.utf8))
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
        // A disclosure, one Tab stop among the card's actions (its menu and button inside), so
        // every action of a card is within five Tabs of it; open again after a move from it.
        return """
            <details class="move-to"\(focused ? " open" : "")><summary id="\(key)-open">Move to…<span class="visually-hidden"> (\(HTML.escape(id)))</span></summary>\
            <form method="post" action="\(action)" class="move-to">\(csrf)<input type="hidden" name="seen" value="\(HTML.escape(template.digest))">\
            <label for="\(key)">Move to</label>\
            <select id="\(key)" name="place"\(focused ? " autofocus" : "")>\(options)</select>\
            <button type="submit" id="\(key)-button" aria-label="Move \(HTML.escape(id)) to the chosen place">Move</button></form></details>
            """
    }

    /// One line of `widget`'s parameters: `workID 21 (Cello Suite No. 1 · Johann Sebastian Bach);
    /// slot top`, with the name of what a parameter points at where its vertical gave one, or
    /// `no parameters`. A value over 60 characters is cut with an ellipsis (the card's form
    /// holds the whole of it).
    static func parameterSummary(_ widget: WidgetInstance, names: [WidgetParameterKey: String] = [:]) -> String {
        let members = widget.parameters.objectValue ?? [:]
        guard !members.isEmpty else { return "no parameters" }
        return members.keys.sorted().map { key in
            let value = members[key]!
            let text = value.stringValue ?? value.integerValue.map(String.init) ?? (try? String(decoding: JSONEncoder().encode(value), as: UTF8.self)) ?? ""
            let name = names[WidgetParameterKey(instance: widget.id, parameter: key)].map { " (\($0.prefix(80)))" } ?? ""
            return "\(key) \(text.count > 60 ? text.prefix(59) + "…" : text)\(name)"
        }.joined(separator: "; ")
    }

    /// The conditions as chips, in words: `only Android, Web`, `app versions 4 and later`.
    static func chips(_ conditions: WidgetConditions) -> String {
        let chips = conditionWords(conditions)
        guard !chips.isEmpty else { return "<p class=\"chips\"><span class=\"chip\">everyone, always</span></p>" }
        return "<p class=\"chips\">" + chips.map { "<span class=\"chip\">\(HTML.escape($0))</span>" }.joined() + "</p>"
    }

    /// The conditions in words, one phrase each; none for everyone, always.
    static func conditionWords(_ conditions: WidgetConditions) -> [String] {
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
        return chips
    }

    /// What the segments field says under it: the names in use and where (at most eight, three
    /// places each), and each typed name no other widget or experiment uses, which is most often a
    /// typo; `nil` when there is nothing to say.
    static func segmentsHint(typed: String, inUse: [String: [String]], here: String) -> String? {
        var sentences: [String] = []
        let typedNames = typed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let elsewhere = inUse.mapValues { $0.filter { $0 != here } }.filter { !$0.value.isEmpty }
        let unknown = typedNames.filter { elsewhere[$0] == nil }
        if !unknown.isEmpty, !elsewhere.isEmpty {
            sentences.append("Used by no other widget or experiment: \(unknown.joined(separator: ", ")); check the spelling.")
        }
        if !elsewhere.isEmpty {
            let names = elsewhere.keys.sorted().prefix(8).map { name in
                let places = elsewhere[name] ?? []
                return "\(name) (\(places.prefix(3).joined(separator: "; "))\(places.count > 3 ? "; \(places.count - 3) more" : ""))"
            }
            sentences.append("In use: \(names.joined(separator: ", "))\(elsewhere.count > 8 ? ", and \(elsewhere.count - 8) more" : "").")
        }
        return sentences.isEmpty ? nil : sentences.joined(separator: " ")
    }

    /// The languages requests named in the last seven days, most used first (at most eight, none
    /// of `none` or `other`), with their share; `nil` when nothing was counted.
    static func languagesSeen(_ mix: ClientMix.Counts?) -> [(language: String, share: Double)]? {
        guard let mix, mix.total > 0 else { return nil }
        let named = mix.languages.filter { $0.key != "none" && $0.key != "other" }
        guard !named.isEmpty else { return nil }
        return named.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(8).map { ($0.key, Double($0.value) / Double(mix.total)) }
    }

    /// The share of requests of the last seven days a widget's platforms, versions and
    /// languages reach, taking the three as independent (the mix counts each on its own); `nil`
    /// when nothing was counted. Segments, experiments and schedules narrow it further, unmeasured.
    static func reach(of conditions: WidgetConditions, in mix: ClientMix.Counts) -> Double? {
        guard mix.total > 0 else { return nil }
        let total = Double(mix.total)
        var share = 1.0
        if let platforms = conditions.platforms {
            share *= Double(platforms.map { mix.platforms[$0.rawValue] ?? 0 }.reduce(0, +)) / total
        }
        if let range = conditions.apiVersions {
            share *= Double(mix.versions.filter { range.contains(APIVersion($0.key)) }.values.reduce(0, +)) / total
        }
        if let locales = conditions.locales {
            let languages = Set(locales.compactMap { $0.split(separator: "-").first.map { $0.lowercased() } })
            share *= Double(mix.languages.filter { languages.contains($0.key) }.values.reduce(0, +)) / total
        }
        return share
    }

    /// Saves `template` as the draft, or shows the editor again with every error by field.
}
