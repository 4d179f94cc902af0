import Foundation
import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer
import ScreenplayTestSupport
import Testing

@Suite("Composer: remote provider envelopes")
struct ComposerEnvelopeTests {
    @Test("each widget is a byte-exact slice of the body; entities are decoded; other members are ignored")
    func slices() throws {
        let body = """
            {
              "debug": {"took": "12 ms", "nested": [1, {"a": "}"}]},
              "widgets": {
                "tea": {"type": "productCard", "title": "T\\"ea", "price": "€12",   "discount": false},
                "w\\u0032": {"type":"banner","headline":"[{x}]"}
              },
              "entities": {"product/42": {"price": "€12"}}
            }
            """
        let response = try WidgetResponse(envelope: Array(body.utf8))
        #expect(
            response.fragments["tea"]
                == .bytes(Array(#"{"type": "productCard", "title": "T\"ea", "price": "€12",   "discount": false}"#.utf8)))
        #expect(response.fragments["w2"] == .bytes(Array(#"{"type":"banner","headline":"[{x}]"}"#.utf8)), "keys are unescaped")
        #expect(response.fragments.count == 2)
        #expect(response.entities == ["product/42": ["price": "€12"]])
    }

    @Test(
        "a body that cannot be read says where",
        arguments: [
            (#"{"widgets": {"a": 1,}}"#, "$", "line 1, column 21"),
            ("[]", "$", "object"),
            (#"{"entities": {}}"#, "$.widgets", "missing"),
            (#"{"widgets": []}"#, "$.widgets", "object"),
            (#"{"widgets": {"a": {}, "a": {}}}"#, "$.widgets.a", "twice"),
            (#"{"widgets": {}, "entities": {"p": 1}}"#, "$.entities", "objects"),
        ])
    func errors(body: String, path: String, message: String) {
        let error = #expect(throws: WidgetEnvelopeError.self) { try WidgetResponse(envelope: Array(body.utf8)) }
        #expect(error?.path == path)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test("a provider that reads an envelope composes like any other, its bytes spliced as sent")
    func composes() async throws {
        let body = #"{"widgets": {"hero": {"type": "banner",  "headline": "Remote"}}}"#
        let provider = ClosureWidgetProvider { _ in try WidgetResponse(envelope: Array(body.utf8)) }
        let composer = Composer(catalog: Widgets.catalog, providers: ["remote": provider], logger: CapturedLogs().logger)
        let page = await composer.compose(
            template: template([.init(id: "s", widgets: [widget("hero", "banner", vertical: "remote")])]), context: context())
        #expect(String(decoding: page.bytes, as: UTF8.self).contains(#"{"id":"hero","type": "banner",  "headline": "Remote"}"#))
        #expect(try decodeStrictly(page).issues.isEmpty)
    }
}
