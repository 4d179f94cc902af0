import Foundation
import ScreenplayContract
import Testing

/// Runs the built `screenplay` executable.
func runCLI(_ arguments: [String], input: Data? = nil) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = packageRoot().appendingPathComponent(".build/debug/screenplay")
    process.arguments = arguments
    process.currentDirectoryURL = packageRoot()
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    let stdin = Pipe()
    process.standardInput = stdin
    try process.run()
    if let input { stdin.fileHandleForWriting.write(input) }
    try stdin.fileHandleForWriting.close()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
}

@Suite("Command line: schema, validate, docs")
struct CommandLineTests {
    static func temporaryFile(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("screenplay-cli-\(UUID().uuidString).json")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test("schema prints the generated schema of the version asked for, and refuses unknown versions")
    func schema() throws {
        let (status, output) = try runCLI(["schema", "--api-version", "2"])
        #expect(status == 0)
        #expect(output == (try ContractSchema.text(for: .v2)))
        let refused = try runCLI(["schema", "--api-version", "9"])
        #expect(refused.status != 0)
        #expect(refused.output.contains("--api-version 9"))
    }

    @Test("validate passes a clean payload and lists each issue with its path otherwise, with exit codes to match")
    func validate() throws {
        let clean = try Self.temporaryFile(#"{"id":"s","title":"S","sections":[{"id":"a","components":[{"type":"trackRow","title":"t","duration":"1:00"}]}]}"#)
        defer { try? FileManager.default.removeItem(at: clean) }
        let ok = try runCLI(["validate", "--api-version", "1", clean.path])
        #expect(ok.status == 0, "\(ok.output)")
        #expect(ok.output.contains("clean"))

        // The same file is wrong for a v3 client (duration must be seconds).
        let v3 = try runCLI(["validate", "--api-version", "3", clean.path])
        #expect(v3.status == 1)
        #expect(v3.output.contains("$.sections[0].components[0].duration"))

        let dirty = try Self.temporaryFile(
            #"{"id":"s","title":"S","sections":[{"id":"a","components":[{"type":"grid","columns":2,"cards":[]},{"type":"listRow"},{"type":"rectangle","width":1e9,"height":1,"color":"accent"}]}]}"#)
        defer { try? FileManager.default.removeItem(at: dirty) }
        let report = try runCLI(["validate", "--api-version", "1", dirty.path])
        #expect(report.status == 1)
        #expect(report.output.contains("$.sections[0].components[0]: unknown component type 'grid'"))
        #expect(report.output.contains("$.sections[0].components[1].title: missing required field 'title'"))
        #expect(report.output.contains("$.sections[0].components[2].width"))
        #expect(report.output.contains("3 issues"))

        let stdin = try runCLI(["validate", "--kind", "result", "-"], input: Data(#"{"type":"done","message":"ok"}"#.utf8))
        #expect(stdin.status == 0, "\(stdin.output)")

        let truncated = try runCLI(["validate", "-"], input: Data(#"{"id":"s","title":"#.utf8))
        #expect(truncated.status == 1)
        #expect(truncated.output.contains("line 1"))

        let missing = try runCLI(["validate", "/nonexistent/screen.json"])
        #expect(missing.status != 0)
        #expect(missing.output.contains("no file at '/nonexistent/screen.json'"))
    }

    @Test("contract-diff finds no breaking change from v1 to v2 to v3, and a removed required field breaks")
    func contractDiff() throws {
        var files: [URL] = []
        defer { files.forEach { try? FileManager.default.removeItem(at: $0) } }
        for version in [APIVersion.v1, .v2, .v3] { files.append(try Self.temporaryFile(try ContractSchema.text(for: version))) }
        let v1v2 = try runCLI(["contract-diff", files[0].path, files[1].path])
        #expect(v1v2.status == 0, "\(v1v2.output)")
        #expect(v1v2.output.contains("component.grid"))
        let v2v3 = try runCLI(["contract-diff", files[1].path, files[2].path])
        #expect(v2v3.status == 0, "\(v2v3.output)")
        #expect(v2v3.output.contains("handled by downgrade"))
        // v3 with `title` no longer required in listRow: what a careless edit to the Swift type would do.
        var schema = try #require(try JSONSerialization.jsonObject(with: Data(ContractSchema.text(for: .v3).utf8)) as? [String: Any])
        var definitions = try #require(schema["$defs"] as? [String: Any])
        var listRow = try #require(definitions["component.listRow"] as? [String: Any])
        listRow["required"] = ["type"]
        definitions["component.listRow"] = listRow
        schema["$defs"] = definitions
        let broken = String(decoding: try JSONSerialization.data(withJSONObject: schema), as: UTF8.self)
        files.append(try Self.temporaryFile(broken))
        let diff = try runCLI(["contract-diff", files[2].path, files[3].path])
        #expect(diff.status == 1, "\(diff.output)")
        #expect(diff.output.contains("component.listRow.title"))
    }

    @Test("validate reads a screen straight from a running server")
    func validateURL() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            for version in 1...3 {
                let (status, output) = try runCLI(["validate", "--api-version", String(version), root.absoluteString + "api/v\(version)/screens/home"])
                #expect(status == 0, "v\(version): \(output)")
            }
        }
    }
}
