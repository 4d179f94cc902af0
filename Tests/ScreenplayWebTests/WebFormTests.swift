import ScreenplayContract
import ScreenplayWeb
import Testing

@Suite("Web forms")
struct WebFormTests {
    @Suite("Parsing")
    struct Parsing {
        @Test("Reads url, payload and back")
        func basic() throws {
            let form = try WebForm(
                urlEncoded: Fixture.body([
                    ("url", "commands/favorites/add"), ("payload", #"{"workId":3,"tags":["a"]}"#), ("back", "/screens/work/3?x=1"),
                ]))
            #expect(form.commandURL == "commands/favorites/add")
            #expect(form.commandPath == "favorites/add")
            #expect(form.payload == ["workId": 3, "tags": ["a"]])
            #expect(form.back == "/screens/work/3?x=1")
        }

        @Test("A prompt's field and value are merged into the payload object")
        func promptMerge() throws {
            let form = try WebForm(
                urlEncoded: Fixture.body([
                    ("url", "commands/playlists/create"), ("payload", #"{"source":"menu","name":"old"}"#),
                    ("field", "name"), ("value", "Road trip & more"), ("back", "/"),
                ]))
            #expect(form.payload == ["source": "menu", "name": "Road trip & more"])
        }

        @Test("A prompt with no payload gets an object with just the field")
        func promptWithoutPayload() throws {
            let form = try WebForm(urlEncoded: Array("url=commands/rename&field=title&value=".utf8))
            #expect(form.payload == ["title": ""])
        }

        @Test("Missing payload and back default to an empty object and the home page")
        func defaults() throws {
            let form = try WebForm(urlEncoded: Array("url=commands/ping".utf8))
            #expect(form.payload == .object([:]))
            #expect(form.back == "/")
        }

        @Test("`+` is a space and percent escapes decode, including an encoded plus")
        func decoding() throws {
            let form = try WebForm(
                urlEncoded: Array(
                    "url=commands%2Fsearch&payload=%7B%22q%22%3A%22a%2Bb%22%7D&field=text&value=Symphony+No.+9+%E2%99%AB+%2B1".utf8))
            #expect(form.commandURL == "commands/search")
            #expect(form.payload == ["q": "a+b", "text": "Symphony No. 9 ♫ +1"])
        }

        @Test("Field decoding: later duplicates win, bare names are empty, bad escapes stay literal")
        func fields() {
            let fields = WebForm.fields(of: Array("a=1&a=2&flag&b=%zz&c=x%3Dy&&d=".utf8))
            #expect(fields == ["a": "2", "flag": "", "b": "%zz", "c": "x=y", "d": ""])
        }
    }

    @Suite("Refusals")
    struct Refusals {
        @Test(
            "A url outside commands/ is refused",
            arguments: ["screens/home", "javascript:alert(1)", "https://evil.example/commands/x", "/commands/x", "", "Commands/x"])
        func notACommand(url: String) {
            let problem = #expect(throws: WebForm.Problem.self) { try WebForm(urlEncoded: Fixture.body([("url", url)])) }
            #expect(problem?.field == "url")
            #expect(problem?.message == "expected a command URL starting with 'commands/'")
        }

        @Test("A missing url is refused")
        func missingURL() {
            let problem = #expect(throws: WebForm.Problem.self) { try WebForm(urlEncoded: Array("payload=%7B%7D".utf8)) }
            #expect(problem?.field == "url")
        }

        @Test("A command url breaking the link policy is refused with its reason")
        func linkPolicy() {
            let problem = #expect(throws: WebForm.Problem.self) { try WebForm(urlEncoded: Fixture.body([("url", "commands/a b")])) }
            #expect(problem?.field == "url")
            #expect(problem?.message.contains("whitespace or control characters") == true)
            #expect(problem?.description == "form field 'url': \(problem?.message ?? "")")
        }

        @Test(
            "Invalid JSON payload names the field and the line and column",
            arguments: [
                (#"{"a":}"#, "line 1, column 6"), (#"{"a":1,}"#, "line 1, column 8"), ("{\n\"a\" 1}", "line 2, column 5"),
                ("[1", "line 1, column 3"),
            ])
        func invalidPayload(payload: String, position: String) {
            let problem = #expect(throws: WebForm.Problem.self) {
                try WebForm(urlEncoded: Fixture.body([("url", "commands/x"), ("payload", payload)]))
            }
            #expect(problem?.field == "payload")
            #expect(problem?.message.hasPrefix("not valid JSON: \(position): ") == true, "\(problem?.message ?? "")")
        }

        @Test("A prompt field with a payload that is not an object is refused", arguments: ["[1,2]", "\"text\"", "3", "null"])
        func promptNonObject(payload: String) {
            let problem = #expect(throws: WebForm.Problem.self) {
                try WebForm(urlEncoded: Fixture.body([("url", "commands/x"), ("payload", payload), ("field", "name"), ("value", "v")]))
            }
            #expect(problem?.field == "payload")
            #expect(problem?.message == "a prompt's payload must be a JSON object")
        }

        @Test("A non-object payload is fine without a prompt field")
        func nonObjectWithoutField() throws {
            let form = try WebForm(urlEncoded: Fixture.body([("url", "commands/x"), ("payload", "[1,2]")]))
            #expect(form.payload == [1, 2])
        }
    }

