import Foundation
import ScreenplayContract

/// `JSONSyntax.firstError(in:)`: the scanner that finds where a document stops being JSON.
///
/// Oracles:
/// 1. Nothing crashes or reads out of bounds (it walks an `UnsafeBufferPointer`; see run.sh
///    `--asan`).
/// 2. A failure's offset is inside the document (0...count) and its line and column are the ones
///    that offset has (1-based, counting `\n`).
/// 3. It agrees with Foundation's `JSONSerialization` (fragments allowed) on validity, where
///    Foundation follows RFC 8259 (measured: it also accepts trailing commas, a byte order mark
///    and UTF-16/32, which the contract does not allow, and refuses unpaired `\uD800`-style
///    escapes and numbers beyond `Double`'s range, which the grammar allows; both stop at 512
///    levels):
///    - what `JSONSyntax` accepts, Foundation accepts (unless it has a surrogate escape or a
///      number that overflows `Double`);
///    - what Foundation accepts, `JSONSyntax` accepts, unless it has a trailing comma, a BOM,
///      a NUL byte or more than `JSONSyntax.maximumDepth` levels.
/// 4. Metamorphic: leading whitespace changes nothing but positions (offset + 2, line + 1).
public enum JSONSyntaxHarness {
    static let target = "FuzzJSONSyntax"

    public static func run(_ bytes: UnsafeRawBufferPointer) {
        let data = Data(bytes)
        let failure = JSONSyntax.firstError(in: data)
        if let failure { checkPosition(failure, in: data) }

        let foundation = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
        if failure == nil && !foundation && !hasSurrogateEscape(data) && !hasHugeNumber(data) {
            Oracle.fail(target, "JSONSyntax accepts a document JSONSerialization refuses: \(Oracle.excerpt(data))")
        }
        if let failure, foundation, isStrictlyComparable(data) {
            Oracle.fail(target, "JSONSyntax refuses a document JSONSerialization accepts (\(failure)): \(Oracle.excerpt(data))")
        }

        // Leading whitespace only moves positions.
        guard !data.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) else { return }
        let shifted = JSONSyntax.firstError(in: Data(" \n".utf8) + data)
        switch (failure, shifted) {
        case (nil, nil):
            break
        case (let failure?, let shifted?):
            guard shifted.offset == failure.offset + 2, shifted.line == failure.line + 1, shifted.reason == failure.reason else {
                Oracle.fail(target, "leading whitespace moved the error from \(failure) (offset \(failure.offset)) to \(shifted) (offset \(shifted.offset))")
            }
        default:
            Oracle.fail(target, "leading whitespace changed validity: \(String(describing: failure)) vs \(String(describing: shifted))")
        }

        #if FUZZ_PLANTED_BUG
        // Planted: a scanner that mishandles a \u escape with an upper-case hex digit five or more
        // levels deep in a valid document. The seeds have escapes and nesting, never both.
        if failure == nil, hasDeepUppercaseEscape(data) {
            Oracle.planted(target, "upper-case \\u escape five levels deep")
        }
        #endif
    }

    static func checkPosition(_ failure: JSONSyntax.Failure, in data: Data) {
        guard (0...data.count).contains(failure.offset) else {
            Oracle.fail(target, "error offset \(failure.offset) outside a document of \(data.count) bytes")
        }
        let before = data.prefix(failure.offset)
        let line = 1 + before.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        let lineStart = before.lastIndex(of: 0x0A).map { $0 - data.startIndex + 1 } ?? 0
        guard failure.line == line, failure.column == failure.offset - lineStart + 1 else {
            Oracle.fail(target, "error at offset \(failure.offset) says \(failure), expected line \(line), column \(failure.offset - lineStart + 1)")
        }
        guard !failure.reason.isEmpty else { Oracle.fail(target, "an error without a reason at \(failure.offset)") }
    }

    /// Whether Foundation's verdict on `data` is RFC 8259's: no byte order mark, no NUL byte
    /// (Foundation takes NULs among the first bytes as the sign of UTF-16 or UTF-32, so `8\0` is
    /// the number 8 to it), no trailing comma, not deeper than the limit.
    static func isStrictlyComparable(_ data: Data) -> Bool {
        !data.starts(with: [0xEF, 0xBB, 0xBF]) && !data.contains(0) && !hasTrailingComma(data)
            && depth(of: data) <= JSONSyntax.maximumDepth
    }

    /// Calls `body` with each byte outside strings and its index.
    static func forEachOutsideStrings(_ data: Data, _ body: (Int, UInt8) -> Void) {
        var inString = false
        var escaped = false
        for (index, byte) in data.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            if byte == UInt8(ascii: "\"") { inString = true }
            body(index, byte)
        }
    }

    /// A `,` followed (after whitespace) by `]` or `}`, outside strings.
    static func hasTrailingComma(_ data: Data) -> Bool {
        var afterComma = false
        var found = false
        forEachOutsideStrings(data) { _, byte in
            switch byte {
            case UInt8(ascii: ","): afterComma = true
            case 0x20, 0x0A, 0x0D, 0x09: break
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if afterComma { found = true }
                afterComma = false
            default: afterComma = false
            }
        }
        return found
    }

    /// A number token outside strings that overflows `Double` (`1e400`).
    static func hasHugeNumber(_ data: Data) -> Bool {
        var token = ""
        var found = false
        func flush() {
            if !token.isEmpty, let value = Double(token), value.isInfinite { found = true }
            token = ""
        }
        forEachOutsideStrings(data) { _, byte in
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || [UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(byte)
            {
                token.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                flush()
            }
        }
        flush()
        return found
    }

    /// A `\uD800`…`\uDFFF` escape anywhere (well-formed pairs included).
    static func hasSurrogateEscape(_ data: Data) -> Bool {
        let bytes = Array(data)
        guard bytes.count >= 6 else { return false }
        for i in 0...(bytes.count - 6) where bytes[i] == UInt8(ascii: "\\") && bytes[i + 1] == UInt8(ascii: "u") {
            if bytes[i + 2] | 0x20 == UInt8(ascii: "d"), [UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "c"), UInt8(ascii: "d"), UInt8(ascii: "e"), UInt8(ascii: "f")].contains(bytes[i + 3] | 0x20) {
                return true
            }
        }
        return false
    }

    /// The deepest nesting of `[`/`{` outside strings (for valid documents, their depth).
    static func depth(of data: Data) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in data {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// Whether a string five or more levels deep has a `\u` escape with an upper-case hex digit.
    static func hasDeepUppercaseEscape(_ data: Data) -> Bool {
        let bytes = Array(data)
        var depth = 0
        var inString = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    if index + 5 < bytes.count, bytes[index + 1] == UInt8(ascii: "u"), depth >= 5,
                        bytes[(index + 2)...(index + 5)].contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "F")).contains($0) })
                    {
                        return true
                    }
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                default: break
                }
            }
            index += 1
        }
        return false
    }
}
