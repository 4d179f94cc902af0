import Foundation
import HTTPTypes
import ScreenplayContract
import ScreenplayContractTools
import ScreenplayDemo
import ScreenplayServer
import ScreenplayTestSupport
import Testing

@Suite("End to end: served JSON conforms to the generated schema (checked by Python's jsonschema)", .serialized)
struct SchemaConformanceTests {
    @Test(
        "every screen and command result the demo serves validates against `screenplay schema` of its version",
        arguments: [APIVersion.v1, .v2, .v3])
    func conforms(version: APIVersion) async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("screenplay-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var lines: [String] = []
        func add(_ name: String, _ definition: String, _ body: [UInt8]) throws {
            let document = try JSONSerialization.jsonObject(with: Data(body))
            let line = try JSONSerialization.data(withJSONObject: ["name": name, "definition": definition, "document": document])
            lines.append(String(decoding: line, as: UTF8.self))
        }
        try await harness.withServer { root in
            let client = DemoClient(root: root, apiVersion: version)
            var queue = ["screens/home"]
            var seen: Set<String> = Set(queue)
            let json: HTTPFields = [.contentType: "application/json"]
            var token: String?
            while !queue.isEmpty {
                let url = queue.removeFirst()
                var headers: HTTPFields = [:]
                if let token { headers[.authorization] = "Bearer \(token)" }
                let response = try await raw(.get, root, "/api/\(version)/\(url)", headers: headers)
                if token == nil { token = response.headers[HTTPField.Name("Screenplay-Token")!] }
                #expect(response.status == .ok, "\(url)")
                try add(url, "Screen", response.body)
                let screen = try ScreenplayDecoder(apiVersion: version).decode(Screen.self, from: Data(response.body)).value
                for action in screen.allActions {
                    if case .navigate(let navigate) = action, seen.insert(navigate.url).inserted { queue.append(navigate.url) }
                }
            }
            var auth: HTTPFields = json
            auth[.authorization] = "Bearer \(token ?? "")"
            // Every command result kind the demo produces: prompt, choice, done, and an error body.
            for (name, path, body) in [
                ("prompt", "commands/playlists/new", #"{}"#), ("create", "commands/playlists/create", #"{"name":"Schema"}"#),
                ("choice", "commands/playlists/choose", #"{"workId":1}"#), ("favorite", "commands/favorites/add", #"{"playlistId":1}"#),
            ] {
                let response = try await raw(.post, root, "/api/\(version)/\(path)", headers: auth, body: Array(body.utf8))
                #expect(response.status == .ok, "\(name)")
                try add(name, "CommandResult", response.body)
                // …and a client of this version reads it with no issue and no unknown kind.
                let result = try ScreenplayDecoder(mode: .strict, apiVersion: version).decode(CommandResult.self, from: Data(response.body))
                #expect(result.issues.isEmpty, "\(name): \(result.issues)")
            }
            let failure = try await raw(
                .post, root, "/api/\(version)/commands/playlists/create", headers: auth, body: Array(#"{"name":7}"#.utf8))
            try add("error body", "ErrorBody", failure.body)
            _ = client
        }
        #expect(lines.count > 100)
        let schemaFile = folder.appendingPathComponent("schema.json")
        let documentsFile = folder.appendingPathComponent("documents.jsonl")
        try ContractSchema.text(for: version).write(to: schemaFile, atomically: true, encoding: .utf8)
        try (lines.joined(separator: "\n") + "\n").write(to: documentsFile, atomically: true, encoding: .utf8)
        let (status, output) = try await runPython(["scripts/validate-json-schema.py", schemaFile.path, documentsFile.path])
        #expect(status == 0, "\(output)")
        #expect(output.contains("\(lines.count) documents valid"), "\(output)")
    }

    @Test(
        "the composed shop, as an app that renders the widget kinds receives it, validates against the app's schema with its widget contracts"
    )
    func widgetsConform() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("screenplay-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let kinds = DemoApp.appDefinedKinds.map(\.type)
        let body = try await harness.withServer { root in
            let headers: HTTPFields = [
                ScreenplayService.componentsHeader: kinds.joined(separator: ", "), ScreenplayService.platformHeader: "ios",
            ]
            let response = try await raw(.get, root, "/api/v4/screens/shop", headers: headers)
            #expect(response.status == .ok)
            return response.body
        }
        let text = String(decoding: body, as: UTF8.self)
        for kind in ["recordingOffer", "priceTag", "cartButton"] {
            #expect(text.contains("\"type\":\"\(kind)\""), "\(kind) should be sent as itself")
        }
        let schemaFile = folder.appendingPathComponent("schema.json")
        try ContractSchema.text(for: .v4, appKinds: DemoApp.appDefinedKinds).write(to: schemaFile, atomically: true, encoding: .utf8)
        func validate(_ screen: String) async throws -> (Int32, String) {
            let file = folder.appendingPathComponent("doc-\(UUID().uuidString).jsonl")
            try (#"{"name":"shop","definition":"Screen","document":"# + screen + "}\n").write(to: file, atomically: true, encoding: .utf8)
            return try await runPython(["scripts/validate-json-schema.py", schemaFile.path, file.path])
        }
        let (status, output) = try await validate(text)
        #expect(status == 0, "\(output)")
        // The widget definitions are what the validator checks: an offer without its title fails.
        var page = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        var sections = try #require(page["sections"] as? [[String: Any]])
        var components = try #require(sections.first?["components"] as? [[String: Any]])
        let offer = try #require(components.firstIndex { $0["type"] as? String == "recordingOffer" })
        components[offer]["title"] = nil
        sections[0]["components"] = components
        page["sections"] = sections
        let broken = String(decoding: try JSONSerialization.data(withJSONObject: page), as: UTF8.self)
        #expect(try await validate(broken).0 == 1)
    }

    @Test("the schema refuses what the v1 decoder refuses: a v3 duration, a v2 kind, a missing title")
    func refusals() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("screenplay-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func screen(_ component: String) -> String {
            #"{"name":"x","definition":"Screen","document":{"id":"s","title":"S","sections":[{"id":"a","components":[\#(component)]}]}}"#
        }
        let documents = [
            screen(#"{"type":"trackRow","title":"t","duration":61}"#),
            screen(#"{"type":"grid","columns":2,"cards":[]}"#),
            screen(#"{"type":"listRow"}"#),
        ]
        try ContractSchema.text(for: .v1).write(to: folder.appendingPathComponent("schema.json"), atomically: true, encoding: .utf8)
        for (index, document) in documents.enumerated() {
            let file = folder.appendingPathComponent("doc\(index).jsonl")
            try (document + "\n").write(to: file, atomically: true, encoding: .utf8)
            let (status, output) = try await runPython([
                "scripts/validate-json-schema.py", folder.appendingPathComponent("schema.json").path, file.path,
            ])
            #expect(status == 1, "document \(index) should be refused: \(output)")
            let decoded = try ScreenplayDecoder(apiVersion: .v1).decode(Screen.self, from: Data(Self.document(in: document).utf8))
            #expect(decoded.issues.count == 1, "the v1 decoder should refuse document \(index) too")
        }
    }

    static func document(in line: String) -> String {
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        let document = object?["document"] ?? [:]
        return String(decoding: (try? JSONSerialization.data(withJSONObject: document)) ?? Data(), as: UTF8.self)
    }
}

/// Runs python3 from the package root and returns its exit status and output.
func runPython(_ arguments: [String]) async throws -> (Int32, String) {
    let outcome = try await ChildProcess.python(arguments, in: packageRoot())
    return (outcome.status, outcome.output)
}

/// The package root, found from this file's location.
func packageRoot() -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
