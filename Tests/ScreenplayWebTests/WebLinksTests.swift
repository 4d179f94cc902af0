import ScreenplayContract
import ScreenplayWeb
import Testing

@Suite("Web links")
struct WebLinksTests {
    let links = WebLinks()

    @Test(
        "Contract paths map to site paths",
        arguments: [
            ("screens/composer/mozart", "/screens/composer/mozart"), ("screens/home", "/"), ("screens/home?x=1", "/screens/home?x=1"),
            ("/already/rooted", "/already/rooted"), ("https://example.com/a", "https://example.com/a"),
            ("HTTP://example.com", "HTTP://example.com"),
            ("images/a.png", "/images/a.png"),
        ])
    func mapped(url: String, href: String) {
        #expect(links.href(url) == href)
    }

    @Test("Refused URLs have no href", arguments: ["javascript:alert(1)", "//evil.example", "data:,x", "", "a b", "mailto:a@example.com"])
    func refused(url: String) {
        #expect(links.href(url) == nil)
    }

    @Test("mailto and tel pass through under the external policy")
    func external() {
        #expect(links.href("mailto:a@example.com", policy: .external) == "mailto:a@example.com")
        #expect(links.href("tel:+43", policy: .external) == "tel:+43")
        #expect(links.href("javascript:x", policy: .external) == nil)
    }

    @Test("The command path defaults to /web/command")
    func commandPath() {
        #expect(WebLinks().commandPath == "/web/command")
        #expect(WebLinks(commandPath: "/c").commandPath == "/c")
    }

    @Test("a leading slash followed by a modifier stays one slash: never made protocol-relative")
    func modifierAfterSlash() {
        let url = "/\u{1F3FB}evil.example/x"
        #expect(WebLinks().href(url) == url)
        #expect(WebLinks().href("screens/a\u{301}") == "/screens/a\u{301}")
    }
}
