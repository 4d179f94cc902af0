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

extension ExpressionSyntax {
    /// The tree written back as source, each variable named in `replacements` written as its
    /// replacement's text instead (a row template's `item` as `works[3]`).
    ///
    /// Every parenthesised group is a node of the tree, so writing operators between their operands
    /// with no parentheses added reads back as the same tree; a replacement must therefore be a
    /// postfix expression (a variable, an index, a member, a literal that is not negative), which
    /// binds tighter than any operator around it.
    func source(replacing replacements: [String: String]) -> String {
        var output = ""
        write(to: &output, replacements)
        return output
    }

    private func write(to output: inout String, _ replacements: [String: String]) {
        switch node {
        case .integer(let value): output += String(value)
        case .number(let value): output += "\(value)"
        case .bool(let value): output += value ? "true" : "false"
        case .string(let parts):
            output += "'"
            for part in parts {
                switch part {
                case .text(let text): output += ScreenExpression.literal(text).dropFirst().dropLast()
                case .hole(let hole):
                    output += "${"
                    hole.write(to: &output, replacements)
                    output += "}"
                }
            }
            output += "'"
        case .variable(let name): output += replacements[name] ?? name
        case .unary(let mark, let operand):
            output += mark
            operand.write(to: &output, replacements)
        case .binary(let mark, let left, let right):
            left.write(to: &output, replacements)
            output += mark
            right.write(to: &output, replacements)
        case .conditional(let condition, let then, let otherwise):
            condition.write(to: &output, replacements)
            output += "?"
            then.write(to: &output, replacements)
            output += ":"
            otherwise.write(to: &output, replacements)
        case .call(let name, let arguments):
            output += name + "("
            write(arguments, to: &output, replacements)
            output += ")"
        case .member(let base, let field):
            base.write(to: &output, replacements)
            output += "." + field
        case .index(let base, let index):
            base.write(to: &output, replacements)
            output += "["
            index.write(to: &output, replacements)
            output += "]"
        case .array(let elements):
            output += "["
            write(elements, to: &output, replacements)
            output += "]"
        case .group(let inner):
            output += "("
            inner.write(to: &output, replacements)
            output += ")"
        }
    }

    private func write(_ list: [ExpressionSyntax], to output: inout String, _ replacements: [String: String]) {
        for (position, element) in list.enumerated() {
            if position > 0 { output += "," }
            element.write(to: &output, replacements)
        }
    }
}
