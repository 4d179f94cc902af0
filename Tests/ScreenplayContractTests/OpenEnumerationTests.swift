import Foundation
import ScreenplayContract
import Testing

/// Style-like enums grow without breaking shipped apps: an unknown value becomes the enum's
/// fallback, is recorded with its JSON path, and the element that holds it survives.
@Suite("Open enums")
struct OpenEnumerationTests {
    @Test(
        "an unknown value decodes to the declared fallback, keeps the component and records the path",
        arguments: [
            (
                #"{"type":"button","title":"Delete","style":"destructive","action":{"type":"navigate","url":"screens/a"}}"#, "style",
                "secondary"
            ),
            (#"{"type":"text","text":"Loud","weight":"black"}"#, "weight", "regular"),
            (#"{"type":"verticalStack","alignment":"justified","children":[]}"#, "alignment", "center"),
            (#"{"type":"horizontalStack","alignment":"baseline","children":[]}"#, "alignment", "center"),
            (#"{"type":"carousel","itemStyle":"circle","items":[]}"#, "itemStyle", "square"),
        ])
    func unknownValue(json: String, field: String, fallback: String) throws {
        for mode in [DecodingMode.lossy, .strict] {
            let decoded = try ScreenplayDecoder(mode: mode).decode(Screen.self, from: Data(Fixture.screenJSON(components: json).utf8))
            let component = try #require(decoded.value.sections.first?.components.only)
            #expect(component.payload != nil, "the component must survive")
            let path = "$.sections[0].components[0].\(field)"
            #expect(decoded.issues.map(\.kind) == [.unknownValue])
            #expect(decoded.issues.first?.path == path)
            #expect(decoded.issues.first?.message.hasSuffix("shown as '\(fallback)'") == true)
            // Re-encoded, the client's understanding is the fallback.
            #expect(try Fixture.wireObject(component)[field] as? String == fallback)
        }
    }

    @Test("known values decode as themselves with no issue", arguments: Component.Button.Style.allCases)
    func knownValues(style: Component.Button.Style) throws {
        let json = #"{"type":"button","title":"B","style":"\#(style.rawValue)","action":{"type":"navigate","url":"screens/a"}}"#
        let (components, issues) = try Fixture.components(json)
        #expect(issues.isEmpty)
        #expect(components == [.button(.init(title: "B", style: style, action: .navigate(.init(url: "screens/a"))))])
    }

    @Test("a value of the wrong type is still an error: open means unknown strings, not anything")
    func wrongType() throws {
        let (components, issues) = try Fixture.components(#"{"type":"text","text":"x","weight":700}"#)
        #expect(components.isEmpty)
        #expect(issues.map(\.kind) == [.invalidElement])
        #expect(issues.first?.path == "$.sections[0].components[0].weight")
    }

    @Test("every style-like enum of the contract is open, with a fallback among its own cases")
    func everyStyleEnumIsOpen() {
        let open: [any OpenEnumeration.Type] = [
            Component.Button.Style.self, Component.FontWeight.self, Component.HorizontalAlignment.self, Component.VerticalAlignment.self,
            Component.Carousel.ItemStyle.self, Action.Navigate.Presentation.self,
        ]
        for type in open {
            let isACase = Self.fallbackIsACase(type)
            #expect(isACase, "\(type)")
        }
    }

    static func fallbackIsACase<E: OpenEnumeration>(_ type: E.Type) -> Bool {
        E.allCases.contains { $0.rawValue == E.fallback.rawValue }
    }
}

extension Collection {
    /// The sole element, or `nil` when there are none or several.
    fileprivate var only: Element? { count == 1 ? first : nil }
}
