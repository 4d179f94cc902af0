import ScreenplayLayoutStore
import Testing

/// Results per variant: means, 95 % intervals and differences to the control, checked against
/// figures worked out by hand.
@Suite("ExperimentResults")
struct ExperimentResultsTests {
    static func values(_ variant: String, _ numbers: [Double]) -> [(user: String, variant: String, value: Double)] {
        numbers.enumerated().map { (user: "\(variant)-\($0.offset)", variant: variant, value: $0.element) }
    }

    @Test("means, intervals and the difference to the control, by the normal approximation")
    func figures() throws {
        // Control 0, 0, 1, 1: mean 0.5, sample variance 1/3, standard error √(1/12) ≈ 0.288675.
        // Variant 1, 1, 2, 2: mean 1.5, same variance; difference 1.0, standard error √(1/6) ≈ 0.408248.
        let results = ExperimentResults(
            metric: "m", order: ["control", "variant"], values: Self.values("control", [0, 0, 1, 1]) + Self.values("variant", [1, 1, 2, 2]))
        let control = results.variants[0]
        let variant = results.variants[1]
        #expect(control.name == "control" && control.users == 4 && control.mean == 0.5)
        let half = 1.959964 * 0.288675
        #expect(abs(try #require(control.interval).lowerBound - (0.5 - half)) < 1e-4)
        #expect(abs(try #require(control.interval).upperBound - (0.5 + half)) < 1e-4)
        #expect(control.difference == nil, "the control is the baseline")
        let difference = try #require(variant.difference)
        #expect(abs(difference.value - 1.0) < 1e-9)
        #expect(abs(difference.interval.lowerBound - (1.0 - 1.959964 * 0.408248)) < 1e-4)
        #expect(abs(difference.interval.upperBound - (1.0 + 1.959964 * 0.408248)) < 1e-4)
    }

    @Test("variants in the experiment's order, unseen ones with nobody, removed ones after; below two users no interval")
    func orderAndSmallSamples() {
        let results = ExperimentResults(
            metric: "m", order: ["a", "b", "c"], values: Self.values("b", [3]) + Self.values("old", [1, 2]) + Self.values("a", [1, 1]))
        #expect(results.variants.map(\.name) == ["a", "b", "c", "old"])
        #expect(results.variants.map(\.users) == [2, 1, 0, 2])
        #expect(results.variants[1].interval == nil && results.variants[1].difference == nil)
        #expect(results.variants[2].mean == 0)
        // A control with no spread still gives an interval of zero width, not a failure.
        #expect(results.variants[0].interval == 1.0...1.0)
        #expect(results.variants[3].difference?.value == 0.5)
    }
}
