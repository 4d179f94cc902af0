import Foundation
import ScreenplayContract
import ScreenplayWeb
import Testing

@Suite("HTML escaping")
struct HTMLEscapeTests {
    @Test("Markup, quotes and ampersands become entities")
    func script() {
        #expect(HTML.escape(#"<script>alert("x")</script> & 'y'"#) == "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;")
    }

    @Test("Existing entities are escaped again, not trusted")
    func doubleEscape() {
        #expect(HTML.escape("&lt;b&gt;") == "&amp;lt;b&amp;gt;")
    }

    @Test("Other text, including non-ASCII and emoji, passes through")
    func passThrough() {
        #expect(HTML.escape("Dvořák — Symphony № 9 🎵") == "Dvořák — Symphony № 9 🎵")
        #expect(HTML.escape("") == "")
    }

    @Test("An attribute breakout attempt stays inside the attribute")
    func attributeBreakout() {
        let escaped = HTML.escape(#"" onmouseover="alert(1)"#)
        #expect(!escaped.contains("\""))
        #expect(escaped == "&quot; onmouseover=&quot;alert(1)")
    }
}

@Suite("HTML escaping of control characters")
struct HTMLControlCharacterTests {
    @Test("NUL, escape and C1 controls become U+FFFD; tab and line breaks stay")
    func controls() {
        #expect(HTML.escape("mo\u{0}zart\u{1B}[31m\u{85}") == "mo\u{FFFD}zart\u{FFFD}[31m\u{FFFD}")
        #expect(HTML.escape("a\tb\nc\r") == "a\tb\nc\r")
    }
}

@Suite("HTML identifiers")
struct HTMLIdentifierTests {
    @Test("Letters, digits and '-' stay; everything else, '_' included, is a hex byte")
    func tokens() {
        #expect(HTML.identifier("query-2") == "query-2")
        #expect(HTML.identifier("a b&c\"") == "a_20b_26c_22")
        #expect(HTML.identifier("a_b") == "a_5Fb")
        #expect(HTML.identifier("ř") == "_C5_99")
    }

    @Test("Two different keys never share an id")
    func injective() {
        let keys = ["a_20b", "a b", "a_5F20b", "a_b", "", "_"]
        #expect(Set(keys.map(HTML.identifier)).count == keys.count)
    }

    @Test("A field whose key has a space, '&' and a quote is still described by its limit")
    func describedByHostileKey() {
        let field = Component.textField(.init(label: "Name", storageKey: #"my key&"x""#, maxLength: 10))
        let html = Fixture.page([field])
        #expect(html.contains(#"<input id="field-my_20key_26_22x_22" "#))
        #expect(html.contains(#"aria-describedby="field-my_20key_26_22x_22-limit""#))
        #expect(html.contains(#"<p class="field-limit" id="field-my_20key_26_22x_22-limit""#))
        #expect(html.contains(#"name="storage.my key&amp;&quot;x&quot;""#))
    }

    @Test("A required field (v6) carries its escaped message for the script, an empty live region beside it, and names the fields module")
    func requiredField() {
        let field = Component.textField(
            .init(label: "Name", storageKey: "name", requiredMessage: "Type a <name>", submit: .command(.init(url: "commands/rename"))))
        let html = Fixture.page([field])
        #expect(html.contains(#"aria-describedby="field-name-required" required data-required="Type a &lt;name&gt;" data-check="/web/fields.js?v="#))
        #expect(html.contains(#"<p class="field-error" id="field-name-required" aria-live="polite"></p>"#))
        // Blank: nothing to send, so the form's button is there (the browser and server refuse it).
        #expect(html.contains("<button type=\"submit\">Send</button>"))
    }

    @Test("A field that names its suggestions (v6) names the suggestions module, the page to ask and the parameter; one without names none")
    func suggestingField() {
        let field = Component.textField(
            .init(label: "Search", storageKey: "query", keyboard: .search, submit: .command(.init(url: "commands/search")), suggestions: "screens/search/suggestions"))
        let html = Fixture.page([field])
        #expect(html.contains(#"autocomplete="off" data-suggest="/web/suggest.js?v="#))
        #expect(html.contains(#"data-suggest-from="/screens/search/suggestions" data-suggest-param="q">"#))
        let plain = Fixture.page([Component.textField(.init(label: "Search", storageKey: "query", submit: .command(.init(url: "commands/search"))))])
        let input = plain.range(of: #"<input id="field-query""#).map { plain[$0.lowerBound...].prefix { $0 != ">" } } ?? ""
        #expect(!input.isEmpty && !input.contains("data-suggest"), "\(input)")
    }

    @Test("A field whose verdict is computed (v6) says it in a live region the script rewrites, escaped, and carries the expression")
    func computedVerdict() throws {
        let field = Component.textField(.init(label: "Name", storageKey: "name", submit: .command(.init(url: "commands/rename"))))
            .computing(.validation, "len(name) > 3 ? '<b>Too long</b>' : ''").id("f")
        let screen = Screen(
            id: "s", title: "S", sections: [ScreenSection(id: "main", components: [field])],
            state: ["name": try StateVariable(.string, initial: .string("Adele"))])
        let html = Fixture.bare(HTMLRenderer().page(for: screen, currentPath: "/screens/s"))
        #expect(html.contains(#"<p class="field-error" id="field-name-computed" aria-live="polite">&lt;b&gt;Too long&lt;/b&gt;</p>"#), "\(html)")
        #expect(html.contains(#"aria-describedby="field-name-computed""#))
        #expect(html.contains("data-compute=") && html.contains("validation"))
        #expect(!html.contains("field-name-error"), "the computed verdict is not said twice")
    }
}
