import Foundation
import ScreenplayContract

/// Checks that a document is a contract schema built only from keywords the comparison
/// interprets, so that a change it does not understand can never pass as "no change".
enum SchemaDocumentCheck {
    /// Keywords that describe rather than constrain; a change to them breaks nobody.
    static let annotations: Set<String> = [
        "title", "description", "examples", "default", "$comment", "deprecated", "readOnly", "writeOnly",
    ]
    /// Bounds where a larger value is stricter.
    static let lowerBounds = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"]
    /// Bounds where a smaller value is stricter.
    static let upperBounds = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"]
    /// Every constraint keyword the comparison interprets.
    static let interpreted: Set<String> = Set(
        ["type", "$ref", "const", "enum", "properties", "required", "items", "oneOf", "anyOf", "additionalProperties", "pattern"]
            + lowerBounds + upperBounds)
    /// JSON types a `type` keyword may name.
    static let jsonTypes: Set<String> = ["null", "boolean", "object", "array", "number", "string", "integer"]

    static func root(
        of document: JSONValue, side: ContractDiff.DocumentError.Side
    ) throws(ContractDiff.DocumentError) -> [String: JSONValue] {
        guard var root = document.objectValue else {
            throw .init(side: side, path: "#", reason: "the top level is \(document.typeName), not an object")
        }
        guard let definitions = root["$defs"]?.objectValue else {
            throw .init(side: side, path: "#", reason: "it has no `$defs` object")
        }
        if let version = root["x-api-version"], version.integerValue == nil || version.integerValue! < 1 {
            throw .init(side: side, path: "#/x-api-version", reason: "expected an API version number ≥ 1, found \(version.typeName)")
        }
        for key in ["$schema", "$id"] where root[key] != nil && root[key]?.stringValue == nil {
            throw .init(side: side, path: "#/\(key)", reason: "expected a string")
        }
        root["$defs"] = nil
        root["$schema"] = nil
        root["$id"] = nil
        let check = SchemaDocumentCheck.Walker(side: side, definitions: Set(definitions.keys))
        try check.check(.object(root), at: "#")
        for (name, definition) in definitions.sorted(by: { $0.key < $1.key }) {
            let path = "#/$defs/" + pointerEscape(name)
            try check.check(definition, at: path)
            if let direction = definition["x-direction"],
                direction.stringValue.flatMap(ContractDiff.Direction.init(rawValue:)) == nil
            {
                throw .init(side: side, path: path + "/x-direction", reason: "expected \"response\" or \"request\"")
            }
        }
        return document.objectValue!
    }

    static func pointerUnescape(_ token: String) -> String {
        token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
    }

    static func pointerEscape(_ token: String) -> String {
        token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    struct Walker {
        let side: ContractDiff.DocumentError.Side
        let definitions: Set<String>

        func fail(_ path: String, _ reason: String) -> ContractDiff.DocumentError { .init(side: side, path: path, reason: reason) }

        func check(_ value: JSONValue, at path: String) throws(ContractDiff.DocumentError) {
            if case .bool = value { return }
            guard let schema = value.objectValue else {
                throw fail(path, "expected a schema (an object or a boolean), found \(value.typeName)")
            }
            for (keyword, member) in schema.sorted(by: { $0.key < $1.key }) {
                let at = path + "/" + pointerEscape(keyword)
                if keyword.hasPrefix("x-") || SchemaDocumentCheck.annotations.contains(keyword) { continue }
                guard SchemaDocumentCheck.interpreted.contains(keyword) else {
                    throw fail(at, "keyword `\(keyword)` is not one contract-diff understands, so no verdict on it could be trusted")
                }
                switch keyword {
                case "type":
                    let names = member.stringValue.map { [$0] } ?? member.arrayValue?.compactMap(\.stringValue)
                    guard let names, !names.isEmpty, names.count == (member.arrayValue?.count ?? 1),
                        names.allSatisfy(SchemaDocumentCheck.jsonTypes.contains)
                    else { throw fail(at, "expected a JSON type name or a list of them") }
                case "$ref":
                    guard let reference = member.stringValue, reference.hasPrefix("#/$defs/") else {
                        throw fail(at, "expected a reference of the form #/$defs/NAME")
                    }
                    let token = String(reference.dropFirst("#/$defs/".count))
                    // One JSON-pointer token: `~1` is "/", `~0` is "~"; a bare "/" would point inside a definition.
                    guard !token.contains("/") else { throw fail(at, "`\(reference)` points inside a definition; refer to a whole one") }
                    let name = SchemaDocumentCheck.pointerUnescape(token)
                    guard definitions.contains(name) else { throw fail(at, "`\(reference)` names no definition in $defs") }
                case "enum":
                    guard member.arrayValue != nil else { throw fail(at, "expected an array of values") }
                case "properties":
                    guard let properties = member.objectValue else { throw fail(at, "expected an object of schemas") }
                    for (name, property) in properties.sorted(by: { $0.key < $1.key }) {
                        try check(property, at: at + "/" + pointerEscape(name))
                    }
                case "required":
                    guard let names = member.arrayValue, names.allSatisfy({ $0.stringValue != nil }) else {
                        throw fail(at, "expected an array of field names")
                    }
                case "items", "additionalProperties":
                    try check(member, at: at)
                case "oneOf", "anyOf":
                    guard let variants = member.arrayValue, !variants.isEmpty else {
                        throw fail(at, "expected a non-empty array of schemas")
                    }
                    for (index, variant) in variants.enumerated() { try check(variant, at: at + "/\(index)") }
                case "pattern":
                    guard member.stringValue != nil else { throw fail(at, "expected a regular expression string") }
                case "const":
                    break
                default:
                    guard member.numberValue != nil else { throw fail(at, "expected a number") }
                }
            }
        }
    }
}
