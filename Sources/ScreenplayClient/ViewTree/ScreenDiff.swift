import ScreenplayContract

/// What changed between two resolved trees of one screen, node by node, keyed by ``NodeID``:
/// which nodes were inserted, removed, moved among their siblings, and updated (and in which
/// fields); everything else is unchanged. Renderers apply only what changed: a row whose text
/// changed is redrawn, the rest keep their views, their scroll and their focus.
///
/// Ids are unique within a resolved tree (the resolver makes them so) and follow what a component
/// is, not where it stands, so an inserted row does not make its neighbours "changed". A node
/// that moved to another parent is a removal and an insertion. Two equal trees (a 304, a refresh
/// that changed nothing) give an empty diff without walking them.
public struct ScreenDiff: Sendable, Hashable {
    /// A node's contents (all but its children) that can change.
    public enum Field: String, Sendable, Hashable, CaseIterable, Comparable {
        case role, text, secondaryText, details, paragraphs, icon, style, image, action, accessibility, customKind, customData, field, toggle
        case pending

        /// Orders by name, for stable output.
        public static func < (lhs: Field, rhs: Field) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// A node whose contents changed: the new node (its children are not part of the update) and
    /// the fields that differ.
    public struct Update: Sendable, Hashable {
        /// The node as it is now, without children.
        public var node: ViewNode
        /// What differs from before.
        public var fields: Set<Field>
    }

    /// Subtrees that are new, by their root's id (whole, with their children).
    public private(set) var inserted: [NodeID: ViewNode] = [:]
    /// Subtrees that are gone, by their root's id.
    public private(set) var removed: Set<NodeID> = []
    /// Nodes still under the same parent whose place among their siblings changed (beyond what
    /// insertions and removals shift).
    public private(set) var moved: Set<NodeID> = []
    /// Nodes whose contents changed.
    public private(set) var updated: [NodeID: Update] = [:]
    /// The new order of children, for each parent whose children were inserted, removed or moved.
    public private(set) var childOrder: [NodeID: [NodeID]] = [:]
    /// How many nodes are the same in both trees (contents and place).
    public private(set) var unchanged = 0

    /// Whether nothing changed: a renderer has no work.
    public var isEmpty: Bool { inserted.isEmpty && removed.isEmpty && moved.isEmpty && updated.isEmpty && childOrder.isEmpty }

    /// The changes from `old` to `new` (the roots are the same screen; the new root's id wins).
    public init(from old: ViewNode, to new: ViewNode) {
        guard old != new else {
            unchanged = Self.count(old)
            return
        }
        compare(old, new)
    }

    /// `old` with the changes applied: equal to the tree the diff was made to. What a renderer
    /// keeping a tree in memory (the terminal's `--follow`) does; views do the same per node.
    public func applied(to old: ViewNode) -> ViewNode {
        var node = updated[old.id].map { update in
            var node = update.node
            node.children = old.children
            return node
        } ?? old
        let olds = Dictionary(old.children.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        if let order = childOrder[old.id] {
            node.children = order.compactMap { id in inserted[id] ?? olds[id].map(applied) }
        } else {
            node.children = old.children.map(applied)
        }
        return node
    }

    // MARK: Comparing

    private mutating func compare(_ old: ViewNode, _ new: ViewNode) {
        let fields = Self.fields(differing: old, new)
        if fields.isEmpty {
            unchanged += 1
        } else {
            var contents = new
            contents.children = []
            updated[new.id] = Update(node: contents, fields: fields)
        }
        // Most refreshes change no child list: same ids, same order.
        if old.children.count == new.children.count, zip(old.children, new.children).allSatisfy({ $0.id == $1.id }) {
            for (before, after) in zip(old.children, new.children) { compareOrCount(before, after) }
            return
        }
        let olds = Dictionary(old.children.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let news = Set(new.children.map(\.id))
        for child in old.children where !news.contains(child.id) { removed.insert(child.id) }
        // Kept children in their old relative order; the longest run that keeps its order stays,
        // the others moved.
        let kept = new.children.filter { olds[$0.id] != nil }.map(\.id)
        let oldPosition = Dictionary(old.children.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        let stay = Set(LongestIncreasingRun.indices(kept.map { oldPosition[$0] ?? 0 }))
        for (index, id) in kept.enumerated() where !stay.contains(index) { moved.insert(id) }
        childOrder[new.id] = new.children.map(\.id)
        for child in new.children {
            if let before = olds[child.id] {
                compareOrCount(before, child)
            } else {
                inserted[child.id] = child
            }
        }
    }

    /// An equal subtree is counted unchanged without walking it node by node again.
    private mutating func compareOrCount(_ old: ViewNode, _ new: ViewNode) {
        if old == new { unchanged += Self.count(old) } else { compare(old, new) }
    }

    static func count(_ node: ViewNode) -> Int { 1 + node.children.reduce(0) { $0 + count($1) } }

    static func fields(differing old: ViewNode, _ new: ViewNode) -> Set<Field> {
        var fields: Set<Field> = []
        if old.role != new.role { fields.insert(.role) }
        if old.text != new.text { fields.insert(.text) }
        if old.secondaryText != new.secondaryText { fields.insert(.secondaryText) }
        if old.details != new.details { fields.insert(.details) }
        if old.paragraphs != new.paragraphs { fields.insert(.paragraphs) }
        if old.icon != new.icon { fields.insert(.icon) }
        if old.style != new.style { fields.insert(.style) }
        if old.image != new.image { fields.insert(.image) }
        if old.action != new.action { fields.insert(.action) }
        if old.accessibility != new.accessibility { fields.insert(.accessibility) }
        if old.customKind != new.customKind { fields.insert(.customKind) }
        if old.customData != new.customData { fields.insert(.customData) }
        if old.field != new.field { fields.insert(.field) }
        if old.toggle != new.toggle { fields.insert(.toggle) }
        if old.isPending != new.isPending { fields.insert(.pending) }
        return fields
    }
}
