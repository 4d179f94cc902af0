import Foundation
public import SQLKit
import ScreenplayComposer
import ScreenplayStore

/// Something an experiment should move, measured per exposed user: "playlists created after the
/// first exposure". The app defines it (it knows its own tables); the store turns its values into
/// results per variant with confidence intervals.
public struct ExperimentMetric: Sendable, Identifiable {
    /// Stable, for URLs and forms (`playlist-creations`).
    public let id: String
    /// What a person reads: "Playlists created per exposed user".
    public let name: String
    /// One value per first exposure of `experiment` (user and variant as the exposure table
    /// holds them): every exposed user must be in it, with 0 when they did nothing.
    public let values: @Sendable (_ experiment: String, _ database: any SQLDatabase) async throws -> [(user: String, variant: String, value: Double)]

    /// A metric.
    public init(
        id: String, name: String,
        values: @escaping @Sendable (_ experiment: String, _ database: any SQLDatabase) async throws -> [(user: String, variant: String, value: Double)]
    ) {
        self.id = id
        self.name = name
        self.values = values
    }
}

/// An experiment's results on one metric: per variant, how many users were exposed, the mean
/// value per user and its 95 % confidence interval, and the difference to the first (control)
/// variant with its interval. Intervals use the normal approximation (Welch's for differences):
/// honest for the hundreds of users an experiment needs; below two users a variant has none.
public struct ExperimentResults: Sendable, Hashable {
    /// One variant's figures.
    public struct Variant: Sendable, Hashable {
        /// The variant's name.
        public var name: String
        /// Users first exposed to it.
        public var users: Int
        /// The metric's mean per user (0 when nobody).
        public var mean: Double
        /// The 95 % interval of the mean; `nil` below two users.
        public var interval: ClosedRange<Double>?
        /// The difference of means to the control variant and its 95 % interval; `nil` for the
        /// control itself and when either side has fewer than two users.
        public var difference: (value: Double, interval: ClosedRange<Double>)? {
            get { differenceValue.map { ($0, differenceLow!...differenceHigh!) } }
            set {
                differenceValue = newValue?.value
                differenceLow = newValue?.interval.lowerBound
                differenceHigh = newValue?.interval.upperBound
            }
        }
        var differenceValue: Double?
        var differenceLow: Double?
        var differenceHigh: Double?
        /// Sample variance, kept for the difference.
        var variance: Double
    }

    /// The metric measured.
    public var metric: String
    /// In the experiment's variant order (the first is the control), then variants seen only in
    /// exposures (renamed or removed since), by name.
    public var variants: [Variant]

    /// The z value of a two-sided 95 % interval.
    static let z = 1.959_963_984_540_054

    /// Results from per-user values; `order` is the experiment's variant order.
    public init(metric: String, order: [String], values: [(user: String, variant: String, value: Double)]) {
        self.metric = metric
        var byVariant: [String: [Double]] = [:]
        for row in values { byVariant[row.variant, default: []].append(row.value) }
        let names = order + byVariant.keys.filter { !order.contains($0) }.sorted()
        var variants: [Variant] = names.map { name in
            let sample = byVariant[name] ?? []
            let n = Double(sample.count)
            let mean = sample.isEmpty ? 0 : sample.reduce(0, +) / n
            let variance = sample.count < 2 ? 0 : sample.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
            let half = sample.count < 2 ? nil : Self.z * (variance / n).squareRoot()
            return Variant(
                name: name, users: sample.count, mean: mean, interval: half.map { (mean - $0)...(mean + $0) }, variance: variance)
        }
        if let control = variants.first, control.users >= 2 {
            for index in variants.indices.dropFirst() where variants[index].users >= 2 {
                let other = variants[index]
                let difference = other.mean - control.mean
                let half = Self.z * (other.variance / Double(other.users) + control.variance / Double(control.users)).squareRoot()
                variants[index].difference = (difference, (difference - half)...(difference + half))
            }
        }
        self.variants = variants
    }

}

extension ExperimentStore {
    /// `experiment`'s results on `metric`, from the exposures and the metric's own query, read in
    /// one snapshot.
    public func results(for experiment: String, metric: ExperimentMetric) async throws -> ExperimentResults {
        let order = try await self.experiment(experiment)?.variants.map(\.name) ?? []
        let values = try await store.read { database in try await metric.values(experiment, database) }
        return ExperimentResults(metric: metric.name, order: order, values: values)
    }
}

extension ExperimentResults {
    /// The z value of 80 % power.
    static let powerZ = 0.841_621_233_572_914

    /// About how many users each variant needs for a difference of `effect` (in the metric's
    /// units) to the control to show at 95 % confidence with 80 % power, from the variance seen
    /// so far (the variants' mean variance); `nil` before two users in some variant, for an
    /// effect that is not positive, or for one so small that no sample will do (over 10¹⁵ users).
    public func usersNeeded(toFind effect: Double) -> Int? {
        guard effect > 0, effect.isFinite else { return nil }
        let measured = variants.filter { $0.users >= 2 }
        guard !measured.isEmpty else { return nil }
        let variance = measured.map(\.variance).reduce(0, +) / Double(measured.count)
        guard variance > 0 else { return 2 }
        let z = Self.z + Self.powerZ
        let needed = (2 * z * z * variance / (effect * effect)).rounded(.up)
        // A tiny effect needs more users than there are numbers for: said as "none that will do".
        guard needed.isFinite, needed < 1e15 else { return nil }
        return Int(needed)
    }

    /// What the figures say, in a sentence: which variants differ clearly from the control (their
    /// interval of the difference excludes 0), or that none does yet.
    public var verdict: String {
        guard let control = variants.first else { return "Nobody has been exposed yet." }
        var clear: [String] = []
        var unclear: [String] = []
        var tooFew: [String] = []
        for variant in variants.dropFirst() {
            guard let (value, interval) = variant.difference else {
                tooFew.append(variant.name)
                continue
            }
            if interval.lowerBound > 0 || interval.upperBound < 0 {
                let direction = value > 0 ? "higher" : "lower"
                clear.append(
                    "\(variant.name) is clearly \(direction) than \(control.name) on \(metric) (by \(String(format: "%.2f", abs(value))); "
                        + "95 % interval \(String(format: "%.2f", interval.lowerBound)) to \(String(format: "%.2f", interval.upperBound)))")
            } else {
                unclear.append(variant.name)
            }
        }
        var sentences: [String] = []
        if !clear.isEmpty { sentences.append(clear.joined(separator: "; ") + ".") }
        if !unclear.isEmpty {
            sentences.append(
                clear.isEmpty
                    ? "No variant differs clearly from \(control.name) on \(metric) yet: \(unclear.joined(separator: ", ")) may be higher or lower."
                    : "Not clear yet: \(unclear.joined(separator: ", ")).")
        }
        if !tooFew.isEmpty { sentences.append("Too few users yet to compare \(tooFew.joined(separator: ", ")) with \(control.name).") }
        return sentences.isEmpty ? "Only \(control.name) has users." : sentences.joined(separator: " ")
    }
}
