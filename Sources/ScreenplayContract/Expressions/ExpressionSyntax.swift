/// An expression as written: the tree ``ExpressionParser`` reads, before its types are checked.
/// Each node knows where it starts (for messages) and how deep its subtree is (the README's
/// depth limit counts every operator, call, index, member access, conditional, array and
/// parenthesised group as a level).
struct ExpressionSyntax: Sendable {
    indirect enum Node: Sendable {
        case integer(Int)
        case number(Double)
        case bool(Bool)
        /// A string literal: its text and holes, in order.
        case string([Part])
        case variable(String)
        case unary(String, ExpressionSyntax)
        case binary(String, ExpressionSyntax, ExpressionSyntax)
        case conditional(ExpressionSyntax, ExpressionSyntax, ExpressionSyntax)
        case call(String, [ExpressionSyntax])
        case member(ExpressionSyntax, String)
        case index(ExpressionSyntax, ExpressionSyntax)
        case array([ExpressionSyntax])
        case group(ExpressionSyntax)
    }

    /// A piece of a string literal.
    enum Part: Sendable {
        case text(String)
        case hole(ExpressionSyntax)
    }

    let node: Node
    /// Where it starts, in code points from the source's start.
    let offset: Int
    /// 1 for a leaf; 1 + the deepest child otherwise.
    let depth: Int

    init(_ node: Node, at offset: Int) {
        self.node = node
        self.offset = offset
        let children: [ExpressionSyntax] =
            switch node {
            case .integer, .number, .bool, .variable: []
            case .string(let parts): parts.compactMap { if case .hole(let hole) = $0 { hole } else { nil } }
            case .unary(_, let operand), .member(let operand, _), .group(let operand): [operand]
            case .binary(_, let left, let right), .index(let left, let right): [left, right]
            case .conditional(let condition, let then, let otherwise): [condition, then, otherwise]
            case .call(_, let arguments), .array(let arguments): arguments
            }
        depth = 1 + (children.map(\.depth).max() ?? 0)
    }
}
