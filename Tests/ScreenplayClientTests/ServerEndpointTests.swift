import Foundation
import ScreenplayClient
import ScreenplayContract
import Testing

@Suite("ServerEndpoint")
struct ServerEndpointTests {
    @Suite("API base")
    struct APIBase {
        @Test("a root without a trailing slash gets /api/v1/")
        func rootWithoutSlash() {
            let endpoint = ServerEndpoint(root: URL(string: "http://127.0.0.1:8080")!, apiVersion: .v1)
            #expect(endpoint.apiBase.absoluteString == "http://127.0.0.1:8080/api/v1/")
            #expect(endpoint.apiVersion == .v1)
        }

        @Test("a root with a trailing slash gets the same base")
        func rootWithSlash() {
            let endpoint = ServerEndpoint(root: URL(string: "http://127.0.0.1:8080/")!, apiVersion: .v1)
            #expect(endpoint.apiBase.absoluteString == "http://127.0.0.1:8080/api/v1/")
        }

        @Test("the version and the path prefix shape the base")
        func versionAndPrefix() {
            let root = URL(string: "https://music.example")!
            #expect(ServerEndpoint(root: root, apiVersion: APIVersion(3)).apiBase.absoluteString == "https://music.example/api/v3/")
            #expect(
                ServerEndpoint(root: root, apiVersion: .v1, pathPrefix: "/screenplay/api/").apiBase.absoluteString
                    == "https://music.example/screenplay/api/v1/")
            #expect(ServerEndpoint(root: root, apiVersion: .v1, pathPrefix: "").apiBase.absoluteString == "https://music.example/v1/")
        }
    }

    @Suite("Resolving references")
    struct Resolving {
        let endpoint = ServerEndpoint(root: URL(string: "http://127.0.0.1:8080")!, apiVersion: .v1)

        @Test("a relative reference resolves under the API base")
        func relative() {
            #expect(endpoint.resolve("screens/home")?.absoluteString == "http://127.0.0.1:8080/api/v1/screens/home")
            #expect(endpoint.resolve("screens/search?q=mozart")?.absoluteString == "http://127.0.0.1:8080/api/v1/screens/search?q=mozart")
        }

        @Test("a root-relative reference resolves against the server root")
        func rootRelative() {
            #expect(endpoint.resolve("/images/a.svg")?.absoluteString == "http://127.0.0.1:8080/images/a.svg")
        }

        @Test("an absolute http(s) URL is kept")
        func absolute() {
            #expect(endpoint.resolve("https://cdn.example.com/covers/1.jpg")?.absoluteString == "https://cdn.example.com/covers/1.jpg")
            #expect(endpoint.resolve("http://other.example:9000/api/v1/x")?.absoluteString == "http://other.example:9000/api/v1/x")
        }

        @Test(
            "references the endpoint policy refuses resolve to nil",
            arguments: [
                "javascript:alert(1)", "JavaScript:alert(1)", "file:///etc/passwd", "//evil.example/x", "", "screens/a b",
                "mailto:a@b.example",
            ]
        )
        func refused(reference: String) {
            #expect(endpoint.resolve(reference) == nil)
        }

        @Test("another policy can allow what the endpoint policy refuses")
        func otherPolicy() {
            #expect(endpoint.resolve("mailto:hello@music.example", policy: .external)?.absoluteString == "mailto:hello@music.example")
            #expect(endpoint.resolve("javascript:alert(1)", policy: .external) == nil)
        }
    }
}
