/// Numbers, durations and dates as text, exactly as the README states, so the Swift client, the
/// web script and the server write the same characters for the same value and locale.
///
/// Nothing here asks the platform's locale data (which differs between systems and versions):
/// the separators and date orders are the README's table.
enum ExpressionNumberText {
    /// The shortest decimal digits that read back as `value` (no leading or trailing zeros), and
    /// the exponent `n` such that `value` = 0.digits × 10^n. `value` must be finite and not 0.
    static func shortestDigits(_ value: Double) -> (digits: [UInt8], exponent: Int) {
        // Swift's description is the shortest round-trip form (closest to the exact value when
        // several are as short), as JavaScript's is; only its layout differs.
        let text = abs(value).description
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        var digits: [UInt8] = []
        var pointAt: Int?
        for character in mantissa {
            if character == "." {
                pointAt = digits.count
            } else if let digit = character.wholeNumberValue {
                digits.append(UInt8(digit))
            }
        }
        var point = pointAt ?? digits.count
        while digits.first == 0 {
            digits.removeFirst()
            point -= 1
        }
        while digits.last == 0 { digits.removeLast() }
        return (digits, point + exponent)
    }

    /// `value` as JavaScript's `Number.prototype.toString` writes it; `-0` as `0`.
    static func write(_ value: Double) -> String {
        if value == 0 { return "0" }
        let sign = value < 0 ? "-" : ""
        let (digits, n) = shortestDigits(value)
        let k = digits.count
        let text = String(decoding: digits.map { $0 + 48 }, as: UTF8.self)
        if k <= n, n <= 21 { return sign + text + String(repeating: "0", count: n - k) }
        if 0 < n, n <= 21 { return sign + text.prefix(n) + "." + text.dropFirst(n) }
        if -6 < n, n <= 0 { return sign + "0." + String(repeating: "0", count: -n) + text }
        let e = n - 1
        let mantissa = k == 1 ? text : text.prefix(1) + "." + text.dropFirst()
        return sign + mantissa + "e" + (e >= 0 ? "+" : "-") + String(abs(e))
    }
}

/// What a locale changes: the README's table, by language.
struct ExpressionLocale: Sendable {
    enum DateOrder { case monthDayYear, dayMonthYear, paddedDayMonthYear, yearMonthDay }

    let group: String
    let decimal: String
    let dateOrder: DateOrder
    let dateSeparator: String

    /// The conventions of `tag`'s language (`de-AT` → `de`); English for any other.
    init(_ tag: String) {
        let language = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        let noBreakSpace = "\u{00A0}"
        switch language {
        case "de": (group, decimal, dateOrder, dateSeparator) = (".", ",", .dayMonthYear, ".")
        case "nl": (group, decimal, dateOrder, dateSeparator) = (".", ",", .dayMonthYear, "-")
        case "es", "it", "pt": (group, decimal, dateOrder, dateSeparator) = (".", ",", .paddedDayMonthYear, "/")
        case "fr": (group, decimal, dateOrder, dateSeparator) = (noBreakSpace, ",", .paddedDayMonthYear, "/")
        case "ru", "pl", "uk": (group, decimal, dateOrder, dateSeparator) = (noBreakSpace, ",", .paddedDayMonthYear, ".")
        case "sv": (group, decimal, dateOrder, dateSeparator) = (noBreakSpace, ",", .yearMonthDay, "-")
        case "ja", "zh", "ko": (group, decimal, dateOrder, dateSeparator) = (",", ".", .yearMonthDay, "/")
        default: (group, decimal, dateOrder, dateSeparator) = (",", ".", .monthDayYear, "/")
        }
    }
}

enum ExpressionFormatting {
    /// `formatNumber(value, decimals)`: rounded half away from zero on the shortest digits,
    /// grouped by threes, with the locale's separators.
    static func number(_ value: Double, decimals: Int, locale: ExpressionLocale) -> String {
        // The digits of |value| in plain notation: integer part and fraction.
        var integer: [UInt8] = []
        var fraction: [UInt8] = []
        if value != 0 {
            let (digits, n) = ExpressionNumberText.shortestDigits(value)
            if n > 0 {
                integer = Array(digits.prefix(n)) + Array(repeating: 0, count: max(0, n - digits.count))
                fraction = Array(digits.dropFirst(n))
            } else {
                fraction = Array(repeating: 0, count: -n) + digits
            }
        }
        if integer.isEmpty { integer = [0] }
        // Round at `decimals`: the next digit decides (these are the written digits: 5 is half).
        let roundsUp = fraction.count > decimals && fraction[decimals] >= 5
        var kept = integer + Array(fraction.prefix(decimals)) + Array(repeating: 0, count: max(0, decimals - fraction.count))
        if roundsUp {
            var index = kept.count - 1
            while index >= 0 {
                if kept[index] == 9 {
                    kept[index] = 0
                    index -= 1
                } else {
                    kept[index] += 1
                    break
                }
            }
            if index < 0 { kept.insert(1, at: 0) }
        }
        let integerCount = kept.count - decimals
        var whole = Array(kept.prefix(integerCount))
        while whole.count > 1, whole.first == 0 { whole.removeFirst() }
        let wholeText = String(decoding: whole.map { $0 + 48 }, as: UTF8.self)
        var grouped = ""
        for (index, character) in wholeText.enumerated() {
            if index > 0, (wholeText.count - index) % 3 == 0 { grouped += locale.group }
            grouped.append(character)
        }
        let decimalsText = String(decoding: kept.suffix(decimals).map { $0 + 48 }, as: UTF8.self)
        let isZero = kept.allSatisfy { $0 == 0 }
        return (value < 0 && !isZero ? "-" : "") + grouped + (decimals > 0 ? locale.decimal + decimalsText : "")
    }

    /// `formatDuration(seconds)` of whole seconds `total` (already `floor(abs(s))`).
    static func duration(_ total: Int, negative: Bool) -> String {
        let hours = total / 3600
        let minutes = total % 3600 / 60
        let seconds = total % 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        let text = hours > 0 ? "\(hours):\(two(minutes)):\(two(seconds))" : "\(minutes):\(two(seconds))"
        return (negative ? "-" : "") + text
    }

    /// The UTC calendar date of day `days` since 1970-01-01 (proleptic Gregorian).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        // Days to civil date over 400-year eras (each 146 097 days), from March 1 of year 0.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `formatDate` of the whole day `days` in `style` (`iso` or `short`); `nil` for another style.
    static func date(days: Int, style: String, locale: ExpressionLocale) -> String? {
        let (year, month, day) = civil(fromDays: days)
        let digits = String(abs(year))
        let yearText = (year < 0 ? "-" : "") + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        switch style {
        case "iso": return "\(yearText)-\(two(month))-\(two(day))"
        case "short":
            let s = locale.dateSeparator
            switch locale.dateOrder {
            case .monthDayYear: return "\(month)\(s)\(day)\(s)\(yearText)"
            case .dayMonthYear: return "\(day)\(s)\(month)\(s)\(yearText)"
            case .paddedDayMonthYear: return "\(two(day))\(s)\(two(month))\(s)\(yearText)"
            case .yearMonthDay: return "\(yearText)\(s)\(two(month))\(s)\(two(day))"
            }
        default: return nil
        }
    }
}
