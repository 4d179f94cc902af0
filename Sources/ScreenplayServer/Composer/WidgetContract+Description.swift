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

    /// The JSON Schema (draft 2020-12) fragment of the kind's components, in the generated
    /// schema's own dialect: `type` as a constant, each field's type (URLs with the link policy's
    /// pattern), `required` for the fields every version requires, `x-introduced` per field and
    /// for the kind, `deprecated` with the note as `x-deprecation`, and open
    /// `additionalProperties` (clients ignore members they do not know; the composer warns).
    ///
    /// The schema generator in `ScreenplayContractTools` builds built-in kinds from their
    /// decoders; widget kinds have no decoder, so this fragment is what it will include for them.
    public var schema: JSONValue {
        var properties: [String: JSONValue] = ["type": ["const": .string(type)]]
        for field in fields {
            var property = field.type.schema(linkPolicy: linkPolicy).objectValue ?? [:]
            property["x-introduced"] = .integer(field.introduced.rawValue)
            if !field.summary.isEmpty { property["description"] = .string(field.summary) }
            if let note = field.deprecation {
                property["deprecated"] = true
                property["x-deprecation"] = .string(note)
            }
            properties[field.name] = .object(property)
        }
        // A field introduced after the kind is required only from its own version on, which one
        // schema per version expresses; here it is listed as optional.
        let required = ["type"] + fields.filter { $0.isRequired && $0.introduced <= versioning.introduced }.map(\.name)
        var schema: [String: JSONValue] = [
            "type": "object", "properties": .object(properties), "required": .array(required.map(JSONValue.string)),
            "additionalProperties": true, "x-introduced": .integer(versioning.introduced.rawValue),
            "x-fallback": .string(versioning.fallback), "x-widget": true,
        ]
        if !summary.isEmpty { schema["description"] = .string(summary) }
        if let deprecated = versioning.deprecated { schema["x-deprecated"] = .integer(deprecated.rawValue) }
        return .object(schema)
    }
}

extension WidgetFieldType {
    /// The JSON Schema of a value of this type.
    func schema(linkPolicy: LinkPolicy) -> JSONValue {
        switch self {
        case .string: ["type": "string"]
        case .integer: ["type": "integer"]
        case .number: ["type": "number"]
        case .boolean: ["type": "boolean"]
        case .object: ["type": "object"]
        case .array: ["type": "array"]
        case .url: linkPolicy.schema
        }
    }
}
