import Foundation
import ScreenplayContract
import ScreenplayServer

/// The search screen: a text field bound to client storage, and the command that answers it with
/// the same screen plus results.
///
/// A v4 app validates the text as it is typed and sends it in the command's `storage`; an older
/// app gets the field's fallback, a button with the same command, which answers with a prompt
/// for the text.
struct SearchScreens: Sendable {
    let catalog: CatalogRepository

    static let header = ScreenHeader(title: "Search", subtitle: "Composers and works")
    static let storageKey = "query"
    static let maximumLength = 100
    /// At least two characters that are not spaces.
    static let pattern = #"^\s*\S.*\S.*$"#
    static let validationMessage = "Type at least two characters"
    /// The pattern, compiled once (a test proves it compiles: the search suite runs it).
    static let rule = try? NSRegularExpression(pattern: pattern)
    static let command = "commands/search"

    static var field: Component.TextField {
        Component.TextField(
            label: "Search the catalog", hint: "Composer or work, e.g. Mozart", storageKey: storageKey, keyboard: .search,
            maxLength: maximumLength, validation: .init(pattern: pattern, message: validationMessage),
            submit: .command(command))
    }

    /// The screen, empty or with the results for `query`.
    func screen(query: String?) async throws -> Screen {
        guard let query else {
            return Screen(id: "search", title: "Search", header: Self.header) {
                Section("field") {
                    Self.field.id("search-field")
                    Text("Results appear here.", color: .token(.secondaryText))
                }
            }
        }
        let (composers, works) = try await catalog.search(query)
        return Screen(id: "search", title: "Search", header: Self.header, storage: [Self.storageKey: query]) {
            Section("field") { Self.field.id("search-field") }
            Section("results", header: composers.isEmpty && works.isEmpty ? "No results for “\(query)”" : "Results for “\(query)”") {
                for composer in composers {
                    ListRow(
                        title: composer.name, subtitle: "\(composer.born)–\(composer.died) · \(composer.period)",
                        image: DemoLinks.thumbnail(kind: "composer", slug: composer.slug, alt: "Portrait of \(composer.name)"),
                        action: .navigate(to: DemoLinks.composer(composer.slug), header: DemoLinks.composerHeader(composer)))
                }
                for work in works {
                    ListRow(
                        title: work.title, subtitle: ([work.composerName] + DemoLinks.workDetails(work)).joined(separator: " · "),
                        recordingCount: work.recordingCount,
                        action: .navigate(to: DemoLinks.work(work.id), header: DemoLinks.workHeader(work)))
                }
            }
        }
    }

    func register(in routes: inout ScreenplayRoutes) {
        routes.command("search") { request in try await search(request) }
    }

    /// Reads the text from the screen's storage (v4) or from a prompt's field (older apps); with
    /// none, asks for it.
    func search(_ request: CommandRequest) async throws -> CommandResult {
        let stored = try request.storedText(Self.storageKey)
        guard let text = try stored ?? request.optionalText(Self.storageKey) else {
            return .prompt(
                .init(
                    title: "Search", message: "Composer or work", field: .init(name: Self.storageKey, maxLength: Self.maximumLength),
                    submitTitle: "Search", submit: .init(url: Self.command)))
        }
        let field = stored == nil ? Self.storageKey : "storage." + Self.storageKey
        // The rule the text field publishes, applied here the same way (the client's check is a
        // courtesy; this one is the rule). Composed form, so "e" + U+0301 finds "é".
        guard let rule = Self.rule else { throw ScreenplayError.internalError("the search pattern does not compile") }
        guard
            rule.firstMatch(in: text, options: [.anchored], range: NSRange(text.startIndex..., in: text))?.range.length
                == NSRange(text.startIndex..., in: text).length
        else { throw ScreenplayError.invalidField(field, "\(Self.validationMessage) ('\(field)')") }
        let query = text.trimmingCharacters(in: .whitespaces).precomposedStringWithCanonicalMapping
        guard query.count <= Self.maximumLength else {
            throw ScreenplayError.invalidField(field, "'\(field)' is \(query.count) characters long; the limit is \(Self.maximumLength)")
        }
        return .screen(try await screen(query: query))
    }
}
