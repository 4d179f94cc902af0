import Foundation
public import ScreenplayContract

extension WidgetContract: CustomStringConvertible {
    /// The contract as a person reads it in a log or a review: the kind, its version and fallback,
    /// then one line per field.
    ///
    /// ```
    /// productCard (from v2; older clients: a list row with title and price)
    ///   A product with its price, from the shop vertical.
    ///   title     string   required  v2   The product's name.
    ///   badge     string   optional  v3   deprecated: use 'labels'
    /// ```
    public var description: String {
        var lines = ["\(type) (from \(versioning.introduced); older clients: \(versioning.fallback))"]
        if !summary.isEmpty { lines.append("  " + summary) }
        lines += Self.table(fields, indent: "  ")
        if !parameters.isEmpty {
            lines.append("  parameters:")
            lines += Self.table(parameters, indent: "    ")
        }
        return lines.joined(separator: "\n")
    }

    private static func table(_ fields: [WidgetField], indent: String) -> [String] {
        let width = fields.map(\.name.count).max() ?? 0
        return fields.map { field in
            var line = indent + field.name.padding(toLength: width + 2, withPad: " ", startingAt: 0)
            line += field.type.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
            line += (field.isRequired ? "required" : "optional") + "  " + field.introduced.description
            if !field.summary.isEmpty { line += "   " + field.summary }
            if let note = field.deprecation { line += "   deprecated: " + note }
            return line
        }
    }

    /// The kind as the contract tools see it: the data `screenplay schema`, `screenplay docs` and
    /// `contract-check` list beside the built-in kinds (its JSON Schema per version is
    /// ``AppDefinedKind/schema(for:)``).
    public var appDefinedKind: AppDefinedKind {
        AppDefinedKind(type: type, summary: summary, versioning: versioning, fields: fields, linkPolicy: linkPolicy)
    }
}
