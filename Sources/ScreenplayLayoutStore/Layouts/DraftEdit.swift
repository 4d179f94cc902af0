public import ScreenplayComposer

/// One change to a draft, as data: add a widget, change its settings, move or remove it, and the
/// same for sections.
///
/// The admin's editor forms and the admin API's `draft/edits` both say what they want done as a
/// `DraftEdit` and apply it with ``applied(to:)``, so "move down at the end of a section goes to
/// the next one" or "only an empty section can be removed" is decided here once, and a script
/// can make any change the editor makes. What an edit does is checked against the template it is
/// applied to; whether the result is a valid page (ids, kinds, parameters) is the store's check
/// when it is saved.
public enum DraftEdit: Sendable, Hashable {
    /// `widget` into section `section` at `index` (0 is the top; `nil` or past the end is the end).
    case insert(WidgetInstance, section: String, index: Int?)
    /// The widget with `widget.id` replaced by `widget`: its kind, vertical, parameters,
    /// conditions, switch and timeout (its place stays).
    case change(WidgetInstance)
    /// The widget `widget` taken off the page.
    case remove(widget: String)
    /// The widget `widget` to section `section` at `index`, counted without the widget (what a drop
    /// onto the page or the "Move to" menu says); an index past the end is the end.
    case move(widget: String, section: String, index: Int)
    /// The widget `widget` one place up (`by` -1) or down (+1); past the end of its section, to the
    /// nearest end of the neighbouring section.
    case nudge(widget: String, by: Int)
    /// A new empty section at the end of the page.
    case addSection(id: String, title: String?)
    /// Section `id`'s title (`nil` for none).
    case retitleSection(id: String, title: String?)
    /// Section `id` one place up (-1) or down (+1); at the page's end, nothing moves.
    case moveSection(id: String, by: Int)
    /// Section `id` taken off the page: only when empty, so widgets are never lost as a side effect.
    case removeSection(id: String)

    /// What an edit did: the new template and the words for it on the editor's Undo button and
    /// in the audit log (`Moved deal-buy to main, position 2`).
    public struct Outcome: Sendable, Hashable {
        /// The template with the edit applied.
        public var template: PageTemplate
        /// What was done, naming the widget or section.
        public var label: String
    }

    /// Why an edit cannot be applied to a template: it names something the template does not
    /// have, or asks what cannot be done. `path` is where in the template (`$.sections[1]`).
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// Where in the template (a JSON path), or `$` for the page.
        public let path: String
        /// What is wrong, in words.
        public let message: String
        /// `path: message`.
        public var description: String { "\(path): \(message)" }

