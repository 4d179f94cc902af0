import Foundation
import ScreenplayContract
import Testing

/// Reports on the wire (v6): a component's `report`, and the events a client sends back.
@Suite("Reports on the wire (v6)")
struct ReportsCodingTests {
    static let sample = Screen(
        id: "shop", title: "Shop",
        sections: [
            ScreenSection(
                id: "offers",
                components: [
                    Component.text(.init("Deal of the day")).id("deal").reportingVisible("shop/offer:21"),
                    Component.text(.init("Not reported")).id("plain"),
                ])
        ])

    static func screen(_ component: String) -> Data {
        Data(#"{"id": "s", "title": "S", "sections": [{"id": "main", "components": [\#(component)]}]}"#.utf8)
    }

    @Test("a component's report key survives v6 encode and decode; v5 and older never see it")
    func roundTrip() throws {
        let data = try ScreenplayEncoder(apiVersion: .v6).encode(Self.sample)
        let decoded = try ScreenplayDecoder(mode: .strict, apiVersion: .v6).decode(Screen.self, from: data)
        #expect(decoded.value == Self.sample)
        #expect(decoded.value.allComponents.first?.attributes.report.visible == "shop/offer:21")
        #expect(String(decoding: data, as: UTF8.self).contains(#""report":{"visible":"shop/offer:21"}"#))
        for version in [APIVersion.v4, .v5] {
            let old = String(decoding: try ScreenplayEncoder(apiVersion: version).encode(Self.sample), as: UTF8.self)
            #expect(!old.contains("\"report\""), "v\(version.rawValue)")
            // A v5 reader of a v6 body ignores the member.
            let asOld = try ScreenplayDecoder(apiVersion: version).decode(Screen.self, from: data)
            #expect(asOld.value.allComponents.allSatisfy { $0.attributes.report.isEmpty })
        }
    }

    @Test("a bad report key costs only itself: reported at its path, the component shown")
    func badKey() throws {
        for bad in [#""has spaces""#, #""""#, "42", #"{"x": 1}"#, "\"" + String(repeating: "k", count: 129) + "\""] {
            let decoded = try ScreenplayDecoder(apiVersion: .v6).decode(
                Screen.self, from: Self.screen(#"{"type": "text", "text": "Hi", "id": "t", "report": {"visible": \#(bad)}}"#))
            let component = try #require(decoded.value.allComponents.first, "\(bad)")
            #expect(component.attributes.report.isEmpty, "\(bad)")
            #expect(component.id == "t")
            #expect(decoded.issues.contains { $0.path.hasSuffix("report.visible") }, "\(bad): \(decoded.issues)")
        }
        let notObject = try ScreenplayDecoder(apiVersion: .v6).decode(
            Screen.self, from: Self.screen(#"{"type": "text", "text": "Hi", "report": "shop"}"#))
        #expect(notObject.value.allComponents.count == 1)
        #expect(notObject.issues.contains { $0.path.hasSuffix("report") }, "\(notObject.issues)")
        // An unknown moment from a newer server is ignored, the known one kept.
        let newer = try ScreenplayDecoder(apiVersion: .v6).decode(
            Screen.self, from: Self.screen(#"{"type": "text", "text": "Hi", "report": {"visible": "a", "tapped": "b"}}"#))
        #expect(newer.value.allComponents.first?.attributes.report.visible == "a")
    }

    @Test("an event and a receipt read back as written; times with or without milliseconds or with an offset")
    func events() throws {
        let at = Date(timeIntervalSince1970: 1_795_000_000.25)
        let event = ClientEvent(id: "e1", kind: .visible, key: "home/continue-listening", screen: "home", at: at)
        let data = try JSONEncoder().encode(ClientEventBatch(events: [event]))
        let back = try JSONDecoder().decode(ClientEventBatch.self, from: data)
        #expect(back.events.first?.id == "e1" && back.events.first?.key == event.key && back.events.first?.screen == "home")
        #expect(abs((back.events.first?.at.timeIntervalSince1970 ?? 0) - at.timeIntervalSince1970) < 0.001)
        #expect(ClientEvent.date("2026-11-28T05:40:12Z") == ClientEvent.date("2026-11-28T06:40:12+01:00"))
        #expect(ClientEvent.date("2026-11-28T05:40:12.500Z")!.timeIntervalSince(ClientEvent.date("2026-11-28T05:40:12Z")!) == 0.5)
        for bad in [
            "", "yesterday", "2026-11-28", "2026-13-28T05:40:12Z", String(repeating: "9", count: 100),
            // What Foundation would roll over into another moment, or read past.
            "2026-11-27T06:00:00Zjunk", "2026-11-27T06:00:00Z\u{0}", "2026-11-27T06:00:00Z ", " 2026-11-27T06:00:00Z",
            "2026-11-27T06:61:00Z", "2026-11-27T06:00:99Z", "2026-11-27T25:00:00Z", "2026-11-27T06:00:60Z", "2026-02-30T06:00:00Z",
            "2026-02-29T06:00:00Z", "2026-11-27T06:00:00+01", "2026-11-27T06:00:00+0100", "2026-11-27T06:00:00+15:00",
            "2026-11-27T06:00:00.Z", "2026-11-27T06:00:00.1234567890Z", "2026-11-27t06:00:00z", "2026-11-27 06:00:00Z",
        ] {
            #expect(ClientEvent.date(bad) == nil, "\(bad)")
        }
        for good in ["2024-02-29T06:00:00Z", "2026-11-27T23:59:59.123456789Z", "2026-11-27T06:00:00+14:00", "2026-11-27T06:00:00-12:00"] {
            #expect(ClientEvent.date(good) != nil, "\(good)")
        }
    }

    @Test("a batch is read event by event: each refusal at its path, the rest kept, an id once")
    func batch() throws {
        let now = Date()
        let text = ClientEvent.text(now)
        let body: JSONValue = [
            "events": [
                ["id": "a", "kind": "played", "key": "7", "at": .string(text)],
                ["id": "a", "kind": "played", "key": "7", "at": .string(text)],
                ["id": "b", "kind": "visible", "key": "k", "at": .string(text), "screen": .null],
                ["id": "c", "kind": "visible", "key": "k", "at": .integer(5)],
                .null,
            ]
        ]
        let (events, refused, repeated) = try ClientEventBatch.read(body, now: now)
        #expect(events.map(\.id) == ["a", "b"])
        #expect(repeated == 1, "the second a is the same event sent twice")
        #expect(refused.map(\.path) == ["$.events[3].at", "$.events[4]"])
        #expect(throws: ClientEventBatch.Refusal.self) { try ClientEventBatch.read(["events": "all"], now: now) }
        #expect(throws: ClientEventBatch.Refusal.self) { try ClientEventBatch.read(.array([]), now: now) }
    }

    @Test("a screen path with a control, a line separator or a bidirectional control is refused, and so is an empty one")
    func screens() throws {
        let now = Date()
        for bad in ["", "a\u{202E}b", "a\u{85}b", "a\u{2028}b", "a\u{7}b", "a\u{2066}b", String(repeating: "s", count: ClientEvent.Limits.screenLength + 1)] {
            let body: JSONValue = ["events": [["id": "a", "kind": "visible", "key": "k", "screen": .string(bad), "at": .string(ClientEvent.text(now))]]]
            let (events, refused, _) = try ClientEventBatch.read(body, now: now)
            #expect(events.isEmpty && refused.map(\.path) == ["$.events[0].screen"], "\(bad.unicodeScalars.map(\.value))")
        }
    }

    @Test("a full batch of the longest events fits the body limit, inside the 64 KiB a server reads by default")
    func fullBatchFits() throws {
        let at = ClientEvent.text(Date())
        let event = ClientEvent(
            id: String(repeating: "i", count: ClientEvent.Limits.idLength), kind: .visible, key: String(repeating: "k", count: ClientEvent.Limits.keyLength),
            screen: String(repeating: "s", count: ClientEvent.Limits.screenLength), at: ClientEvent.date(at)!)
        let bytes = try JSONEncoder().encode(ClientEventBatch(events: Array(repeating: event, count: ClientEvent.Limits.eventsPerBatch)))
        #expect(bytes.count <= ClientEvent.Limits.batchBytes, "\(bytes.count)")
        #expect(ClientEvent.Limits.batchBytes <= 64 << 10)
    }
}
