import Foundation
import ScreenplayContract
import Testing

@Suite("Link policy")
struct LinkPolicyTests {
    static let endpointAllowed = [
        "screens/home", "screens/composer/mozart?tab=works#top", "/screens/a", "https://api.example/screens/a", "http://localhost:8080/x",
        "HTTPS://API.EXAMPLE/A", "?q=1", "screens/a:b", "screens/a?at=12:30", "./screens/a",
    ]

    static let endpointRefused: [(url: String, reason: String)] = [
        ("javascript:alert(1)", "URL scheme 'javascript' is not allowed here (allowed: http, https, or a relative path)"),
        ("JaVaScRiPt:alert(1)", "URL scheme 'JaVaScRiPt' is not allowed here (allowed: http, https, or a relative path)"),
        ("file:///etc/passwd", "URL scheme 'file' is not allowed here"),
        ("data:text/html,<script>alert(1)</script>", "URL scheme 'data' is not allowed here"),
        ("mailto:a@example.com", "URL scheme 'mailto' is not allowed here"),
        ("tel:+431234", "URL scheme 'tel' is not allowed here"),
        ("a:b", "URL scheme 'a' is not allowed here"),
        ("//evil.example/x", "URL '//evil.example/x' is protocol-relative; give a scheme or a path"),
        ("", "empty URL"),
        ("screens/a b", "URL 'screens/a b' contains whitespace or control characters"),
        ("screens/a\nb", "contains whitespace or control characters"),
        ("java\tscript:alert(1)", "contains whitespace or control characters"),
        ("screens/\u{7F}", "contains whitespace or control characters"),
        ("screens/\u{0}", "contains whitespace or control characters"),
    ]

    @Test("Endpoints accept relative paths and http(s)", arguments: endpointAllowed)
    func endpointAccepts(url: String) {
        #expect(throws: Never.self) { try LinkPolicy.endpoint.check(url) }
    }

    @Test("Endpoints refuse other schemes, protocol-relative and control characters", arguments: endpointRefused)
    func endpointRefuses(url: String, reason: String) {
        let violation = #expect(throws: ContractViolation.self) { try LinkPolicy.endpoint.check(url) }
        #expect(violation?.message.contains(reason) == true, "\(violation?.message ?? "no violation")")
    }

    @Test("Resources follow the endpoint rules")
    func resources() {
        #expect(LinkPolicy.resource == LinkPolicy.endpoint)
    }

    @Test(
        "External links also allow mailto and tel",
        arguments: [
            "mailto:friend@example.com", "MAILTO:x@example.com", "tel:+431234567", "https://example.com", "screens/a",
        ])
    func externalAccepts(url: String) {
        #expect(throws: Never.self) { try LinkPolicy.external.check(url) }
    }

    @Test(
        "External links refuse script, file, data and protocol-relative",
        arguments: [
            "javascript:alert(1)", "file:///etc/passwd", "data:text/html,hi", "//evil.example", "sms:123", "vbscript:x",
        ])
    func externalRefuses(url: String) {
        #expect(throws: ContractViolation.self) { try LinkPolicy.external.check(url) }
    }

    @Test("The refusal lists what is allowed for the policy")
    func refusalListsAllowed() {
        let violation = #expect(throws: ContractViolation.self) { try LinkPolicy.external.check("ftp://x") }
        #expect(violation?.message == "URL scheme 'ftp' is not allowed here (allowed: http, https, mailto, tel, or a relative path)")
    }

    @Test("The length limit is inclusive: 4096 bytes pass, 4097 do not")
    func lengthLimit() {
        let prefix = "screens/"
        let atLimit = prefix + String(repeating: "a", count: LinkPolicy.maximumLength - prefix.utf8.count)
        #expect(atLimit.utf8.count == 4096)
        #expect(throws: Never.self) { try LinkPolicy.endpoint.check(atLimit) }
        let violation = #expect(throws: ContractViolation.self) { try LinkPolicy.endpoint.check(atLimit + "a") }
        #expect(violation?.message == "URL is 4097 characters long; the limit is 4096")
    }

