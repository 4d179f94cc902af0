import Foundation
import ScreenplayContract
import Testing

/// One action kind, populated and minimal, with the exact members each has on the wire.
struct ActionSample: Sendable, CustomTestStringConvertible {
    let kind: String
    let full: Action
    let fullKeys: Set<String>
    let minimal: Action
    let minimalKeys: Set<String>

    var testDescription: String { kind }

    static let track = Action.Play.Track(
        id: "t1", title: "I. Allegro", subtitle: "Karajan", durationSeconds: 461, streamURL: "https://cdn.example/t1.m4a")

    static let all: [ActionSample] = [
        ActionSample(
            kind: "navigate",
            full: .navigate(
                .init(url: "screens/composer/mozart", header: .init(title: "Mozart", subtitle: "Austrian"), presentation: .modal)),
            fullKeys: ["type", "url", "header", "presentation"],
            minimal: .navigate(.init(url: "screens/composer/mozart")),
            minimalKeys: ["type", "url"]),
        ActionSample(
            kind: "command",
            full: .command(.init(url: "commands/favorites/add", payload: ["workId": 42, "tags": ["a", "b"], "note": nil])),
            fullKeys: ["type", "url", "payload"],
            minimal: .command(.init(url: "commands/favorites/add")),
            minimalKeys: ["type", "url"]),
        ActionSample(
            kind: "play",
            full: .play(.init(metadataURL: "queues/album/1", firstTrack: track)),
            fullKeys: ["type", "metadataURL", "firstTrack"],
            minimal: .play(
                .init(metadataURL: "https://api.example/queues/1", firstTrack: .init(id: "t", title: "T", streamURL: "streams/t"))),
            minimalKeys: ["type", "metadataURL", "firstTrack"]),
        ActionSample(
            kind: "share",
            full: .share(.init(title: "Requiem", url: "https://screenplay.example/works/626")),
            fullKeys: ["type", "title", "url"],
            minimal: .share(.init(title: "Requiem", url: "mailto:friend@example.com")),
            minimalKeys: ["type", "title", "url"]),
        ActionSample(
            kind: "openURL",
            full: .openURL(.init(url: "tel:+431234567")),
            fullKeys: ["type", "url"],
            minimal: .openURL(.init(url: "https://example.com")),
            minimalKeys: ["type", "url"]),
        ActionSample(
            kind: "custom",
            full: .custom(.init(name: "purchase", payload: ["sku": "premium", "price": 4.99, "trial": true])),
            fullKeys: ["type", "name", "payload"],
            minimal: .custom(.init(name: "openCamera")),
            minimalKeys: ["type", "name"]),
        ActionSample(
            kind: "set",
            full: .set(.init(variable: "expanded", value: "!expanded")),
            fullKeys: ["type", "variable", "value"],
            minimal: .set(.init(variable: "count", value: "0")),
            minimalKeys: ["type", "variable", "value"]),
        ActionSample(
            kind: "sequence",
            full: .sequence(.init([.set(.init(variable: "saved", value: "true")), .command(.init(url: "commands/save"))])),
            fullKeys: ["type", "actions"],
            minimal: .sequence(.init([.openURL(.init(url: "https://example.com"))])),
            minimalKeys: ["type", "actions"]),
    ]
}

@Suite("Action coding")
struct ActionCodingTests {
    @Test("The samples cover every known action kind")
    func samplesCoverCatalog() {
        #expect(ActionSample.all.map(\.kind) == Action.knownKinds)
        #expect(ActionSample.all.map(\.full.kind) == Action.knownKinds)
    }

    @Test("A populated action survives encode and decode", arguments: ActionSample.all)
    func fullRoundTrip(sample: ActionSample) throws {
        #expect(try Fixture.roundTrip(sample.full) == sample.full)
    }

    @Test("A minimal action survives encode and decode", arguments: ActionSample.all)
    func minimalRoundTrip(sample: ActionSample) throws {
        #expect(try Fixture.roundTrip(sample.minimal) == sample.minimal)
    }

    @Test("`type` names the kind, fields are flattened beside it", arguments: ActionSample.all)
    func wireShape(sample: ActionSample) throws {
        let object = try Fixture.wireObject(sample.full)
        #expect(object["type"] as? String == sample.kind)
        #expect(Set(object.keys) == sample.fullKeys)
    }

    @Test("Nil optionals are omitted", arguments: ActionSample.all)
    func nilOmitted(sample: ActionSample) throws {
        let object = try Fixture.wireObject(sample.minimal)
        #expect(Set(object.keys) == sample.minimalKeys)
        for absent in sample.fullKeys.subtracting(sample.minimalKeys) {
            #expect(object[absent] == nil, "'\(absent)' should be omitted when nil")
        }
    }

