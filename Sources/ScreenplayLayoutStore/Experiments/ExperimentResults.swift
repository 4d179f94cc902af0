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
