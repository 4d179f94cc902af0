import Foundation
import ScreenplayContract
import Testing

/// Bugs the fuzzers in `Fuzz/` found, each stated through the public API. The crashing inputs are
/// in `Fuzz/Regressions/<Target>/`; `bash Fuzz/run.sh` replays them before it fuzzes.
@Suite("Fuzz regressions (contract)")
struct FuzzRegressionTests {
    /// `Fuzz/Regressions/FuzzJSONSyntax/invalid-utf8-in-string.json`: `"`, 0xFF, `"`. Foundation
    /// refuses it (a JSON text is UTF-8), but `JSONSyntax` called it well-formed, so the decoder's
    /// error fell back to Foundation's message with no line and column.
    @Test("JSONSyntax refuses a string that is not UTF-8, at the bad byte")
    func invalidUTF8InString() throws {
        let data = Data([0x22, 0xFF, 0x22])
        #expect((try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) == nil)
        let failure = try #require(JSONSyntax.firstError(in: data))
        #expect(failure.offset == 1)
        #expect(failure.line == 1 && failure.column == 2)
    }

    /// `Fuzz/Regressions/FuzzDowngrade/custom-kind-without-id.json`: an app-defined component is
    /// encoded as its JSON alone, so the attributes every kind shares from v4 (the id the service
    /// assigns, accessibility, bindings) never reach the client that renders it.
    @Test("An app-defined component keeps its id and accessibility on the wire (v4)")
    func customComponentAttributes() throws {
        var component = Component.unknown(.init(type: "ticketOffer", json: ["type": "ticketOffer", "price": "5"]))
        component.attributes = ComponentAttributes(id: "s/ticketOffer", accessibility: Accessibility(label: "Tickets"))
        let screen = Screen(id: "x", title: "t", sections: [ScreenSection(id: "s", components: [component])])
        let data = try ScreenplayEncoder(apiVersion: .v4).encode(screen)
        let decoded = try ScreenplayDecoder(mode: .strict, apiVersion: .v4, customKinds: ["ticketOffer"]).decode(Screen.self, from: data)
        let sent = try #require(decoded.value.sections.first?.components.first)
        #expect(sent.id == "s/ticketOffer")
        #expect(sent.attributes.accessibility?.label == "Tickets")
    }

    /// `Fuzz/Regressions/FuzzScreenDecoding/rows-of-an-unknown-kind.json`: rows whose template is a
    /// kind this client does not know. Lossy decoding kept each row aside as unknown (an issue, not
    /// an error), as it does on the wire, but strict decoding threw at the first row: the rows'
    /// issues all failed a strict decode, where the wire's unknown kinds are only recorded.
    @Test("Rows of a kind the client does not know decode strictly, as the wire's unknown kinds do, with the same issues as lossy")
    func rowsOfAnUnknownKind() throws {
        let data = Data(
            #"{"id": "s", "title": "S", "state": {"works": {"type": {"array": "string"}, "initial": ["a", "b"]}}, "sections": [{"id": "main", "components": [{"type": "rows", "id": "works", "items": "works", "template": {"type": "lince", "text": "${item}"}}]}]}"#.utf8)
        let strict = try ScreenplayDecoder(mode: .strict, apiVersion: .v6).decode(Screen.self, from: data)
        let lossy = try ScreenplayDecoder(mode: .lossy, apiVersion: .v6).decode(Screen.self, from: data)
        #expect(strict.value == lossy.value)
        #expect(strict.issues == lossy.issues)
        #expect(strict.issues.map(\.path) == ["$.sections[0].components[0].rows[0]", "$.sections[0].components[0].rows[1]"])
        #expect(strict.issues.allSatisfy { $0.kind == .unknownKind && $0.message.contains("'lince'") })
        #expect(strict.value.sections[0].components.map(\.kind.rawValue) == ["lince", "lince"])
        // A row that is no component (a text without its text) still fails a strict decode, at its path.
        let broken = Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: #""lince", "text""#, with: #""text", "title""#).utf8)
        #expect(throws: ScreenplayDecodingError.self) { try ScreenplayDecoder(mode: .strict, apiVersion: .v6).decode(Screen.self, from: broken) }
    }
}