    @Test("The length limit counts Unicode scalars, as JSON Schema's maxLength does: not bytes, not grapheme clusters")
    func lengthInScalars() {
        // 4096 two-byte scalars: 8 200 bytes of UTF-8, within the limit.
        let wide = "screens/" + String(repeating: "é", count: LinkPolicy.maximumLength - 8)
        #expect(throws: Never.self) { try LinkPolicy.endpoint.check(wide) }
        // One grapheme cluster of 4097 scalars (a letter and combining marks): over the limit.
        let stacked = "screens/a" + String(repeating: "\u{301}", count: LinkPolicy.maximumLength - 8)
        #expect(stacked.count < 20)
        let violation = #expect(throws: ContractViolation.self) { try LinkPolicy.endpoint.check(stacked) }
        #expect(violation?.message == "URL is 4097 characters long; the limit is 4096")
    }

    @Test("A policy without relative references demands a scheme")
    func absoluteOnly() {
        let policy = LinkPolicy(allowedSchemes: ["https"], allowsRelative: false)
        #expect(throws: Never.self) { try policy.check("https://example.com") }
        let violation = #expect(throws: ContractViolation.self) { try policy.check("screens/a") }
        #expect(violation?.message == "URL 'screens/a' must be absolute")
        let refused = #expect(throws: ContractViolation.self) { try policy.check("http://example.com") }
        #expect(refused?.message == "URL scheme 'http' is not allowed here (allowed: https)")
    }

    @Test(
        "Backslash forms that browsers read as protocol-relative are refused",
        arguments: [#"/\evil.example"#, #"\\evil.example"#, #"\/evil.example"#])
    func backslashProtocolRelative(url: String) {
        #expect(throws: ContractViolation.self) { try LinkPolicy.endpoint.check(url) }
    }

    @Test(
        "A play action's stream URL passes the link policy")
    func streamURLChecked() {
        let json = #"{"type":"play","metadataURL":"queues/1","firstTrack":{"id":"1","title":"t","streamURL":"file:///etc/passwd"}}"#
        #expect(throws: ScreenplayDecodingError.self) {
            try ScreenplayDecoder(mode: .strict).decode(Action.self, from: Data(json.utf8))
        }
    }

    @Test("A play action's metadata URL is checked")
    func metadataURLChecked() {
        let json = #"{"type":"play","metadataURL":"javascript:alert(1)","firstTrack":{"id":"1","title":"t","streamURL":"streams/1"}}"#
        let error = #expect(throws: ScreenplayDecodingError.self) {
            try ScreenplayDecoder(mode: .strict).decode(Action.self, from: Data(json.utf8))
        }
        #expect(error?.path == "$.metadataURL")
    }

    @Test("Share and openURL use the external policy; navigate and command the endpoint one")
    func policiesPerAction() throws {
        let decoder = ScreenplayDecoder(mode: .strict)
        let share = #"{"type":"share","title":"x","url":"mailto:a@example.com"}"#
        #expect(try decoder.decode(Action.self, from: Data(share.utf8)).value == .share(.init(title: "x", url: "mailto:a@example.com")))
        let open = #"{"type":"openURL","url":"tel:+43"}"#
        #expect(try decoder.decode(Action.self, from: Data(open.utf8)).value == .openURL(.init(url: "tel:+43")))
        for json in [#"{"type":"navigate","url":"mailto:a@example.com"}"#, #"{"type":"command","url":"tel:+43"}"#] {
            let error = #expect(throws: ScreenplayDecodingError.self) { try decoder.decode(Action.self, from: Data(json.utf8)) }
            #expect(error?.path == "$.url")
        }
    }

    @Test(
        "combining marks and modifiers glued to ':', '/' or a backslash do not hide them",
        arguments: ["javascript:\u{301}x", "javascript:\u{FF9E}=1,alert(1)", "//\u{1F3FB}evil.example", "/\\\u{301}x"])
    func graphemeTricks(url: String) {
        #expect(throws: ContractViolation.self) { try LinkPolicy.endpoint.check(url) }
        #expect(throws: ContractViolation.self) { try LinkPolicy.external.check(url) }
    }
}
