import Foundation
import ScreenplayContract
import ScreenplayContractTools
import ScreenplayDemo
import ScreenplayTestSupport
import Testing

/// Runs the built `screenplay` executable to its end (on a thread of its own: see ``ChildProcess``).
func runCLI(_ arguments: [String], input: Data? = nil) async throws -> (status: Int32, output: String) {
    let outcome = try await ChildProcess.run(
        packageRoot().appendingPathComponent(".build/debug/screenplay"), arguments, in: packageRoot(), input: input)
    return (outcome.status, outcome.output)
}

@Suite("Command line: schema, validate, docs")
struct CommandLineTests {
    @Test("admin create-user takes the password from stdin, refuses weak ones; create-token prints a token for that admin only")
    func adminAccounts() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("screenplay-admin-cli-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let created = try await runCLI(["admin", "create-user", "ada", "--data", data], input: Data("correct horse battery\n".utf8))
        #expect(created.status == 0, "\(created.output)")
        let weak = try await runCLI(["admin", "create-user", "bob", "--data", data], input: Data("short\n".utf8))
        #expect(weak.status == 1 && weak.output.contains("at least 12"), "\(weak.output)")
        let again = try await runCLI(["admin", "create-user", "ada", "--data", data], input: Data("correct horse battery\n".utf8))
        #expect(again.status == 1 && again.output.contains("exists already"), "\(again.output)")
        let token = try await runCLI(["admin", "create-token", "ada", "--data", data])
        #expect(
            token.status == 0 && token.output.trimmingCharacters(in: .whitespacesAndNewlines).wholeMatch(of: /[0-9a-f]{64}/) != nil,
            "\(token.output)")
        let nobody = try await runCLI(["admin", "create-token", "zed", "--data", data])
        #expect(nobody.status == 1 && nobody.output.contains("no admin named 'zed'"), "\(nobody.output)")
    }

    /// A new temporary file holding `text`.
    static func temporaryFile(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("screenplay-cli-\(UUID().uuidString).json")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// `value` with the member at a path of object keys replaced.
    static func setting(_ value: JSONValue, at path: [String], to replacement: JSONValue) -> JSONValue {
        guard let key = path.first, var object = value.objectValue else { return replacement }
        object[key] = setting(object[key] ?? [:], at: Array(path.dropFirst()), to: replacement)
        return .object(object)
    }

    @Test("schema prints the generated schema of the version asked for, and refuses unknown versions")
    func schema() async throws {
        let (status, output) = try await runCLI(["schema", "--api-version", "2"])
        #expect(status == 0)
        #expect(output == (try ContractSchema.text(for: .v2, appKinds: DemoApp.appDefinedKinds)))
        #expect(output.contains("\"component.recordingOffer\""), "the app's widget kinds are part of its schema")
        let refused = try await runCLI(["schema", "--api-version", "9"])
        #expect(refused.status != 0)
        #expect(refused.output.contains("--api-version 9"))
    }

    @Test("openapi prints the description of the version asked for (its paths name it), and refuses unknown versions")
    func openAPI() async throws {
        let (status, output) = try await runCLI(["openapi", "--api-version", "3"])
        #expect(status == 0, "\(output.suffix(500))")
        let document = try JSONDecoder().decode(JSONValue.self, from: Data(output.utf8))
        #expect(document["openapi"] == "3.1.0" && document["info"]?["version"] == "v3")
        let paths = try #require(document["paths"]?.objectValue?.keys)
        #expect(paths.contains("/api/v3/screens/composer/{slug}") && paths.contains("/api/v3/commands/favorites/add"))
        #expect(!paths.contains { $0.contains("/v5/") })
        let refused = try await runCLI(["openapi", "--api-version", "9"])
        #expect(refused.status != 0)
        #expect(refused.output.contains("--api-version 9"))
    }

    @Test("validate passes a clean payload and lists each issue with its path otherwise, with exit codes to match")
    func validate() async throws {
        let clean = try Self.temporaryFile(
            #"{"id":"s","title":"S","sections":[{"id":"a","components":[{"type":"trackRow","title":"t","duration":"1:00"}]}]}"#)
        defer { try? FileManager.default.removeItem(at: clean) }
        let ok = try await runCLI(["validate", "--api-version", "1", clean.path])
        #expect(ok.status == 0, "\(ok.output)")
        #expect(ok.output.contains("clean"))

        // The same file is wrong for a v3 client (duration must be seconds).
        let v3 = try await runCLI(["validate", "--api-version", "3", clean.path])
        #expect(v3.status == 1)
        #expect(v3.output.contains("$.sections[0].components[0].duration"))

        let dirty = try Self.temporaryFile(
            #"{"id":"s","title":"S","sections":[{"id":"a","components":[{"type":"grid","columns":2,"cards":[]},{"type":"listRow"},{"type":"rectangle","width":1e9,"height":1,"color":"accent"}]}]}"#
        )
        defer { try? FileManager.default.removeItem(at: dirty) }
        let report = try await runCLI(["validate", "--api-version", "1", dirty.path])
        #expect(report.status == 1)
        #expect(report.output.contains("$.sections[0].components[0]: unknown component type 'grid'"))
        #expect(report.output.contains("$.sections[0].components[1].title: missing required field 'title'"))
        #expect(report.output.contains("$.sections[0].components[2].width"))
        #expect(report.output.contains("3 issues"))

        let stdin = try await runCLI(["validate", "--kind", "result", "-"], input: Data(#"{"type":"done","message":"ok"}"#.utf8))
        #expect(stdin.status == 0, "\(stdin.output)")

        let truncated = try await runCLI(["validate", "-"], input: Data(#"{"id":"s","title":"#.utf8))
        #expect(truncated.status == 1)
        #expect(truncated.output.contains("line 1"))

        let missing = try await runCLI(["validate", "/nonexistent/screen.json"])
        #expect(missing.status != 0)
        #expect(missing.output.contains("no file at '/nonexistent/screen.json'"))
    }

    @Test("contract-diff finds no breaking change from v1 to v2 to v3, and a removed required field breaks")
    func contractDiff() async throws {
        var files: [URL] = []
        defer { files.forEach { try? FileManager.default.removeItem(at: $0) } }
        for version in [APIVersion.v1, .v2, .v3] { files.append(try Self.temporaryFile(try ContractSchema.text(for: version))) }
        let v1v2 = try await runCLI(["contract-diff", files[0].path, files[1].path])
        #expect(v1v2.status == 0, "\(v1v2.output)")
        #expect(v1v2.output.contains("component.grid"))
        let v2v3 = try await runCLI(["contract-diff", files[1].path, files[2].path])
        #expect(v2v3.status == 0, "\(v2v3.output)")
        #expect(v2v3.output.contains("the server writes the old shape for older clients"))
        // v3 with `title` no longer required in listRow: what a careless edit to the Swift type would do.
        var schema = try #require(try JSONSerialization.jsonObject(with: Data(ContractSchema.text(for: .v3).utf8)) as? [String: Any])
        var definitions = try #require(schema["$defs"] as? [String: Any])
        var listRow = try #require(definitions["component.listRow"] as? [String: Any])
        listRow["required"] = ["type"]
        definitions["component.listRow"] = listRow
        schema["$defs"] = definitions
        let broken = String(decoding: try JSONSerialization.data(withJSONObject: schema), as: UTF8.self)
        files.append(try Self.temporaryFile(broken))
        let diff = try await runCLI(["contract-diff", files[2].path, files[3].path])
        #expect(diff.status == 1, "\(diff.output)")
        #expect(diff.output.contains("component.listRow.title"))
        #expect(diff.output.contains("#/$defs/component.listRow/properties/title"))

        let json = try await runCLI(["contract-diff", "--format", "json", files[2].path, files[3].path])
        #expect(json.status == 1)
        let report = try JSONDecoder().decode(JSONValue.self, from: Data(json.output.utf8))
        #expect(report["breaking"] == true)
        #expect(report["changes"]?.arrayValue?.first?["schemaPath"] == "#/$defs/component.listRow/properties/title")
        #expect(report["changes"]?.arrayValue?.first?["direction"] == "response")
    }

    @Test("contract-diff and contract-check exit 2, naming the file and the place, for input that is not a contract schema")
    func badContractInput() async throws {
        let good = try Self.temporaryFile(try ContractSchema.text(for: .v3))
        let notJSON = try Self.temporaryFile("{\"$defs\": {,}")
        let notSchema = try Self.temporaryFile(#"{"id": "home"}"#)
        let unknownKeyword = try Self.temporaryFile(#"{"$defs": {"A": {"type": "string", "if": {"minLength": 1}}}}"#)
        defer { [good, notJSON, notSchema, unknownKeyword].forEach { try? FileManager.default.removeItem(at: $0) } }
        for (file, expected) in [
            (notJSON, "line 1"), (notSchema, "at #: not a contract schema this tool understands: it has no `$defs` object"),
            (unknownKeyword, "at #/$defs/A/if"),
        ] {
            let result = try await runCLI(["contract-diff", good.path, file.path])
            #expect(result.status == 2, "\(result.output)")
            #expect(result.output.contains(file.path), "\(result.output)")
            #expect(result.output.contains(expected), "\(result.output)")
        }
        let missing = try await runCLI(["contract-diff", good.path, "/nonexistent/schema.json"])
        #expect(missing.status == 2)
        #expect(missing.output.contains("/nonexistent/schema.json: no such file"))
        let folder = try await runCLI(["contract-check", "--released", "/nonexistent/contracts"])
        #expect(folder.status == 2)
        #expect(folder.output.contains("/nonexistent/contracts"))
    }

    @Test("contract-check passes on the committed released contracts, fails on a breaking change to one, and can write a release")
    func contractCheck() async throws {
        let committed = try await runCLI(["contract-check"])
        #expect(committed.status == 0, "\(committed.output)")
        for version in APIVersion.supported.lowerBound.rawValue...APIVersion.latest.rawValue { #expect(committed.output.contains("v\(version) (contract/v\(version).schema.json): ok, no changes")) }

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("screenplay-released-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A v3 released when grids had at most 4 columns: this build's 6 would break those apps.
        var released = try ContractSchema.document(for: .v3, appKinds: DemoApp.appDefinedKinds)
        released = Self.setting(released, at: ["$defs", "component.grid", "properties", "columns", "maximum"], to: 4)
        let encoder = JSONEncoder()
        try encoder.encode(released).write(to: folder.appendingPathComponent("v3.schema.json"))
        let broken = try await runCLI(["contract-check", "--released", folder.path])
        #expect(broken.status == 1, "\(broken.output)")
        #expect(broken.output.contains("v3") && broken.output.contains("BREAKING") && broken.output.contains("component.grid.columns"))
        #expect(broken.output.contains("Not released yet: v1, v2"))

        let json = try await runCLI(["contract-check", "--released", folder.path, "--format", "json"])
        #expect(json.status == 1)
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(json.output.utf8))["breaking"] == true)

        let rewritten = try await runCLI(["contract-check", "--released", folder.path, "--write", "3"])
        #expect(rewritten.status == 0, "\(rewritten.output)")
        #expect(
            try String(contentsOf: folder.appendingPathComponent("v3.schema.json"), encoding: .utf8)
                == (try ContractSchema.text(for: .v3, appKinds: DemoApp.appDefinedKinds)))

        // A widget's contract is checked like a built-in kind's: apps that render cartButton were
        // built against a v3 that required `price`; dropping it from the contract breaks them.
        var widgetRelease = try ContractSchema.document(for: .v3, appKinds: DemoApp.appDefinedKinds)
        widgetRelease = Self.setting(widgetRelease, at: ["$defs", "component.cartButton", "properties", "sku"], to: ["type": "string"])
        widgetRelease = Self.setting(
            widgetRelease, at: ["$defs", "component.cartButton", "required"], to: ["type", "title", "price", "link", "sku"])
        try encoder.encode(widgetRelease).write(to: folder.appendingPathComponent("v3.schema.json"))
        let widgetBroken = try await runCLI(["contract-check", "--released", folder.path])
        #expect(widgetBroken.status == 1, "\(widgetBroken.output)")
        #expect(widgetBroken.output.contains("component.cartButton.sku"), "\(widgetBroken.output)")
        // A released file from before the widgets existed: adding app-defined kinds breaks no one.
        let beforeWidgets = try ContractSchema.document(for: .v3)
        try encoder.encode(beforeWidgets).write(to: folder.appendingPathComponent("v3.schema.json"))
        let added = try await runCLI(["contract-check", "--released", folder.path])
        #expect(added.status == 0, "\(added.output)")
        #expect(added.output.contains("component.recordingOffer") && added.output.contains("sent only to apps that name it"))

        try Data("{\"x-api-version\": 2, \"$defs\": {}}".utf8).write(to: folder.appendingPathComponent("v3.schema.json"))
        let misnamed = try await runCLI(["contract-check", "--released", folder.path])
        #expect(misnamed.status == 2, "\(misnamed.output)")
        #expect(misnamed.output.contains("v3.schema.json at #/x-api-version"))
    }

    @Test("render prints the resolved tree and walks the demo with --tap and --type through a prompt and a command")
    func renderWalk() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            let home = root.absoluteString + "api/v3/screens/home"
            let plain = try await runCLI(["render", home])
            #expect(plain.status == 0, "\(plain.output)")
            #expect(plain.output.contains(#"header [header] h1 "Screenplay Classical""#))
            #expect(plain.output.contains("→ navigate screens/composer/mozart"))

            let walk = try await runCLI(["render", home, "--tap", "New playlist", "--type", "name=Road trip", "--tap", "Create"])
            #expect(walk.status == 0, "\(walk.output)")
            #expect(walk.output.contains(#"textfield [presented/field:name] placeholder "Playlist name""#))
            #expect(walk.output.contains("── step 3: tap Create"))
            // Created, and opened: the new playlist is on top of home.
            #expect(walk.output.contains("screen 2 on the stack: screens/playlist/"), "\(walk.output.suffix(600))")
            #expect(walk.output.contains(#"header [header] h1 "Road trip""#), "\(walk.output.suffix(600))")

            // Navigation by id, then a command from the next screen.
            let deeper = try await runCLI(["render", home, "--tap", "section:all-composers/listRow:screens/composer/mozart"])
            #expect(deeper.status == 0, "\(deeper.output)")
            #expect(deeper.output.contains("screen 2 on the stack: screens/composer/mozart"))

            let ambiguous = try await runCLI(["render", home, "--tap", "Mozart"])
            #expect(ambiguous.status == 1)
            #expect(ambiguous.output.contains("matches 2 nodes; use an id"))
            let nothing = try await runCLI(["render", home, "--tap", "No such thing"])
            #expect(nothing.status == 1)
            #expect(nothing.output.contains("matches no node"))
            let badType = try await runCLI(["render", home, "--type", "name=x"])
            #expect(badType.status == 1)
            #expect(badType.output.contains("no prompt field and the screen has no text field that stores 'name'"))
        }
    }

    @Test("render walks the v4 demo: a text field validated as typed, a search through storage, a favorite patched in place")
    func renderWalkV4() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            let home = root.absoluteString + "api/v4/screens/home"
            let short = try await runCLI(["render", home, "--tap", "Search", "--type", "query=m", "--tap", "search-field"])
            #expect(short.status == 1, "\(short.output)")
            #expect(short.output.contains(#"key query = "m" ! "Type at least two characters""#), "\(short.output.suffix(800))")
            #expect(short.output.contains("cannot be activated now"))

            let search = try await runCLI(["render", home, "--tap", "Search", "--type", "query=  mozart ", "--tap", "id:search-field"])
            #expect(search.status == 0, "\(search.output)")
            #expect(search.output.contains("── step 3: tap id:search-field"))
            #expect(search.output.contains(#"heading [section:results/heading:Results for “mozart”]"#), "\(search.output.suffix(800))")
            #expect(search.output.contains(#""Wolfgang Amadeus Mozart""#))
            #expect(
                search.output.contains("screen 3 on the stack: screens/search?q=mozart"), "the answer opens the results' own URL")

            // A playlist made from home's menu opens with its heart; tapping it patches the entity:
            // the heart turns on without a reload.
            let favorite = try await runCLI([
                "render", home, "--tap", "New playlist", "--type", "name=Trip", "--tap", "Create", "--tap", "Add to favorites",
            ])
            #expect(favorite.status == 0, "\(favorite.output)")
            #expect(favorite.output.contains(#"message [presented] "Added “Trip” to favorites""#), "\(favorite.output.suffix(800))")
            #expect(favorite.output.contains(#"toggle [id:about/favoriteButton"#), "\(favorite.output.suffix(800))")
            #expect(
                favorite.output.hasSuffix("\n")
                    && favorite.output.split(separator: "\n").last { $0.contains("toggle [") }?.contains("(on)") == true)
        }
    }

    @Test("validate reads a screen straight from a running server")
    func validateURL() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            for version in 1...APIVersion.latest.rawValue {
                let (status, output) = try await runCLI([
                    "validate", "--api-version", String(version), root.absoluteString + "api/v\(version)/screens/home",
                ])
                #expect(status == 0, "v\(version): \(output)")
            }
        }
    }
}
