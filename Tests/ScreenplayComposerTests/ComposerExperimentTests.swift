import Foundation
import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer
import ScreenplayTestSupport
import Testing

/// The bucketing hash written out again from its published definition, independently of
/// `StableHash`: FNV-1a 64, then the splitmix64 finalizer, then Lemire's multiply-shift onto the
/// weights laid end to end.
private enum ReferenceBucketing {
    static func fnv(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(14_695_981_039_346_656_037 as UInt64) { hash, byte in (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
    }

    static func splitmix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 13_787_848_793_156_543_929
        z = (z ^ (z >> 27)) &* 10_723_151_780_598_845_931
        return z ^ (z >> 31)
    }

    static func variant(key: String, user: String, weights: [(String, Int)]) -> String {
        let hash = splitmix(fnv(Array(key.utf8) + [0] + Array(user.utf8)))
        let total = weights.reduce(0) { $0 + $1.1 }
        var point = Int(hash.multipliedFullWidth(by: UInt64(total)).high)
        for (name, weight) in weights {
            if point < weight { return name }
            point -= weight
        }
        return "unreachable"
    }
}

/// Pearson's chi-square statistic of observed counts against expected ones.
private func chiSquare(observed: [Int], expected: [Double]) -> Double {
    zip(observed, expected).reduce(0) { sum, pair in sum + (Double(pair.0) - pair.1) * (Double(pair.0) - pair.1) / pair.1 }
}

@Suite("Composer: experiments and bucketing")
struct ComposerExperimentTests {
    static let checkout = Experiment(
        key: "checkout-button", variants: [.init("control", weight: 50), .init("green", weight: 30), .init("blue", weight: 20)])
    static let users = (0..<100_000).map { "user-\($0)" }

    @Test("the hash's parts match their published test vectors")
    func vectors() {
        // FNV-1a 64 (from the FNV reference test suite).
        #expect(StableHash.fnv1a64([UInt8]()) == 0xcbf2_9ce4_8422_2325)
        #expect(StableHash.fnv1a64(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
        #expect(StableHash.fnv1a64(Array("foobar".utf8)) == 0x8594_4171_f739_67e8)
        // The first output of splitmix64 seeded with 0 is the finalizer of the golden gamma.
        #expect(StableHash.mix(0x9e37_79b9_7f4a_7c15) == 0xe220_a839_7b1d_cdaf)
    }

    @Test("buckets are the same in every process: values computed by an independent implementation")
    func acrossProcesses() {
        // Computed outside Swift (a Python implementation of the same definition), so a change to
        // the algorithm, its byte order or its seed fails here even if it is self-consistent.
        let expected: [(String, UInt64, String)] = [
            ("user-1", 0x92c3_64b1_fc04_585e, "green"), ("user-2", 0x8d02_f6ac_5d5d_adb4, "green"),
            ("user-3", 0xe3b0_3653_dde5_5a47, "blue"), ("alice", 0x5107_e00d_749a_6133, "control"),
            ("bob", 0xcd3c_044f_cc4b_97c2, "blue"), ("42", 0x6227_7394_d4d5_091e, "control"),
        ]
        for (user, hash, variant) in expected {
            #expect(StableHash.bucketingHash(experimentKey: "checkout-button", userID: user) == hash, "\(user)")
            #expect(Self.checkout.bucket(of: user) == variant, "\(user)")
        }
    }

    @Test("the same user always gets the same variant, and the reference implementation agrees")
    func stable() {
        let weights = Self.checkout.variants.map { ($0.name, $0.weight) }
        for user in Self.users.prefix(2_000) {
            let first = Self.checkout.bucket(of: user)
            #expect(Self.checkout.bucket(of: user) == first)
            #expect(first == ReferenceBucketing.variant(key: "checkout-button", user: user, weights: weights))
        }
    }

