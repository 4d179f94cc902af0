import Foundation
import ScreenplayComposer
import ScreenplayLayoutStore
import Testing

/// What an experiment's audit row says changed, in words a product person reads.
@Suite("ExperimentChange")
struct ExperimentChangeTests {
    /// 2026-12-01 00:00 UTC.
    static let december = Date(timeIntervalSince1970: 1_796_083_200)
    static let base = Experiment(key: "teaser", variants: [.init("control", weight: 2), .init("banner", weight: 1)])

    @Test("the same definition has no changes, and says so")
    func identical() {
        let change = ExperimentChange(from: Self.base, to: Self.base)
        #expect(change.isEmpty)
        #expect(change.summary() == "no change")
        #expect(ExperimentChange(from: nil, to: nil).summary() == "no change")
    }

    @Test("a change of weights, segment and schedule reads as one line, in that order")
    func weightsSegmentSchedule() {
        var new = Self.base
        new.variants = [.init("control", weight: 1), .init("banner", weight: 3)]
        new.targetSegment = "beta-testers"
        new.start = Self.december
        new.stop = Self.december.addingTimeInterval(7 * 86_400)
        let change = ExperimentChange(from: Self.base, to: new)
        #expect(
            change.changes == [
                .reweighted([.init(name: "control", from: 2, to: 1), .init(name: "banner", from: 1, to: 3)]),
                .segment(from: nil, to: "beta-testers"), .start(from: nil, to: Self.december),
                .stop(from: nil, to: Self.december.addingTimeInterval(7 * 86_400)),
            ])
        #expect(
            change.summary()
                == "weights control 2 → 1, banner 1 → 3; segment none → beta-testers; starts at once → 2026-12-01 00:00 UTC; "
                + "stops never → 2026-12-08 00:00 UTC")
    }

    @Test("the way back: segment and schedule removed, one weight turned off")
    func backToDefaults() {
        let old = Experiment(
            key: "teaser", variants: Self.base.variants, targetSegment: "beta", start: Self.december.addingTimeInterval(90),
            stop: Self.december.addingTimeInterval(86_400))
        var new = Self.base
        new.variants[1].weight = 0
        #expect(
            ExperimentChange(from: old, to: new).summary()
                == "weight banner 1 → 0 (off); segment beta → none; starts 2026-12-01 00:01:30 UTC → at once; stops 2026-12-02 00:00 UTC → never"
        )
    }

    @Test("variants added and removed are named with their weights; a rename is both")
    func addedAndRemoved() {
        let new = Experiment(key: "teaser", variants: [.init("control", weight: 2), .init("hero", weight: 1), .init("strip", weight: 4)])
        let change = ExperimentChange(from: Self.base, to: new)
        #expect(
            change.changes == [
                .addedVariant(name: "hero", weight: 1), .addedVariant(name: "strip", weight: 4), .removedVariant(name: "banner", weight: 1),
            ])
        #expect(change.summary() == "added variant hero (weight 1); added variant strip (weight 4); removed variant banner (weight 1)")
    }

    @Test("variants in another order are named, since it moves users; a new variant between them is not a reorder")
    func reordered() {
        let swapped = Experiment(key: "teaser", variants: [.init("banner", weight: 1), .init("control", weight: 2)])
        #expect(
            ExperimentChange(from: Self.base, to: swapped).summary()
                == "variant order control, banner → banner, control (users move between variants)")
        let between = Experiment(
            key: "teaser", variants: [.init("control", weight: 2), .init("hero", weight: 1), .init("banner", weight: 1)])
        #expect(ExperimentChange(from: Self.base, to: between).changes == [.addedVariant(name: "hero", weight: 1)])
    }

    @Test("a creation describes the whole experiment; a deletion what it had")
    func createdAndDeleted() {
        #expect(
            ExperimentChange(from: nil, to: Self.base).summary()
                == "created: variants control 2, banner 1; everyone; runs at once, with no stop date")
        let scheduled = Experiment(
            key: "teaser", variants: [.init("control", weight: 1)], targetSegment: "beta", start: Self.december,
            stop: Self.december.addingTimeInterval(86_400))
        #expect(
            ExperimentChange(from: nil, to: scheduled).summary()
                == "created: variant control 1; segment beta; runs from 2026-12-01 00:00 UTC until 2026-12-02 00:00 UTC")
        var open = scheduled
        open.stop = nil
        #expect(
            ExperimentChange(from: open, to: nil).summary()
                == "deleted: it had variant control 1; segment beta; ran from 2026-12-01 00:00 UTC, with no stop date")
        #expect(ExperimentChange(from: Self.base, to: nil).changes == [.deleted(Self.base)])
    }

    @Test("a long summary is cut at the limit with an ellipsis")
    func cut() {
        let many = Experiment(key: "teaser", variants: (0..<64).map { .init("variant-number-\($0)", weight: 1) })
        let summary = ExperimentChange(from: nil, to: many).summary(limit: 100)
        #expect(summary.count == 100)
        #expect(summary.hasSuffix("…"))
    }
}
