import Foundation
import Synchronization

/// Search that forgives, the same for the JSON API, the web pages and the terminal (they all ask
/// the search screen):
/// - accents, case and width do not matter: "dvorak" finds Dvořák, "BACH" finds Bach;
/// - one typo (a letter wrong, missing, added, or two swapped) is forgiven in a word of five
///   letters or more: "mozzart" finds Mozart, "bethoven" Beethoven; shorter words must match;
/// - two typos are forgiven in a word of eight letters or more ("rachmaninov" finds Rachmaninoff);
/// - the usual ways of spelling a name from another alphabet are one spelling (``skeleton(of:)``):
///   "rakhmaninov", "tschaikowsky", "schostakowitsch", "prokofjew" and "haendel" find their composers;
/// - a word may be the start of a longer one ("beet" finds Beethoven);
/// - every word of the query must match somewhere in the item;
/// - ranked: composers, then works, then recordings; within each, a match in the item's own name
///   before a match in what it belongs to, exact before prefix before typo, then the catalog's order;
/// - when a word matched only by being forgiven, the results carry the query as the catalog spells
///   it (``Results/correction``), for "Did you mean".
///
/// The catalog is fixed once seeded, so the index is built from it once, on the first search.
final class CatalogSearch: Sendable {
    /// What a search finds, in rank order.
    struct Results: Sendable {
        var composers: [ComposerRecord] = []
        var works: [WorkRecord] = []
        var recordings: [(recording: RecordingRecord, work: WorkRecord)] = []
        /// The query as the catalog spells it, when a word of it matched nothing as typed but was
        /// forgiven (a typo, another transliteration): "rachmaninov" → "Rachmaninoff". `nil` when
        /// every word matched as typed (or as the start of a word), or matched nothing at all.
        var correction: String?

        var isEmpty: Bool { composers.isEmpty && works.isEmpty && recordings.isEmpty }
    }

    /// One word of the catalog or of a query, folded, with what matching compares: its scalars
    /// (for edits) and its ``CatalogSearch/skeleton(of:)`` (for transliterations).
    struct Term: Sendable, Hashable {
        let word: String
        let scalars: [Unicode.Scalar]
        let skeleton: String

        init(_ word: String) {
            self.word = word
            self.scalars = Array(word.unicodeScalars)
            self.skeleton = CatalogSearch.skeleton(of: word)
        }
    }

    /// One searchable item: its own words (its name) and the words of what it belongs to.
    struct Document: Sendable {
        let own: [Term]
        let context: [Term]
        /// The catalog's order, for ties.
        let order: Int

        init(own: [String], context: [String], order: Int) {
            self.own = own.map(Term.init)
            self.context = context.map(Term.init)
            self.order = order
        }
    }

    private struct Index: Sendable {
        var composers: [(ComposerRecord, Document)] = []
        var works: [(WorkRecord, Document)] = []
        var recordings: [(RecordingRecord, WorkRecord, Document)] = []
        /// Every word of the catalog, as it is spelled there (the first spelling met), in the
        /// catalog's order: what "Did you mean" offers.
        var vocabulary: [(term: Term, spelled: String)] = []
    }

    let catalog: CatalogRepository
    private let index = Mutex<Index?>(nil)

    init(catalog: CatalogRepository) { self.catalog = catalog }

    /// The items matching `query`, at most `limit` of each kind.
    func search(_ query: String, limit: Int = 20) async throws -> Results {
        let words = Self.words(query).map(Term.init)
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
        results.correction = Self.correction(of: words, in: index.vocabulary)
        return results
    }

    /// `query` with each word that matched no catalog word as typed (or as its start) replaced by
    /// the catalog word that forgives it best (the first in the catalog's order among equals);
    /// `nil` when nothing was replaced, or when a word matches no catalog word at all (the
    /// offer would repeat words the catalog does not have, as the server's own advice).
    static func correction(of query: [Term], in vocabulary: [(term: Term, spelled: String)]) -> String? {
        var replaced = false
        var words: [String] = []
        for word in query {
            var best: (score: Int, spelled: String)?
            var asTyped = false
            for entry in vocabulary {
                let score = match(word, entry.term)
                if score >= 3 {
                    asTyped = true
                    break
                }
                if score > 0, score > best?.score ?? 0 { best = (score, entry.spelled) }
            }
            if asTyped {
                words.append(word.word)
            } else if let best {
                replaced = true
                words.append(best.spelled)
            } else {
                return nil
            }
        }
        return replaced ? words.joined(separator: " ") : nil
    }

