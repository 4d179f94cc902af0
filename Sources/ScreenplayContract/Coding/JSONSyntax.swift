public import Foundation

/// Finds where a document stops being JSON, so errors can say "line 3, column 14" instead of
/// Foundation's bare "not valid JSON".
///
/// Screen decoding runs it only after the real decoder has failed; request bodies run it first
/// (``firstError(in:refusingDuplicateNames:)``), since it is also their depth and duplicate-name
/// check. Iterative (no recursion), so hostile nesting cannot overflow the stack.
public enum JSONSyntax {
    /// The deepest nesting the contract accepts; deeper documents are refused with this in the
    /// message. Real screens are a few dozen levels deep.
    public static let maximumDepth = 512

    /// A syntax error and where it is.
    public struct Failure: Sendable, Hashable, CustomStringConvertible {
        /// Byte offset from the start, 0-based.
        public let offset: Int
        /// 1-based line.
        public let line: Int
        /// 1-based column, in bytes.
        public let column: Int
        /// What was expected or found.
        public let reason: String

        /// `line 2, column 9: unexpected 't'`.
        public var description: String { "line \(line), column \(column): \(reason)" }
    }

    /// The first syntax error in `data`, or `nil` when it is well-formed JSON within
    /// ``maximumDepth``.
    public static func firstError(in data: Data) -> Failure? {
        firstError(in: data, refusingDuplicateNames: false)
    }

