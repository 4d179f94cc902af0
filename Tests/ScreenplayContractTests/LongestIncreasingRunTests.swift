import ScreenplayContract
import Testing

@Suite("Longest increasing run")
struct LongestIncreasingRunTests {
    @Test("a longest strictly increasing run, by index, for sequences where the answer is known")
    func known() {
        #expect(LongestIncreasingRun.indices([]) == [])
        #expect(LongestIncreasingRun.indices([7]) == [0])
        #expect(LongestIncreasingRun.indices([0, 1, 2, 3]) == [0, 1, 2, 3], "nothing moved")
        #expect(LongestIncreasingRun.indices([3, 2, 1, 0]).count == 1, "reversed: one stays")
        // One moved to the front: the rest stay.
        #expect(LongestIncreasingRun.indices([3, 0, 1, 2]) == [1, 2, 3])
        #expect(LongestIncreasingRun.indices([2, 2, 2]).count == 1, "strictly increasing")
    }

    @Test("on random sequences the run increases, and no longer one exists (checked by the quadratic algorithm)")
    func random() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let values = (0..<Int.random(in: 0...40, using: &generator)).map { _ in Int.random(in: 0...30, using: &generator) }
            let run = LongestIncreasingRun.indices(values)
            #expect(zip(run, run.dropFirst()).allSatisfy { $0 < $1 && values[$0] < values[$1] }, "\(values)")
            var best = [Int](repeating: 1, count: values.count)
            for end in values.indices { for start in 0..<end where values[start] < values[end] { best[end] = max(best[end], best[start] + 1) } }
            #expect(run.count == (best.max() ?? 0), "\(values)")
        }
    }
}
