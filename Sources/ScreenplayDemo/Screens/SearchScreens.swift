import Foundation
import ScreenplayContract
import ScreenplayServer

/// The search screen: a text field bound to client storage, and the results for the query in the
/// screen's URL (`screens/search?q=mozart`), so results can be bookmarked, shared and reached
/// with Back, by apps and browsers alike.
///
/// A v4 app validates the text as it is typed and sends it in the command's `storage`; the
/// command answers by navigating to the results' URL. An older app gets the field's fallback, a
/// button with the same command, which asks for the text with a prompt. A browser's search box is
/// a plain `GET` of the same URL.
struct SearchScreens: Sendable {
    let search: CatalogSearch

    static let header = ScreenHeader(title: "Search", subtitle: "Composers, works and performers")
    static let storageKey = "query"
    /// The results' query parameter.
    static let queryParameter = "q"
    static let maximumLength = 100
    /// At least two characters that are not spaces.
    static let pattern = #"^\s*\S.*\S.*$"#
    static let validationMessage = "Type at least two characters"
    /// The pattern, compiled once (a test proves it compiles: the search suite runs it).
    static let rule = try? NSRegularExpression(pattern: pattern)
    static let command = "commands/search"

    static var field: Component.TextField {
        Component.TextField(
            label: "Search the catalog", hint: "Composer, work or performer, e.g. Mozart", storageKey: storageKey, keyboard: .search,
            maxLength: maximumLength, validation: .init(pattern: pattern, message: validationMessage),
            submit: .command(command), suggestions: "screens/" + SearchScreens.suggestionsPath)
    }

    /// The field as a screen shows it: its verdict computed as the user types (v6), so the
    /// message and a disabled Search answer the first key, with the pattern (older apps, pages
    /// without the script) and the server still checking.
    static func field(typed: String) -> (field: Component, state: StateVariables) {
        let query = ScreenVariable(storageKey, initial: String(typed.prefix(maximumLength)))
        let short = query.value.trimmed.count.isLess(than: 2) && query.value.count.isMore(than: 0)
        return (field.id("search-field").validation(short.then(validationMessage, else: "")), StateVariables(declaring: query.declaration))
    }

