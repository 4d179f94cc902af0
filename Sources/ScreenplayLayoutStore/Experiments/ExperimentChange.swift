public import Foundation
public import ScreenplayComposer

/// What changed between two definitions of an experiment, in words a product person reads: what
/// an audit row of ``ExperimentStore`` says before the JSON it keeps.
///
/// Changes that move users are the ones people need to see: a weight, a variant added or
/// removed, the variants' order (bucketing walks them in order), the target segment and the
/// schedule. Variants are matched by name, so a renamed variant reads as one removed and one
/// added, which is what it is to the users in it.
public struct ExperimentChange: Sendable, Hashable {
    /// One change, old to new.
    public enum Change: Sendable, Hashable {
        /// A new experiment, as defined.
        case created(Experiment)
        /// An experiment removed, as it was.
        case deleted(Experiment)
        /// A variant only the new definition has.
        case addedVariant(name: String, weight: Int)
        /// A variant only the old definition has.
        case removedVariant(name: String, weight: Int)
        /// Variants both have whose weights differ, in the new order.
        case reweighted([Reweighting])
        /// The variants both have, in another order (names in the old order, then the new).
        case reordered(from: [String], to: [String])
        /// The target segment; `nil` is everyone.
        case segment(from: String?, to: String?)
        /// When users start taking part; `nil` is at once.
        case start(from: Date?, to: Date?)
        /// When users stop taking part; `nil` is never.
        case stop(from: Date?, to: Date?)
    }

    /// A variant's weight, old and new.
    public struct Reweighting: Sendable, Hashable {
        /// The variant.
        public var name: String
        /// Its weight before.
        public var from: Int
        /// Its weight now.
        public var to: Int

        /// `name`'s weight went `from` → `to`.
        public init(name: String, from: Int, to: Int) {
            self.name = name
            self.from = from
            self.to = to
        }
    }

    /// Every change, in reading order: variants, their weights and order, then who and when.
    public let changes: [Change]

    /// The changes from `old` to `new`: `old` `nil` is a creation, `new` `nil` a deletion (both
    /// `nil`, nothing).
    public init(from old: Experiment?, to new: Experiment?) {
        switch (old, new) {
        case (nil, nil):
            changes = []
        case (nil, let new?):
            changes = [.created(new)]
        case (let old?, nil):
            changes = [.deleted(old)]
        case (let old?, let new?):
            changes = Self.changes(from: old, to: new)
        }
    }

    /// Nothing changed.
    public var isEmpty: Bool { changes.isEmpty }

    /// One line for an audit row, changes separated by semicolons, cut at `limit` characters:
    /// `weights control 2 → 1, banner 1 → 3; segment none → beta-testers`, or `no change`.
    public func summary(limit: Int = 1_000) -> String {
        guard !isEmpty else { return "no change" }
        let text = changes.map(Self.sentence).joined(separator: "; ")
        guard text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }

    static func changes(from old: Experiment, to new: Experiment) -> [Change] {
        var changes: [Change] = []
        let oldNames = Set(old.variants.map(\.name))
        let newNames = Set(new.variants.map(\.name))
        for variant in new.variants where !oldNames.contains(variant.name) {
            changes.append(.addedVariant(name: variant.name, weight: variant.weight))
        }
        for variant in old.variants where !newNames.contains(variant.name) {
            changes.append(.removedVariant(name: variant.name, weight: variant.weight))
        }
        let oldWeights = Dictionary(old.variants.map { ($0.name, $0.weight) }, uniquingKeysWith: { first, _ in first })
        let reweighted = new.variants.compactMap { variant in
            oldWeights[variant.name].flatMap { $0 == variant.weight ? nil : Reweighting(name: variant.name, from: $0, to: variant.weight) }
        }
        if !reweighted.isEmpty { changes.append(.reweighted(reweighted)) }
        let keptBefore = old.variants.map(\.name).filter(newNames.contains)
        let keptAfter = new.variants.map(\.name).filter(oldNames.contains)
        if keptBefore != keptAfter { changes.append(.reordered(from: keptBefore, to: keptAfter)) }
        if old.targetSegment != new.targetSegment { changes.append(.segment(from: old.targetSegment, to: new.targetSegment)) }
        if old.start != new.start { changes.append(.start(from: old.start, to: new.start)) }
        if old.stop != new.stop { changes.append(.stop(from: old.stop, to: new.stop)) }
        return changes
    }

    static func sentence(_ change: Change) -> String {
        switch change {
        case .created(let experiment): "created: " + describe(experiment, runs: "runs")
        case .deleted(let experiment): "deleted: it had " + describe(experiment, runs: "ran")
        case .addedVariant(let name, let weight): "added variant \(name) (weight \(Self.weight(weight)))"
        case .removedVariant(let name, let weight): "removed variant \(name) (weight \(Self.weight(weight)))"
        case .reweighted(let changes):
            "weight\(changes.count == 1 ? "" : "s") "
                + changes.map { "\($0.name) \(Self.weight($0.from)) → \(Self.weight($0.to))" }.joined(separator: ", ")
        case .reordered(let from, let to):
            "variant order \(from.joined(separator: ", ")) → \(to.joined(separator: ", ")) (users move between variants)"
        case .segment(let from, let to): "segment \(from ?? "none") → \(to ?? "none")"
        case .start(let from, let to): "starts \(from.map(Self.time) ?? "at once") → \(to.map(Self.time) ?? "at once")"
        case .stop(let from, let to): "stops \(from.map(Self.time) ?? "never") → \(to.map(Self.time) ?? "never")"
        }
    }

    /// `variants control 2, banner 1; segment beta; runs from 2026-12-01 00:00 UTC, with no stop date`.
    static func describe(_ experiment: Experiment, runs: String) -> String {
        let variants = experiment.variants.map { "\($0.name) \(Self.weight($0.weight))" }.joined(separator: ", ")
        let who = experiment.targetSegment.map { "segment \($0)" } ?? "everyone"
        let from = experiment.start.map { "from \(Self.time($0))" } ?? "at once"
        let until = experiment.stop.map { " until \(Self.time($0))" } ?? ", with no stop date"
        return "variant\(experiment.variants.count == 1 ? "" : "s") \(variants); \(who); \(runs) \(from)\(until)"
    }

    /// A weight, with a word for 0 (a variant turned off).
    static func weight(_ weight: Int) -> String { weight == 0 ? "0 (off)" : String(weight) }

    /// `2026-12-01 00:00 UTC`, seconds shown only when there are some: the instant as stored.
    static func time(_ date: Date) -> String {
        var text = date.formatted(.iso8601).replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: "")
        if text.hasSuffix(":00") { text.removeLast(3) }
        return text + " UTC"
    }
}