        /// A refusal at `path` saying `message`.
        public init(path: String, message: String) {
            self.path = path
            self.message = message
        }
    }

    /// The template with this edit applied, and its label.
    ///
    /// - Throws: ``Refusal`` when the edit names a widget or section the template does not have,
    ///   moves by more than one place, or removes a section that still has widgets.
    public func applied(to template: PageTemplate) throws(Refusal) -> Outcome {
        var page = template
        switch self {
        case .insert(let widget, let sectionID, let index):
            let section = try Self.section(sectionID, in: page)
            let widgets = page.sections[section].widgets
            let place = index.map { min(max(0, $0), widgets.count) } ?? widgets.count
            page.sections[section].widgets.insert(widget, at: place)
            return Outcome(template: page, label: "Added \(widget.id) (\(widget.kind)) to \(sectionID)")
        case .change(let widget):
            let (section, index) = try Self.position(of: widget.id, in: page)
            page.sections[section].widgets[index] = widget
            return Outcome(template: page, label: "Changed \(widget.id)'s settings")
        case .remove(let id):
            let (section, index) = try Self.position(of: id, in: page)
            page.sections[section].widgets.remove(at: index)
            return Outcome(template: page, label: "Removed \(id)")
        case .move(let id, let sectionID, let index):
            let (section, from) = try Self.position(of: id, in: page)
            let target = try Self.section(sectionID, in: page)
            let widget = page.sections[section].widgets.remove(at: from)
            let placed = min(max(0, index), page.sections[target].widgets.count)
            page.sections[target].widgets.insert(widget, at: placed)
            return Outcome(template: page, label: "Moved \(id) to \(sectionID), position \(placed + 1)")
        case .nudge(let id, let by):
            guard by == -1 || by == 1 else { throw Refusal(path: "$", message: "a widget moves one place up (-1) or down (1), not \(by)") }
            let (section, index) = try Self.position(of: id, in: page)
            let widget = page.sections[section].widgets.remove(at: index)
            let target = index + by
            if target < 0, section > 0 {
                page.sections[section - 1].widgets.append(widget)
            } else if target > page.sections[section].widgets.count, section + 1 < page.sections.count {
                page.sections[section + 1].widgets.insert(widget, at: 0)
            } else {
                page.sections[section].widgets.insert(widget, at: min(max(0, target), page.sections[section].widgets.count))
            }
            return Outcome(template: page, label: "Moved \(id) \(by < 0 ? "up" : "down")")
        case .addSection(let id, let title):
            // A taken or malformed id is the store's check on save, with the section's path.
            page.sections.append(.init(id: id, title: title, widgets: []))
            return Outcome(template: page, label: "Added section \(id)")
        case .retitleSection(let id, let title):
            let section = try Self.section(id, in: page)
            page.sections[section].title = title
            return Outcome(template: page, label: "Retitled section \(id)")
        case .moveSection(let id, let by):
            guard by == -1 || by == 1 else { throw Refusal(path: "$", message: "a section moves one place up (-1) or down (1), not \(by)") }
            let section = try Self.section(id, in: page)
            if page.sections.indices.contains(section + by) { page.sections.swapAt(section, section + by) }
            return Outcome(template: page, label: "Moved section \(id) \(by < 0 ? "up" : "down")")
        case .removeSection(let id):
            let section = try Self.section(id, in: page)
            let count = page.sections[section].widgets.count
            guard count == 0 else {
                throw Refusal(path: "$.sections[\(section)]", message: "section '\(id)' still has \(count) widget(s); move or remove them first")
            }
            page.sections.remove(at: section)
            return Outcome(template: page, label: "Removed section \(id)")
        }
    }

    /// The edits applied one after the other; the labels joined with "; ".
    ///
    /// - Throws: ``Refusal`` of the first edit that cannot be applied, its path prefixed with the
    ///   edit's place in the list (`edits[2]: $.sections[0]`).
    public static func applied(_ edits: [DraftEdit], to template: PageTemplate) throws(Refusal) -> Outcome {
        var outcome = Outcome(template: template, label: "")
        var labels: [String] = []
        for (index, edit) in edits.enumerated() {
            do {
                outcome = try edit.applied(to: outcome.template)
            } catch {
                throw Refusal(path: "edits[\(index)]: \(error.path)", message: error.message)
            }
            labels.append(outcome.label)
        }
        outcome.label = labels.joined(separator: "; ")
        return outcome
    }

    /// Where widget `id` is: its section's index and its own.
    public static func position(of id: String, in template: PageTemplate) throws(Refusal) -> (section: Int, index: Int) {
        for (section, content) in template.sections.enumerated() {
            if let index = content.widgets.firstIndex(where: { $0.id == id }) { return (section, index) }
        }
        throw Refusal(path: "$", message: "the page has no widget '\(id)'")
    }

    private static func section(_ id: String, in template: PageTemplate) throws(Refusal) -> Int {
        guard let index = template.sections.firstIndex(where: { $0.id == id }) else {
            let known = template.sections.map(\.id).joined(separator: ", ")
            throw Refusal(path: "$", message: "the page has no section '\(id)' (it has \(known.isEmpty ? "none" : known))")
        }
        return index
    }
}