    /// The URL of the results for `query`.
    static func resultsURL(_ query: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        return "screens/search?\(queryParameter)=" + (query.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
    }

    /// The screen, empty or with the results for `query` (`nil` or blank: the empty screen; too
    /// short or too long: the field says why, and nothing is searched).
    func screen(query raw: String?) async throws -> Screen {
        // Checked as typed, then composed (so "e" + U+0301 finds "é"), as the command does.
        let typed = raw.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        let query = typed.precomposedStringWithCanonicalMapping
        guard !query.isEmpty else {
            let field = Self.field(typed: "")
            return Screen(id: "search", title: "Search", header: Self.header, state: field.state) {
                Section("field") {
                    field.field
                    Text("Results appear here.", color: .token(.secondaryText))
                }
            }
        }
        if let problem = Self.problem(with: typed) {
            let field = Self.field(typed: Self.clipped(query))
            return Screen(
                id: "search", title: "Search", header: Self.header, storage: [Self.storageKey: Self.clipped(query)], state: field.state
            ) {
                Section("field") {
                    field.field
                    Text(problem, color: .token(.negative))
                }
            }
        }
        let results = try await search.search(query)
        let tracks = try await search.catalog.trackIDs(works: Set(results.works.map(\.id)), recordings: Set(results.recordings.map(\.0.id)))
        let title = results.isEmpty ? "No results for “\(query)”" : "Results for “\(query)”"
        let field = Self.field(typed: query)
        return Screen(id: "search", title: "\(query) · Search", header: Self.header, storage: [Self.storageKey: query], state: field.state) {
            Section("field") { field.field }
            // Offered only when it could be searched itself.
            if let correction = results.correction, Self.problem(with: correction) == nil {
                // Forgiven words are searched anyway; this offers the catalog's spelling, whose
                // results rank what was meant first.
                Section("correction") {
                    Button(title: "Did you mean “\(correction)”?", style: .plain, action: .navigate(to: Self.resultsURL(correction)))
                        .id("did-you-mean")
                }
            }
            Section("results", header: SectionHeader(title: title, subtitle: results.isEmpty ? "Try fewer words, or another spelling." : nil)) {
                for composer in results.composers {
                    ListRow(
                        title: composer.name, subtitle: "Composer · \(composer.born)–\(composer.died) · \(composer.period)",
                        image: DemoLinks.thumbnail(kind: "composer", slug: composer.slug, alt: "Portrait of \(composer.name)"),
                        action: .navigate(to: DemoLinks.composer(composer.slug), header: DemoLinks.composerHeader(composer)))
                }
                for work in results.works {
                    ListRow(
                        title: work.title, subtitle: (["Work", work.composerName] + DemoLinks.workDetails(work)).joined(separator: " · "),
                        image: DemoLinks.workThumbnail(work), recordingCount: work.recordingCount,
                        action: .navigate(to: DemoLinks.work(work.id), header: DemoLinks.workHeader(work))
                    )
                    .markedWhilePlaying(tracks.works[work.id])
                }
                for (recording, work) in results.recordings {
                    ListRow(
                        title: recording.performers, subtitle: "Recording · \(work.title) · \(work.composerName) · \(recording.year)",
                        image: DemoLinks.recordingThumbnail(recording), action: .navigate(to: DemoLinks.work(work.id), header: DemoLinks.workHeader(work))
                    )
                    .markedWhilePlaying(tracks.recordings[recording.id])
                }
            }
        }
    }

    /// Where suggestions for a query typed so far are (`?q=`): a screen of its own, light and
    /// cached like the results, that a web page's script fetches as the user types and an app may
    /// show under its field.
    static let suggestionsPath = "search/suggestions"
    /// The most suggestions shown: composers first, then works, then recordings.
    static let suggestionLimits = (composers: 3, works: 4, recordings: 1)

    /// Up to eight suggestions for `query` (what was typed so far), each a row that opens what it
    /// names; none for text the results page would refuse (too short, too long, control
    /// characters), which says nothing here: the field and the results page say why.
    func suggestions(query raw: String?) async throws -> Screen {
        let query = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        let searchable = Self.problem(with: query) == nil
        let results = searchable ? try await search.search(query, limit: Self.suggestionLimits.works) : .init()
        let limits = Self.suggestionLimits
        // Text that cannot be searched is not repeated back, not even in the title.
        return Screen(id: "search-suggestions", title: searchable ? "Suggestions for “\(query)”" : "Suggestions") {
            Section("suggestions") {
                for composer in results.composers.prefix(limits.composers) {
                    ListRow(
                        title: composer.name, subtitle: "Composer · \(composer.period)",
                        action: .navigate(to: DemoLinks.composer(composer.slug), header: DemoLinks.composerHeader(composer)))
                }
                for work in results.works.prefix(limits.works) {
                    ListRow(
                        title: work.title, subtitle: "Work · \(work.composerName)",
                        action: .navigate(to: DemoLinks.work(work.id), header: DemoLinks.workHeader(work)))
                }
                for (recording, work) in results.recordings.prefix(limits.recordings) {
                    ListRow(
                        title: recording.performers, subtitle: "Recording · \(work.title)",
                        action: .navigate(to: DemoLinks.work(work.id), header: DemoLinks.workHeader(work)))
                }
                if let correction = results.correction, Self.problem(with: correction) == nil {
                    ListRow(title: "Did you mean “\(correction)”?", action: .navigate(to: Self.resultsURL(correction)))
                }
            }
        }
    }

    /// Why `query` (trimmed) cannot be searched, or `nil`: the rule the text field publishes,
    /// applied the same way here (the client's check is a courtesy; this one is the rule).
    static func problem(with query: String) -> String? {
        guard let rule else { return "the search pattern does not compile" }
        if let bad = query.unicodeScalars.first(where: CommandRequest.isForbiddenInText) {
            return "The text contains U+\(String(format: "%04X", bad.value)), a control character"
        }
        let range = NSRange(query.startIndex..., in: query)
        guard rule.firstMatch(in: query, options: [.anchored], range: range)?.range.length == range.length else { return validationMessage }
        guard query.count <= maximumLength else { return "The text is \(query.count) characters long; the limit is \(maximumLength)" }
        // Marks piled on a letter count as one character but not as one code point.
        let scalars = query.unicodeScalars.count
        guard scalars <= maximumScalars else {
            return "The text has \(scalars) code points (letters and the marks on them); the limit is \(maximumScalars)"
        }
        return nil
    }

    /// The most code points a searched text may have: four per character of the limit.
    static let maximumScalars = 4 * maximumLength

    /// `text` cut to what a refused screen shows back in its field: at most 500 characters and
    /// 1 000 code points (the screen's storage holds at most 4 096).
    static func clipped(_ text: String) -> String {
        var kept = ""
        var scalars = 0
        for character in text.prefix(500) {
            scalars += character.unicodeScalars.count
            guard scalars <= 1_000 else { break }
            kept.append(character)
        }
        return kept
    }

    func register(in routes: inout ScreenplayRoutes, hooks: DemoApp.TestHooks = .init()) {
        let text = CommandPayloadSchema.Field.text(maxLength: Self.maximumLength, visible: 2)
        routes.command("search", payload: .init(optional: [Self.storageKey: text], storage: [Self.storageKey: text]), hooks: hooks) { request in
            try await search(request)
        }
    }

    /// Reads the text from the screen's storage (v4) or from a prompt's field (older apps); with
    /// none, asks for it. Answers with the results' URL.
    func search(_ request: CommandRequest) async throws -> CommandResult {
        let stored = try request.storedText(Self.storageKey)
        let typed = try request.optionalText(Self.storageKey)
        guard stored != nil || typed != nil else {
            return .prompt(
                .init(
                    title: "Search", message: "Composer, work or performer", field: .init(name: Self.storageKey, maxLength: Self.maximumLength),
                    submitTitle: "Search", submit: .init(url: Self.command)))
        }
        // Each text sent is checked, the one used (the storage's, else the prompt's) and the
        // other: a bad field is refused, never silently ignored.
        var query: String?
        for (field, text) in [("storage." + Self.storageKey, stored), (Self.storageKey, typed)] {
            guard let text else { continue }
            if let problem = Self.problem(with: text) {
                throw ScreenplayError.invalidField(field, problem == Self.validationMessage ? "\(problem) ('\(field)')" : "'\(field)': \(problem)")
            }
            // Composed form, so "e" + U+0301 finds "é".
            query = query ?? text.trimmingCharacters(in: .whitespaces).precomposedStringWithCanonicalMapping
        }
        return .navigate(.init(url: Self.resultsURL(query ?? ""), header: Self.header))
    }
}