    /// As ``firstError(in:)``, and with `refusingDuplicateNames` an object naming a member twice
    /// is an error too (at the second name, saying where the first was). JSON leaves the meaning
    /// of a repeated name open and parsers differ (one keeps the first, another the last), so a
    /// request body that repeats one could be read one way by a proxy or a check and another way
    /// by the handler: request bodies refuse it. Names are compared as the strings they decode
    /// to (`"p\u0061th"` is `"path"`).
    public static func firstError(in data: Data, refusingDuplicateNames: Bool) -> Failure? {
        data.withUnsafeBytes { raw in
            var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self))
            scanner.tracksNames = refusingDuplicateNames
            return scanner.run()
        }
    }

    static func describe(_ context: DecodingError.Context, data: Data) -> String {
        if data.isEmpty { return "empty document: expected a JSON value" }
        if let failure = firstError(in: data) { return "malformed JSON at \(failure)" }
        return context.debugDescription
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        /// Whether each open object's member names are kept, to refuse one named twice.
        var tracksNames = false
        /// For each open object (innermost last), its member names so far and where each began.
        var names: [[[UInt8]: Int]] = []

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        enum Container { case array, object }

        func failure(_ reason: String, at offset: Int) -> Failure {
            var line = 1
            var lineStart = 0
            for position in 0..<min(offset, bytes.count) where bytes[position] == UInt8(ascii: "\n") {
                line += 1
                lineStart = position + 1
            }
            return Failure(offset: offset, line: line, column: offset - lineStart + 1, reason: reason)
        }

        func found(_ offset: Int) -> String {
            guard offset < bytes.count else { return "end of input" }
            let byte = bytes[offset]
            if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            return "byte 0x" + String(byte, radix: 16)
        }

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        mutating func run() -> Failure? {
            var stack: [Container] = []
            // Expecting a value (true) or, inside a container, a separator/close (false).
            var expectValue = true
            skipWhitespace()
            if index == bytes.count { return failure("empty document: expected a JSON value", at: 0) }
            while true {
                skipWhitespace()
                if expectValue {
                    guard index < bytes.count else { return failure("unexpected end of input: expected a value", at: index) }
                    switch bytes[index] {
                    case UInt8(ascii: "{"):
                        stack.append(.object)
                        if stack.count > JSONSyntax.maximumDepth {
                            return failure("nesting deeper than \(JSONSyntax.maximumDepth) levels", at: index)
                        }
                        if tracksNames { names.append([:]) }
                        index += 1
                        skipWhitespace()
                        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                            index += 1
                            stack.removeLast()
                            if tracksNames { names.removeLast() }
                            expectValue = false
                            if stack.isEmpty { return trailing() }
                            continue
                        }
                        if let error = scanKey() { return error }
                        continue
                    case UInt8(ascii: "["):
                        stack.append(.array)
                        if stack.count > JSONSyntax.maximumDepth {
                            return failure("nesting deeper than \(JSONSyntax.maximumDepth) levels", at: index)
                        }
                        index += 1
                        skipWhitespace()
                        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                            index += 1
                            stack.removeLast()
                            expectValue = false
                            if stack.isEmpty { return trailing() }
                        }
                        continue
                    case UInt8(ascii: "\""):
                        if let error = scanString() { return error }
                    case UInt8(ascii: "t"):
                        if let error = scanLiteral("true") { return error }
                    case UInt8(ascii: "f"):
                        if let error = scanLiteral("false") { return error }
                    case UInt8(ascii: "n"):
                        if let error = scanLiteral("null") { return error }
                    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                        if let error = scanNumber() { return error }
                    default:
                        return failure("unexpected \(found(index)): expected a value", at: index)
                    }
                    expectValue = false
                    if stack.isEmpty { return trailing() }
                } else {
                    guard let container = stack.last else { return trailing() }
                    guard index < bytes.count else {
                        return failure("unexpected end of input: expected ',' or '\(container == .array ? "]" : "}")'", at: index)
                    }
                    let byte = bytes[index]
                    if byte == UInt8(ascii: ",") {
                        index += 1
                        if container == .object {
                            skipWhitespace()
                            if let error = scanKey() { return error }
                        }
                        expectValue = true
                    } else if (container == .array && byte == UInt8(ascii: "]")) || (container == .object && byte == UInt8(ascii: "}")) {
                        index += 1
                        stack.removeLast()
                        if tracksNames, container == .object { names.removeLast() }
                        if stack.isEmpty { return trailing() }
                    } else {
                        return failure("unexpected \(found(index)): expected ',' or '\(container == .array ? "]" : "}")'", at: index)
                    }
                }
            }
        }

        /// After a member's key: `"key" :`; leaves `index` at the value.
        mutating func scanKey() -> Failure? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                return failure("unexpected \(found(index)): expected a member name in double quotes", at: index)
            }
            let start = index
            if let error = scanString() { return error }
            if tracksNames, let error = remember(nameFrom: start) { return error }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                return failure("unexpected \(found(index)): expected ':' after the member name", at: index)
            }
            index += 1
            return nil
        }

        /// Records the member name whose string literal spans `start..<index` in the innermost
        /// object; a name it already has is the failure.
        mutating func remember(nameFrom start: Int) -> Failure? {
            let literal = Array(bytes[start..<index])
            var name = Array(literal.dropFirst().dropLast())
            if name.contains(UInt8(ascii: "\\")) {
                // Escapes: compare what the name decodes to (the literal was just checked).
                guard let decoded = try? JSONDecoder().decode(String.self, from: Data(literal)) else { return nil }
                name = Array(decoded.utf8)
            }
            guard !names.isEmpty else { return nil }
            if let first = names[names.count - 1][name] {
                let earlier = failure("", at: first)
                let shown = String(decoding: name.prefix(60), as: UTF8.self)
                return failure(
                    "the member name \"\(shown)\" appears twice in one object (first at line \(earlier.line), column \(earlier.column))",
                    at: start)
            }
            names[names.count - 1][name] = start
            return nil
        }

        mutating func trailing() -> Failure? {
            skipWhitespace()
            return index == bytes.count ? nil : failure("unexpected \(found(index)) after the end of the document", at: index)
        }

        mutating func scanString() -> Failure? {
            let start = index
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return nil
                }
                if byte < 0x20 { return failure("control character in a string (escape it)", at: index) }
                if byte == UInt8(ascii: "\\") {
                    index += 1
                    guard index < bytes.count else { break }
                    switch bytes[index] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        index += 1
                    case UInt8(ascii: "u"):
                        for offset in 1...4 {
                            guard index + offset < bytes.count, isHexDigit(bytes[index + offset]) else {
                                return failure("invalid \\u escape: expected four hex digits", at: index - 1)
                            }
                        }
                        index += 5
                    default:
                        return failure("invalid escape '\\\(found(index).trimmingCharacters(in: ["'"]))'", at: index - 1)
                    }
                    continue
                }
                if byte >= 0x80 {
                    guard let length = utf8SequenceLength(at: index) else {
                        return failure("invalid UTF-8 in a string (\(found(index)))", at: index)
                    }
                    index += length
                    continue
                }
                index += 1
            }
            return failure("unterminated string", at: start)
        }

        /// The length of the well-formed UTF-8 sequence starting at `offset` (RFC 3629: no overlong
        /// forms, no surrogates, nothing above U+10FFFF), or `nil`. JSON text is UTF-8, and
        /// Foundation refuses anything else, so the syntax check must say where it breaks.
        func utf8SequenceLength(at offset: Int) -> Int? {
            let lead = bytes[offset]
            let length: Int
            var range: ClosedRange<UInt8> = 0x80...0xBF  // what the second byte may be
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                range = 0xA0...0xBF
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                range = 0x80...0x9F
            case 0xF0:
                length = 4
                range = 0x90...0xBF
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                range = 0x80...0x8F
            default: return nil
            }
            guard offset + length <= bytes.count, range.contains(bytes[offset + 1]) else { return nil }
            for position in (offset + 2)..<(offset + length) where !(0x80...0xBF).contains(bytes[position]) { return nil }
            return length
        }

        func isHexDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }

        mutating func scanLiteral(_ literal: String) -> Failure? {
            for (offset, expected) in literal.utf8.enumerated() {
                guard index + offset < bytes.count, bytes[index + offset] == expected else {
                    return failure("unexpected \(found(index + offset)): expected '\(literal)'", at: index + offset)
                }
            }
            index += literal.utf8.count
            return nil
        }

        mutating func scanNumber() -> Failure? {
            let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, digits.contains(bytes[index]) else {
                return failure("unexpected \(found(index)): expected a digit", at: index)
            }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                while index < bytes.count, digits.contains(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard index < bytes.count, digits.contains(bytes[index]) else {
                    return failure("unexpected \(found(index)): expected a digit after '.'", at: index)
                }
                while index < bytes.count, digits.contains(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard index < bytes.count, digits.contains(bytes[index]) else {
                    return failure("unexpected \(found(index)): expected a digit in the exponent", at: index)
                }
                while index < bytes.count, digits.contains(bytes[index]) { index += 1 }
            }
            return nil
        }
    }
}
