import Foundation
import HTTPTypes
import ScreenplayClient
import ScreenplayContract
@testable import ScreenplayDemo
import ScreenplayServer
import Testing

@Suite("Demo search and command storage")
struct SearchTests {
    static func search(_ demo: DemoApp, _ payload: JSONValue, version: APIVersion = .v4) async throws -> CommandResult {
        let user = try await demo.service.resolveIdentity(token: nil).user
        return try await demo.service.perform(command: "search", payload: payload, apiVersion: version, user: user)
    }

    /// The search screen for `query`, as `GET screens/search?q=` builds it.
    static func results(_ demo: DemoApp, _ query: String) async throws -> Screen {
        try await demo.service.screen(path: "search", query: ["q": query], apiVersion: .v4, user: .anonymous)
    }

    /// The titles of the results a command's answer leads to (it navigates to the results' URL).
    static func titles(_ demo: DemoApp, _ result: CommandResult) async throws -> [String] {
        guard case .navigate(let navigate) = result.outcome,
            let query = URLComponents(string: navigate.url)?.queryItems?.first(where: { $0.name == "q" })?.value
        else { return [] }
        #expect(navigate.url.hasPrefix("screens/search?q="))
        return titles(try await results(demo, query))
    }

    static func titles(_ screen: Screen) -> [String] {
        screen.sections.first { $0.id == "results" }?.components.compactMap { component in
            if case .listRow(let row) = component.content { return row.title }
            return nil
        } ?? []
    }

    /// The kind each result says it is (`Composer`, `Work`, `Recording`), in order.
    static func kinds(_ screen: Screen) -> [String] {
        screen.sections.first { $0.id == "results" }?.components.compactMap { component in
            if case .listRow(let row) = component.content { return row.subtitle?.components(separatedBy: " · ").first }
            return nil
        } ?? []
    }

    @Test("the command answers with the results' URL; the text from storage is trimmed; decomposed accents find composed names")
    func finds() async throws {
        try await withDemo { demo, _ in
            let result = try await Self.search(demo, ["storage": ["query": "  mozart "]])
            guard case .navigate(let navigate) = result.outcome else {
                Issue.record("the search command navigates to its results")
                return
            }
            #expect(navigate.url == "screens/search?q=mozart")
            #expect(try await Self.titles(demo, result).first == "Wolfgang Amadeus Mozart")
            let screen = try await Self.results(demo, "mozart")
            #expect(screen.storage == ["query": "mozart"], "the field shows the text searched")
            let decomposed = try await Self.search(demo, ["storage": ["query": "Fre\u{301}de\u{301}ric"]])
            #expect(try await Self.titles(demo, decomposed).contains("Frédéric Chopin"))
            // Symbols are no words: nothing to match, said so.
            let symbols = try await Self.search(demo, ["storage": ["query": "%_\\*"]])
            #expect(try await Self.titles(demo, symbols).isEmpty)
            #expect(try await Self.results(demo, "%_\\*").sections.contains { $0.header?.title.hasPrefix("No results") == true })
        }
    }

    @Test("without the text, an older app is asked for it; with it under `query`, it searches")
    func olderApps() async throws {
        try await withDemo { demo, _ in
            guard case .prompt(let prompt) = try await Self.search(demo, [:], version: .v3).outcome else {
                Issue.record("expected a prompt")
                return
            }
            #expect(prompt.field.name == "query")
            #expect(try await Self.titles(demo, try await Self.search(demo, ["query": "bach"], version: .v3)).contains("Johann Sebastian Bach"))
        }
    }