    /// The statistic is deterministic (fixed users, fixed hash), so the test cannot flake: it
    /// either always passes or shows a real bias. The threshold is the 99.9th percentile of the
    /// chi-square distribution with (variants − 1) degrees of freedom: a uniform, unbiased hash
    /// would exceed it for one chosen set of users with probability 0.1 %, while a real bias of
    /// even one percentage point over 100 000 users gives a statistic in the dozens or hundreds.
    @Test(
        "the split over 100 000 users matches the weights (chi-square below the p = 0.001 critical value)",
        arguments: [
            ([50, 30, 20], 13.816),
            ([1, 1, 1, 1], 16.266),
            ([90, 10], 10.828),
            ([1, 0, 1], 10.828),  // a zero weight takes nobody; df = 1 over the two live variants
        ])
    func split(weights: [Int], critical: Double) {
        let experiment = Experiment(key: "split", variants: weights.enumerated().map { .init("v\($0.offset)", weight: $0.element) })
        var counts: [String: Int] = [:]
        for user in Self.users { counts[experiment.bucket(of: user) ?? "none", default: 0] += 1 }
        let live = weights.enumerated().filter { $0.element > 0 }
        let total = Double(weights.reduce(0, +))
        let statistic = chiSquare(
            observed: live.map { counts["v\($0.offset)"] ?? 0 },
            expected: live.map { Double(Self.users.count) * Double($0.element) / total })
        #expect(statistic < critical, "\(counts)")
        for (index, weight) in weights.enumerated() where weight == 0 { #expect(counts["v\(index)"] == nil) }
    }

    @Test("two experiments split users independently, and renaming one reshuffles only it")
    func independence() {
        let half = [Experiment.Variant("a", weight: 1), .init("b", weight: 1)]
        let first = Experiment(key: "first", variants: half)
        let second = Experiment(key: "second", variants: half)
        let renamed = Experiment(key: "first-v2", variants: half)
        var joint: [String: Int] = [:]
        var agreeing = 0
        for user in Self.users {
            let a = first.bucket(of: user) ?? "?"
            joint[a + (second.bucket(of: user) ?? "?"), default: 0] += 1
            if renamed.bucket(of: user) == a { agreeing += 1 }
        }
        // 2×2 contingency table: each cell expects a quarter; df = 1, p = 0.001 → 10.828.
        let statistic = chiSquare(observed: ["aa", "ab", "ba", "bb"].map { joint[$0] ?? 0 }, expected: Array(repeating: 25_000, count: 4))
        #expect(statistic < 10.828, "\(joint)")
        // A renamed experiment agrees with the old one by chance only: half the time, ± 1 %.
        #expect((49_000...51_000).contains(agreeing), "\(agreeing)")
        // The other experiment is untouched by the rename.
        #expect(Self.users.prefix(1000).allSatisfy { second.bucket(of: $0) == Experiment(key: "second", variants: half).bucket(of: $0) })
    }

    @Test("only users in the target segment, inside the window, with an id, get a variant")
    func eligibility() {
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        let experiment = Experiment(
            key: "beta-hero", variants: [.init("a", weight: 1), .init("b", weight: 1)], targetSegment: "beta", start: start,
            stop: start + 86_400)
        let inside = start + 3600
        #expect(experiment.variant(for: "u1", segments: ["beta"], at: inside) == experiment.bucket(of: "u1"))
        #expect(experiment.variant(for: "u1", segments: ["beta"], at: inside) != nil)
        #expect(experiment.variant(for: "u1", segments: ["staff"], at: inside) == nil)
        #expect(experiment.variant(for: "u1", segments: [], at: inside) == nil)
        #expect(experiment.variant(for: "u1", segments: ["beta"], at: start - 1) == nil)
        #expect(experiment.variant(for: "u1", segments: ["beta"], at: start) != nil, "the start is inclusive")
        #expect(experiment.variant(for: "u1", segments: ["beta"], at: start + 86_400) == nil, "the stop is exclusive")
        #expect(experiment.variant(for: nil, segments: ["beta"], at: inside) == nil)
        let everyone = Experiment(key: "all", variants: [.init("only", weight: 3)])
        #expect(everyone.variant(for: "u1", segments: [], at: .distantFuture) == "only")
        #expect(Experiment(key: "off", variants: [.init("a", weight: 0)]).bucket(of: "u1") == nil)
    }

    @Test("an experiment's problems are named with paths")
    func problems() {
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        let broken = Experiment(
            key: "has space", variants: [.init("a", weight: -1), .init("a", weight: 0), .init("", weight: 0)], start: start, stop: start)
        #expect(
            broken.problems.map(\.path) == [
                "$.key", "$.variants[0].weight", "$.variants[1].name", "$.variants[2].name", "$.variants", "$.stop",
            ])
        #expect(Self.checkout.problems.isEmpty)
        #expect(Experiment(key: "empty", variants: []).problems.map(\.path) == ["$.variants"])
    }

