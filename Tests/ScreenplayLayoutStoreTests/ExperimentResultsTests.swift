import ScreenplayComposer
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

    @Test("the users needed for an effect: 2 (z₀.₉₇₅ + z₀.₈)² σ² / δ², from the variants' mean variance")
    func usersNeeded() throws {
        // Both variants' sample variance is 1/3: for δ = 0.5, 2 × 7.8489 × (1/3) / 0.25 ≈ 20.93 → 21.
        let results = ExperimentResults(
            metric: "m", order: ["control", "variant"], values: Self.values("control", [0, 0, 1, 1]) + Self.values("variant", [1, 1, 2, 2]))
        #expect(results.usersNeeded(toFind: 0.5) == 21)
        #expect(results.usersNeeded(toFind: 0.25) == 84, "a half as large effect needs four times the users")
        #expect(results.usersNeeded(toFind: 0) == nil && results.usersNeeded(toFind: -1) == nil && results.usersNeeded(toFind: .nan) == nil)
        #expect(ExperimentResults(metric: "m", order: ["a"], values: Self.values("a", [1])).usersNeeded(toFind: 1) == nil, "one user says nothing")
    }

    @Test("the verdict says in words which variant differs clearly, or that none does yet")
    func verdict() {
        let clear = ExperimentResults(
            metric: "offers opened", order: ["control", "banner"],
            values: Self.values("control", Array(repeating: 0, count: 50) + Array(repeating: 1, count: 50))
                + Self.values("banner", Array(repeating: 1, count: 90) + Array(repeating: 0, count: 10)))
        #expect(clear.verdict.hasPrefix("banner is clearly higher than control on offers opened (by 0.40; 95 % interval"), "\(clear.verdict)")
        let unclear = ExperimentResults(
            metric: "m", order: ["control", "banner"], values: Self.values("control", [0, 1, 0, 1]) + Self.values("banner", [1, 0, 1, 0]))
        #expect(unclear.verdict == "No variant differs clearly from control on m yet: banner may be higher or lower.")
        #expect(ExperimentResults(metric: "m", order: ["control", "b"], values: []).verdict == "Too few users yet to compare b with control.")
    }

    @Test("rolling out a variant shows its widgets to everyone, removes the other variants' and leaves the rest")
    func rollingOut() {
        func widget(_ id: String, _ variants: Set<String>?, key: String = "exp") -> WidgetInstance {
            var conditions = WidgetConditions()
            conditions.experiment = variants.map { ExperimentCondition(key: key, variants: $0) }
            return WidgetInstance(id: id, kind: "banner", vertical: "v", conditions: conditions)
        }
        let page = PageTemplate(
            route: "shop", title: "Shop", revision: 1,
            sections: [
                .init(id: "a", widgets: [widget("plain", nil), widget("b-only", ["b"]), widget("c-only", ["c"]), widget("b-or-c", ["b", "c"])]),
                .init(id: "z", widgets: [widget("other-exp", ["c"], key: "other")]),
            ])
        let rolled = page.rollingOut("b", of: "exp")
        #expect(rolled.kept == ["b-only", "b-or-c"])
        #expect(rolled.removed == ["c-only"])
        #expect(rolled.template.instances.map(\.id) == ["plain", "b-only", "b-or-c", "other-exp"])
        let stillNamed = rolled.template.instances.filter { instance in instance.conditions.experiment.map { $0.key == "exp" } ?? false }
        #expect(stillNamed.isEmpty)
        #expect(rolled.template.instances.last.flatMap { $0.conditions.experiment?.key } == "other", "another experiment's widget is left alone")
    }
}