    @Test(
        "search forgives case, accents and one typo in a longer word",
        arguments: [
            ("dvorak", "Antonín Dvořák"), ("DVOŘÁK", "Antonín Dvořák"), ("bach", "Johann Sebastian Bach"), ("mozzart", "Wolfgang Amadeus Mozart"),
            ("bethoven", "Ludwig van Beethoven"), ("tchaikovksy", "Pyotr Ilyich Tchaikovsky"), ("beet", "Ludwig van Beethoven"),
            ("chopin nocturnes", "Three Nocturnes"), ("rachmaninof", "Sergei Rachmaninoff"), ("bwv 1007", "Cello Suite No. 1"),
            // Two typos in a long word, and other transliterations of the same name.
            ("rachmaninov", "Sergei Rachmaninoff"), ("rakhmaninov", "Sergei Rachmaninoff"), ("rakhman", "Sergei Rachmaninoff"),
            ("tschaikowsky", "Pyotr Ilyich Tchaikovsky"), ("chaikovsky", "Pyotr Ilyich Tchaikovsky"),
            ("schostakowitsch", "Dmitri Shostakovich"), ("haendel", "George Frideric Handel"), ("shubbert", "Franz Schubert"),
        ])
    func forgiving(query: String, expected: String) async throws {
        try await withDemo { demo, _ in
            let titles = Self.titles(try await Self.results(demo, query))
            #expect(titles.contains { $0.hasPrefix(expected) }, "\(query): \(titles.prefix(5))")
        }
    }

    @Test("a typo in a short word is not forgiven, and every word must match")
    func strict() async throws {
        try await withDemo { demo, _ in
            let short = try await Self.results(demo, "bahc")
            #expect(!Self.titles(short).contains("Johann Sebastian Bach"), "four letters: exact only")
            let unmatched = try await Self.results(demo, "mozart zzzzzz")
            #expect(Self.titles(unmatched).isEmpty)
        }
    }

    @Test("two typos are forgiven only in a word of eight letters or more; transliterations only in four or more")
    func twoTypos() async throws {
        try await withDemo { demo, _ in
            let cases: [(query: String, composer: String, found: Bool, why: String)] = [
                ("dabussi", "Claude Debussy", false, "two typos in seven letters are too many"),
                ("debusy", "Claude Debussy", true, "one typo in six letters"),
                ("bakh", "Johann Sebastian Bach", true, "another transliteration counts from four letters"),
                ("bak", "Johann Sebastian Bach", false, "three letters must match as typed"),
                ("bax", "Johann Sebastian Bach", false, "three letters must match as typed"),
            ]
            for test in cases {
                let titles = Self.titles(try await Self.results(demo, test.query))
                #expect(titles.contains(test.composer) == test.found, "\(test.query): \(test.why); found \(titles.prefix(3))")
            }
        }
    }

    @Test("a query matched only by forgiving it offers the catalog's spelling: Did you mean")
    func didYouMean() async throws {
        try await withDemo { demo, _ in
            func offer(_ query: String) async throws -> (title: String, url: String)? {
                let screen = try await Self.results(demo, query)
                guard let component = screen.sections.first(where: { $0.id == "correction" })?.components.first,
                    case .button(let button) = component.content, case .navigate(let navigate) = button.action
                else { return nil }
                return (button.title, navigate.url)
            }
            let rachmaninov = try await offer("rachmaninov")
            #expect(rachmaninov?.title == "Did you mean “Rachmaninoff”?")
            #expect(rachmaninov?.url == "screens/search?q=Rachmaninoff")
            // Words that match as typed (or as a word's start) stay as typed; only the forgiven one changes.
            let twoWords = try await offer("bethoven sonata")
            #expect(twoWords?.title == "Did you mean “Beethoven sonata”?")
            let german = try await offer("schostakowitsch")
            #expect(german?.title == "Did you mean “Shostakovich”?")
            for (query, why) in [("mozart", "spelled as the catalog does"), ("beet", "a prefix is no typo"), ("zzzzzz", "nothing near")] {
                let offered = try await offer(query)
                #expect(offered == nil, "\(query): \(why), yet offered \(offered?.title ?? "")")
            }
            // The offered spelling finds what was meant, with nothing more to offer.
            #expect(Self.titles(try await Self.results(demo, "Rachmaninoff")).first == "Sergei Rachmaninoff")
            let exact = try await offer("Rachmaninoff")
            #expect(exact == nil)
        }
    }

