import Foundation
public import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer

/// What changed between two versions of a page's layout, widget by widget, in words a product
/// person reads: what a publish or a rollback is about to do, what each audit row did, and how any
/// two revisions differ.
///
/// Widgets and sections are matched by id (an id is stable across revisions: moving a widget
/// keeps it). A widget counts as moved when it changed section, or when it no longer keeps its
/// order among the widgets both versions have in that section; of several that swapped places,
/// the fewest are named (the others kept their order), as a person describing the change would.
public struct TemplateDiff: Sendable, Hashable {
    /// One change, old to new.
    public enum Change: Sendable, Hashable {
        /// The page's title.
        case retitledPage(from: String, to: String)
        /// A section that only the new version has, at `position` (from 1), with the widgets it
        /// brings that the old version did not have (widgets moved into it are moves).
        case addedSection(id: String, position: Int, widgets: [String])
        /// A section that only the old version has, with the widgets that went with it (widgets
        /// moved out of it first are moves).
        case removedSection(id: String, widgets: [String])
        /// A section both have, in another place among the others.
        case movedSection(id: String, from: Int, to: Int)
        /// A section's heading.
        case retitledSection(id: String, from: String?, to: String?)
        /// A widget only the new version has.
        case addedWidget(id: String, kind: String, section: String, position: Int)
        /// A widget only the old version has.
        case removedWidget(id: String, kind: String, section: String)
        /// A widget both have, in another section or out of its order.
        case movedWidget(id: String, fromSection: String, fromPosition: Int, toSection: String, toPosition: Int)
        /// A widget both have whose settings differ.
        case changedWidget(id: String, aspects: [Aspect])
    }

    /// Which settings of a widget changed.
    public enum Aspect: Sendable, Hashable, CustomStringConvertible {
        /// Its kind (the component it shows).
        case kind(from: String, to: String)
        /// The team that provides its data.
        case vertical(from: String, to: String)
        /// Its parameters: each top-level one added, removed or changed, by name, with what it was
        /// and is (`workID 21 → 6`), sorted by name.
        case parameters([Setting])
        /// The content the product team wrote changed: each field and locale that did (`headline (de)`).
        case content([Setting])
        /// Its conditions: each that changed (`platforms`, `apiVersions`, `locales`, `segments`,
        /// `experiment`, `window`), with what it was and is in words (`platforms every → android`).
        case conditions([Setting])
        /// Switched on (`true`) or off.
        case switched(on: Bool)
        /// Its provider timeout.
        case timeout(from: Int?, to: Int?)

        /// In words: `parameters (title, count)`, `switched off`.
        public var description: String {
            switch self {
            case .kind(let from, let to): "kind \(from) → \(to)"
            case .vertical(let from, let to): "provided by \(from) → \(to)"
            case .parameters(let settings): settings.map(\.description).joined(separator: ", ")
            case .content(let settings): "content: " + settings.map(\.description).joined(separator: ", ")
            case .conditions(let settings): "who sees it: " + settings.map(\.description).joined(separator: ", ")
            case .switched(let on): on ? "switched on" : "switched off"
            case .timeout(let from, let to): "timeout \(from.map { "\($0) ms" } ?? "default") → \(to.map { "\($0) ms" } ?? "default")"
            }
        }

        static func conditionWords(_ name: String) -> String {
            switch name {
            case "apiVersions": "app versions"
            case "window": "schedule"
            default: name
            }
        }
    }

    /// One setting of a widget, what it was and what it is, in words a person reads in a review
    /// or an audit row; long values are cut.
    public struct Setting: Sendable, Hashable, CustomStringConvertible {
        /// The parameter's name, or the condition's (`platforms`, `apiVersions`…).
        public let name: String
        /// What it was, in words (`21`, `“Spring sale”`, `every`, `none`).
        public let from: String
        /// What it is now, in words.
        public let to: String

        /// `name` went from `from` to `to`.
        public init(name: String, from: String, to: String) {
            self.name = name
            self.from = from
            self.to = to
        }

        /// `workID 21 → 6`; a condition by its everyday name (`schedule`, `app versions`).
        public var description: String { "\(Aspect.conditionWords(name)) \(from) → \(to)" }

        /// A parameter value in words: text quoted, numbers as written, anything else as compact
        /// JSON; `none` when absent; cut at 40 characters.
        static func words(_ value: JSONValue?) -> String {
            guard let value else { return "none" }
            let text: String
            switch value {
            case .string(let string): text = "“\(string)”"
            case .integer(let number): text = String(number)
            case .number(let number): text = String(number)
            case .bool(let flag): text = String(flag)
            case .null: text = "null"
            case .array, .object:
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                text = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? value.typeName
            }
            return text.count > 40 ? String(text.prefix(39)) + "…" : text
        }
    }