    private func loadedIndex() async throws -> Index {
        if let index = index.withLock({ $0 }) { return index }
        var built = Index()
        var spellings: [String: String] = [:]
        func learn(_ text: String) {
            for token in text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
                for word in Self.words(String(token)) where spellings[word] == nil {
                    spellings[word] = String(token)
                    built.vocabulary.append((Term(word), String(token)))
                }
            }
        }
        let composers = try await catalog.composers()
        for composer in composers { learn(composer.name) }
        for (order, composer) in composers.enumerated() {
            built.composers.append((composer, Document(own: Self.words(composer.name), context: [], order: order)))
        }
        let works = try await catalog.allWorks()
        let worksByID = Dictionary(uniqueKeysWithValues: works.map { ($0.id, $0) })
        for work in works { learn(work.title) }
        for (order, work) in works.enumerated() {
            let own = Self.words([work.title, work.catalogue ?? ""].joined(separator: " "))
            built.works.append((work, Document(own: own, context: Self.words(work.composerName), order: order)))
        }
        let recordings = try await catalog.allRecordings()
        for recording in recordings { learn(recording.performers) }
        for (order, recording) in recordings.enumerated() {
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
    static func score(_ query: [Term], _ document: Document) -> Int? {
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

    /// 4 exact; 3 prefix; 2 one typo away (words of five letters or more) or the same word in
    /// another transliteration (four letters or more); 1 two typos away (eight letters or more);
    /// 0 no match.
    static func match(_ word: Term, _ candidate: Term) -> Int {
        if word.word == candidate.word { return 4 }
        if candidate.word.hasPrefix(word.word), word.scalars.count >= 2 { return 3 }
        let length = word.scalars.count
        guard length >= 4, candidate.scalars.count >= 4 else { return 0 }
        if word.skeleton == candidate.skeleton { return 2 }
        // The start of a longer word in another transliteration ("rakhman" for "rachmaninoff").
        if word.skeleton.count >= 5, candidate.skeleton.hasPrefix(word.skeleton) { return 2 }
        guard length >= 5 else { return 0 }
        // A typo in the start of a longer word counts as one in the word ("bethov" for
        // "beethoven"; "beethov" is a prefix).
        let start = candidate.scalars.count > length + 1 ? Array(candidate.scalars.prefix(length)) : nil
        let allowed = length >= 8 ? 2 : 1
        let edits = min(editDistance(word.scalars, candidate.scalars, atMost: allowed), start.map { editDistance(word.scalars, $0, atMost: allowed) } ?? .max)
        guard edits <= allowed else { return 0 }
        return edits <= 1 ? 2 : 1
    }

    /// The number of single-letter substitutions, insertions, deletions and swaps of neighbours
    /// that turn `a` into `b` (optimal string alignment), or `limit + 1` once it exceeds `limit`.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost limit: Int) -> Int {
        if a == b { return 0 }
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        guard !a.isEmpty, !b.isEmpty else { return min(max(a.count, b.count), limit + 1) }
        // Three rows of the table: the one before the previous (for swaps), the previous, this one.
        var twoBack = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var smallest = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, twoBack[j - 2] + 1) }
                current[j] = value
                smallest = min(smallest, value)
            }
            // No later row can come back under this row's smallest value (a swap adds one to a
            // value two rows up, which was no smaller than the previous row's smallest).
            if smallest > limit { return limit + 1 }
            (twoBack, previous, current) = (previous, current, twoBack)
        }
        return min(previous[b.count], limit + 1)
    }

    /// A folded word with the differences between the usual romanizations and spellings of names
    /// taken out, so that they compare equal: "ch", "kh", "tch", "tsch", "ck", "c" and "q" are all
    /// "k" (Rachmaninoff, Rakhmaninov; Tchaikovsky, Tschaikowsky; Skriabin, Scriabin), "sch" is
    /// "sh", "w", "v" and "ph" are "f" (Prokofiev, Prokofjew, Rachmaninoff), "y" and "j" are "i",
    /// "ou", "ae", "oe" and "ue" their second or first letter (Moussorgsky, Haendel), "x" is
    /// "ks", and a doubled letter is one. Compared only for words of four letters or more.
    static func skeleton(of word: String) -> String {
        let rules: [(String, String)] = [
            ("tsch", "k"), ("sch", "sh"), ("tch", "k"), ("ch", "k"), ("kh", "k"), ("ck", "k"), ("ph", "f"),
            ("ou", "u"), ("ae", "a"), ("oe", "o"), ("ue", "u"), ("c", "k"), ("q", "k"), ("w", "f"), ("v", "f"),
            ("y", "i"), ("j", "i"), ("x", "ks"),
        ]
        let letters = Array(word)
        var spelled = ""
        var i = 0
        while i < letters.count {
            var rewritten = false
            for (pattern, replacement) in rules {
                let length = pattern.count
                guard i + length <= letters.count, String(letters[i..<(i + length)]) == pattern else { continue }
                spelled += replacement
                i += length
                rewritten = true
                break
            }
            if !rewritten {
                spelled.append(letters[i])
                i += 1
            }
        }
        var collapsed = ""
        for letter in spelled where letter != collapsed.last { collapsed.append(letter) }
        return collapsed
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
