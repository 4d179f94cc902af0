import Foundation
import ScreenplayClient
import ScreenplayContract
import ScreenplayServer
import Testing

@testable import ScreenplayDemo

/// What a row template saves on the wire (v6): a composer's page with 300 works, its works as one
/// template over their data against the rows written out one by one, as the page was built before
/// templates (each row with its own filter expression and playing mark). Prints the figures:
/// `swift test --filter RowTemplateBytesTests`.
@Suite("Row template bytes")
struct RowTemplateBytesTests {
    static let composer = ComposerRecord(
        id: 1, slug: "mozart", name: "Wolfgang Amadeus Mozart", born: 1756, died: 1791, nationality: "Austrian", period: "Classical",
        popularity: 1, biography: "Born in Salzburg.\n\nSettled in Vienna.")

    /// 300 works with a catalogue number, a key, a year and four tracks each.
    static let works = (1...300).map { index in
        WorkRecord(
            id: Int64(index), composerId: 1, composerSlug: "mozart", composerName: "Wolfgang Amadeus Mozart", slug: "work-\(index)",
            title: ["Symphony", "Piano Sonata", "String Quartet", "Serenade"][index % 4] + " No. \(index)", catalogue: "K. \(index + 100)",
            musicalKey: ["C major", "D minor", "G minor", "E-flat major"][index % 4], year: 1761 + index % 30, genre: "Orchestral",
            recordingCount: 1 + index % 4)
    }
    static let tracks = Dictionary(uniqueKeysWithValues: works.map { work in (work.id, (1...4).map { "\(work.id * 10 + Int64($0))" }) })

    /// The works section as the page built it before templates: every row written out, with its
    /// own filter expression (the work's text as a literal) and playing mark.
    static func writtenOut() -> [Component] {
        let typed = CatalogScreens.worksFilter.value.trimmed.lowercased
        return works.map { work in
            ListRow(
                title: work.title, subtitle: DemoLinks.workDetails(work).joined(separator: " · "), image: DemoLinks.workThumbnail(work),
                recordingCount: work.recordingCount,
                action: .navigate(to: DemoLinks.work(work.id), header: DemoLinks.workHeader(work))
            )
            .visible(StateExpression((work.title + " " + DemoLinks.workDetails(work).joined(separator: " ")).lowercased()).contains(typed))
            .markedWhilePlaying(tracks[work.id])
        }
    }

    static func sizes(_ screen: Screen, version: APIVersion = .v6) throws -> (raw: Int, gzipped: Int) {
        let bytes = [UInt8](try ScreenplayEncoder(apiVersion: version).encode(Downgrade(to: version).screen(screen)))
        return (bytes.count, Gzip.compress(bytes, level: 6)?.count ?? bytes.count)
    }

    @Test("300 works: the template is smaller than the rows written out, raw and gzipped, and makes the same rows")
    func threeHundredRows() throws {
        // As the service sends it: every component with an id.
        let template = CatalogScreens.composerScreen(Self.composer, works: Self.works, tracks: Self.tracks).assigningComponentIDs()
        var before = template
        before.state = StateVariables(declaring: CatalogScreens.worksFilter.declaration, CatalogScreens.biographyUnfolded.declaration)
        let works = try #require(before.sections.firstIndex { $0.id == "works" })
        before.sections[works].components = [before.sections[works].components[0]] + Self.writtenOut()
        for (index, component) in before.sections[works].components.enumerated() { before.sections[works].components[index].id = component.id ?? "work-\(index)" }

        let after = try Self.sizes(template)
        let old = try Self.sizes(before)
        let plain = try Self.sizes(template, version: .v5)
        print(
            """
            row template bytes, a composer's page of 300 works (v6 JSON):
              rows written out (before): \(old.raw) raw, \(old.gzipped) gzipped
              one template over the data: \(after.raw) raw, \(after.gzipped) gzipped (\(String(format: "%.2f", Double(after.raw) / Double(old.raw)))×, \(String(format: "%.2f", Double(after.gzipped) / Double(old.gzipped)))×)
              v5, rows made by the server, no bindings: \(plain.raw) raw, \(plain.gzipped) gzipped
            """)
        #expect(after.raw * 2 < old.raw, "the template is less than half the rows written out")
        #expect(after.gzipped < old.gzipped)

        // The rows the template makes are the rows written out: same titles, subtitles, counts,
        // links and headers, in order.
        let made = template.expandingRows().value.sections[works].components.filter { $0.kind == Component.ListRow.kind }
        let written = Self.writtenOut()
        #expect(made.count == 300)
        for (row, old) in zip(made, written) {
            guard case .listRow(let new) = row.content, case .listRow(let expected) = old.content else {
                Issue.record("not list rows")
                return
            }
            #expect(new == expected)
        }
        // And their bindings mean the same: typed text filters them alike, the playing track marks the same row.
        for (filter, track) in [("", "50"), ("symphony no. 12", "1233"), ("d minor", ""), ("zzz", "9")] {
            let client: [String: ExpressionValue] = ["player": .record(["trackID": .string(track), "playing": .bool(true), "position": .number(0), "title": .string("")])]
            func shown(_ screen: Screen) -> [String] {
                var engine = BindingEngine(screen: screen, client: client)
                _ = try? engine.set("filter", to: .string(filter))
                var context = ResolutionContext()
                context.computed = engine.results
                let tree = ViewTreeResolver(context: context).resolve(screen.expandingRows().value)
                func rows(_ node: ViewNode) -> [ViewNode] { (node.role == .row ? [node] : []) + node.children.flatMap(rows) }
                return rows(tree.root).map { "\($0.text ?? "")\($0.accessibility.traits.contains(.selected) ? " ▶" : "")" }
            }
            #expect(shown(template) == shown(before), "filter '\(filter)', track \(track)")
        }
    }
}
