import Foundation

/// The catalog the demo seeds into its database on first start: real composers, works,
/// recordings and movements, so every screen shows believable content.
///
/// The data lives in `Resources/catalog.json` (loaded through `Bundle.module`): an editor
/// changes it as data, and the module no longer compiles two thousand lines of literals.
enum CatalogSeed {
    /// The seed, read and decoded once per process.
    static func composers() throws(CatalogSeedError) -> [SeedComposer] {
        try loaded.get()
    }

    private static let loaded: Result<[SeedComposer], CatalogSeedError> = Result {
        guard let url = Bundle.module.url(forResource: "catalog", withExtension: "json") else {
            throw CatalogSeedError(file: "catalog.json", problem: "the demo's resource bundle has no catalog.json")
        }
        return try decode(try Data(contentsOf: url), file: url.lastPathComponent)
    }.mapError { $0 as? CatalogSeedError ?? CatalogSeedError(file: "catalog.json", problem: "\($0)") }

    /// Decodes a seed file: `{"composers": [...]}`. A value of the wrong shape is an error that
    /// names the file and the JSON path (`$.composers[3].works[0].year`).
    static func decode(_ data: Data, file: String) throws(CatalogSeedError) -> [SeedComposer] {
        struct Document: Decodable { let composers: [SeedComposer] }
        do {
            return try JSONDecoder().decode(Document.self, from: data).composers
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context),
            let DecodingError.keyNotFound(_, context), let DecodingError.dataCorrupted(context)
        {
            throw CatalogSeedError(file: file, problem: "\(Self.path(context.codingPath)): \(context.debugDescription)")
        } catch {
            throw CatalogSeedError(file: file, problem: "\(error)")
        }
    }

    /// `$.composers[3].works[0].year` for a decoder's coding path.
    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce("$") { path, key in key.intValue.map { "\(path)[\($0)]" } ?? "\(path).\(key.stringValue)" }
    }
}

/// The seed could not be read: which file, and what is wrong where.
struct CatalogSeedError: Error, CustomStringConvertible {
    let file: String
    let problem: String

    var description: String { "the demo's catalog seed (\(file)) cannot be read: \(problem)" }
}

/// A seeded composer: the home carousel, a composer page, and the works under it.
struct SeedComposer: Sendable, Decodable {
    /// URL-safe, e.g. `mozart`.
    let slug: String
    /// `Wolfgang Amadeus Mozart`.
    let name: String
    let born: Int
    let died: Int
    /// `Austrian`.
    let nationality: String
    /// `Classical`, `Baroque`, `Romantic`, `Late Romantic`, `20th century`…
    let period: String
    /// 1 is the most popular; unique, orders the home carousel.
    let popularity: Int
    /// Two or three paragraphs.
    let biography: [String]
    let works: [SeedWork]
}

/// One composition of a seeded composer; it becomes a work page and groups the recordings
/// that can be browsed and played for it.
struct SeedWork: Sendable, Decodable {
    /// URL-safe and unique within the composer, e.g. `eine-kleine-nachtmusik`.
    let slug: String
    let title: String
    /// `K. 525`, `BWV 1007`, `Op. 27 No. 2`; `nil` when there is none.
    let catalogue: String?
    /// `G major`; `nil` when it does not apply.
    let key: String?
    /// The year of completion.
    let year: Int
    /// `Symphony`, `Piano sonata`, `Opera`, `Concerto`, `Chamber`…
    let genre: String
    let recordings: [SeedRecording]
}

/// A recorded performance of a work, so the demo shows several interpretations of one piece.
struct SeedRecording: Sendable, Decodable {
    /// `Wiener Philharmoniker, Karl Böhm`.
    let performers: String
    /// The recording year.
    let year: Int
    let label: String
    /// The movements (or an opera's best-known numbers).
    let tracks: [SeedTrack]
}

/// A single track of a recording (a movement or a number): track lists and durations for the
/// player and the recording screens.
struct SeedTrack: Sendable, Decodable {
    /// `I. Allegro`.
    let title: String
    /// Its duration in seconds.
    let seconds: Int
}
