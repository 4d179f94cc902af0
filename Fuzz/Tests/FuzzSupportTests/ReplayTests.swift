import Foundation
import FuzzSupport
import Testing

/// The fuzz package's own tests, in a plain build: every committed seed and every regression
/// input goes through its harness once (a crash is an oracle failure), and the seed corpus can be
/// regenerated. Serialized: two harnesses that wait on the service (a semaphore) at once would
/// hold both threads of a two-core machine's pool, and the service could never run.
@Suite("Fuzz corpus replay", .serialized)
struct ReplayTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let harnesses: [String: @Sendable (UnsafeRawBufferPointer) -> Void] = [
        "FuzzScreenDecoding": ScreenDecodingHarness.run, "FuzzCommandPayload": CommandPayloadHarness.run,
        "FuzzDowngrade": DowngradeHarness.run, "FuzzJSONSyntax": JSONSyntaxHarness.run, "FuzzHTMLRenderer": HTMLRendererHarness.run,
        "FuzzLiveInput": LiveInputHarness.run, "FuzzExpressions": ExpressionHarness.run,
    ]

    static func inputs(_ folder: String, _ target: String) -> [URL] {
        let directory = root.appendingPathComponent(folder).appendingPathComponent(target)
        return ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [])
            .filter { !$0.lastPathComponent.hasPrefix(".") && $0.pathExtension != "md" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test("Every seed passes its harness", arguments: harnesses.keys.sorted())
    func seeds(target: String) throws {
        let files = Self.inputs("Corpus", target)
        #expect(!files.isEmpty, "no seeds for \(target)")
        for file in files {
            try Data(contentsOf: file).withUnsafeBytes { Self.harnesses[target]!($0) }
        }
    }

    /// Inputs that once crashed a harness. Until its bug is fixed, such an input still crashes
    /// this test (that is the point); `Tests/*/FuzzRegressionTests.swift` state each bug alone.
    @Test("Every regression input passes its harness", arguments: harnesses.keys.sorted())
    func regressions(target: String) throws {
        for file in Self.inputs("Regressions", target) {
            try Data(contentsOf: file).withUnsafeBytes { Self.harnesses[target]!($0) }
        }
    }

    @Test(
        "Write the seed corpus (FUZZ_WRITE_CORPUS=1)",
        .enabled(if: ProcessInfo.processInfo.environment["FUZZ_WRITE_CORPUS"] == "1"))
    func writeSeedCorpus() throws {
        for (target, files) in SeedCorpus.files() {
            let directory = Self.root.appendingPathComponent("Corpus").appendingPathComponent(target)
            try? FileManager.default.removeItem(at: directory)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for file in files { try file.bytes.write(to: directory.appendingPathComponent(file.name)) }
        }
    }
}