    @Test("variant names are identifiers (conditions write them as key=a|b) and segments names, not paragraphs")
    func hostileNames() {
        let long = String(repeating: "x", count: 10_000)
        let odd = Experiment(
            key: "names", variants: [.init("ok-name", weight: 1), .init("a|b", weight: 1), .init("x=y", weight: 1), .init(long, weight: 1)],
            targetSegment: long)
        #expect(odd.problems.map(\.path) == ["$.variants[1].name", "$.variants[2].name", "$.variants[3].name", "$.targetSegment"])
        #expect(odd.problems[0].message == "'a|b' is not a variant name: 1...64 of A-Z a-z 0-9 . _ : / ~ -")
        #expect(odd.problems[3].message == "a segment name of 10000 characters; at most 128")
        let conditions = WidgetConditions(segments: ["beta", long])
        #expect(conditions.problems(at: "$.c", experiments: nil).map(\.path) == ["$.c.segments"])
    }

    @Test("hostile weights are refused with their paths and never overflow bucketing")
    func hostileWeights() {
        let huge = Experiment(key: "big", variants: [.init("a", weight: .max), .init("b", weight: .max)])
        #expect(huge.problems.map(\.path) == ["$.variants[0].weight", "$.variants[1].weight"])
        #expect(huge.totalWeight == 2 * Experiment.maximumWeight)
        let buckets = Set((0..<200).compactMap { huge.bucket(of: "user-\($0)") })
        #expect(buckets == ["a", "b"], "an unchecked definition still buckets, each weight counted up to the maximum")
        let many = Experiment(key: "many", variants: (0...Experiment.maximumVariants).map { .init("v\($0)", weight: 1) })
        #expect(many.problems.map(\.path) == ["$.variants"])
    }

    @Test("experiments round-trip through JSON with ISO 8601 dates")
    func coding() throws {
        let experiment = Experiment(
            key: "k", variants: [.init("a", weight: 2)], targetSegment: "beta", start: Date(timeIntervalSince1970: 1_750_000_000))
        let data = try ScreenplayEncoder().encode(experiment)
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"key":"k","start":"2025-06-15T15:06:40Z","targetSegment":"beta","variants":[{"name":"a","weight":2}]}"#)
        #expect(try JSONDecoder().decode(Experiment.self, from: data) == experiment)
    }

    @Test("a first exposure is recorded once per user, experiment and variant; the report counts users per variant")
    func exposures() async throws {
        let recorder = InMemoryExposureRecorder()
        let at = Date(timeIntervalSince1970: 1_750_000_000)
        #expect(try await recorder.recordFirstExposure(.init(userID: "u1", experiment: "e", variant: "a", at: at)))
        #expect(try await !recorder.recordFirstExposure(.init(userID: "u1", experiment: "e", variant: "a", at: at + 60)))
        #expect(try await recorder.recordFirstExposure(.init(userID: "u2", experiment: "e", variant: "b", at: at)))
        #expect(try await recorder.recordFirstExposure(.init(userID: "u3", experiment: "e", variant: "a", at: at)))
        #expect(try await recorder.recordFirstExposure(.init(userID: "u1", experiment: "other", variant: "a", at: at)))
        #expect(recorder.exposureCounts(for: "e") == ["a": 2, "b": 1])
        #expect(recorder.exposures(to: "e").first { $0.userID == "u1" }?.at == at, "the first exposure's time is kept")
    }

    @Test("recording is safe under concurrency: 50 tasks, one user, one record")
    func concurrentExposures() async throws {
        let recorder = InMemoryExposureRecorder()
        let firsts = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    (try? await recorder.recordFirstExposure(.init(userID: "u", experiment: "e", variant: "a", at: .now))) ?? false
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(firsts == 1)
        #expect(recorder.exposureCounts(for: "e") == ["a": 1])
    }
}