    /// Every change, in reading order: the page, then sections, then widgets in the new
    /// version's order (removed ones where they were).
    public let changes: [Change]

    /// The changes from `old` (`nil`: nothing yet, so everything is added) to `new`.
    public init(from old: PageTemplate?, to new: PageTemplate) {
        var changes: [Change] = []
        let old = old ?? PageTemplate(route: new.route, title: new.title, revision: 0, sections: [])
        if old.title != new.title { changes.append(.retitledPage(from: old.title, to: new.title)) }

        // Sections.
        let oldWidgetIDs = Set(old.sections.flatMap { $0.widgets.map(\.id) })
        let newWidgetIDs = Set(new.sections.flatMap { $0.widgets.map(\.id) })
        let oldSections = Dictionary(old.sections.enumerated().map { ($1.id, (index: $0, section: $1)) }, uniquingKeysWith: { first, _ in first })
        let newSectionIDs = Set(new.sections.map(\.id))
        let keptSections = new.sections.map(\.id).filter { oldSections[$0] != nil }
        let sectionsInPlace = Self.keptInOrder(keptSections, oldOrder: old.sections.map(\.id), newOrder: new.sections.map(\.id))
        for (index, section) in new.sections.enumerated() {
            guard let before = oldSections[section.id] else {
                let brought = section.widgets.map(\.id).filter { !oldWidgetIDs.contains($0) }
                changes.append(.addedSection(id: section.id, position: index + 1, widgets: brought))
                continue
            }
            if !sectionsInPlace.contains(section.id) {
                changes.append(.movedSection(id: section.id, from: before.index + 1, to: index + 1))
            }
            if before.section.title != section.title {
                changes.append(.retitledSection(id: section.id, from: before.section.title, to: section.title))
            }
        }
        for section in old.sections where !newSectionIDs.contains(section.id) {
            changes.append(.removedSection(id: section.id, widgets: section.widgets.map(\.id).filter { !newWidgetIDs.contains($0) }))
        }

        // Widgets: where each was and is.
        struct Place { let section: String; let position: Int; let widget: WidgetInstance }
        func places(_ template: PageTemplate) -> [String: Place] {
            var found: [String: Place] = [:]
            for section in template.sections {
                for (index, widget) in section.widgets.enumerated() where found[widget.id] == nil {
                    found[widget.id] = Place(section: section.id, position: index + 1, widget: widget)
                }
            }
            return found
        }
        let before = places(old)
        let after = places(new)
        // Per section, the widgets both versions have there: those out of order moved.
        var inPlace: Set<String> = []
        for section in new.sections {
            let kept = section.widgets.map(\.id).filter { before[$0]?.section == section.id }
            let oldOrder = old.sections.first { $0.id == section.id }?.widgets.map(\.id) ?? []
            inPlace.formUnion(Self.keptInOrder(kept, oldOrder: oldOrder, newOrder: section.widgets.map(\.id)))
        }
        for section in new.sections {
            let sectionIsNew = oldSections[section.id] == nil
            for (index, widget) in section.widgets.enumerated() where after[widget.id]?.section == section.id && after[widget.id]?.position == index + 1 {
                guard let was = before[widget.id] else {
                    // Named with its new section, unless the section is old.
                    if !sectionIsNew {
                        changes.append(.addedWidget(id: widget.id, kind: widget.kind, section: section.id, position: index + 1))
                    }
                    continue
                }
                if !inPlace.contains(widget.id) {
                    changes.append(
                        .movedWidget(id: widget.id, fromSection: was.section, fromPosition: was.position, toSection: section.id, toPosition: index + 1))
                }
                let aspects = Self.aspects(from: was.widget, to: widget)
                if !aspects.isEmpty { changes.append(.changedWidget(id: widget.id, aspects: aspects)) }
            }
        }
        for section in old.sections where newSectionIDs.contains(section.id) {
            for widget in section.widgets where after[widget.id] == nil && before[widget.id]?.section == section.id {
                changes.append(.removedWidget(id: widget.id, kind: widget.kind, section: section.id))
            }
        }
        self.changes = changes
    }

    /// Nothing changed.
    public var isEmpty: Bool { changes.isEmpty }

