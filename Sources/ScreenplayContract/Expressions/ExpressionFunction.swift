/// The built-in functions (contract/expressions/README.md, "Functions"), each overload a case of
/// its own, chosen when the expression is checked.
///
/// A new function is an addition to the contract; removing or changing one breaks screens that
/// call it, which is why the list is closed and stated.
enum ExpressionFunction: String, Sendable, CaseIterable {
    case lengthOfString, lengthOfArray, containsText, containsElement
    case lower, upper, trim
    case minimumInt, minimumNumber, maximumInt, maximumNumber, absoluteInt, absoluteNumber
    case round, floor, ceil
    case string
    case formatNumber, formatDuration, formatDate

    /// Picks an overload for the argument types: the function, its result type, and which
    /// arguments (by position) are ints to widen to numbers.
    typealias Overload = @Sendable ([ExpressionType]) -> (ExpressionFunction, ExpressionType, Set<Int>)?

    /// Every function's overloads, by the name expressions call it by.
    static let named: [String: [Overload]] = [
        "len": [
            { $0 == [.string] ? (.lengthOfString, .int, []) : nil },
            { if $0.count == 1, case .array = $0[0] { (.lengthOfArray, .int, []) } else { nil } },
        ],
        "contains": [
            { $0 == [.string, .string] ? (.containsText, .bool, []) : nil },
            { types in
                // A value of the element type; an int among numbers is widened, a number is
                // never looked for among ints (only single values widen).
                guard types.count == 2, case .array(let element) = types[0], element.isScalar,
                    types[1] == element || (element == .number && types[1] == .int)
                else { return nil }
                return (.containsElement, .bool, types[1] == element ? [] : [1])
            },
        ],
        "lower": [{ $0 == [.string] ? (.lower, .string, []) : nil }],
        "upper": [{ $0 == [.string] ? (.upper, .string, []) : nil }],
        "trim": [{ $0 == [.string] ? (.trim, .string, []) : nil }],
        "min": [{ numeric2($0, int: .minimumInt, number: .minimumNumber) }],
        "max": [{ numeric2($0, int: .maximumInt, number: .maximumNumber) }],
        "abs": [
            { $0 == [.int] ? (.absoluteInt, .int, []) : nil },
            { $0 == [.number] ? (.absoluteNumber, .number, []) : nil },
        ],
        "round": [{ numeric1($0, .round) }],
        "floor": [{ numeric1($0, .floor) }],
        "ceil": [{ numeric1($0, .ceil) }],
        "string": [{ $0.count == 1 && $0[0].isScalar ? (.string, .string, []) : nil }],
        "formatNumber": [{ $0.count == 2 && $0[0].isNumeric && $0[1] == .int ? (.formatNumber, .string, $0[0] == .int ? [0] : []) : nil }],
        "formatDuration": [{ $0.count == 1 && $0[0].isNumeric ? (.formatDuration, .string, $0[0] == .int ? [0] : []) : nil }],
        "formatDate": [{ $0.count == 2 && $0[0].isNumeric && $0[1] == .string ? (.formatDate, .string, $0[0] == .int ? [0] : []) : nil }],
    ]

    private static func numeric1(_ types: [ExpressionType], _ function: ExpressionFunction) -> (ExpressionFunction, ExpressionType, Set<Int>)? {
        guard types.count == 1, types[0].isNumeric else { return nil }
        return (function, .int, types[0] == .int ? [0] : [])
    }

    private static func numeric2(
        _ types: [ExpressionType], int: ExpressionFunction, number: ExpressionFunction
    ) -> (ExpressionFunction, ExpressionType, Set<Int>)? {
        guard types.count == 2, types[0].isNumeric, types[1].isNumeric else { return nil }
        if types == [.int, .int] { return (int, .int, []) }
        return (number, .number, Set(types.indices.filter { types[$0] == .int }))
    }
}
