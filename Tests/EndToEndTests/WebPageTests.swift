import Foundation
import HTTPTypes
import ScreenplayContract
import Testing

@Suite("End to end: web pages without JavaScript", .serialized)
struct WebPageTests {
    static func cookie(from response: RawResponse) -> String? {
        response.headers[.setCookie]?.split(separator: ";").first.map(String.init)
    }

    static func form(_ fields: [String: String]) -> [UInt8] {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return Array(
            fields.map { key, value in
                "\(key)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
            }.joined(separator: "&").utf8)
    }

    /// A browser session: the cookie the first command (a search) hands out.
    static func session(_ root: URL) async throws -> String {
        let answer = try await raw(
            .post, root, "/web/command", headers: [.contentType: "application/x-www-form-urlencoded"],
            body: form(["url": "commands/search", "payload": "{}", "back": "/screens/search", "storage.query": "bach"]))
        #expect(answer.headers[.setCookie]?.contains("HttpOnly") == true)
        return try #require(cookie(from: answer))
    }

    @Test("the root URL shows the home screen as HTML; reading sets no cookie, the first command does")
    func home() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            let page = try await raw(.get, root, "/")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.headers[.setCookie] == nil)
            let cookie = try await Self.session(root)
            #expect(cookie.hasPrefix("screenplay_token="))
            #expect(page.text.contains(#"<h2 data-node="section:top-composers/heading:Top composers">Top composers</h2>"#))
            #expect(page.text.contains("href=\"/screens/composer/mozart\""))
            let again = try await raw(.get, root, "/", headers: [.cookie: cookie])
            #expect(again.headers[.setCookie] == nil)

            let composer = try await raw(.get, root, "/screens/composer/mozart", headers: [.cookie: cookie])
            #expect(composer.status == .ok)
            #expect(composer.text.contains("Wolfgang Amadeus Mozart"))
            let missing = try await raw(.get, root, "/screens/composer/nobody", headers: [.cookie: cookie])
            #expect(missing.status == .notFound)
            #expect(missing.text.contains("<h1>Page not found</h1>") && missing.text.contains("Nothing is at /screens/composer/nobody."))
        }
    }

    @Test("menu commands work as form posts: favorite, then a prompt whose text is escaped on the page")
    func formCommands() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            let cookie = try await Self.session(root)
            let headers: HTTPFields = [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"]
            let playlistPage = try await raw(.get, root, "/screens/playlist/1", headers: [.cookie: cookie])
            #expect(playlistPage.text.contains("Add to favorites"))
            let favorite = try await raw(
                .post, root, "/web/command", headers: headers,
                body: Self.form([
                    "url": "commands/favorites/add", "payload": "{\"playlistId\":1}", "back": "/screens/playlist/1",
                ]))
            #expect(favorite.status == .seeOther)
            let location = try #require(favorite.headers[.location])
            #expect(location.hasPrefix("/screens/playlist/1?notice="))
            let after = try await raw(.get, root, location, headers: [.cookie: cookie])
            #expect(after.text.contains("Remove from favorites"))
            #expect(after.text.contains(#"<p class="notice" role="status" data-notice="confirmation" style="--sp-toast:"#))

            // The prompt is a page of its own: the post redirects to it.
            let asked = try await raw(
                .post, root, "/web/command", headers: headers,
                body: Self.form(["url": "commands/playlists/new", "payload": "{}", "back": "/"]))
            #expect(asked.status == .seeOther)
            let promptPath = try #require(asked.headers[.location])
            let prompt = try await raw(.get, root, promptPath, headers: [.cookie: cookie])
            #expect(prompt.status == .ok)
            #expect(prompt.text.contains("name=\"field\" value=\"name\""))
            let hostile = "<script>alert('x')</script>"
            let created = try await raw(
                .post, root, "/web/command", headers: headers,
                body: Self.form([
                    "url": "commands/playlists/create", "payload": "{}", "back": "/", "field": "name", "value": hostile,
                ]))
            #expect(created.status == .seeOther)
            #expect(created.headers[.location]?.hasPrefix("/screens/playlist/") == true, "created, and opened")
            let home = try await raw(.get, root, "/", headers: [.cookie: cookie])
            #expect(home.text.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"))
            #expect(!home.text.contains(hostile))

            // Refused from the prompt's page: back to it, with the reason beside the field.
            let dialog = String(promptPath.dropFirst("/web/results/".count))
            let empty = try await raw(
                .post, root, "/web/command", headers: headers,
                body: Self.form([
                    "url": "commands/playlists/create", "payload": "{}", "back": "/", "field": "name", "value": "  ", "dialog": dialog,
                ]))
            #expect(empty.status == .seeOther)
            #expect(empty.headers[.location] == promptPath)
            let refused = try await raw(.get, root, promptPath, headers: [.cookie: cookie])
            #expect(refused.text.contains("must not be empty"))

            // Cross-site posts are refused, and a post without a session never mints one.
            let favoriteForm = Self.form(["url": "commands/favorites/remove", "payload": "{\"playlistId\":1}", "back": "/"])
            var crossSite = headers
            crossSite[HTTPField.Name("Sec-Fetch-Site")!] = "cross-site"
            #expect(try await raw(.post, root, "/web/command", headers: crossSite, body: favoriteForm).status == .forbidden)
            var foreignOrigin = headers
            foreignOrigin[.origin] = "http://evil.example"
            #expect(try await raw(.post, root, "/web/command", headers: foreignOrigin, body: favoriteForm).status == .forbidden)
            var sameOrigin = headers
            sameOrigin[.origin] = "http://\(root.host!):\(root.port!)"
            sameOrigin[HTTPField.Name("Sec-Fetch-Site")!] = "same-origin"
            let accepted = try await raw(
                .post, root, "/web/command", headers: sameOrigin,
                body: Self.form(["url": "commands/favorites/add", "payload": "{\"playlistId\":2}", "back": "/"]))
            #expect(accepted.status == .seeOther)
            let cookieless = try await raw(
                .post, root, "/web/command", headers: [.contentType: "application/x-www-form-urlencoded"], body: favoriteForm)
            // A post without the cookie acts for a new identity of its own, never for the cookie's owner.
            #expect(cookieless.status == .seeOther)
            let newCookie = try #require(Self.cookie(from: cookieless))
            #expect(newCookie != cookie)
            let stillFavorite = try await raw(.get, root, "/screens/playlist/1", headers: [.cookie: cookie])
            #expect(stillFavorite.text.contains("Remove from favorites"))

            let offsite = try await raw(
                .post, root, "/web/command", headers: headers,
                body: Self.form([
                    "url": "commands/favorites/remove", "payload": "{\"playlistId\":1}", "back": "//evil.example/",
                ]))
            #expect(offsite.headers[.location]?.hasPrefix("/?notice=") == true)
        }
    }

    @Test("a track's audio over HTTP: as long as its row, by range (206), HEAD, 416 past the end, whole when the file changed")
    func audio() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            let head = try await raw(.head, root, "/media/audio/track/1.wav")
            #expect(head.status == .ok && head.body.isEmpty)
            #expect(head.headers[.acceptRanges] == "bytes")
            #expect(head.headers[.contentType] == "audio/wav")
            let size = try #require(head.headers[.contentLength].flatMap(Int.init))
            let etag = try #require(head.headers[.eTag])
            // Track 1 is 2:23: 143 seconds of 11 025 one-byte samples, and the header.
            #expect(size == 44 + 143 * 11_025)
            #expect(head.headers[.cacheControl]?.hasPrefix("public") == true)

            let middle = try await raw(.get, root, "/media/audio/track/1.wav", headers: [.range: "bytes=\(size / 2)-\(size / 2 + 9_999)"])
            #expect(middle.status == .partialContent)
            #expect(middle.body.count == 10_000)
            #expect(middle.headers[.contentRange] == "bytes \(size / 2)-\(size / 2 + 9_999)/\(size)")
            let again = try await raw(.get, root, "/media/audio/track/1.wav", headers: [.range: "bytes=\(size / 2)-\(size / 2 + 9_999)", .ifRange: etag])
            #expect(again.status == .partialContent && again.body == middle.body, "the same bytes for the same range")
            let tail = try await raw(.get, root, "/media/audio/track/1.wav", headers: [.range: "bytes=-100"])
            #expect(tail.status == .partialContent && tail.body.count == 100)
            let past = try await raw(.get, root, "/media/audio/track/1.wav", headers: [.range: "bytes=\(size)-"])
            #expect(past.status == .rangeNotSatisfiable)
            #expect(past.headers[.contentRange] == "bytes */\(size)")
            let changed = try await raw(.get, root, "/media/audio/track/1.wav", headers: [.range: "bytes=0-9", .ifRange: "\"other\""])
            #expect(changed.status == .ok && changed.body.count == size, "a range of another version of the file: the whole file")
            #expect(try await raw(.get, root, "/media/audio/track/999999.wav").status == .notFound)
            // A range that covers the whole file is still a range; the file revalidates; HEAD
            // answers for images and queues too.
            let all = try await raw(.get, root, "/media/audio/track/1.wav", headers: [.range: "bytes=0-99999999999999"])
            #expect(all.status == .partialContent && all.headers[.contentRange] == "bytes 0-\(size - 1)/\(size)")
            #expect(try await raw(.get, root, "/media/audio/track/1.wav", headers: [.ifNoneMatch: etag]).status == .notModified)
            #expect(try await raw(.head, root, "/images/composer/bach.svg").status == .ok)
            #expect(try await raw(.head, root, "/media/queues/recording/1").status == .ok)
            let queue = try JSONDecoder().decode(JSONValue.self, from: Data(try await raw(.get, root, "/media/queues/recording/1").body))
            #expect(queue["tracks"]?.arrayValue?.first?["subtitle"]?.stringValue == "Pablo Casals", "each queued track carries its performers")
            #expect(queue["tracks"]?.arrayValue?.first?["work"]?.stringValue == "Cello Suite No. 1", "and what it belongs to")
            #expect(queue["tracks"]?.arrayValue?.first?["composer"]?.stringValue == "Johann Sebastian Bach")
        }
    }

    @Test("a playlist plays all: one recording of each work, in the playlist's order, from a queue its URL names; a bad queue URL says what is wrong")
    func playlistPlaysAll() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            let screen = try await raw(.get, root, "/api/v6/screens/playlist/1")
            let json = try JSONDecoder().decode(JSONValue.self, from: Data(screen.body))
            let about = try #require(json["sections"]?.arrayValue?.first { $0["id"]?.stringValue == "about" })
            let stack = try #require(about["components"]?.arrayValue?.first { $0["type"]?.stringValue == "horizontalStack" })
            let playAll = try #require(stack["children"]?.arrayValue?.first)
            #expect(playAll["title"]?.stringValue == "Play all")
            let queueURL = try #require(playAll["action"]?["metadataURL"]?.stringValue)
            #expect(queueURL.hasPrefix("/media/queues/recordings/"))
            let works = try #require(json["sections"]?.arrayValue?.first { $0["id"]?.stringValue == "works" }?["components"]?.arrayValue)
            let named = queueURL.dropFirst("/media/queues/recordings/".count).split(separator: ",")
            #expect(named.count == works.count, "one recording per work: \(queueURL)")
            let queue = try JSONDecoder().decode(JSONValue.self, from: Data(try await raw(.get, root, queueURL).body))
            let tracks = try #require(queue["tracks"]?.arrayValue)
            #expect(tracks.first?["id"] == playAll["action"]?["firstTrack"]?["id"], "it starts at the queue's first track")
            // The works come in the playlist's order: each work's tracks together, in that order.
            let order = tracks.compactMap { $0["work"]?.stringValue }.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
            #expect(order == works.compactMap { $0["title"]?.stringValue }, "\(order)")
            // A queue URL that names nothing playable, or is not a list of ids, or is too long.
            for (path, status) in [
                ("/media/queues/recordings/999999", HTTPResponse.Status.notFound), ("/media/queues/recordings/1,999999", .notFound),
                ("/media/queues/recordings/1,x", .notFound),
                ("/media/queues/recordings/0", .notFound), ("/media/queues/recordings/1,,2", .notFound),
                ("/media/queues/recordings/" + Array(repeating: "1", count: 201).joined(separator: ","), .unprocessableContent),
            ] {
                let answer = try await raw(.get, root, path)
                #expect(answer.status == status, "\(path.prefix(60)): \(answer.status)")
                let error = try JSONDecoder().decode(JSONValue.self, from: Data(answer.body))
                #expect(error["error"]?["path"]?.stringValue?.hasPrefix("media/queues/recordings/") == true, "\(error)")
            }
            // A number no float holds, anywhere in a command's body: a 400 at its path, in the project's words.
            let overflow = try await raw(
                .post, root, "/api/v6/commands/favorites/composers/add", headers: [.contentType: "application/json"], body: Array(#"{"composerId":1e400}"#.utf8))
            #expect(overflow.status == .badRequest)
            let said = try JSONDecoder().decode(JSONValue.self, from: Data(overflow.body))
            #expect(said["error"]?["path"]?.stringValue == "$.composerId", "\(said)")
            #expect(said["error"]?["message"]?.stringValue?.contains("out of range") == true && !"\(said)".contains("DecodingError"), "\(said)")
            // A recording named twice plays twice.
            let twice = try JSONDecoder().decode(JSONValue.self, from: Data(try await raw(.get, root, "/media/queues/recordings/1,1").body))
            let once = try JSONDecoder().decode(JSONValue.self, from: Data(try await raw(.get, root, "/media/queues/recordings/1").body))
            #expect(twice["tracks"]?.arrayValue?.count == 2 * (once["tracks"]?.arrayValue?.count ?? 0))
        }
    }
}