    /// The ids of widgets only the new version has, in new sections too (for marking them in a preview).
    public var addedWidgets: Set<String> {
        Set(
            changes.flatMap { change -> [String] in
                switch change {
                case .addedWidget(let id, _, _, _): [id]
                case .addedSection(_, _, let widgets): widgets
                default: []
                }
            })
    }
    /// Widgets in another place than before.
    public var movedWidgets: Set<String> { Set(changes.compactMap { if case .movedWidget(let id, _, _, _, _) = $0 { id } else { nil } }) }
    /// Widgets whose settings changed.
    public var changedWidgets: Set<String> { Set(changes.compactMap { if case .changedWidget(let id, _) = $0 { id } else { nil } }) }
    /// Widgets only the old version has, in removed sections too.
    public var removedWidgets: Set<String> {
        Set(
            changes.flatMap { change -> [String] in
                switch change {
                case .removedWidget(let id, _, _): [id]
                case .removedSection(_, let widgets): widgets
                default: []
                }
            })
    }

    /// Each change as a sentence.
    public var lines: [String] { changes.map(Self.sentence) }

    /// One line for an audit row: counts first, then the changes, cut at `limit` characters.
    public func summary(limit: Int = 1_000) -> String {
        guard !isEmpty else { return "no change" }
        let text = lines.joined(separator: "; ")
        guard text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }

    static func sentence(_ change: Change) -> String {
        switch change {
        case .retitledPage(let from, let to): "Page title “\(from)” → “\(to)”"
        case .addedSection(let id, let position, let widgets): "Added section \(id) (position \(position))" + Self.holding(widgets, "with")
        case .removedSection(let id, let widgets): "Removed section \(id)" + Self.holding(widgets, "and its")
        case .movedSection(let id, let from, let to): "Moved section \(id) from position \(from) to \(to)"
        case .retitledSection(let id, let from, let to): "Section \(id) heading “\(from ?? "")” → “\(to ?? "")”"
        case .addedWidget(let id, let kind, let section, let position): "Added \(id) (\(kind)) to \(section), position \(position)"
        case .removedWidget(let id, let kind, let section): "Removed \(id) (\(kind)) from \(section)"
        case .movedWidget(let id, let fromSection, let fromPosition, let toSection, let toPosition):
            fromSection == toSection
                ? "Moved \(id) in \(toSection) from position \(fromPosition) to \(toPosition)"
                : "Moved \(id) from \(fromSection) (position \(fromPosition)) to \(toSection) (position \(toPosition))"
        case .changedWidget(let id, let aspects): "Changed \(id): " + aspects.map(\.description).joined(separator: ", ")
        }
    }

    /// ` with 3 widgets: a, b, c` (at most five named), or nothing for none.
    static func holding(_ widgets: [String], _ word: String) -> String {
        guard !widgets.isEmpty else { return "" }
        let named = widgets.prefix(5).joined(separator: ", ") + (widgets.count > 5 ? ", …" : "")
        return " \(word) \(widgets.count) widget\(widgets.count == 1 ? "" : "s"): \(named)"
    }

