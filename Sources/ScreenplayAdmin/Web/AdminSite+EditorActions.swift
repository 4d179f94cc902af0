import Foundation
import HTTPTypes
import ScreenplayComposer
import ScreenplayContract
import ScreenplayLayoutStore
import ScreenplayServer
import ScreenplayStore
import ScreenplayWeb

/// The draft editor's actions: each a change to the draft as read (add this widget, move that
/// one), saved as a step of its editor's own (``LayoutStore/saveDraft(_:by:replacing:expecting:step:)``),
/// and refused in words when what its form read has changed since.
extension AdminSite {
    // MARK: Actions

    /// Applies one editor action. Each is a change to the draft as read (add this widget, move
    /// that one), saved only if nobody saved in between; when someone did, it is read again and
    /// the action redone on their version, so two people's changes at once both land.
    func edit(
        _ route: String, _ rest: [String], form: [String: String], session: AdminDirectory.Session
    ) async throws -> ScreenplayService.Response {
        if rest == ["undo"] || rest == ["redo"] || rest == ["sections", "undo"] {
            return try await takeStep(route, undoing: rest.last == "undo", form: form, session: session)
        }
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
        guard let template = found else {
            return Self.page(title: "Not found", body: "<p>No page '\(HTML.escape(route))'.</p>", status: .notFound)
        }
        // What the change is made to: saved only if it is still what is stored.
        let original = template
        let back = "\(prefix)/pages/\(Self.pathEscape(route))/edit"
        if rest.first == "sections" {
            return try await editSection(template, Array(rest.dropFirst()), route: route, form: form, session: session, back: back)
        }
        if rest == ["add"] {
            // From the palette: an id of its own, the example's vertical and parameters, and the
            // place it was dropped (or the end of the chosen section).
            var form = form
            let fromPalette = form["from"] == "palette"
            let catalog = pages?.composer.catalog
            let contract = catalog?[form["kind"] ?? ""]
            let example = contract?.example
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
            // A place counted on a page someone has changed since may not be where it was meant;
            // the end of a section is the end whatever changed.
            if form["index"] != nil, let seen = form["seen"], seen != original.digest {
                return try await editor(
                    route, session, notice: nil,
                    attempt: EditAttempt(
                        instanceID: Self.sectionAttempt, values: [:],
                        errors: [Self.pageErrorKey: "The page changed since you loaded it (someone else saved): this is it now. Nothing was added; drop the \(form["kind"] ?? "widget") again."],
                        status: .conflict))
            }
            let sectionID = template.sections[sectionIndex].id
            // Words a kind requires start as its example's, to be rewritten on the card.
            let content = catalog.flatMap { contract?.exampleContent(rules: $0.content) } ?? [:]
            let edit = DraftEdit.insert(
                WidgetInstance(id: id, kind: form["kind"] ?? "", vertical: form["vertical"] ?? "", parameters: parameters, content: content),
                section: sectionID,
                index: form["index"].flatMap(Int.init) ?? widgets.count)
            // The new card open, the focus in its first parameter (or on the card): what comes
            // after adding is saying what it shows.
            let first = contract?.parameters.first.map { "\(id)-p-\($0.name)" }
            return try await save(
                edit, to: original, route: route, session: session, attemptID: "", form: form, back: back,
                returnTo: Self.returnTo(widget: id, focus: first ?? "widget-" + id, open: true) + "&to=\(Self.queryEscape(sectionID))")
        }
        guard rest.count >= 2, rest[0] == "widgets", let position = try? DraftEdit.position(of: rest[1], in: template) else {
            return Self.page(title: "Not found", body: "<p>No such widget in the draft.</p>", status: .notFound)
        }
        let (section, index) = position
        let widget = template.sections[section].widgets[index]
        let edit: DraftEdit
        switch Array(rest.dropFirst(2)) {
        case []:
            // A form opened before someone else saved this widget would write over their change:
            // shown again instead, with what they saved named and what was typed kept.
            if let seen = form["seen"], seen != Self.digest(of: widget) {
                return try await editor(
                    route, session, notice: nil,
                    attempt: EditAttempt(
                        instanceID: widget.id, values: form,
                        errors: ["": "changed by someone else since you opened it; it now shows “\(Self.parameterSummary(widget))”. What you typed is kept: Save again to replace it."],
                        status: .conflict))
            }
            var errors: [String: String] = [:]
            let catalog = pages?.composer.catalog
            let updated = Self.widget(
                widget, from: form, contract: catalog?[widget.kind], rules: catalog?.content ?? ContentRules(), errors: &errors)
            guard errors.isEmpty else {
                return try await editor(
                    route, session, notice: nil, attempt: EditAttempt(instanceID: widget.id, values: form, errors: errors))
            }
            return try await save(
                .change(updated), to: original, route: route, session: session, attemptID: widget.id, form: form, back: back,
                returnTo: Self.returnTo(widget: widget.id, focus: "save-" + widget.id, open: true))
        case ["remove"]:
            // Removing a widget someone has changed since would throw their change away unseen.
            if let seen = form["seen"], seen != Self.digest(of: widget) {
                return try await staleWidget(route, session, widget: widget, "Changed by someone else since you loaded the page: it now shows “\(Self.parameterSummary(widget))”. Nothing was removed; Remove again if you still mean it.")
            }
            edit = .remove(widget: widget.id)
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
                        errors: [Self.pageErrorKey: "The page changed since you loaded it (someone else saved): this is it now. Move \(widget.id) again."],
                        status: .conflict))
            }
            guard let sectionID, template.sections.contains(where: { $0.id == sectionID }), let position = indexText.flatMap(Int.init) else {
                return Self.page(title: "Not done", body: "<p>The move named no section or position of this draft.</p>", status: .unprocessableContent)
            }
            edit = .move(widget: widget.id, section: sectionID, index: position)
        case ["move"]:
            // Within the section, or across into the neighbouring one at an end.
            guard let by = Self.step(form) else { return Self.page(title: "Not done", body: "<p>Move up or down? The form said neither.</p>", status: .unprocessableContent) }
            // "Up" means past the neighbour the page showed: not past one someone put there since.
            if let seen = form["seen"], seen != Self.placeDigest(of: widget, in: template) {
                return try await staleWidget(route, session, widget: widget, "It or its neighbours moved since you loaded the page (someone else saved): this is where it is now. Nothing was moved; move it again if you still mean it.")
            }
            edit = .nudge(widget: widget.id, by: by)
        default:
            return Self.page(title: "Not found", body: "<p>Nothing to do here.</p>", status: .notFound)
        }
        // After a move, back at the widget with the same button focused; after a removal, at the
        // card that took its place (or the one before it), else at Undo, which brings it back.
        let returnTo: String
        if rest.last != "move" {
            // What is there once the widget is gone (a removal is the only other action here).
            var after = template.sections[section].widgets
            after.remove(at: index)
            let neighbours = after
            let neighbour = neighbours.indices.contains(index) ? neighbours[index] : neighbours.last
            returnTo = Self.returnTo(widget: neighbour?.id ?? "", focus: neighbour.map { "widget-" + $0.id } ?? "undo", open: false)
        } else if form["place"] != nil {
            returnTo = Self.returnTo(widget: widget.id, focus: "moveto-" + widget.id, open: true)
        } else if form["section"] != nil {
            returnTo = Self.returnTo(widget: widget.id, focus: "widget-" + widget.id, open: false)
        } else {
            returnTo = Self.returnTo(widget: widget.id, focus: (form["by"] == "-1" ? "up-" : "down-") + widget.id, open: false)
        }
        return try await save(edit, to: original, route: route, session: session, attemptID: widget.id, form: form, back: back, returnTo: returnTo)
    }

    /// `&focus=…&open=…`: where a redirect after an action puts the editor back. The focused
    /// control (`autofocus`) scrolls itself into view; a `#fragment` would do the scrolling but
    /// stop the browser from applying `autofocus` at all.

    /// Applies `edit` to the draft as read and saves it as a step named by the edit; an edit the
    /// draft refuses (a section with widgets removed) comes back at the top of the editor.
    private func save(
        _ edit: DraftEdit, to original: PageTemplate, route: String, session: AdminDirectory.Session, attemptID: String,
        form: [String: String], back: String, returnTo: String = ""
    ) async throws -> ScreenplayService.Response {
        let outcome: DraftEdit.Outcome
        do {
            outcome = try edit.applied(to: original)
        } catch {
            return try await editor(
                route, session, notice: nil, attempt: EditAttempt(instanceID: Self.sectionAttempt, values: [:], errors: [Self.pageErrorKey: error.description]))
        }
        return try await save(
            outcome.template, replacing: original, route: route, session: session, attemptID: attemptID, form: form, back: back,
            step: outcome.label, returnTo: returnTo)
    }

    private func save(
        _ template: PageTemplate, replacing original: PageTemplate, route: String, session: AdminDirectory.Session, attemptID: String,
        form: [String: String], back: String, step: String, returnTo: String = ""
    ) async throws -> ScreenplayService.Response {
        var problems: [TemplateProblem] = []
        do {
            // Experiments named in conditions and works named in parameters must exist: the
            // store's validator knows the widget kinds, the admin also asks the world. A vertical
            // that could not answer (a warning) does not block the save.
            problems = try await WorldCheck.problems(in: template, pages: pages, experiments: experiments).filter { !$0.isWarning }
            if !problems.isEmpty, let composer = pages?.composer {
                // Said together with what the content's contract refuses (a text too long beside an
                // image that does not load), so one save names every problem of what was typed.
                let contract = template.validate(catalog: composer.catalog, verticals: Set(composer.providers.keys)).filter { problem in
                    !problem.isWarning && problem.path.contains(".content")
                        && !problems.contains { $0.path == problem.path && $0.message == problem.message }
                }
                throw LayoutError.invalid(contract + problems)
            }
            try await layouts.saveDraft(template, by: session.admin, replacing: original, step: step)
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
        if rest == ["add"] {
            let id = (form["section-id"] ?? "").trimmingCharacters(in: .whitespaces)
            let title = (form["title"] ?? "").trimmingCharacters(in: .whitespaces)
            return try await save(
                .addSection(id: id, title: title.isEmpty ? nil : title), to: original, route: route, session: session,
                attemptID: Self.sectionAttempt, form: form, back: back, returnTo: Self.returnTo(widget: "section:" + id, focus: "section-\(id)-title", open: true))
        }
        guard let id = rest.first, let index = template.sections.firstIndex(where: { $0.id == id }) else {
            return Self.page(title: "Not found", body: "<p>No such section in the draft.</p>", status: .notFound)
        }
        // A section's form names the section as it read it (its title, its widgets, its place).
        if let seen = form["seen"], seen != Self.sectionDigest(template, index) {
            return try await editor(
                route, session, notice: nil,
                attempt: EditAttempt(
                    instanceID: Self.sectionAttempt, values: [:],
                    errors: [Self.pageErrorKey: "Section \(id) changed since you loaded the page (someone else saved): this is it now. Nothing was changed; do it again if you still mean it."],
                    status: .conflict))
        }
        switch Array(rest.dropFirst()) {
        case []:
            let title = (form["title"] ?? "").trimmingCharacters(in: .whitespaces)
            return try await save(
                .retitleSection(id: id, title: title.isEmpty ? nil : title), to: original, route: route, session: session,
                attemptID: Self.sectionAttempt, form: form, back: back, returnTo: Self.returnTo(widget: "section:" + id, focus: "section-save-" + id, open: true))
        case ["move"]:
            guard let by = Self.step(form) else { return Self.page(title: "Not done", body: "<p>Move up or down? The form said neither.</p>", status: .unprocessableContent) }
            guard template.sections.indices.contains(index + by) else { return Self.redirect(to: back) }
            // Back at the same button, its section's tools open: Enter again moves it again.
            let button = (form["by"] == "-1" ? "section-up-" : "section-down-") + id
            return try await save(
                .moveSection(id: id, by: by), to: original, route: route, session: session, attemptID: Self.sectionAttempt, form: form,
                back: back, returnTo: Self.returnTo(widget: "section:" + id, focus: button, open: true))
        case ["remove"]:
            // A section with widgets is refused by the edit, in words, at the top of the editor.
            return try await save(
                .removeSection(id: id), to: original, route: route, session: session, attemptID: Self.sectionAttempt, form: form, back: back)
        default:
            return Self.page(title: "Not found", body: "<p>Nothing to do here.</p>", status: .notFound)
        }
    }

    // MARK: Undo and redo

    /// Takes the editor's own newest step back (or does again the one they undid last), naming
    /// the step their page showed; a refusal (nothing to take back, another step is the newest,
    /// someone has since built on it) comes back on the editor in words, nothing changed.
    private func takeStep(
        _ route: String, undoing: Bool, form: [String: String], session: AdminDirectory.Session
    ) async throws -> ScreenplayService.Response {
        let back = "\(prefix)/pages/\(Self.pathEscape(route))/edit"
        let expected = form["step"].flatMap(Int64.init)
        do {
            let step =
                undoing
                ? try await layouts.undo(route: route, by: session.admin, step: expected)
                : try await layouts.redo(route: route, by: session.admin, step: expected)
            return Self.redirect(to: back + "?done=\(undoing ? "undone" : "redone")&step=\(step.id)&focus=\(undoing ? "undo" : "redo")")
        } catch {
            guard case .stepRefused(_, let reason) = error else { throw error }
            return try await editor(
                route, session, notice: nil,
                attempt: EditAttempt(instanceID: Self.sectionAttempt, values: [:], errors: [Self.pageErrorKey: reason], status: .conflict))
        }
    }

    /// The editor again with `widget`'s card open and `words` on it (the summary names the widget), nothing changed:
    /// an action whose form read the widget as it no longer is.
    private func staleWidget(
        _ route: String, _ session: AdminDirectory.Session, widget: WidgetInstance, _ words: String
    ) async throws -> ScreenplayService.Response {
        try await editor(
            route, session, notice: nil,
            attempt: EditAttempt(instanceID: widget.id, values: Self.formValues(of: widget), errors: ["": words], status: .conflict))
    }
}