    @Suite("Back path")
    struct BackPath {
        @Test(
            "Anything that could leave the site becomes /",
            arguments: [
                "//evil.com", "https://evil.com", "http://evil.com/x", #"\\evil"#, #"/\evil.com"#, "/a\nb", "/a\rLocation: x", "/a\u{0}",
                "/tab\there", "", "screens/a", "javascript:alert(1)",
            ])
        func offSite(path: String) {
            #expect(WebForm.safeBackPath(path) == "/")
        }

        @Test("Local paths are kept verbatim", arguments: ["/", "/screens/work/3?x=1", "/screens/a#top", "/screens/ünï"])
        func local(path: String) {
            #expect(WebForm.safeBackPath(path) == path)
        }

        @Test("A posted back path is sanitised")
        func postedBack() throws {
            let form = try WebForm(urlEncoded: Fixture.body([("url", "commands/x"), ("back", "//evil.com/steal")]))
            #expect(form.back == "/")
            let local = try WebForm(urlEncoded: Fixture.body([("url", "commands/x"), ("back", "/screens/work/3?x=1")]))
            #expect(local.back == "/screens/work/3?x=1")
        }
    }

    @Test("What the renderer posts parses back to the same command")
    func renderedFormRoundTrip() throws {
        // The hidden fields the renderer writes, as a browser would send them.
        let command = Action.Command(url: "commands/favorites/add", payload: ["workId": 3, "title": "K. 626 <Requiem> & \"more\""])
        let payload = String(decoding: try ScreenplayEncoder().encode(command.payload), as: UTF8.self)
        let html = Fixture.page([.button(.init(title: "Add", action: .command(command)))], currentPath: "/screens/work/3")
        #expect(html.contains(#"name="payload" value=""#))
        let form = try WebForm(urlEncoded: Fixture.body([("url", command.url), ("payload", payload), ("back", "/screens/work/3")]))
        #expect(form.commandURL == command.url)
        #expect(form.payload == command.payload)
        #expect(form.back == "/screens/work/3")
    }

    @Test(
        "a field given twice is refused, naming it: the post could otherwise run another command than it shows",
        arguments: [
            "url=commands%2Fsearch&url=commands%2Ffavorites%2Fadd&payload=%7B%7D",
            "url=commands%2Fa&payload=%7B%7D&payload=%7B%22playlistId%22%3A1%7D",
            "url=commands%2Fsearch&storage.query=bach&storage.query=mozart",
        ])
    func repeatedFields(body: String) {
        #expect(throws: WebForm.Problem.self) { try WebForm(urlEncoded: Array(body.utf8)) }
        do {
            _ = try WebForm(urlEncoded: Array(body.utf8))
        } catch {
            #expect(error.message == "given more than once; each field may appear once")
        }
    }

    @Test("text fields post as storage.<key> and arrive in the payload's storage")
    func storageFields() throws {
        let form = try WebForm(
            urlEncoded: Array("url=commands%2Fsearch&payload=%7B%22n%22%3A1%7D&storage.query=bach+suites&storage.page=2".utf8))
        #expect(form.payload == ["n": 1, "storage": ["query": "bach suites", "page": "2"]])
    }
}
