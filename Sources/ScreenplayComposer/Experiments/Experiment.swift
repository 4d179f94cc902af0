public import Foundation
import ScreenplayContract

/// An A/B (or A/B/n) test: users are split over ``variants`` by weight, deterministically, while
/// the experiment runs and only within its target segment.
///
/// Page templates name a variant in a widget's conditions (`experiment: {key, variants}`), so the
/// same template shows one widget to users in `treatment` and another to users in `control`. A
/// user's variant comes from ``StableHash/bucketingHash(experimentKey:userID:)``: the same user
/// gets the same variant on every request, on every replica and after every restart, and two
/// experiments split users independently because each hashes its own key.
///
/// Stored as JSON (dates in ISO 8601), so the store can keep experiments as documents.
public struct Experiment: Codable, Sendable, Hashable, Identifiable {
    /// One arm of the experiment and its share of users.
    public struct Variant: Codable, Sendable, Hashable {
        /// The name conditions refer to (`control`, `treatment`).
        public var name: String
        /// Its relative share: weights 1, 1, 2 give 25 %, 25 %, 50 %. Zero turns a variant off
        /// without renumbering the others.
        public var weight: Int

        /// A variant with its weight.
        public init(_ name: String, weight: Int) {
            self.name = name
            self.weight = weight
        }
    }

    /// Stable key, the experiment's identity in conditions, exposures and bucketing. Renaming it
    /// reshuffles every user, so it is fixed once the experiment has started.
    public var key: String
    /// The arms, in a fixed order: bucketing walks them in this order, so reordering moves users.
    public var variants: [Variant]
    /// Only users in this segment take part; `nil` means everyone.
    public var targetSegment: String?
    /// Users take part from this instant on (inclusive); `nil` means from the start.
    public var start: Date?
    /// Users take part until this instant (exclusive); `nil` means until it is removed.
    public var stop: Date?

    /// Declares an experiment.
    public init(key: String, variants: [Variant], targetSegment: String? = nil, start: Date? = nil, stop: Date? = nil) {
        self.key = key
        self.variants = variants
        self.targetSegment = targetSegment
        self.start = start
        self.stop = stop
    }

    /// The key.
    public var id: String { key }

    /// The largest weight a variant may have: a million arms of one per mille is finer than any
    /// experiment needs, and the sum of the weights of ``maximumVariants`` variants stays far from
    /// overflowing.
    public static let maximumWeight = 1_000_000
    /// The most variants an experiment may have.
    public static let maximumVariants = 64
    /// The longest segment name: a name an app gives a group of users, not a paragraph.
    public static let maximumSegmentLength = 128

    /// The sum of the positive weights, each counted up to ``maximumWeight`` (so no definition,
    /// however hostile, overflows it); no user is bucketed when it is zero.
    public var totalWeight: Int { variants.reduce(0) { $0 &+ Self.effectiveWeight($1.weight) } }

    /// A weight as bucketing counts it: negative is zero, and above ``maximumWeight`` is the
    /// maximum (``problems`` refuses both before an experiment is stored).
    static func effectiveWeight(_ weight: Int) -> Int { min(max(0, weight), maximumWeight) }

    /// Whether the experiment runs at `now`: `start ≤ now < stop`.
    public func isRunning(at now: Date) -> Bool {
        if let start, now < start { return false }
        if let stop, now >= stop { return false }
        return true
    }

    /// The variant of `userID`, whether or not the user is eligible: the point
    /// `bucketingHash(key, userID)` falls on when the weights are laid end to end. `nil` only
    /// when no variant has a positive weight.
    public func bucket(of userID: String) -> String? {
        let total = totalWeight
        guard total > 0 else { return nil }
        var point = StableHash.point(of: StableHash.bucketingHash(experimentKey: key, userID: userID), in: total)
        for variant in variants where variant.weight > 0 {
            let weight = Self.effectiveWeight(variant.weight)
            if point < weight { return variant.name }
            point -= weight
        }
        return nil
    }

    /// The variant a user sees at `now`: their bucket when the experiment runs and they are in its
    /// target segment, else `nil` (they see what users outside any experiment see). Anonymous
    /// users (no id) never take part: they have nothing stable to be bucketed by.
    public func variant(for userID: String?, segments: Set<String>, at now: Date) -> String? {
        guard let userID, isRunning(at: now) else { return nil }
        if let targetSegment, !segments.contains(targetSegment) { return nil }
        return bucket(of: userID)
    }

