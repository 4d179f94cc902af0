import Foundation
import Testing

@testable import ScreenplayDemo

@Suite("The demo's catalog seed: a data resource, loaded through Bundle.module")
struct CatalogSeedTests {
    @Test("the resource loads: every composer with works, recordings and tracks, slugs unique, popularity a ranking")
    func loads() throws {
        let composers = try CatalogSeed.composers()
        #expect(composers.count == 16)
        #expect(Set(composers.map(\.slug)).count == composers.count)
        #expect(composers.map(\.popularity).sorted() == Array(1...composers.count))
        let works = composers.flatMap(\.works)
        #expect(works.count == 80)
        for composer in composers {
            #expect(!composer.works.isEmpty && !composer.biography.isEmpty, "\(composer.slug)")
            #expect(Set(composer.works.map(\.slug)).count == composer.works.count, "\(composer.slug): work slugs are unique")
        }
        let recordings = works.flatMap(\.recordings)
        #expect(recordings.count == 101)
        #expect(recordings.allSatisfy { !$0.tracks.isEmpty && $0.tracks.allSatisfy { $0.seconds > 0 } })
        #expect(works.filter { $0.key == nil }.count == 19, "optional fields may be left out (works in no key)")
    }

    @Test("a seed file of the wrong shape is refused with the file and the JSON path")
    func malformed() throws {
        let wrongYear = #"{"composers": [{"slug": "x", "name": "X", "born": 1, "died": 2, "nationality": "n", "period": "p", "popularity": 1, "biography": [], "works": [{"slug": "w", "title": "W", "year": "soon", "genre": "g", "recordings": []}]}]}"#
        #expect {
            try CatalogSeed.decode(Data(wrongYear.utf8), file: "catalog.json")
        } throws: { error in
            "\(error)".contains("catalog.json") && "\(error)".contains("$.composers[0].works[0].year")
        }
        #expect(throws: CatalogSeedError.self) { try CatalogSeed.decode(Data("{\"composers\": [".utf8), file: "catalog.json") }
        #expect {
            try CatalogSeed.decode(Data(#"{"composers": [{"slug": "x"}]}"#.utf8), file: "catalog.json")
        } throws: { error in
            "\(error)".contains("$.composers[0]") && "\(error)".contains("name")
        }
    }
}
