import ArgumentParser
import Foundation
import ScreenplayContract
import ScreenplayContractTools
import ScreenplayDemo

/// `screenplay docs`: regenerate the Markdown contract.
struct DocsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "docs", abstract: "Write the Markdown contract (one page per component kind) into a folder.")

    @Option(help: "Folder to write into; existing generated pages are replaced.")
    var output = "docs/contract"

    func run() throws {
        let files = try ContractDocs.files(appKinds: DemoApp.appDefinedKinds)
        for (path, text) in files.sorted(by: { $0.key < $1.key }) {
            let url = URL(fileURLWithPath: output).appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        print("wrote \(files.count) files to \(output)")
    }
}
