import Foundation
import Synchronization

/// Search that forgives, the same for the JSON API, the web pages and the terminal (they all ask
/// the search screen):
/// - accents, case and width do not matter: "dvorak" finds Dvořák, "BACH" finds Bach;
/// - one typo (a letter wrong, missing, added, or two swapped) is forgiven in a word of five
///   letters or more: "mozzart" finds Mozart, "bethoven" Beethoven; shorter words must match;
/// - a word may be the start of a longer one ("beet" finds Beethoven);
/// - every word of the query must match somewhere in the item;
/// - ranked: composers, then works, then recordings; within each, a match in the item's own name
///   before a match in what it belongs to, exact before prefix before typo, then the catalog's order.
///
/// The catalog is fixed once seeded, so the index is built from it once, on the first search.
final class CatalogSearch: Sendable {
    /// What a search finds, in rank order.
    struct Results: Sendable {
        var composers: [ComposerRecord] = []
        var works: [WorkRecord] = []
        var recordings: [(recording: RecordingRecord, work: WorkRecord)] = []

        var isEmpty: Bool { composers.isEmpty && works.isEmpty && recordings.isEmpty }
    }

    /// One searchable item: its own words (its name) and the words of what it belongs to.
    struct Document: Sendable {
        let own: [String]
        let context: [String]
        /// The catalog's order, for ties.
        let order: Int
    }

    private struct Index: Sendable {
        var composers: [(ComposerRecord, Document)] = []
        var works: [(WorkRecord, Document)] = []
        var recordings: [(RecordingRecord, WorkRecord, Document)] = []
    }

    let catalog: CatalogRepository
    private let index = Mutex<Index?>(nil)

    init(catalog: CatalogRepository) { self.catalog = catalog }

    /// The items matching `query`, at most `limit` of each kind.
    func search(_ query: String, limit: Int = 20) async throws -> Results {
        let words = Self.words(query)
        guard !words.isEmpty else { return Results() }
        let index = try await loadedIndex()
        func ranked<Item>(_ items: [(Item, Document)]) -> [Item] {
            items.compactMap { item, document in Self.score(words, document).map { (item, $0, document.order) } }
                .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.2 < $1.2 }.prefix(limit).map(\.0)
        }
        var results = Results()
        results.composers = ranked(index.composers)
        results.works = ranked(index.works)
        results.recordings = ranked(index.recordings.map { (($0.0, $0.1), $0.2) }).map { (recording: $0.0, work: $0.1) }
        return results
    }

    private func loadedIndex() async throws -> Index {
        if let index = index.withLock({ $0 }) { return index }
        var built = Index()
        let composers = try await catalog.composers()
        for (order, composer) in composers.enumerated() {
            built.composers.append((composer, Document(own: Self.words(composer.name), context: [], order: order)))
        }
        let works = try await catalog.allWorks()
        let worksByID = Dictionary(uniqueKeysWithValues: works.map { ($0.id, $0) })
        for (order, work) in works.enumerated() {
            let own = Self.words([work.title, work.catalogue ?? ""].joined(separator: " "))
            built.works.append((work, Document(own: own, context: Self.words(work.composerName), order: order)))
        }
        for (order, recording) in try await catalog.allRecordings().enumerated() {
            guard let work = worksByID[recording.workId] else { continue }
            let context = Self.words([work.title, work.composerName, recording.label].joined(separator: " "))
            built.recordings.append((recording, work, Document(own: Self.words(recording.performers), context: context, order: order)))
        }
        index.withLock { $0 = built }
        return built
    }

    // MARK: Matching

    /// How well the query's words match a document (`nil`: a word matches nowhere). Each word
    /// takes its best match; a match in the item's own words counts double.
    static func score(_ query: [String], _ document: Document) -> Int? {
        var total = 0
        for word in query {
            let own = document.own.map { match(word, $0) }.max() ?? 0
            let context = document.context.map { match(word, $0) }.max() ?? 0
            let best = max(own * 2, context)
            guard best > 0 else { return nil }
            total += best
        }
        return total
    }

    /// 4 exact, 3 prefix, 2 one typo away (words of five letters or more), 0 no match.
    static func match(_ word: String, _ candidate: String) -> Int {
        if word == candidate { return 4 }
        if candidate.hasPrefix(word), word.count >= 2 { return 3 }
        guard word.count >= 5, candidate.count >= 4 else { return 0 }
        if isOneEditAway(Array(word.unicodeScalars), Array(candidate.unicodeScalars)) { return 2 }
        // A typo in the start of a longer word ("beethov" for "beethoven" is a prefix; "bethov" is
        // a typo in one).
        if candidate.count > word.count + 1 {
            let start = Array(candidate.unicodeScalars.prefix(word.unicodeScalars.count))
            if isOneEditAway(Array(word.unicodeScalars), start) { return 2 }
        }
        return 0
    }

    /// Whether `a` becomes `b` with one substitution, insertion, deletion or swap of neighbours.
    static func isOneEditAway(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Bool {
        if a == b { return true }
        if a.count == b.count {
            let differences = zip(a, b).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
            if differences.count == 1 { return true }
            if differences.count == 2, differences[1] == differences[0] + 1 {
                let i = differences[0]
                return a[i] == b[i + 1] && a[i + 1] == b[i]
            }
            return false
        }
        guard abs(a.count - b.count) == 1 else { return false }
        let (short, long) = a.count < b.count ? (a, b) : (b, a)
        var i = 0
        while i < short.count, short[i] == long[i] { i += 1 }
        return short[i...] == long[(i + 1)...]
    }

    // MARK: Folding

    /// The words of `text`, folded: lowercase, no accents, no width, letters and digits only.
    static func words(_ text: String) -> [String] {
        fold(text).split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// `text` with case, accents and width taken out ("Dvořák" → "dvorak"), and the letters
    /// folding leaves alone spelled out ("ø" → "o", "œ" → "oe").
    static func fold(_ text: String) -> String {
        var folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
        for (letter, spelled) in [("ø", "o"), ("œ", "oe"), ("æ", "ae"), ("ł", "l"), ("đ", "d"), ("ı", "i")] where folded.contains(letter) {
            folded = folded.replacingOccurrences(of: letter, with: spelled)
        }
        return folded
    }
}