    @Test("hostile text: marks piled on letters are refused by code points, never a 500; Did you mean never offers what it cannot search or words the catalog lacks")
    func hostile() async throws {
        try await withDemo { demo, _ in
            let piled = "bach" + String(repeating: "\u{301}", count: 5_000)
            let screen = try await Self.results(demo, piled)
            #expect(Self.titles(screen).isEmpty)
            let said = screen.sections.flatMap(\.components).compactMap { component -> String? in
                if case .text(let text) = component.content { return text.text }
                return nil
            }
            #expect(said.contains { $0.hasPrefix("The text has 5004 code points") }, "\(said)")
            #expect((screen.storage["query"]?.unicodeScalars.count ?? .max) <= 1_000)
            // It encodes and decodes strictly, as a client reads it (the 500 was a storage past its limit).
            let bytes = try await demo.service.encodedScreen(path: "search", query: ["q": piled], apiVersion: .v6, user: .anonymous).bytes
            #expect(try ScreenplayDecoder(mode: .strict, apiVersion: .v6).decode(Screen.self, from: Data(bytes)).issues.isEmpty)
            do {
                _ = try await Self.search(demo, ["storage": ["query": .string(piled)]])
                Issue.record("the command refuses it too")
            } catch let error as ScreenplayError {
                #expect(error.status.code == 422 && error.path == "$.storage.query", "\(error)")
            }
            // Words the catalog lacks: no offer that would repeat them as advice.
            for query in ["bethoven visit evil.example now", "bethoven script alert"] {
                let offered = try await Self.results(demo, query).sections.contains { $0.id == "correction" }
                #expect(!offered, "\(query)")
            }
            // An offer longer than a search may be: none.
            let long = Array(repeating: "chopn", count: 16).joined(separator: " ")
            #expect(!(try await Self.results(demo, long)).sections.contains { $0.id == "correction" })
            // Suggestions for text that cannot be searched: none, and the text is not repeated.
            for refused in ["ba\u{0}ch", String(repeating: "a", count: 10_000), "ab\u{202E}cd"] {
                let suggestions = try await demo.service.screen(path: "search/suggestions", query: ["q": refused], apiVersion: .v6, user: .anonymous)
                #expect(suggestions.title == "Suggestions")
            }
        }
    }

    @Test("suggestions for what is typed so far: at most eight rows that open what they name, none for text the results would refuse")
    func suggestions() async throws {
        try await withDemo { demo, _ in
            func rows(_ query: String) async throws -> [(title: String, url: String)] {
                let screen = try await demo.service.screen(path: "search/suggestions", query: ["q": query], apiVersion: .v4, user: .anonymous)
                return screen.sections.flatMap(\.components).compactMap { component in
                    guard case .listRow(let row) = component.content, case .navigate(let navigate) = row.action else { return nil }
                    return (row.title, navigate.url)
                }
            }
            let rach = try await rows("rach")
            #expect(rach.first?.title == "Sergei Rachmaninoff")
            #expect(rach.first?.url == "screens/composer/rachmaninoff")
            #expect(rach.contains { $0.title == "Piano Concerto No. 2" && $0.url.hasPrefix("screens/work/") })
            let broad = try await rows("concerto")
            #expect(broad.count <= 8 && broad.count >= 4, "\(broad.map(\.title))")
            // A typo still suggests, and offers the catalog's spelling last.
            let typo = try await rows("rachmaninov")
            #expect(typo.first?.title == "Sergei Rachmaninoff")
            #expect(typo.last?.title == "Did you mean “Rachmaninoff”?")
            #expect(typo.last?.url == "screens/search?q=Rachmaninoff")
            for refused in ["r", "  ", String(repeating: "bach ", count: 30), "ba\u{07}ch", "zzzzzz"] {
                let none = try await rows(refused)
                #expect(none.isEmpty, "\(refused.debugDescription): \(none.map(\.title))")
            }
        }
    }

