public import ScreenplayComposer
import ScreenplayStore

/// Where an experiment shows on a page: a widget whose conditions name it, and for which variants.
public struct ExperimentUse: Sendable, Hashable {
    /// The page.
    public let route: String
    /// `live` or `draft`.
    public let place: String
    /// The widget.
    public let widget: String
    /// Its kind.
    public let kind: String
    /// The variants it is shown to.
    public let variants: [String]
}

extension PageTemplate {
    /// The page with `variant` of experiment `key` made the layout: a widget shown to that variant
    /// (alone or among others) is shown to everyone, a widget shown only to other variants is
    /// removed, the rest stay as they are. Returns the ids it keeps for everyone and removes.
    public func rollingOut(_ variant: String, of key: String) -> (template: PageTemplate, kept: [String], removed: [String]) {
        var template = self
        var kept: [String] = []
        var removed: [String] = []
        for index in template.sections.indices {
            template.sections[index].widgets = template.sections[index].widgets.compactMap { widget in
                guard let experiment = widget.conditions.experiment, experiment.key == key else { return widget }
                guard experiment.variants.contains(variant) else {
                    removed.append(widget.id)
                    return nil
                }
                var everyone = widget
                everyone.conditions.experiment = nil
                kept.append(widget.id)
                return everyone
            }
        }
        return (template, kept, removed)
    }
}

extension ExperimentStore {
    /// Every widget, live or in a draft, whose conditions name experiment `key`, by page.
    public func uses(of key: String) async throws -> [ExperimentUse] {
        try await store.read { database in
            var uses: [ExperimentUse] = []
            for (template, place) in try await Self.liveAndDraftTemplates(on: database) {
                for widget in template.instances {
                    guard let experiment = widget.conditions.experiment, experiment.key == key else { continue }
                    uses.append(
                        ExperimentUse(route: template.route, place: place, widget: widget.id, kind: widget.kind, variants: experiment.variants.sorted()))
                }
            }
            return uses.sorted { ($0.route, $0.place, $0.widget) < ($1.route, $1.place, $1.widget) }
        }
    }
}

extension LayoutStore {
    /// Makes `variant` of experiment `key` the layout of every page that names it, as a draft to
    /// review and publish (``PageTemplate/rollingOut(_:of:)``, applied to the page's draft, or
    /// to its live revision when it has none), each saved as a step of `actor`'s. The experiment
    /// keeps running until it is stopped: the live pages change only once published.
    /// Returns each page's draft with what it keeps for everyone and removes.
    public func rollOut(
        _ variant: String, of key: String, routes: [String], by actor: String
    ) async throws(LayoutError) -> [(route: String, kept: [String], removed: [String])] {
        var outcome: [(route: String, kept: [String], removed: [String])] = []
        for route in routes {
            let base: PageTemplate?
            if let draft = try await guarded({ try await draft(of: route) }) {
                base = draft.template
            } else {
                base = try await guarded { try await published(route: route)?.template }
            }
            guard let base else { continue }
            let rolled = base.rollingOut(variant, of: key)
            guard !rolled.kept.isEmpty || !rolled.removed.isEmpty else { continue }
            try await saveDraft(rolled.template, by: actor, replacing: base, step: "Rolled out \(variant) of experiment \(key)")
            outcome.append((route, rolled.kept, rolled.removed))
        }
        return outcome
    }
}
