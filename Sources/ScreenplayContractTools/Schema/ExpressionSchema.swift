import ScreenplayContract

/// The schema definitions of client state (v6): expressions, their types, a screen's `state` and
/// a component's `compute`. Written here rather than recorded, because what the decoders check of
/// them (the grammar, the types, the scope) is more than JSON Schema says; the schema states the
/// shapes and bounds, and carries the grammar and the function list as annotations.
enum ExpressionSchema {
    /// `Expression`, `ExpressionType`, `State` and `Compute`.
    static var definitions: [String: JSONValue] {
        let reserved = (["true", "false"] + ClientVariables.types.keys.sorted())
        return [
            "Expression": [
                "type": "string", "minLength": 1, "maxLength": .integer(ScreenExpression.maximumBytes),
                "description": .string(
                    "An expression of the contract's language (contract/expressions/README.md): at most \(ScreenExpression.maximumBytes) UTF-8 bytes and \(ScreenExpression.maximumDepth) levels deep, type-checked against the screen's state when the screen is decoded."
                ),
                "x-grammar": .string(ScreenExpression.grammar),
                "x-functions": .array(ScreenExpression.functionNames.map(JSONValue.string)),
            ],
            "ExpressionType": [
                "description": "bool, int, number, string, {\"array\": T} or {\"record\": {\"field\": T}}",
                "oneOf": [
                    ["type": "string", "enum": ["bool", "int", "number", "string"]],
                    [
                        "type": "object", "required": ["array"], "properties": ["array": ["$ref": "#/$defs/ExpressionType"]],
                        "maxProperties": 1,
                    ],
                    [
                        "type": "object", "required": ["record"],
                        "properties": ["record": ["type": "object", "additionalProperties": ["$ref": "#/$defs/ExpressionType"]]],
                        "maxProperties": 1,
                    ],
                ],
            ],
            "State": [
                "type": "object", "maxProperties": .integer(ClientState.maximumVariables),
                "additionalProperties": ["$ref": "#/$defs/StateVariable"],
                "description": .string(
                    "The variables a screen declares, by name: letters, digits and '_', not starting with a digit, at most 64; not \(reserved.joined(separator: ", ")). A bad declaration is reported at its path and left out."
                ),
                "x-property-pattern": "^[A-Za-z_][A-Za-z0-9_]{0,63}$",
                "x-reserved-names": .array(reserved.map(JSONValue.string)),
            ],
            "Compute": [
                "type": "object",
                "description":
                    "Properties a component computes from the screen's state (it needs an id). A binding that does not check keeps the property's static value; a property this client does not know is ignored.",
                "properties": .object(
                    Dictionary(
                        uniqueKeysWithValues: BindableProperty.allCases.map {
                            ($0.rawValue, ["$ref": "#/$defs/Expression", "description": .string("an expression of type \($0.type)")] as JSONValue)
                        })),
            ],
        ]
    }
}
