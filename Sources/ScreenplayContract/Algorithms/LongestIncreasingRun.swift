/// The one longest-increasing-subsequence of the project: what stayed in place when a list was
/// reordered is the longest run of kept items still in their old relative order; the others
/// moved. Used by the client's screen diff (which rows moved) and the layout store's template
/// diff (which widgets a draft moved). `package`: a tool of these modules, not contract API.
package enum LongestIncreasingRun {
    /// The indices of one longest strictly increasing run of `values`, O(n log n) (patience
    /// sorting): of several of equal length, the one ending at the smallest value.
    package static func indices(_ values: [Int]) -> [Int] {
        var tails: [Int] = []  // index into `values` of the smallest tail of each run length
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: [Int] = []
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            run.append(cursor)
            cursor = previous[cursor]
        }
        return run.reversed()
    }
}
