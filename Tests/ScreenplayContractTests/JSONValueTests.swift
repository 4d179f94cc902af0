import Foundation
import ScreenplayContract
import Testing

@Suite("JSON values")
struct JSONValueTests {
    static func decode(_ text: String) throws -> JSONValue {
        try ScreenplayDecoder(mode: .strict).decode(JSONValue.self, from: Data(text.utf8)).value
    }

    @Suite("Decoding")
    struct Decoding {
        @Test("Integers stay integers, exactly, beyond double precision")
        func integers() throws {
            #expect(try decode("42") == .integer(42))
            #expect(try decode("-7") == .integer(-7))
            // 2^53 + 1 is not representable as a Double; an id like this must survive.
            #expect(try decode("9007199254740993") == .integer(9_007_199_254_740_993))
            #expect(try decode("9223372036854775807") == .integer(.max))
            #expect(try ScreenplayEncoder().encode(JSONValue.integer(9_007_199_254_740_993)).utf8Text == "9007199254740993")
        }

        @Test("Fractions and out-of-range integers are doubles")
        func doubles() throws {
            #expect(try decode("2.5") == .number(2.5))
            #expect(try decode("-0.125") == .number(-0.125))
            #expect(try decode("1.5e-3") == .number(0.0015))
            #expect(try decode("9223372036854775808") == .number(9_223_372_036_854_775_808))
        }

        @Test("Booleans are not numbers and null is null")
        func literals() throws {
            #expect(try decode("true") == .bool(true))
            #expect(try decode("false") == .bool(false))
            #expect(try decode("null") == .null)
            #expect(try decode("1") != .bool(true))
            #expect(try decode(#""true""#) == .string("true"))
        }

        @Test("Nested arrays and objects keep their shape and order")
        func nested() throws {
            let value = try decode(#"{"a":[1,2.5,{"b":null,"c":[true,"x"]}],"d":{}}"#)
            #expect(
                value
                    == .object([
                        "a": .array([.integer(1), .number(2.5), .object(["b": .null, "c": .array([.bool(true), .string("x")])])]),
                        "d": .object([:]),
                    ]))
        }

        @Test("Strings keep escapes and unicode")
        func strings() throws {
            #expect(try decode(#""line\nbreak \u00e9 \uD83C\uDFB5""#) == .string("line\nbreak é 🎵"))
        }
    }

    @Suite("Encoding")
    struct Encoding {
        @Test("Every case encodes to the expected JSON text")
        func text() throws {
            let value: JSONValue = ["s": "x", "i": 3, "d": 2.5, "b": false, "n": nil, "a": [1, "two"], "o": ["k": true]]
            #expect(
                try ScreenplayEncoder().encode(value).utf8Text
                    == #"{"a":[1,"two"],"b":false,"d":2.5,"i":3,"n":null,"o":{"k":true},"s":"x"}"#)
        }

        @Test("Round trips preserve every case except whole doubles")
        func roundTrip() throws {
            let value: JSONValue = ["s": "x/y", "i": -3, "d": 2.5, "b": true, "n": nil, "a": [[], [:]], "big": .integer(.min)]
            #expect(try Fixture.roundTrip(value) == value)
        }

        @Test("A whole double comes back with the same integer value")
        func wholeDouble() throws {
            let decoded = try Fixture.roundTrip(JSONValue.number(3.0))
            #expect(decoded.integerValue == 3)
            #expect(try ScreenplayEncoder().encode(JSONValue.number(3.0)).utf8Text == "3")
        }
    }

    @Suite("Literals and accessors")
    struct Accessors {
        @Test("Literals build the matching cases")
        func literals() {
            let value: JSONValue = ["s": "x", "i": 1, "d": 1.5, "b": true, "n": nil, "a": [1, "x"]]
            #expect(
                value
                    == .object([
                        "s": .string("x"), "i": .integer(1), "d": .number(1.5), "b": .bool(true), "n": .null,
                        "a": .array([.integer(1), .string("x")]),
                    ]))
        }

        @Test("A repeated dictionary-literal key keeps the last value")
        func repeatedKey() {
            #expect(JSONValue(dictionaryLiteral: ("k", 1), ("k", 2)) == ["k": 2])
        }

        @Test("integerValue accepts whole doubles and refuses fractions and huge values")
        func integerValue() {
            #expect(JSONValue.number(3.0).integerValue == 3)
            #expect(JSONValue.number(-3.0).integerValue == -3)
            #expect(JSONValue.integer(7).integerValue == 7)
            #expect(JSONValue.number(3.5).integerValue == nil)
            #expect(JSONValue.number(1e16).integerValue == nil)
            #expect(JSONValue.number(.infinity).integerValue == nil)
            #expect(JSONValue.number(.nan).integerValue == nil)
            #expect(JSONValue.string("3").integerValue == nil)
            #expect(JSONValue.bool(true).integerValue == nil)
        }

        @Test("Typed accessors return only their own case")
        func typedAccessors() {
            let object: JSONValue = ["name": "x", "on": true]
            #expect(object["name"]?.stringValue == "x")
            #expect(object["on"]?.boolValue == true)
            #expect(object["missing"] == nil)
            #expect(object.objectValue?.count == 2)
            #expect(JSONValue.array(["x"])["name"] == nil)
            #expect(JSONValue.string("x").boolValue == nil)
            #expect(JSONValue.bool(true).stringValue == nil)
            #expect(JSONValue.array([]).objectValue == nil)
        }

        @Test("typeName names the JSON type for error messages")
        func typeNames() {
            let names: [JSONValue: String] = [
                .null: "null", .bool(true): "a boolean", .integer(1): "a number", .number(1.5): "a number",
                .string(""): "a string", .array([]): "an array", .object([:]): "an object",
            ]
            for (value, name) in names { #expect(value.typeName == name) }
        }
    }
}
