import Foundation
import ScreenplayContract
import ScreenplayContractTools
import ScreenplayDemo
import Testing

@Suite("Committed contract artifacts")
struct ContractArtifactsTests {
    static let docsFolder = packageRoot().appendingPathComponent("docs/contract")

    @Test(
        "the committed docs/contract matches what the Swift definitions and the demo's widget contracts generate (`swift run screenplay docs` refreshes it)"
    )
    func docsUpToDate() throws {
        let generated = try ContractDocs.files(appKinds: DemoApp.appDefinedKinds)
        for (path, text) in generated {
            let committed = try? String(contentsOf: Self.docsFolder.appendingPathComponent(path), encoding: .utf8)
            #expect(committed == text, "docs/contract/\(path) is out of date: run `swift run screenplay docs`")
        }
        for folder in ["components", "widgets"] {
            let pages = try FileManager.default.contentsOfDirectory(atPath: Self.docsFolder.appendingPathComponent(folder).path)
            #expect(
                Set(pages.map { "\(folder)/" + $0 }) == Set(generated.keys.filter { $0.hasPrefix("\(folder)/") }),
                "stale pages in docs/contract/\(folder)")
        }
        #expect(generated["widgets/recordingOffer.md"]?.contains("| `title` | string | yes | v2 | The work's title. |") == true)
    }
}
