import Foundation

extension Component {
    /// What identifies the component among its siblings when it has no ``id``: where its action
    /// leads, else its text; `nil` for kinds with neither (stacks, spacers).
    ///
    /// The client keys view-tree nodes by it and the server's DSL derives ids from it, so both
    /// sides agree that a row to `screens/work/12` is the same row after the screen is reordered.
    public var identityKey: String? {
        func target(_ action: Action?) -> String? {
            switch action {
            case .navigate(let navigate)?: navigate.url
            case .command(let command)?: command.url + (command.payload.map { "?" + Self.compactJSON($0) } ?? "")
            case .play(let play)?: play.firstTrack.id
            case .openURL(let open)?: open.url
            case .share(let share)?: share.url
            case .custom(let custom)?: custom.name
            default: nil
            }
        }
        return switch content {
        case .detailButton(let value): target(value.action) ?? value.title
        case .listRow(let value): target(value.action) ?? value.title
        case .trackRow(let value): target(value.action) ?? value.title
        case .button(let value): target(value.action) ?? value.title
        case .image(let value): target(value.action) ?? value.image.url
        case .favoriteButton(let value): value.add.url + "?" + Self.compactJSON(value.add.payload ?? .null)
        case .text(let value): String(value.text.prefix(40))
        case .pageHeader(let value): value.title
        case .sectionHeader(let value): value.title
        case .textField(let value): value.storageKey
        default: nil
        }
    }

    /// Sorted-key JSON text: the same value always gives the same key.
    static func compactJSON(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
