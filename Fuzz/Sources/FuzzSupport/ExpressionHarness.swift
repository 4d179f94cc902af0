import Foundation
import ScreenplayContract

/// An expression's source as a screen would carry it: parsed and type-checked against an
/// environment like the shared cases' (contract/expressions/cases.json), then evaluated.
///
/// Oracles:
/// 1. Nothing crashes or recurses without bound, whatever the source (the parser bounds its
///    depth before it builds the tree).
/// 2. A refusal is a stated kind and code, its offset inside the source; a source over the size
///    limit is `tooLong` and nothing else.
/// 3. What compiles evaluates to a value of the type it was checked to have (read back from JSON
///    as that type), or stops with a `runtime` error; evaluating again gives the same.
/// 4. Metamorphic: spaces before the source change nothing but offsets (each + 2); a number
///    written by `string()` reads back as the same double.
public enum ExpressionHarness {
    static let target = "FuzzExpressions"

    static let codes: [ExpressionError.Kind: Set<String>] = [
        .syntax: ["tooLong", "tooDeep", "integerTooLarge", "numberTooLarge", "badEscape", "unterminatedString", "unexpectedCharacter", "unexpectedToken", "unexpectedEnd"],
        .type: ["unknownVariable", "unknownFunction", "wrongArguments", "typeMismatch", "noField", "emptyArray"],
        .runtime: ["overflow", "divisionByZero", "indexOutOfRange", "stringTooLong", "invalidArgument"],
    ]

    static let track = ExpressionType.record(["id": .string, "title": .string, "seconds": .int])
    static let environment: [String: (ExpressionType, ExpressionValue)] = [
        "n": (.int, .int(3)), "zero": (.int, .int(0)), "negative": (.int, .int(-7)), "big": (.int, .int(ExpressionValue.maximumInt)),
        "x": (.number, .number(2.5)), "tiny": (.number, .number(1e-7)), "flag": (.bool, .bool(true)), "off": (.bool, .bool(false)),
        "name": (.string, .string("Ada")), "empty": (.string, .string("")), "unicode": (.string, .string("Dvořák 🎵 Ünïcödé")),
        "hostile": (.string, .string("<script>alert('x')</script> ${name}")),
        "tags": (.array(.string), .array([.string("baroque"), .string("piano"), .string("live")])),
        "nums": (.array(.int), .array([3, 1, 4, 1, 5].map { .int($0) })), "none": (.array(.int), .array([])),
        "ratios": (.array(.number), .array([.number(0.5), .number(1.25)])),
        "player": (
            .record(["trackID": .string, "playing": .bool, "position": .number, "title": .string]),
            .record(["trackID": .string("t42"), "playing": .bool(true), "position": .number(61.5), "title": .string("Adagio")])
        ),
        "tracks": (
            .array(track),
            .array([
                .record(["id": .string("t41"), "title": .string("Allegro"), "seconds": .int(421)]),
                .record(["id": .string("t42"), "title": .string("Adagio"), "seconds": .int(3725)]),
            ])
        ),
        "now": (.int, .int(1_795_793_400)),
    ]
    static let types = environment.mapValues(\.0)
    static let values = environment.mapValues(\.1)

    enum Outcome: Equatable {
        case value(ExpressionType, ExpressionValue)
        case refused(ExpressionError)
        case stopped(ExpressionError)
    }

    static func outcome(_ source: String, locale: String) -> Outcome {
        let expression: ScreenExpression
        do throws(ExpressionError) {
            expression = try ScreenExpression(source, types: types)
        } catch {
            return .refused(error)
        }
        do throws(ExpressionError) {
            return .value(expression.type, try expression.evaluate(values, locale: locale))
        } catch {
            return .stopped(error)
        }
    }

    public static func run(_ bytes: UnsafeRawBufferPointer) {
        // The first byte picks the locale; the rest is the source.
        let locales = ["en", "de-AT", "fr", "sv", "ja", "pt_BR", "xx"]
        let locale = bytes.first.map { locales[Int($0) % locales.count] } ?? "en"
        let source = String(decoding: bytes.dropFirst(), as: UTF8.self)
        let result = outcome(source, locale: locale)
        let length = source.unicodeScalars.count
        switch result {
        case .refused(let error):
            check(error, in: [.syntax, .type], length: length)
            if source.utf8.count > ScreenExpression.maximumBytes, error.code != "tooLong" {
                Oracle.fail(target, "a source of \(source.utf8.count) bytes refused as \(error.code), not tooLong")
            }
        case .stopped(let error):
            check(error, in: [.runtime], length: length)
        case .value(let type, let value):
            guard ExpressionValue(json: value.json, as: type, depth: 100) != nil else {
                Oracle.fail(target, "'\(source.prefix(200))' is a \(type) but evaluated to \(String(describing: value).prefix(200))")
            }
            if case .number(let number) = value, Double(String(describing: value)) != number {
                Oracle.fail(target, "the number \(number) is written \(value), which reads back as another")
            }
            #if FUZZ_PLANTED_BUG
            // Planted: an evaluator that mishandles arrays of three strings or more. The seeds'
            // array literals of strings have two elements at most.
            if case .array(.string) = type, case .array(let elements) = value, elements.count >= 3, !source.contains("tags") {
                Oracle.planted(target, "an array literal of three strings")
            }
            #endif
        }
        if outcome(source, locale: locale) != result { Oracle.fail(target, "'\(source.prefix(200))' gave two outcomes") }
        // Two spaces before: the same outcome, offsets moved by two (unless that crosses the size limit).
        guard source.utf8.count + 2 <= ScreenExpression.maximumBytes else { return }
        let shifted = outcome("  " + source, locale: locale)
        switch (result, shifted) {
        case (.refused(let a), .refused(let b)) where a.code == b.code && a.offset.map { $0 + 2 } == b.offset: break
        case (.stopped(let a), .stopped(let b)) where a.code == b.code: break
        case (.value, .value) where shifted == result: break
        default: Oracle.fail(target, "leading spaces changed '\(source.prefix(200))' from \(result) to \(shifted)")
        }
    }

    static func check(_ error: ExpressionError, in kinds: Set<ExpressionError.Kind>, length: Int) {
        guard kinds.contains(error.kind), codes[error.kind]?.contains(error.code) == true else {
            Oracle.fail(target, "an error of kind \(error.kind) and code \(error.code) where \(kinds) was expected: \(error)")
        }
        if let offset = error.offset, !(0...length).contains(offset) {
            Oracle.fail(target, "an error at \(offset) in a source of \(length) code points: \(error)")
        }
        guard !error.message.isEmpty else { Oracle.fail(target, "an error without a message: \(error.code)") }
    }
}