    @Test("A play's first track omits its nil subtitle and duration")
    func trackOptionalsOmitted() throws {
        let minimal = try #require(ActionSample.all.first { $0.kind == "play" }?.minimal)
        let track = try #require(try Fixture.wireObject(minimal)["firstTrack"] as? [String: Any])
        #expect(Set(track.keys) == ["id", "title", "streamURL"])

        let full = try #require(ActionSample.all.first { $0.kind == "play" }?.full)
        let fullTrack = try #require(try Fixture.wireObject(full)["firstTrack"] as? [String: Any])
        #expect(fullTrack["durationSeconds"] as? Int == 461)
    }

    @Test("A track names its work, composer and picture from v6 only; a bad picture is dropped and the track still plays")
    func trackNowPlaying() throws {
        var artwork = RemoteImage(url: "/images/composer/bach.svg", lowResURL: "/images/composer/bach-low.svg")
        artwork.alt = "Portrait of Johann Sebastian Bach"
        let play = Action.play(
            .init(
                metadataURL: "/media/queues/recording/1",
                firstTrack: .init(
                    id: "1", title: "I. Prélude", subtitle: "Pablo Casals", streamURL: "/media/audio/track/1.wav", work: "Cello Suite No. 1",
                    composer: "Johann Sebastian Bach", artwork: artwork)))
        func track(_ version: APIVersion) throws -> [String: Any] {
            let data = try ScreenplayEncoder(apiVersion: version).encode(play)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return try #require(object["firstTrack"] as? [String: Any])
        }
        #expect(try track(.v6)["work"] as? String == "Cello Suite No. 1")
        #expect(try track(.v6)["composer"] as? String == "Johann Sebastian Bach")
        #expect((try track(.v6)["artwork"] as? [String: Any])?["lowResURL"] as? String == "/images/composer/bach-low.svg")
        for old in [APIVersion.v1, .v5] {
            #expect(Set(try track(old).keys) == ["id", "title", "subtitle", "streamURL"], "\(old) never gets them")
        }
        let decoded = try ScreenplayDecoder(mode: .strict, apiVersion: .v6).decode(Action.self, from: try ScreenplayEncoder(apiVersion: .v6).encode(play))
        #expect(decoded.value == play)
        #expect(decoded.issues.isEmpty)
        // A v5 reader ignores them, as an older v6 app does.
        let v5 = try ScreenplayDecoder(mode: .strict, apiVersion: .v5).decode(Action.self, from: try ScreenplayEncoder(apiVersion: .v6).encode(play))
        guard case .play(let v5Play) = v5.value else { Issue.record("not a play"); return }
        #expect(v5Play.firstTrack.work == nil && v5Play.firstTrack.artwork == nil)
        // A picture from a scheme the resource policy refuses: reported, dropped, the track kept.
        let hostile = Data(
            #"{"type":"play","metadataURL":"/q","firstTrack":{"id":"1","title":"T","streamURL":"/a.wav","work":"W","artwork":{"url":"javascript:alert(1)"}}}"#.utf8)
        let lenient = try ScreenplayDecoder(mode: .lossy, apiVersion: .v6).decode(Action.self, from: hostile)
        guard case .play(let kept) = lenient.value else { Issue.record("the play was lost"); return }
        #expect(kept.firstTrack.artwork == nil && kept.firstTrack.work == "W")
        #expect(lenient.issues.contains { $0.path.hasSuffix("artwork") || $0.path.contains("artwork.") }, "\(lenient.issues)")
    }

    @Test("A shuffled play says so to v6 only; older versions play in order from the first track; a shuffle that is not a bool is refused at its path")
    func shuffle() throws {
        let play = Action.play(.init(metadataURL: "/media/queues/playlist/1", firstTrack: .init(id: "7", title: "II. Largo", streamURL: "/a.wav"), shuffle: true))
        for version in [APIVersion.v1, .v2, .v3, .v4, .v5, .v6] {
            let data = try ScreenplayEncoder(apiVersion: version).encode(play)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect((object["shuffle"] as? Bool) == (version >= .v6 ? true : nil), "\(version)")
            let decoded = try ScreenplayDecoder(mode: .strict, apiVersion: version).decode(Action.self, from: data)
            guard case .play(let read) = decoded.value else { Issue.record("not a play"); continue }
            #expect(read.shuffle == (version >= .v6) && read.firstTrack.id == "7", "\(version)")
        }
        // In order, nothing is written; a v5 reader ignores a v6 server's shuffle.
        let inOrder = Action.play(.init(metadataURL: "/q", firstTrack: .init(id: "1", title: "T", streamURL: "/a.wav")))
        #expect(!String(decoding: try ScreenplayEncoder(apiVersion: .v6).encode(inOrder), as: UTF8.self).contains("shuffle"))
        let v5 = try ScreenplayDecoder(mode: .strict, apiVersion: .v5).decode(Action.self, from: try ScreenplayEncoder(apiVersion: .v6).encode(play))
        guard case .play(let old) = v5.value else { Issue.record("not a play"); return }
        #expect(!old.shuffle)
        let wrong = Data(#"{"type":"play","metadataURL":"/q","firstTrack":{"id":"1","title":"T","streamURL":"/a.wav"},"shuffle":"yes"}"#.utf8)
        #expect {
            try ScreenplayDecoder(mode: .strict, apiVersion: .v6).decode(Action.self, from: wrong)
        } throws: { error in
            String(describing: error).contains("shuffle")
        }
    }

    @Test("A track's menu (v6): written and read for v6 only; a bad item is left out and reported, items past eight too; the track still plays")
    func trackMenu() throws {
        let items = [
            MenuItem(title: "Add this recording to a playlist", action: .command(.init(url: "commands/playlists/choose-recording", payload: ["recordingId": 3]))),
            MenuItem(title: "Go to Bach", action: .navigate(.init(url: "screens/composer/bach"))),
        ]
        let play = Action.play(.init(metadataURL: "/q", firstTrack: .init(id: "1", title: "I. Prélude", streamURL: "/a.wav", menu: items)))
        let v6 = try ScreenplayEncoder(apiVersion: .v6).encode(play)
        #expect(String(decoding: v6, as: UTF8.self).contains("choose-recording"))
        #expect(!String(decoding: try ScreenplayEncoder(apiVersion: .v5).encode(play), as: UTF8.self).contains("menu"))
        guard case .play(let read) = try ScreenplayDecoder(mode: .strict, apiVersion: .v6).decode(Action.self, from: v6).value else {
            Issue.record("not a play")
            return
        }
        #expect(read.firstTrack.menu == items)
        guard case .play(let old) = try ScreenplayDecoder(mode: .strict, apiVersion: .v5).decode(Action.self, from: v6).value else {
            Issue.record("not a play")
            return
        }
        #expect(old.firstTrack.menu.isEmpty)
        let nine = (0..<9).map { #"{"title":"Item \#($0)","action":{"type":"navigate","url":"screens/x"}}"# }.joined(separator: ",")
        let hostile = Data(
            #"{"type":"play","metadataURL":"/q","firstTrack":{"id":"1","title":"T","streamURL":"/a.wav","menu":[{"title":"Bad","action":{"type":"navigate","url":"javascript:alert(1)"}},\#(nine)]}}"#.utf8)
        let lenient = try ScreenplayDecoder(mode: .lossy, apiVersion: .v6).decode(Action.self, from: hostile)
        guard case .play(let kept) = lenient.value else {
            Issue.record("the play was lost")
            return
        }
        #expect(kept.firstTrack.menu.map(\.title) == (0..<8).map { "Item \($0)" })
        #expect(lenient.issues.contains { $0.path.contains("menu") && $0.message.contains("at most 8") }, "\(lenient.issues)")
        #expect(lenient.issues.contains { $0.path.contains("menu[0]") || $0.path.contains("menu.0") || $0.path.contains("menu") && $0.message.contains("javascript") }, "\(lenient.issues)")
    }

    @Test("A command payload keeps integers, nulls and nesting")
    func payloadPreserved() throws {
        let sample = try #require(ActionSample.all.first { $0.kind == "command" })
        let payload = try #require(try Fixture.wireObject(sample.full)["payload"] as? [String: Any])
        #expect(payload["workId"] as? Int == 42)
        #expect(payload["tags"] as? [String] == ["a", "b"])
        #expect(payload["note"] is NSNull)
    }

    @Test("An unknown action type is kept with its JSON and reported")
    func unknownKept() throws {
        let json = #"{"type":"teleport","where":"moon"}"#
        let decoded = try ScreenplayDecoder().decode(Action.self, from: Data(json.utf8))
        #expect(decoded.value == .unknown(type: "teleport", json: ["type": "teleport", "where": "moon"]))
        #expect(decoded.value.kind == "teleport")
        #expect(decoded.issues.map(\.kind) == [.unknownKind])
        #expect(decoded.issues.first?.message == "unknown action type 'teleport'")
        #expect(try ScreenplayEncoder().encode(decoded.value).utf8Text == json)
    }

    @Test("An action with no `type` fails with the path of the missing field")
    func missingType() {
        let error = #expect(throws: ScreenplayDecodingError.self) {
            try ScreenplayDecoder().decode(Action.self, from: Data(#"{"url":"screens/a"}"#.utf8))
        }
        #expect(error?.path == "$.type")
        #expect(error?.message == "missing required field 'type'")
    }

    @Test("An unknown navigate presentation is an open-enum value: shown as a push, recorded with its path, the action kept")
    func unknownPresentation() throws {
        let decoded = try ScreenplayDecoder(mode: .strict).decode(
            Action.self, from: Data(#"{"type":"navigate","url":"screens/a","presentation":"popover"}"#.utf8))
        #expect(decoded.value == .navigate(.init(url: "screens/a", presentation: .push)))
        #expect(
            decoded.issues == [
                DecodingIssue(kind: .unknownValue, path: "$.presentation", message: "unknown value 'popover'; shown as 'push'")
            ])
    }
}
