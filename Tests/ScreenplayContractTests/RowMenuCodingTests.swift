import Foundation
import ScreenplayContract
import Testing

/// Row actions on the wire (v6): a component's `menu`, its secondary actions beside its own.
@Suite("Row menus on the wire (v6)")
struct RowMenuCodingTests {
    static let items = [
        MenuItem(title: "Go to Bach", icon: "person", action: .navigate(.init(url: "screens/composer/bach"))),
        MenuItem(title: "Add to favorites", action: .command(.init(url: "commands/favorites/recordings/add", payload: ["recordingId": 1]))),
    ]

    static let sample = Screen(
        id: "work/1", title: "Cello Suite",
        sections: [
            ScreenSection(
                id: "tracks",
                components: [Component.trackRow(.init(title: "I. Prélude", duration: 143)).id("t1").menu(items)])
        ])

    static func screen(_ component: String) -> Data {
        Data(#"{"id": "s", "title": "S", "sections": [{"id": "main", "components": [\#(component)]}]}"#.utf8)
    }

    @Test("a row's menu survives v6 encode and decode; v5 and older get the row alone")
    func roundTrip() throws {
        let data = try ScreenplayEncoder(apiVersion: .v6).encode(Self.sample)
        let decoded = try ScreenplayDecoder(mode: .strict, apiVersion: .v6).decode(Screen.self, from: data)
        #expect(decoded.value == Self.sample)
        #expect(decoded.value.allComponents.first?.attributes.menu == Self.items)
        for version in [APIVersion.v4, .v5] {
            let old = String(decoding: try ScreenplayEncoder(apiVersion: version).encode(Self.sample), as: UTF8.self)
            #expect(!old.contains("\"menu\""), "v\(version.rawValue)")
            let asOld = try ScreenplayDecoder(apiVersion: version).decode(Screen.self, from: data)
            #expect(asOld.value.allComponents.first?.attributes.menu.isEmpty == true)
            #expect(asOld.value.allComponents.count == 1, "the row itself stays")
        }
    }

    @Test("a bad item costs only itself, a bad menu only the menu, and a menu holds at most eight")
    func lossy() throws {
        let good = #"{"title": "Go", "action": {"type": "navigate", "url": "screens/a"}}"#
        let mixed = try ScreenplayDecoder(apiVersion: .v6).decode(
            Screen.self,
            from: Self.screen(#"{"type": "text", "text": "Row", "menu": [\#(good), {"title": "No action"}, {"title": "Bad", "action": {"type": "navigate", "url": "javascript:alert(1)"}}, 7]}"#))
        #expect(mixed.value.allComponents.first?.attributes.menu.map(\.title) == ["Go"])
        #expect(mixed.issues.count >= 3, "\(mixed.issues)")
        #expect(mixed.issues.allSatisfy { $0.path.contains("menu") }, "\(mixed.issues)")

        let notArray = try ScreenplayDecoder(apiVersion: .v6).decode(Screen.self, from: Self.screen(#"{"type": "text", "text": "Row", "menu": "all"}"#))
        #expect(notArray.value.allComponents.first?.attributes.menu.isEmpty == true)
        #expect(notArray.value.allComponents.count == 1)
        #expect(notArray.issues.contains { $0.path.hasSuffix("menu") }, "\(notArray.issues)")

        let many = Array(repeating: good, count: 12).joined(separator: ",")
        let long = try ScreenplayDecoder(apiVersion: .v6).decode(Screen.self, from: Self.screen(#"{"type": "text", "text": "Row", "menu": [\#(many)]}"#))
        #expect(long.value.allComponents.first?.attributes.menu.count == ComponentAttributes.maximumMenuItems)
        #expect(long.issues.contains { $0.message.contains("at most 8") }, "\(long.issues)")
    }
}