    @Test("edit distance: substitutions, insertions, deletions and swaps, cut off past the limit")
    func editDistance() {
        func distance(_ a: String, _ b: String, _ limit: Int = 3) -> Int {
            CatalogSearch.editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars), atMost: limit)
        }
        #expect(distance("mozart", "mozart") == 0)
        #expect(distance("mozart", "mozzart") == 1)
        #expect(distance("mozart", "mozrat") == 1, "a swap of neighbours is one edit")
        #expect(distance("rachmaninov", "rachmaninoff") == 2)
        #expect(distance("", "bach", 5) == 4)
        #expect(distance("bach", "", 2) == 3, "past the limit: the limit plus one")
        #expect(distance("abcdef", "ghijkl", 2) == 3)
        #expect(distance("kitten", "sitting") == 3)
        #expect(CatalogSearch.skeleton(of: "tchaikovsky") == CatalogSearch.skeleton(of: "tschaikowsky"))
        #expect(CatalogSearch.skeleton(of: "prokofiev") == CatalogSearch.skeleton(of: "prokofjew"))
        #expect(CatalogSearch.skeleton(of: "mozart") != CatalogSearch.skeleton(of: "mosart"), "s and z stay apart")
    }

    @Test("results are ranked: composers, then works, then recordings; a performer's name finds recordings")
    func ranked() async throws {
        try await withDemo { demo, _ in
            let bach = try await Self.results(demo, "bach")
            let kinds = Self.kinds(bach)
            #expect(kinds.first == "Composer")
            #expect(kinds.contains("Work") && kinds.contains("Recording"))
            #expect(kinds == kinds.sorted { ["Composer", "Work", "Recording"].firstIndex(of: $0)! < ["Composer", "Work", "Recording"].firstIndex(of: $1)! })
            let karajan = try await Self.results(demo, "karajan")
            #expect(!Self.kinds(karajan).isEmpty && Self.kinds(karajan).allSatisfy { $0 == "Recording" }, "\(Self.titles(karajan))")
        }
    }

    @Test("a query too short to search shows the field's message and no results")
    func tooShort() async throws {
        try await withDemo { demo, _ in
            let screen = try await Self.results(demo, " a ")
            #expect(Self.titles(screen).isEmpty)
            #expect(screen.storage == ["query": "a"])
        }
    }

    @Test(
        "bad text or storage is a 422 naming the member, for every command",
        arguments: [
            ("search", #"{"query":5}"#, "$.query"),
            ("search", #"{"storage":{"query":"a"}}"#, "$.storage.query"),
            ("search", #"{"storage":{"query":" \u00a0 "}}"#, "$.storage.query"),
            ("favorites/add", #"{"playlistId":1,"storage":"bad"}"#, "$.storage"),
            ("favorites/add", #"{"playlistId":1,"storage":{"other":5}}"#, "$.storage.other"),
            ("favorites/add", #"{"playlistId":1,"storage":{"has space":"x"}}"#, "$.storage"),
            ("playlists/create", #"{"name":"x","storage":{"k":"\#(String(repeating: "x", count: 4_097))"}}"#, "$.storage.k"),
        ])
    func refused(command: String, body: String, path: String) async throws {
        try await withDemo { demo, _ in
            let user = try await demo.service.resolveIdentity(token: nil).user
            let payload = try JSONDecoder().decode(JSONValue.self, from: Data(body.utf8))
            do {
                _ = try await demo.service.perform(command: command, payload: payload, apiVersion: .v4, user: user)
                Issue.record("\(command) \(body.prefix(60)) should be refused")
            } catch let error as ScreenplayError {
                #expect(error.status == .unprocessableContent)
                #expect(error.path == path, "\(error)")
            }
        }
    }

    @Test("the server applies the rule the text field publishes: the client's verdict and the server's agree")
    func sameRule() async throws {
        try await withDemo { demo, _ in
            let screen = try await demo.service.screen(path: "search", apiVersion: .v4, user: .init(id: 1))
            guard case .textField(let field) = screen.allComponents.first(where: { $0.id == "search-field" })?.content else {
                Issue.record("no search field")
                return
            }
            for text in ["ab", "a", "  a  ", "a b", "é́", "\u{301}\u{301}", "ü ü", "\t", "mozart"] {
                let clientAccepts = TextInput.validate(text, against: field.validation) == .valid
                var serverAccepts = true
                do {
                    _ = try await Self.search(demo, ["storage": ["query": .string(text)]])
                } catch let error as ScreenplayError {
                    serverAccepts = error.status != .unprocessableContent
                }
                #expect(clientAccepts == serverAccepts, "\(text.debugDescription): client \(clientAccepts), server \(serverAccepts)")
            }
        }
    }
}
