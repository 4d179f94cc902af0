import Foundation
import ScreenplayContract
import Testing

/// v5: a screen's `live` declaration and a command's `optimistic` outcome; both gated by version,
/// both read lossily so a bad one never costs the screen or the command.
@Suite("Live screens and optimistic outcomes (v5)")
struct LiveAndOptimisticCodingTests {
    static let heart = Action.Command(
        url: "commands/favorites/add", payload: ["playlistId": 3],
        optimistic: .init(entities: ["playlist/3": ["favorite": true]]))

    static let screen = Screen(
        id: "playlist/3", title: "Night Music",
        sections: [ScreenSection(id: "about", components: [.button(.init(title: "Save", action: .command(heart)))])],
        live: LiveUpdates(events: true, interval: 30))

    static func decode(_ json: String, version: APIVersion = .v5) throws -> Decoded<Screen> {
        try ScreenplayDecoder(mode: .lossy, apiVersion: version).decode(Screen.self, from: Data(json.utf8))
    }

    @Test("v5 writes and reads back live and optimistic")
    func roundTrip() throws {
        #expect(try Fixture.roundTrip(Self.screen) == Self.screen)
        let object = try Fixture.wireObject(Self.screen)
        let live = try #require(object["live"] as? [String: Any])
        #expect(live["events"] as? Bool == true && live["interval"] as? Int == 30 && live.count == 2)
        let button = try #require(((object["sections"] as? [[String: Any]])?.first?["components"] as? [[String: Any]])?.first)
        let optimistic = (button["action"] as? [String: Any])?["optimistic"] as? [String: Any]
        #expect((optimistic?["entities"] as? [String: [String: Bool]]) == ["playlist/3": ["favorite": true]])
    }

    @Test("a v4 encoder leaves both out, and a v4 decoder ignores them")
    func olderVersions() throws {
        for version in [APIVersion.v1, .v4] {
            let data = try ScreenplayEncoder(apiVersion: version).encode(Self.screen)
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.contains("live") && !text.contains("optimistic"), "\(version): \(text)")
        }
        let v5 = try ScreenplayEncoder(apiVersion: .v5).encode(Self.screen)
        let read = try ScreenplayDecoder(mode: .strict, apiVersion: .v4).decode(Screen.self, from: v5)
        #expect(read.value.live == nil)
        guard case .button(let button) = read.value.sections.first?.components.first?.content, case .command(let command) = button.action
        else { Issue.record("the button did not survive"); return }
        #expect(command.optimistic == nil)
        #expect(command.url == Self.heart.url)
    }

    @Test("a screen that asks for nothing writes no live member")
    func notLive() throws {
        var quiet = Self.screen
        quiet.live = LiveUpdates()
        #expect(try Fixture.wireObject(quiet)["live"] == nil)
    }

    @Test(
        "an interval outside 5...86400 is an issue at its path; the screen shows and still follows events",
        arguments: [0, 4, 86_401, 1_000_000_000, -5])
    func badInterval(seconds: Int) throws {
        let decoded = try Self.decode(#"{"id":"s","title":"S","sections":[],"live":{"events":true,"interval":\#(seconds)}}"#)
        #expect(decoded.value.live == LiveUpdates(events: true, interval: nil))
        #expect(decoded.issues.map(\.path) == ["$.live.interval"], "\(decoded.issues)")
        #expect(decoded.issues.first?.message.contains("expected 5...86400") == true, "\(decoded.issues)")
    }

    @Test("the bounds themselves are accepted")
    func intervalBounds() throws {
        for seconds in [5, 86_400] {
            let decoded = try Self.decode(#"{"id":"s","title":"S","sections":[],"live":{"interval":\#(seconds)}}"#)
            #expect(decoded.value.live == .interval(seconds))
            #expect(decoded.issues.isEmpty)
        }
    }

    @Test("a live member of the wrong shape is an issue; the screen is kept")
    func malformedLive() throws {
        for live in [#""yes""#, #"{"events":"often"}"#, "[]"] {
            let decoded = try Self.decode(#"{"id":"s","title":"S","sections":[],"live":\#(live)}"#)
            #expect(decoded.value.id == "s")
            #expect(decoded.value.live == nil)
            #expect(decoded.issues.first?.path.hasPrefix("$.live") == true, "\(live): \(decoded.issues)")
        }
    }

    @Test("a malformed optimistic outcome is an issue at its path; the command still works")
    func malformedOptimistic() throws {
        let many = (0..<40).map { "\"m\($0)\":1" }.joined(separator: ",")
        for (outcome, path) in [
            (#""flip""#, "$.sections[0].components[0].action.optimistic"),
            (#"{}"#, "$.sections[0].components[0].action.optimistic.entities"),
            (#"{"entities":{"playlist/3":{\#(many)}}}"#, "$.sections[0].components[0].action.optimistic.entities"),
        ] {
            let json = Fixture.screenJSON(
                components: #"{"type":"button","title":"Save","action":{"type":"command","url":"commands/x","optimistic":\#(outcome)}}"#)
            let decoded = try Self.decode(json)
            guard case .button(let button) = decoded.value.sections.first?.components.first?.content, case .command(let command) = button.action
            else {
                Issue.record("the button was lost for \(outcome): \(decoded.issues)")
                continue
            }
            #expect(command.url == "commands/x")
            #expect(command.optimistic == nil)
            #expect(decoded.issues.map(\.path) == [path], "\(outcome): \(decoded.issues)")
        }
    }
}
