extension ExpressionEvaluator {
    /// Calls a built-in function with its arguments evaluated in order.
    func call(_ function: ExpressionFunction, _ arguments: [CheckedExpression], at offset: Int) throws(ExpressionError) -> ExpressionValue {
        var values: [ExpressionValue] = []
        values.reserveCapacity(arguments.count)
        for argument in arguments { values.append(try evaluate(argument)) }
        func text(_ index: Int) -> String { if case .string(let value) = values[index] { value } else { "" } }
        func number(_ index: Int) -> Double { values[index].double ?? 0 }
        func int(_ index: Int) -> Int { if case .int(let value) = values[index] { value } else { 0 } }
        func invalid(_ message: String) -> ExpressionError { ExpressionError(.runtime, "invalidArgument", message, at: offset) }
        switch function {
        case .lengthOfString: return .int(text(0).unicodeScalars.count)
        case .lengthOfArray:
            guard case .array(let elements) = values[0] else { return .int(0) }
            return .int(elements.count)
        case .containsText:
            let haystack = Array(text(0).unicodeScalars)
            let needle = Array(text(1).unicodeScalars)
            guard !needle.isEmpty else { return .bool(true) }
            guard needle.count <= haystack.count else { return .bool(false) }
            for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
                if haystack[start..<(start + needle.count)].elementsEqual(needle) { return .bool(true) }
            }
            return .bool(false)
        case .containsElement:
            guard case .array(let elements) = values[0] else { return .bool(false) }
            return .bool(elements.contains { Self.same($0, values[1]) })
        case .lower: return .string(try Self.bounded(text(0).lowercased()))
        case .upper: return .string(try Self.bounded(text(0).uppercased()))
        case .trim: return .string(String(String.UnicodeScalarView(Self.trimmed(text(0).unicodeScalars))))
        case .minimumInt: return .int(min(int(0), int(1)))
        case .maximumInt: return .int(max(int(0), int(1)))
        case .minimumNumber: return .number(Swift.min(number(0), number(1)))
        case .maximumNumber: return .number(Swift.max(number(0), number(1)))
        case .absoluteInt: return .int(abs(int(0)))
        case .absoluteNumber: return .number(abs(number(0)))
        case .round:
            return .int(try Self.whole(number(0), .toNearestOrAwayFromZero))
        case .floor: return .int(try Self.whole(number(0), .down))
        case .ceil: return .int(try Self.whole(number(0), .up))
        case .string: return .string(values[0].description)
        case .formatNumber:
            let decimals = int(1)
            guard (0...6).contains(decimals) else { throw invalid("formatNumber takes 0 to 6 decimals, not \(decimals)") }
            return .string(ExpressionFormatting.number(number(0), decimals: decimals, locale: locale))
        case .formatDuration:
            let seconds = number(0)
            let whole = abs(seconds).rounded(.down)
            guard whole <= Double(ExpressionValue.maximumInt) else { throw Self.overflowError }
            let total = Int(whole)
            return .string(ExpressionFormatting.duration(total, negative: seconds < 0 && total >= 1))
        case .formatDate:
            let seconds = number(0)
            guard abs(seconds) <= 8.64e12 else { throw invalid("formatDate takes at most ±8.64e12 seconds, not \(ExpressionNumberText.write(seconds))") }
            let whole = Int(seconds.rounded(.down))
            let days = whole >= 0 ? whole / 86_400 : -((-whole + 86_399) / 86_400)
            guard let date = ExpressionFormatting.date(days: days, style: text(1), locale: locale) else {
                throw invalid("formatDate's style is 'iso' or 'short', not '\(text(1).prefix(40))'")
            }
            return .string(date)
        }
    }

    /// The code points `trim` removes from either end: JavaScript's white space and line
    /// terminators (the README's list).
    static func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
        default: false
        }
    }

    static func trimmed(_ scalars: String.UnicodeScalarView) -> String.UnicodeScalarView.SubSequence {
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }), let last = scalars.lastIndex(where: { !isTrimmed($0) }) else {
            return scalars[scalars.endIndex...]
        }
        return scalars[first...last]
    }
}
