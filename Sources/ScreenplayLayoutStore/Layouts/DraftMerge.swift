public import ScreenplayComposer

/// Takes one editor's step back (or forward again) on a draft that others may have changed since,
/// without taking anything of theirs with it.
///
/// A step is the draft before and after one editor action. Undoing it applies the change
/// after → before to the draft as it is now; redoing applies before → after. The change is cut
/// into parts, each of which one action either touches or not: the page's title, the order of the
/// sections, each section's title, the order of each section's widgets, each widget's settings.
/// The change applies only when the draft still agrees with the step on every part the step
/// touched; parts it did not touch keep what is there now, whoever put it there. A section's order
/// is compared on the widgets the step knew of only, so a widget someone else added to that
/// section meanwhile stays, near the neighbour it had; a widget the step placed that someone has
/// since moved, removed or edited is a part they built on, and the step is refused naming it.
public enum DraftMerge {
    /// A part of a page that one action touches or not, in words for a refusal.
    public enum Part: Sendable, Hashable, CustomStringConvertible {
        /// The page's title.
        case pageTitle
        /// Which sections there are, in which order.
        case sectionOrder
        /// One section's heading.
        case sectionTitle(String)
        /// Which widgets a section holds, in which order.
        case widgetOrder(String)
        /// One widget's settings (kind, vertical, parameters, conditions, switch).
        case widget(String)

        /// `the order of section deal`, `widget deal-buy's settings`.
        public var description: String {
            switch self {
            case .pageTitle: "the page's title"
            case .sectionOrder: "the order of the sections"
            case .sectionTitle(let id): "section \(id)'s title"
            case .widgetOrder(let id): "the widgets of section \(id)"
            case .widget(let id): "widget \(id)"
            }
        }
    }

    /// `current` with the change `from` → `to` applied, or the parts of `current` that no longer
    /// agree with `from` where the change touches them (sorted as a person reads the page).
    public static func apply(from: PageTemplate, to: PageTemplate, onto current: PageTemplate) -> Result<PageTemplate, Conflict> {
        let (old, new, now) = (Shape(from), Shape(to), Shape(current))
        var conflicts: [Part] = []
        var result = now
        if old.title != new.title {
            if now.title != old.title { conflicts.append(.pageTitle) }
            result.title = new.title
        }
        if old.sectionOrder != new.sectionOrder {
            switch reorder(old: old.sectionOrder, new: new.sectionOrder, now: now.sectionOrder) {
            case .some(let order): result.sectionOrder = order
            case nil: conflicts.append(.sectionOrder)
            }
        }
        for id in union(old.sectionOrder, new.sectionOrder) {
            if old.sectionTitles[id] != new.sectionTitles[id] {
                if now.sectionTitles[id] != old.sectionTitles[id] { conflicts.append(.sectionTitle(id)) }
                result.sectionTitles[id] = new.sectionTitles[id]
            }
            let (before, after) = (old.widgetOrder[id], new.widgetOrder[id])
            guard before != after else { continue }
            let known = Set((before ?? []) + (after ?? []))
            let present = now.widgetOrder[id]
            let foreign = (present ?? []).filter { !known.contains($0) }
            // The step's view of the section must be what is there; a section the change removes
            // must not hold widgets someone else put there meanwhile.
            guard (present?.filter(known.contains)).map({ $0 == (before ?? []) }) ?? (before == nil),
                after != nil || foreign.isEmpty
            else {
                conflicts.append(.widgetOrder(id))
                continue
            }
            if let after {
                result.widgetOrder[id] = reorder(old: before ?? [], new: after, now: present ?? []) ?? after
            } else {
                result.widgetOrder[id] = nil
            }
        }
        for id in union(Array(old.widgets.keys).sorted(), Array(new.widgets.keys).sorted()) where old.widgets[id] != new.widgets[id] {
            if now.widgets[id] != old.widgets[id] { conflicts.append(.widget(id)) }
            result.widgets[id] = new.widgets[id]
        }
        guard conflicts.isEmpty else { return .failure(Conflict(parts: conflicts)) }
        guard let template = result.template(route: current.route, revision: current.revision) else {
            // Defensive: the parts agreed yet do not make a page (a widget placed twice or nowhere).
            return .failure(Conflict(parts: [.sectionOrder]))
        }
        return .success(template)
    }

    /// Why a step could not be applied: the parts someone changed since.
    public struct Conflict: Error, Sendable, Hashable, CustomStringConvertible {
        /// Each part the step touches that the draft no longer has as the step left it.
        public let parts: [Part]

        /// `the widgets of section deal and widget deal-buy`.
        public var description: String {
            let words = parts.prefix(4).map(\.description)
            let listed = words.count <= 1 ? words.joined() : words.dropLast().joined(separator: ", ") + " and " + words.last!
            return parts.count > 4 ? listed + " (and \(parts.count - 4) more)" : listed
        }
    }

    /// `new`'s order, with the ids of `now` that neither `old` nor `new` has (someone else's)
    /// kept after the nearest id before them that `new` keeps (at the end when none that `new`
    /// keeps follows them: what was added at the end stays at the end); `nil` when `now` no
    /// longer has `old`'s order among the ids the change knows of.
    static func reorder(old: [String], new: [String], now: [String]) -> [String]? {
        let known = Set(old + new)
        guard now.filter(known.contains) == old else { return nil }
        let kept = Set(new)
        var result = new
        var anchor: String?
        let lastKept = now.lastIndex(where: kept.contains)
        for (position, id) in now.enumerated() {
            if known.contains(id) {
                if kept.contains(id) { anchor = id }
                continue
            }
            guard let lastKept, position < lastKept else {
                result.append(id)
                continue
            }
            let place = anchor.flatMap { result.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
            // After any foreign ids already placed behind the same anchor: their order is kept.
            var index = place
            while index < result.count, !known.contains(result[index]) { index += 1 }
            result.insert(id, at: index)
        }
        return result
    }

    static func union(_ a: [String], _ b: [String]) -> [String] {
        var seen = Set<String>()
        return (a + b).filter { seen.insert($0).inserted }
    }

    /// A template cut into its parts.
    struct Shape {
        var title: String
        var sectionOrder: [String]
        /// By section id; present (possibly `nil`) for every section there is.
        var sectionTitles: [String: String?]
        var widgetOrder: [String: [String]]
        var widgets: [String: WidgetInstance]

        init(_ template: PageTemplate) {
            title = template.title
            sectionOrder = template.sections.map(\.id)
            sectionTitles = Dictionary(template.sections.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
            widgetOrder = Dictionary(template.sections.map { ($0.id, $0.widgets.map(\.id)) }, uniquingKeysWith: { first, _ in first })
            widgets = Dictionary(template.sections.flatMap(\.widgets).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        }

        /// The template again; `nil` when the parts do not make one (a widget placed twice, or
        /// placed without settings).
        func template(route: String, revision: Int) -> PageTemplate? {
            var placed = Set<String>()
            var sections: [PageTemplate.Section] = []
            for id in sectionOrder {
                var widgets: [WidgetInstance] = []
                for widgetID in widgetOrder[id] ?? [] {
                    guard let widget = self.widgets[widgetID], placed.insert(widgetID).inserted else { return nil }
                    widgets.append(widget)
                }
                sections.append(.init(id: id, title: sectionTitles[id] ?? nil, widgets: widgets))
            }
            return PageTemplate(route: route, title: title, revision: revision, sections: sections)
        }
    }
}
