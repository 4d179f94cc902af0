import Testing

@testable import ScreenplayWeb

/// Where a form's answer sends the browser: always a local path, the notice replaced, the rest kept.
@Suite("Redirect locations after a form")
struct RedirectLocationTests {
    static let id = "0123456789abcdef01234567"

    @Test(
        "a notice replaces any notice, and only that parameter; what comes out stays on the site",
        arguments: [
            ("/", "/?notice=\(id)"),
            ("/screens/home#works", "/screens/home?notice=\(id)#works"),
            ("/screens/playlist/1?notice=x&a=b", "/screens/playlist/1?a=b&notice=\(id)"),
            ("/?notice=/evil.com", "/?notice=\(id)"),
            ("/?notice=//evil.com", "/?notice=\(id)"),
            ("/?notice", "/?notice=\(id)"),
            ("/screens/search?q=a+b&notice=old", "/screens/search?q=a+b&notice=\(id)"),
            ("/ /evil.com", "/%20/evil.com?notice=\(id)"),
            ("/screens/ünï", "/screens/%C3%BCn%C3%AF?notice=\(id)"),
            ("/x?a=%26b", "/x?a=%26b&notice=\(id)"),
            ("/x?a=\r\nSet-Cookie:1", "/x?a=%0D%0ASet-Cookie:1&notice=\(id)"),
        ])
    func withNotice(back: String, expected: String) {
        #expect(WebSite.location(back, notice: Self.id) == expected)
    }

    @Test("without a notice, the page itself, its old notice gone")
    func withoutNotice() {
        #expect(WebSite.location("/screens/a?notice=abc&q=1", notice: nil) == "/screens/a?q=1")
        #expect(WebSite.location("/screens/a?notice=abc", notice: nil) == "/screens/a")
    }
}
