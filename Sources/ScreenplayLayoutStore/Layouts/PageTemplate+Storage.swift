import Foundation
public import ScreenplayComposer
import ScreenplayServer

extension PageTemplate {
    /// The template as stored: JSON with sorted keys.
    static func canonicalJSON(_ template: PageTemplate) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(template), as: UTF8.self)
    }

    /// A digest of the template's content: what a form that showed it sends back (a publish
    /// review), so the store can tell that the draft changed since (``LayoutStore/publish(route:by:expectedLive:expectedDraft:note:interruption:)``).
    public var digest: String { ETag.strong(for: Array(((try? Self.canonicalJSON(self)) ?? "").utf8)) }
}