    static func aspects(from old: WidgetInstance, to new: WidgetInstance) -> [Aspect] {
        var aspects: [Aspect] = []
        if old.kind != new.kind { aspects.append(.kind(from: old.kind, to: new.kind)) }
        if old.vertical != new.vertical { aspects.append(.vertical(from: old.vertical, to: new.vertical)) }
        if old.parameters != new.parameters {
            let before = old.parameters.objectValue ?? [:]
            let after = new.parameters.objectValue ?? [:]
            let names = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
            aspects.append(
                .parameters(
                    names.isEmpty
                        ? [Setting(name: "parameters", from: Setting.words(old.parameters), to: Setting.words(new.parameters))]
                        : names.map { Setting(name: $0, from: Setting.words(before[$0]), to: Setting.words(after[$0])) }))
        }
        if old.content != new.content {
            // A field per line, a text per locale: `headline (de) “Angebot” → “Angebot der Woche”`.
            func flattened(_ content: JSONValue) -> [String: JSONValue] {
                var flat: [String: JSONValue] = [:]
                for (name, value) in content.objectValue ?? [:] {
                    if let texts = value.objectValue, value["url"] == nil {
                        for (locale, text) in texts { flat["\(name) (\(locale))"] = text }
                    } else {
                        flat[name] = value
                    }
                }
                return flat
            }
            let (before, after) = (flattened(old.content), flattened(new.content))
            let names = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
            aspects.append(.content(names.map { Setting(name: $0, from: Setting.words(before[$0]), to: Setting.words(after[$0])) }))
        }
        if old.conditions != new.conditions {
            let (a, b) = (old.conditions, new.conditions)
            func list(_ items: [String]?, none: String) -> String {
                guard let items else { return none }
                let text = items.joined(separator: ", ")
                return text.count > 40 ? String(text.prefix(39)) + "…" : text
            }
            func experiment(_ condition: ExperimentCondition?) -> String {
                condition.map { "\($0.key): \($0.variants.sorted().joined(separator: ", "))" } ?? "none"
            }
            func versions(_ range: APIVersionRange?) -> String {
                switch (range?.minimum, range?.maximum) {
                case (let low?, let high?): "\(low.rawValue) to \(high.rawValue)"
                case (let low?, nil): "\(low.rawValue) and later"
                case (nil, let high?): "up to \(high.rawValue)"
                case (nil, nil): "every"
                }
            }
            func window(_ window: DateWindow?) -> String {
                guard let window, window.start != nil || window.end != nil else { return "always" }
                let format = { (date: Date) in date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false)) + "Z" }
                return "\(window.start.map(format) ?? "now") to \(window.end.map(format) ?? "no end")"
            }
            var settings: [Setting] = []
            if a.platforms != b.platforms {
                settings.append(
                    Setting(
                        name: "platforms", from: list(a.platforms?.map(\.rawValue).sorted(), none: "every"),
                        to: list(b.platforms?.map(\.rawValue).sorted(), none: "every")))
            }
            if a.apiVersions != b.apiVersions { settings.append(Setting(name: "apiVersions", from: versions(a.apiVersions), to: versions(b.apiVersions))) }
            if a.locales != b.locales { settings.append(Setting(name: "locales", from: list(a.locales, none: "every"), to: list(b.locales, none: "every"))) }
            if a.segments != b.segments {
                settings.append(Setting(name: "segments", from: list(a.segments?.sorted(), none: "everyone"), to: list(b.segments?.sorted(), none: "everyone")))
            }
            if a.experiment != b.experiment { settings.append(Setting(name: "experiment", from: experiment(a.experiment), to: experiment(b.experiment))) }
            if a.window != b.window { settings.append(Setting(name: "window", from: window(a.window), to: window(b.window))) }
            aspects.append(.conditions(settings))
        }
        if old.isEnabled != new.isEnabled { aspects.append(.switched(on: new.isEnabled)) }
        if old.timeoutMilliseconds != new.timeoutMilliseconds { aspects.append(.timeout(from: old.timeoutMilliseconds, to: new.timeoutMilliseconds)) }
        return aspects
    }

    /// Of `kept` (ids in their new order, all present in `oldOrder`), those that keep their
    /// relative order: the longest run increasing in old positions. The rest moved. Among runs
    /// equally long, the one keeping most ids at the very position they had (in `newOrder` as in
    /// `oldOrder`): when a widget is added above two that swap, the one whose place changed is
    /// named as moved, not its neighbour that stayed at "position 2 to 2".
    static func keptInOrder(_ kept: [String], oldOrder: [String], newOrder: [String]) -> Set<String> {
        let oldIndex = Dictionary(oldOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let newIndex = Dictionary(newOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let kept = kept.filter { oldIndex[$0] != nil }
        let sequence = kept.map { oldIndex[$0]! }
        guard !sequence.isEmpty else { return [] }
        // Beyond a thousand, the quadratic tie-break costs more than it is worth: any longest run.
        guard sequence.count <= 1_000 else { return Set(LongestIncreasingRun.indices(sequence).map { kept[$0] }) }
        let stays = kept.map { newIndex[$0] == oldIndex[$0] ? 1 : 0 }
        // Per end, the best run ending there: (length, ids that stayed), and where it came from.
        var best = stays.map { (length: 1, stayed: $0) }
        var previous = [Int](repeating: -1, count: sequence.count)
        for end in sequence.indices {
            for start in 0..<end where sequence[start] < sequence[end] {
                let candidate = (length: best[start].length + 1, stayed: best[start].stayed + stays[end])
                if candidate > best[end] {
                    best[end] = candidate
                    previous[end] = start
                }
            }
        }
        // Still tied: the run ending at the smallest old position, as the classic algorithm
        // chooses (of two neighbours swapped by "Move up", the one moved up is named).
        var cursor = best.indices.max { (best[$0].length, best[$0].stayed, -sequence[$0]) < (best[$1].length, best[$1].stayed, -sequence[$1]) } ?? -1
        var result: Set<String> = []
        while cursor >= 0 {
            result.insert(kept[cursor])
            cursor = previous[cursor]
        }
        return result
    }
}
