import HTTPTypes
import ScreenplayContract
import Testing

@testable import ScreenplayClient

@Suite("A text field's suggestions (v6)")
struct FieldSuggestionsTests {
    static func field(_ suggestions: String?) throws -> NodeField {
        let screen = Screen(
            id: "s", title: "Search", header: .init(title: "Search"),
            sections: [
                ScreenSection(
                    id: "find",
                    components: [.textField(.init(label: "Search", storageKey: "query", keyboard: .search, suggestions: suggestions)).id("f")])
            ])
        let tree = ViewTreeResolver(context: ResolutionContext(localActions: [])).resolve(screen).root
        return try #require(tree.allNodes.first { $0.role == .textField }?.field)
    }

    @Test("the tree carries where suggestions are; the URL asked carries the trimmed text as q, encoded, and none for a blank text")
    func url() throws {
        let field = try Self.field("screens/search/suggestions")
        #expect(field.suggestions == "screens/search/suggestions")
        #expect(field.suggestionsURL(for: "  rach ") == "screens/search/suggestions?q=rach")
        #expect(field.suggestionsURL(for: "Bach & Sons=1+1#x") == "screens/search/suggestions?q=Bach%20%26%20Sons%3D1%2B1%23x")
        #expect(field.suggestionsURL(for: "Dvořák") == "screens/search/suggestions?q=Dvo%C5%99%C3%A1k")
        #expect(field.suggestionsURL(for: "   ") == nil)
        #expect(try Self.field("screens/s?kind=composer").suggestionsURL(for: "a") == "screens/s?kind=composer&q=a")
        #expect(try Self.field(nil).suggestionsURL(for: "rach") == nil)
    }
}

@Suite("A navigator's suggestions for a field (v6)")
struct NavigatorSuggestionsTests {
    @Test("the suggestions screen for the text, its rows with their actions; nothing for a blank text, no field or a failed load")
    func rows() async throws {
        let transport = FakeTransport()
        let suggestions = Screen(
            id: "search-suggestions", title: "Suggestions", header: .init(title: "Suggestions"),
            sections: [
                ScreenSection(
                    id: "suggestions",
                    components: [
                        .listRow(.init(title: "Sergei Rachmaninoff", action: .navigate(.init(url: "screens/composer/rachmaninoff")))),
                        .text(.init("Works")),
                        .listRow(.init(title: "Piano Concerto No. 2", action: .navigate(.init(url: "screens/work/80")))),
                    ])
            ])
        transport.on(.get, api("screens/search/suggestions?q=rach"), .screen(suggestions))
        let navigator = ScreenNavigator(loader: ScreenLoader(endpoint: testEndpoint, transport: transport))
        let field = try FieldSuggestionsTests.field("screens/search/suggestions")
        let rows = await navigator.suggestions(for: field, text: " rach ")
        #expect(rows.map(\.text) == ["Sergei Rachmaninoff", "Piano Concerto No. 2"])
        guard case .navigate(let first)? = rows.first?.action?.action else {
            Issue.record("a row navigates")
            return
        }
        #expect(first.url == "screens/composer/rachmaninoff")
        #expect(await navigator.suggestions(for: field, text: "   ").isEmpty)
        #expect(await navigator.suggestions(for: try FieldSuggestionsTests.field(nil), text: "rach").isEmpty)
        // No route for this text: the load fails, and there is simply nothing to suggest.
        #expect(await navigator.suggestions(for: field, text: "zz").isEmpty)
        #expect(transport.requests.map(\.path) == [api("screens/search/suggestions?q=rach"), api("screens/search/suggestions?q=zz")])
    }
}
