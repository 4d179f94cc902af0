import Foundation
import ScreenplayComposer
import SQLKit
import ScreenplayStore

extension ExperimentStore {
    /// Every segment a live or draft page's widget is aimed at, or an experiment targets, with
    /// where (`shop: deal-offer`, `experiment shop-free-shipping`), by name.
    ///
    /// What the layout admin offers when a widget is aimed at segments: the names already in use,
    /// so `beta-tester` typed where everything else says `beta-testers` is seen for the typo it is.
    /// Segments are the app's (the server's `segments` function says who is in which), so the
    /// names in use are the ones this admin can know of.
    public func segmentsInUse() async throws -> [String: [String]] {
        let experiments = try await catalog()
        return try await store.read { database in
            var uses: [String: Set<String>] = [:]
            for (template, _) in try await Self.liveAndDraftTemplates(on: database) {
                for widget in template.instances {
                    for segment in widget.conditions.segments ?? [] { uses[segment, default: []].insert("\(template.route): \(widget.id)") }
                }
            }
            for (key, experiment) in experiments.experiments {
                if let segment = experiment.targetSegment { uses[segment, default: []].insert("experiment \(key)") }
            }
            return uses.mapValues { $0.sorted() }
        }
    }
}
