import Foundation
import ScreenplayContract
import ScreenplayServer

/// The committed seed corpus, generated from the same values the harnesses use (write it with
/// `FUZZ_WRITE_CORPUS=1 swift test --package-path Fuzz --filter writeSeedCorpus`).
public enum SeedCorpus {
    /// Seed files by target: file name and bytes.
    public static func files() -> [String: [(name: String, bytes: Data)]] {
        [
            // The kitchen sink (6 KB) is the HTML harness's template; the decoding targets mutate
            // small screens better (one per kind covers the same ground).
            "FuzzScreenDecoding": screens().filter { !$0.name.hasPrefix("kitchen-sink") } + results(),
            "FuzzDowngrade": screens().filter { !$0.name.hasPrefix("kitchen-sink") && ($0.name.hasSuffix("-v4.json") || $0.name.hasPrefix("custom")) }
                + results().filter { $0.name.hasSuffix("-v4.json") },
            "FuzzJSONSyntax": jsonDocuments(),
            "FuzzCommandPayload": commandBodies(),
            "FuzzHTMLRenderer": htmlInputs(),
            "FuzzLiveInput": liveInputs(),
            "FuzzExpressions": expressions(),
        ]
    }

    /// Every fourth of the shared expression cases under 160 bytes (contract/expressions/cases.json),
    /// each after a byte that picks its locale; none that would reach the planted bug.
    static func expressions() -> [(name: String, bytes: Data)] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("contract/expressions/cases.json")
        guard let data = try? Data(contentsOf: file), case .object(let root) = try? JSONDecoder().decode(JSONValue.self, from: data),
            case .array(let cases)? = root["cases"]
        else { return [] }
        let sources: [String] = cases.compactMap { item in
            guard case .object(let fields) = item, case .string(let source)? = fields["expression"], source.utf8.count < 160 else { return nil }
            return source
        }
        return stride(from: 0, to: sources.count, by: 4).compactMap { index in
            let source = sources[index]
            if case .value(.array(.string), .array(let elements)) = ExpressionHarness.outcome(source, locale: "en"), elements.count >= 3 { return nil }
            return (String(format: "case-%04d.txt", index), Data([UInt8(index % 7)]) + Data(source.utf8))
        }
    }

    /// Event streams as servers send them (and misbehave), and sync manifests (well formed,
    /// duplicate, hostile, paged).
    static func liveInputs() -> [(name: String, bytes: Data)] {
        let inputs: [(String, String)] = [
            ("stream-ready.txt", "retry: 2000\nid: 9f.0\nevent: ready\ndata: {\"screens\":{\"home\":\"\\\"sp-1\\\"\"}}\n\n"),
            ("stream-changes.txt", "id: 9f.1\r\nevent: screen\r\ndata: {\"path\":\"home\",\"etag\":\"x\"}\r\n\r\n: heartbeat\n\nid: 9f.2\n\n"),
            ("stream-revalidate.txt", "event: revalidate\ndata: {\"screens\":[\"home\",\"playlist/1\"]}\n\nevent: end\ndata: {\"reason\":\"idle\"}\n\n"),
            ("stream-multiline.txt", "data: one\ndata: two\rid\nretry: x\nevent\n\n"),
            ("sync.json", #"{"screens":[{"path":"home","etag":"\"sp-1\""},{"path":"playlist/1"},{"path":"broken"},{"path":"nowhere"}]}"#),
            ("sync-paged.json", "{\"screens\":[" + (1...30).map { "{\"path\":\"playlist/\($0)\"}" }.joined(separator: ",") + "]}"),
            ("sync-duplicate.json", #"{"screens":[{"path":"home"},{"path":"home"}]}"#),
            ("sync-hostile.json", #"{"screens":[{"path":"../admin"},{"path":"playlist/%2e%2e"},{"path":"home","etag":7}]}"#),
            ("sync-query.json", #"{"screens":[{"path":"playlist/2?sort=name,desc"}]}"#),
        ]
        return inputs.map { ($0.0, Data($0.1.utf8)) }
    }

    static func encode<Value: Encodable>(_ value: Value, _ version: APIVersion) -> Data {
        try! ScreenplayEncoder(apiVersion: version).encode(value)
    }

    /// The kitchen sink and a few demo-like screens, each as every version receives it.
    static func screens() -> [(name: String, bytes: Data)] {
        let sink = KitchenSink().screen.assigningComponentIDs()
        let small = Screen(
            id: "home", title: "Home",
            sections: [
                ScreenSection(
                    id: "recent", header: .init(title: "Recently played"),
                    components: [
                        .trackRow(.init(title: "Eine kleine Nachtmusik", subtitle: "I. Allegro", duration: 349)),
                        .trackRow(.init(title: "Gymnopédie No. 1", duration: 3723)),
                        .favoriteButton(
                            .init(
                                isFavorite: true, label: "Road trip", add: .init(url: "commands/favorites/add", payload: ["playlistId": 3]),
                                remove: .init(url: "commands/favorites/remove", payload: ["playlistId": 3]))),
                        .verticalStack(.init(children: [.text(.init("Vienna", size: 18, weight: .bold)), .button(.init(title: "More", action: .navigate(.init(url: "screens/city/vienna"))))])),
                    ]),
                ScreenSection(id: "empty", components: []),
            ])
        // Edge values: the longest duration v1 and v2 can state (9999:59:59), the extremes of
        // the value rules.
        let edges = Screen(
            id: "edges", title: "Edges",
            sections: [
                ScreenSection(
                    id: "e",
                    components: ([0, 59, 3599, 3600, 35_999_999] as [Int]).map { Component.trackRow(.init(title: "Track \($0)", duration: $0)) } + [
                        .grid(.init(columns: 6, cards: [.init(title: "Six")])),
                        .rectangle(.init(width: 10_000, height: 0, color: .rgba(red: 0, green: 0, blue: 0, alpha: 0), cornerRadius: 0)),
                        .textField(.init(label: String(repeating: "L", count: 200), storageKey: String(repeating: "k", count: 64), maxLength: 4096)),
                    ])
            ])
        // Small screens mutate better than big ones: one per kind (its documented example), a
        // bar of a chart, a grid of cards with and without actions.
        var perKind: [(String, Screen)] = Component.catalog.map { kind in
            ("kind-\(kind.kind.rawValue)", Screen(id: "k", title: "K", sections: [ScreenSection(id: "s", components: [kind.example.component])]))
        }
        perKind.append(
            ("bar", Screen(id: "b", title: "B", sections: [ScreenSection(id: "s", components: [
                .verticalStack(.init(alignment: .center, spacing: 2, children: [
                    .text(.init("1,204", size: 11)), .rectangle(.init(width: 20, height: 60, color: .rgb(200, 55, 0), cornerRadius: 2)),
                ]))
            ])])))
        perKind.append(
            ("grid-rows", Screen(id: "g", title: "G", sections: [ScreenSection(id: "s", components: [
                .grid(.init(columns: 2, cards: [.init(title: "Six"), .init(title: "Seven", action: .navigate(.init(url: "screens/x")))]))
            ])])))
        var files: [(String, Data)] = []
        for (name, screen) in perKind {
            for version in [APIVersion.v1, .v4] {
                let downgrade = Downgrade(to: version, customKinds: DowngradeHarness.customKinds, clientKinds: ["ticketOffer"])
                files.append(("\(name)-v\(version.rawValue).json", encode(downgrade.screen(screen), version)))
            }
        }
        for version in Oracle.versions {
            let downgrade = Downgrade(to: version, customKinds: DowngradeHarness.customKinds, clientKinds: ["ticketOffer"])
            files.append(("kitchen-sink-v\(version.rawValue).json", encode(downgrade.screen(sink), version)))
            files.append(("home-v\(version.rawValue).json", encode(downgrade.screen(small), version)))
            files.append(("edges-v\(version.rawValue).json", encode(downgrade.screen(edges), version)))
        }
        let edge: [(String, String)] = [
            ("minimal.json", #"{"id":"x","title":"","sections":[]}"#),
            ("unknown-kind.json", #"{"id":"x","title":"t","sections":[{"id":"s","components":[{"type":"hologram","depth":3},{"type":"text","text":"kept"}]}]}"#),
            ("broken-elements.json", ##"{"id":"x","title":"t","sections":[{"id":"s","components":[{"type":"grid","columns":9,"cards":[]},{"type":"rectangle","width":-1,"height":2,"color":"#GG0000"},{"type":"button","title":"b","action":{"type":"navigate","url":"javascript:alert(1)"}},{"type":"text","text":"kept","weight":"heavy"}]},{"id":7}]}"##),
            ("custom-kinds.json", #"{"id":"x","title":"t","sections":[{"id":"s","components":[{"type":"ticketOffer","title":"Don Giovanni","price":"€5"},{"type":"ghost","title":"Boo"},{"type":"trackRow","title":"t","duration":"1:02:03"}]}]}"#),
            ("v6-client-state.json", #"{"id":"x","title":"t","state":{"expanded":{"type":"bool","initial":false},"n":{"type":"int","initial":2,"scope":"app"},"rows":{"type":{"array":{"record":{"id":"string","s":"number"}}},"initial":[{"id":"a","s":1.5}]}},"sections":[{"id":"s","components":[{"type":"text","id":"t","text":"x","compute":{"text":"expanded ? 'Less: ${n}' : formatNumber(n * 1.5, 2)","visible":"len(rows) > 0 && rows[0].id == 'a'","style":"'accent'"}},{"type":"button","id":"b","title":"More","action":{"type":"sequence","actions":[{"type":"set","variable":"expanded","value":"!expanded"},{"type":"command","url":"commands/x"}]},"compute":{"enabled":"player.playing || n % 2 == 0","selected":"contains(['a','b'], player.trackID)"}},{"type":"textField","id":"f","label":"Filter","storageKey":"expanded"}]}]}"#),
            ("v4-shared-state.json", #"{"id":"x","title":"t","storage":{"query":"mo"},"entities":{"playlist/1":{"favorite":true,"title":"Road trip"}},"sections":[{"id":"s","components":[{"type":"favoriteButton","id":"fav","isFavorite":false,"label":"L","add":{"url":"commands/a"},"remove":{"url":"commands/r"},"bind":{"isFavorite":{"entity":"playlist/1","field":"favorite"}},"accessibility":{"label":"Favorite","headingLevel":2}}]}]}"#),
        ]
        return files + edge.map { ($0.0, Data($0.1.utf8)) }
    }

    /// Every kind of command result, as v1 and v4 receive it.
    static func results() -> [(name: String, bytes: Data)] {
        let sink = KitchenSink()
        let results: [(String, CommandResult)] = [
            ("done", CommandResult.done(.init(message: "Added to favorites", refresh: true)).with(.init(storage: ["query": ""], entities: ["playlist/1": ["favorite": true]], effects: [.openURL(.init(url: "https://example.com"))]))),
            ("screen", .screen(Screen(id: "results", title: "Results", sections: [ScreenSection(id: "s", components: [.text(.init("No results"))])]))),
            ("choice", .choice(sink.choice)), ("prompt", .prompt(sink.prompt)),
            ("navigate", .navigate(.init(url: "screens/playlist/3", header: ScreenHeader(title: "Road trip"), presentation: .modal))),
            ("error", .error(.init(message: "That playlist is full"))),
        ]
        var files: [(String, Data)] = []
        for (name, result) in results {
            for version in [APIVersion.v1, .v4] {
                files.append(("result-\(name)-v\(version.rawValue).json", encode(Downgrade(to: version).result(result), version)))
            }
        }
        files.append(("result-unknown.json", Data(#"{"type":"celebrate","confetti":true}"#.utf8)))
        return files
    }

    static func jsonDocuments() -> [(name: String, bytes: Data)] {
        let documents: [(String, String)] = [
            ("object.json", #"{"a": [1, -2.5e+3, true, false, null], "b": {"c": "d\"\\\/\b\f\n\r\t\u00e9\uD83C\uDFB5"}}"#),
            ("numbers.json", "[0, -0, 1.0, 1e10, 1E-2, 123456789012345678901234567890, -0.000001]"),
("nested.json", "[[[[{\"k\":[[{}]]}]]]]"), ("deep-escape.json", #"[[[[{"k":"caf\u00e9"}]]]]"#), ("fragment-string.json", #""just a string""#), ("fragment-number.json", " 42 "),
            ("multiline.json", "{\n  \"title\": \"Mozart\",\n  \"sections\": [\n    {\"id\": \"a\"}\n  ]\n}\n"),
            ("error-unterminated.json", #"{"title":"Mozart"#), ("error-escape.json", #"["a\qb"]"#), ("error-trailing-comma.json", "[1,2,]"),
            ("error-leading-zero.json", "[01]"), ("error-line3.json", "{\n\"a\": 1,\n\"b\": tru\n}"), ("error-control.json", "[\"a\u{1}b\"]"),
            ("error-garbage.json", "{} x"), ("empty.json", ""), ("whitespace.json", " \n\t "),
            ("unicode.json", #"["Dvořák — Symphony № 9 🎵"]"#),
        ]
        return documents.map { ($0.0, Data($0.1.utf8)) } + [("screen.json", encode(KitchenSink().screen, .v4))]
    }

    static func commandBodies() -> [(name: String, bytes: Data)] {
        let bodies: [(String, String)] = [
            ("echo.json", #"{"text":"  Road trip ","note":"from the menu","storage":{"query":"mozart"}}"#),
            ("count.json", #"{"n":12}"#), ("count-float.json", #"{"n":12.0}"#), ("count-string.json", #"{"n":"12"}"#),
            ("results.json", #"{"title":"Results for \"mo\"","items":["Mozart","Monteverdi","Moszkowski & co"],"storage":{"query":"mo"}}"#),
            ("ask.json", #"{"name":"playlistName","message":"Give it a name","storage":{"query":"x"}}"#),
            ("storage-bad.json", #"{"storage":{"bad key!":"x","n":1}}"#), ("array.json", "[1,2,3]"), ("empty.json", ""), ("object.json", "{}"),
            ("nested.json", #"{"text":"ok","payload":{"deep":[{"a":[null,true,1e-7]}]}}"#),
            ("malformed.json", #"{"text": "unterminated"#),
            ("form.txt", "url=commands%2Ffavorites%2Fadd&payload=%7B%22playlistId%22%3A3%7D&back=%2Fscreens%2Fhome"),
            ("form-prompt.txt", "url=commands/playlists/create&payload=%7B%7D&field=name&value=Road+trip&back=/screens/library"),
            ("form-storage.txt", "url=commands/search&payload=%7B%7D&storage.query=mo+zart&back=/"),
        ]
        return bodies.map { ($0.0, Data($0.1.utf8)) }
    }

    /// Chunks for the HTML harness: a selector byte (slot, and bit 7 for the Swift path) and text.
    static func htmlInputs() -> [(name: String, bytes: Data)] {
        func input(_ chunks: [(UInt8, String)]) -> Data {
            var data = Data()
            for (index, chunk) in chunks.enumerated() {
                if index > 0 { data.append(0xFF) }
                data.append(chunk.0)
                data.append(contentsOf: Array(chunk.1.utf8))
            }
            return data
        }
        return [
            ("script-decoded.bin", input([(0, "<script>alert(1)</script>"), (5, "Tom & Jerry"), (9, "'single' \"double\"")])),
            ("script-values.bin", input([(0x80, "<script>alert(1)</script>"), (2, "Tom & Jerry"), (26, "'single' \"double\"")])),
            ("urls-decoded.bin", input([(3, "javascript:alert(1)"), (12, "//evil.example/x"), (20, "/ok/<path>?a=1&b=2")])),
            ("urls-values.bin", input([(0x80 | 9, "javascript:alert(1)"), (27, "//evil.example"), (44, "/back?x=<y>")])),
            ("controls.bin", input([(0x81, "nul\u{0}esc\u{1B}[31m c1\u{85} del\u{7F}"), (7, "tab\tnewline\n")])),
            ("entities.bin", input([(0x82, "&lt;already&gt; &amp; &#39;"), (30, "€ Dvořák 🎵")])),
            ("pattern.bin", input([(0x80 | 35, "^[<>&]+$"), (37, "<&>"), (36, "Only <, > and &")])),
            ("mappin.bin", input([(57, "Vienna <b>"), (0x80 | 57, "Graz")])),
        ]
    }
}
