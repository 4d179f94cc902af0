import Foundation
import ScreenplayContract
import Testing

@Suite("Colors")
struct ColorValueTests {
    @Suite("Parsing")
    struct Parsing {
        @Test("Every standard token parses to itself", arguments: ColorToken.standard)
        func standardTokens(token: ColorToken) throws {
            #expect(try ColorValue(parsing: token.rawValue) == .token(token))
        }

        @Test("App-defined tokens of letters and digits are accepted")
        func customTokens() throws {
            #expect(try ColorValue(parsing: "brandPurple2") == .token(try #require(ColorToken(rawValue: "brandPurple2"))))
            #expect(ColorToken(rawValue: String(repeating: "a", count: 64)) != nil)
        }

        @Test("#RRGGBB is opaque; hex digits in either case")
        func sixDigits() throws {
            #expect(try ColorValue(parsing: "#1E90FF") == .rgba(red: 0x1E, green: 0x90, blue: 0xFF, alpha: 255))
            #expect(try ColorValue(parsing: "#1e90ff") == .rgba(red: 0x1E, green: 0x90, blue: 0xFF, alpha: 255))
            #expect(try ColorValue(parsing: "#000000") == .rgba(red: 0, green: 0, blue: 0, alpha: 255))
        }

        @Test("#RRGGBBAA carries alpha last")
        func eightDigits() throws {
            #expect(try ColorValue(parsing: "#11223380") == .rgba(red: 0x11, green: 0x22, blue: 0x33, alpha: 0x80))
            #expect(try ColorValue(parsing: "#FFFFFF00") == .rgba(red: 255, green: 255, blue: 255, alpha: 0))
        }

        static let invalid = [
            "", "#", "#FFF", "#FFFFF", "#1E90FF8", "#1E90FF800", "#GGGGGG", "#12 456", "1E90FF", "2brand", "brand-color", "accent ",
            "ünlü", String(repeating: "a", count: 65), "#１２３４５６",
        ]

        @Test("Anything else throws a violation quoting the text", arguments: invalid)
        func invalidText(text: String) {
            let violation = #expect(throws: ContractViolation.self) { try ColorValue(parsing: text) }
            #expect(violation?.message.contains("'\(text)'") == true)
            #expect(violation?.description == violation?.message)
        }

        @Test("Sign characters are not hex digits", arguments: ["#+FFFFF", "#-0000000", "#+1234567"])
        func signsRefused(text: String) {
            #expect(throws: ContractViolation.self) { try ColorValue(parsing: text) }
        }
    }

    @Suite("Wire form")
    struct WireForm {
        @Test("Opaque colors are #RRGGBB, uppercase and zero-padded")
        func opaque() {
            #expect(ColorValue.rgba(red: 1, green: 0x0A, blue: 0xFF, alpha: 255).wireValue == "#010AFF")
        }

        @Test("Translucent colors keep alpha as #RRGGBBAA")
        func translucent() {
            #expect(ColorValue.rgba(red: 0, green: 0, blue: 0, alpha: 0).wireValue == "#00000000")
            #expect(ColorValue.rgba(red: 0x12, green: 0x34, blue: 0x56, alpha: 0x78).wireValue == "#12345678")
        }

        @Test("Tokens are their name")
        func token() {
            #expect(ColorValue.token(.secondaryText).wireValue == "secondaryText")
        }

        @Test(
            "wireValue parses back to the same color",
            arguments: [
                ColorValue.rgba(red: 0, green: 0, blue: 0, alpha: 255), .rgba(red: 255, green: 255, blue: 255, alpha: 254),
                .rgba(red: 7, green: 128, blue: 200, alpha: 1), .token(.accent), .token(.negative), .rgb(30, 144, 255),
            ])
        func roundTrip(color: ColorValue) throws {
            #expect(try ColorValue(parsing: color.wireValue) == color)
        }

        @Test("Lowercase input normalises to uppercase output")
        func normalises() throws {
            #expect(try ColorValue(parsing: "#abcdef").wireValue == "#ABCDEF")
        }

        @Test("Encodes as a bare string and decodes from one")
        func codable() throws {
            #expect(try ScreenplayEncoder().encode([ColorValue.rgb(1, 2, 3), .token(.accent)]).utf8Text == ##"["#010203","accent"]"##)
            let decoded = try ScreenplayDecoder().decode([ColorValue].self, from: Data(##"["#010203","accent"]"##.utf8))
            #expect(decoded.value == [.rgb(1, 2, 3), .token(.accent)])
        }
    }

    @Suite("Components")
    struct RGB {
        @Test("rgb clamps each component to 0...255 and is opaque")
        func clamps() {
            #expect(ColorValue.rgb(300, -5, 128) == .rgba(red: 255, green: 0, blue: 128, alpha: 255))
            #expect(ColorValue.rgb(Int.max, Int.min, 0) == .rgba(red: 255, green: 0, blue: 0, alpha: 255))
            #expect(ColorValue.rgb(255, 0, 1).wireValue == "#FF0001")
        }
    }
}
