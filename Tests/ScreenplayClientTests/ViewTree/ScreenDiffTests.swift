import ScreenplayClient
import ScreenplayContract
import Testing

/// The keyed diff: exact on small cases, and on random edits of a 500-node tree applying the diff
/// to the old tree gives the new one.
@Suite("ScreenDiff: what changed between two trees, by node id")
struct ScreenDiffTests {
    /// SplitMix64: the same sequence for the same seed, so a failing case can be replayed.
    struct Random: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
    }

    static func node(_ id: String, _ text: String = "", _ children: [ViewNode] = []) -> ViewNode {
        ViewNode(id: NodeID(rawValue: id), role: children.isEmpty ? .text : .stack, text: text, children: children)
    }

    static let list = node("screen", "", [node("a", "A"), node("b", "B"), node("c", "C"), node("d", "D")])

    @Test("equal trees: an empty diff, every node unchanged")
    func equal() {
        let diff = ScreenDiff(from: Self.list, to: Self.list)
        #expect(diff.isEmpty)
        #expect(diff.unchanged == 5)
        #expect(diff.applied(to: Self.list) == Self.list)
    }

    @Test("an updated field names the node and the field, nothing else")
    func update() throws {
        var new = Self.list
        new.children[2].text = "C2"
        new.children[2].secondaryText = "sub"
        let diff = ScreenDiff(from: Self.list, to: new)
        #expect(diff.updated.keys.sorted() == ["c"])
        #expect(try #require(diff.updated["c"]).fields == [.text, .secondaryText])
        #expect(diff.inserted.isEmpty && diff.removed.isEmpty && diff.moved.isEmpty && diff.childOrder.isEmpty)
        #expect(diff.unchanged == 4)
        #expect(diff.applied(to: Self.list) == new)
    }

    @Test("inserted and removed nodes leave their neighbours alone; a move is only the node that moved")
    func insertRemoveMove() {
        var new = Self.list
        new.children.insert(Self.node("e", "E"), at: 1)
        new.children.removeAll { $0.id == "c" }
        let diff = ScreenDiff(from: Self.list, to: new)
        #expect(Array(diff.inserted.keys) == ["e"])
        #expect(diff.removed == ["c"])
        #expect(diff.moved.isEmpty, "a, b and d kept their order")
        #expect(diff.updated.isEmpty)
        #expect(diff.applied(to: Self.list) == new)

        var moved = Self.list
        moved.children.insert(moved.children.removeLast(), at: 0)
        let move = ScreenDiff(from: Self.list, to: moved)
        #expect(move.moved == ["d"])
        #expect(move.childOrder["screen"] == ["d", "a", "b", "c"])
        #expect(move.applied(to: Self.list) == moved)
    }

    @Test("resolved screens: a refreshed screen with one row changed and one added")
    func resolved() {
        func screen(_ titles: [String]) -> ViewNode {
            ViewTreeResolver().resolve(
                Screen(
                    id: "s", title: "S",
                    sections: [
                        ScreenSection(
                            id: "rows",
                            components: titles.map { .listRow(.init(title: $0, action: .navigate(.init(url: "screens/\($0.prefix(1))")))) })
                    ])
            ).root
        }
        let old = screen(["a one", "b two", "c three"])
        let new = screen(["a one", "b two!", "c three", "d four"])
        let diff = ScreenDiff(from: old, to: new)
        #expect(diff.updated.count == 1 && diff.updated.values.first?.fields == [.text, .accessibility])
        #expect(diff.inserted.count == 1)
        #expect(diff.removed.isEmpty && diff.moved.isEmpty)
        #expect(diff.applied(to: old) == new)
    }

    /// A random tree of `count` nodes, up to five levels deep.
    static func tree(_ count: Int, _ random: inout Random) -> ViewNode {
        var next = 0
        func make(_ depth: Int, _ budget: Int) -> ViewNode {
            next += 1
            let id = "n\(next)"
            guard depth < 5, budget > 1 else { return node(id, "t\(Int.random(in: 0..<9, using: &random))") }
            var children: [ViewNode] = []
            var left = budget - 1
            while left > 0 {
                let size = min(left, Int.random(in: 1...max(1, left / 2 + 1), using: &random))
                children.append(make(depth + 1, size))
                left -= size
            }
            return node(id, "", children)
        }
        return make(0, count)
    }

    /// Every node's path of child indexes, parents before children.
    static func paths(_ node: ViewNode, _ prefix: [Int] = []) -> [[Int]] {
        [prefix] + node.children.enumerated().flatMap { paths($1, prefix + [$0]) }
    }

    static func edit(_ node: inout ViewNode, at path: ArraySlice<Int>, _ change: (inout ViewNode) -> Void) {
        guard let first = path.first else { return change(&node) }
        edit(&node.children[first], at: path.dropFirst(), change)
    }

    @Test("random edits of a 500-node tree: the diff applied to the old tree gives the new", arguments: 0..<60)
    func randomEdits(seed: Int) {
        var random = Random(state: UInt64(seed) &* 7919 &+ 1)
        let old = Self.tree(500, &random)
        var new = old
        var fresh = 0
        for _ in 0..<Int.random(in: 1...12, using: &random) {
            let paths = Self.paths(new)
            let path = paths[Int.random(in: 0..<paths.count, using: &random)]
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                Self.edit(&new, at: path[...]) { $0.text = ($0.text ?? "") + "!" }
            case 1:
                fresh += 1
                Self.edit(&new, at: path[...]) { node in
                    node.children.insert(Self.node("new\(fresh)", "x"), at: Int.random(in: 0...node.children.count, using: &random))
                }
            case 2 where !path.isEmpty:
                Self.edit(&new, at: path.dropLast()) { $0.children.remove(at: path.last!) }
            case 3:
                Self.edit(&new, at: path[...]) { node in
                    guard node.children.count > 1 else { return }
                    let from = Int.random(in: 0..<node.children.count, using: &random)
                    let child = node.children.remove(at: from)
                    node.children.insert(child, at: Int.random(in: 0...node.children.count, using: &random))
                }
            default:
                Self.edit(&new, at: path[...]) { $0.icon = $0.icon == nil ? "heart" : nil }
            }
        }
        let diff = ScreenDiff(from: old, to: new)
        #expect(diff.applied(to: old) == new, "seed \(seed)")
        #expect(diff.isEmpty == (old == new))
        #expect(ScreenDiff(from: new, to: new).isEmpty)
    }
}
