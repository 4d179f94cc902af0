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