    /// What makes the experiment unusable or surprising, each with its JSON path: a key that is
    /// not an identifier, no variants or too many, duplicate or empty variant names, negative
    /// weights or weights over ``maximumWeight``, no positive weight, a stop not after the start.
    public var problems: [TemplateProblem] {
        var problems: [TemplateProblem] = []
        if !ValueRules.isIdentifier(key, maximum: ValueRules.Key.maximum) {
            problems.append(.init(path: "$.key", message: "'\(key.prefix(40))' is not a key: 1...64 of A-Z a-z 0-9 . _ : / ~ -"))
        } else if key.allSatisfy({ $0 == "." }) {
            problems.append(.init(path: "$.key", message: PageTemplate.dotsMessage(key)))
        }
        if variants.isEmpty { problems.append(.init(path: "$.variants", message: "an experiment needs at least one variant")) }
        if variants.count > Self.maximumVariants {
            problems.append(
                .init(path: "$.variants", message: "\(variants.count) variants; an experiment has at most \(Self.maximumVariants)"))
        }
        var seen: Set<String> = []
        for (index, variant) in variants.enumerated() {
            let path = "$.variants[\(index)]"
            if variant.name.isEmpty {
                problems.append(.init(path: path + ".name", message: "a variant needs a name"))
            } else if !ValueRules.isIdentifier(variant.name, maximum: ValueRules.Key.maximum) {
                // Conditions write variants as `key=a|b`: a name is an identifier, like the key.
                problems.append(
                    .init(path: path + ".name", message: "'\(variant.name.prefix(40))' is not a variant name: 1...64 of A-Z a-z 0-9 . _ : / ~ -"))
            }
            if !seen.insert(variant.name).inserted {
                problems.append(.init(path: path + ".name", message: "duplicate variant '\(variant.name)'"))
            }
            if variant.weight < 0 {
                problems.append(.init(path: path + ".weight", message: "weight \(variant.weight) is negative; use 0 to turn a variant off"))
            } else if variant.weight > Self.maximumWeight {
                problems.append(
                    .init(path: path + ".weight", message: "weight \(variant.weight) is over the maximum of \(Self.maximumWeight)"))
            }
        }
        if !variants.isEmpty && totalWeight == 0 {
            problems.append(.init(path: "$.variants", message: "no variant has a positive weight: nobody would be bucketed"))
        }
        if let targetSegment, targetSegment.count > Self.maximumSegmentLength {
            problems.append(
                .init(path: "$.targetSegment", message: "a segment name of \(targetSegment.count) characters; at most \(Self.maximumSegmentLength)"))
        }
        if let start, let stop, stop <= start {
            problems.append(.init(path: "$.stop", message: "the experiment stops (\(stop.formatted(.iso8601))) before or when it starts (\(start.formatted(.iso8601)))"))
        }
        return problems
    }

    enum CodingKeys: String, CodingKey { case key, variants, targetSegment, start, stop }

    /// Reads an experiment; dates are ISO 8601 strings.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // May be left out where the key is given elsewhere (the admin API's URL); `problems`
        // refuses an empty key.
        key = try container.decodeIfPresent(String.self, forKey: .key) ?? ""
        variants = try container.decode([Variant].self, forKey: .variants)
        targetSegment = try container.decodeIfPresent(String.self, forKey: .targetSegment)
        start = try container.decodeISO8601IfPresent(forKey: .start)
        stop = try container.decodeISO8601IfPresent(forKey: .stop)
    }

    /// Writes an experiment; dates as ISO 8601 strings, absent members left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(variants, forKey: .variants)
        try container.encodeIfPresent(targetSegment, forKey: .targetSegment)
        try container.encodeISO8601IfPresent(start, forKey: .start)
        try container.encodeISO8601IfPresent(stop, forKey: .stop)
    }
}

/// The experiments in force, by key: what a ``CompositionContext`` asks for a user's variant.
public struct ExperimentCatalog: Sendable, Hashable {
    /// The experiments, by key.
    public private(set) var experiments: [String: Experiment]

    /// A catalog of `experiments`; a repeated key keeps the last one.
    public init(_ experiments: [Experiment] = []) {
        self.experiments = Dictionary(experiments.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// The experiment with `key`.
    public subscript(key: String) -> Experiment? { experiments[key] }

    /// Adds or replaces an experiment.
    public mutating func insert(_ experiment: Experiment) { experiments[experiment.key] = experiment }
}

// MARK: Dates in stored JSON

extension KeyedDecodingContainer {
    /// An ISO 8601 date (`2025-03-01T09:00:00Z`), or `nil` when absent or null. Stored documents
    /// use text rather than `JSONEncoder`'s default seconds since 2001, so a person can read them.
    func decodeISO8601IfPresent(forKey key: Key) throws -> Date? {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
        do {
            return try Date(text, strategy: .iso8601)
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "'\(text.prefix(40))' is not an ISO 8601 date such as 2025-03-01T09:00:00Z")
        }
    }
}

extension KeyedEncodingContainer {
    /// Writes `date` as ISO 8601 text when present.
    mutating func encodeISO8601IfPresent(_ date: Date?, forKey key: Key) throws {
        guard let date else { return }
        try encode(date.formatted(.iso8601), forKey: key)
    }
}
