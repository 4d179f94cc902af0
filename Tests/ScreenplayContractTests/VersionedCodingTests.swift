import Foundation
import ScreenplayContract
import Testing

@Suite("Versioned coding")
struct VersionedCodingTests {
    static let row = Component.trackRow(.init(title: "Finale", duration: 3723))

    @Test(
        "a track row's duration is text up to v2 and seconds from v3",
        arguments: [
            (APIVersion.v1, #""duration":"1:02:03""#), (APIVersion.v2, #""duration":"1:02:03""#), (APIVersion.v3, #""duration":3723"#),
        ])
    func duration(version: APIVersion, fragment: String) throws {
        let bytes = try ScreenplayEncoder(apiVersion: version).encode(Self.row)
        #expect(String(decoding: bytes, as: UTF8.self).contains(fragment))
        let decoded = try ScreenplayDecoder(mode: .strict, apiVersion: version).decode(Component.self, from: bytes)
        #expect(decoded.value == Self.row)
    }

    @Test("a v1 client refuses seconds and a v3 client refuses text, each naming the field")
    func wrongShape() {
        let seconds = Data(#"{"type":"trackRow","title":"t","duration":61}"#.utf8)
        let text = Data(#"{"type":"trackRow","title":"t","duration":"1:01"}"#.utf8)
        let garbage = Data(#"{"type":"trackRow","title":"t","duration":"about a minute"}"#.utf8)
        for (data, version) in [(seconds, APIVersion.v1), (text, .v3), (garbage, .v2)] {
            let error = #expect(throws: ScreenplayDecodingError.self) {
                try ScreenplayDecoder(mode: .strict, apiVersion: version).decode(Component.self, from: data)
            }
            #expect(error?.path == "$.duration", "\(version)")
        }
    }

    @Test("durations format and parse both ways")
    func formatting() {
        #expect(Component.TrackRow.format(0) == "0:00")
        #expect(Component.TrackRow.format(461) == "7:41")
        #expect(Component.TrackRow.format(3600) == "1:00:00")
        #expect(Component.TrackRow.parse("7:41") == 461)
        #expect(Component.TrackRow.parse("1:02:03") == 3723)
        for bad in ["7:61", "7", ":41", "7:4a", "1:2:3:4", "-1:00", "７:41"] {
            #expect(Component.TrackRow.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("a client decodes kinds introduced after its version as unknown")
    func laterKindsUnknown() throws {
        let grid = Data(#"{"type":"grid","columns":2,"cards":[]}"#.utf8)
        let v1 = try ScreenplayDecoder(apiVersion: .v1).decode(Component.self, from: grid)
        #expect(v1.value.kind.rawValue == "grid")
        #expect(v1.issues.map(\.kind) == [.unknownKind])
        guard case .unknown = v1.value.content else {
            Issue.record("v1 must not decode grid")
            return
        }
        let v2 = try ScreenplayDecoder(apiVersion: .v2).decode(Component.self, from: grid)
        #expect(v2.value == .grid(.init(columns: 2, cards: [])))
        #expect(v2.issues.isEmpty)
    }

    @Test("grid columns outside 1...6 are refused")
    func gridColumns() {
        #expect(throws: ScreenplayDecodingError.self) {
            try ScreenplayDecoder(mode: .strict).decode(Component.self, from: Data(#"{"type":"grid","columns":9,"cards":[]}"#.utf8))
        }
    }
}
