import Foundation
import ScreenplayWeb

/// The admin's script module (`Web/Script/editor.js`, a resource of this module): the editor's
/// drops and posts answered in place, the palette's filter, times in the reader's zone. It imports
/// the web site's shared module (``WebSite/sharedScript``: fetch, morph, follow a page live), so a
/// preview follows its stream as the listener's pages do. Served under the admin's prefix at a URL
/// that names its content, like the site's own modules.
enum AdminScript {
    /// The module, at `/editor.js` under whatever prefix the admin is mounted at; `nil` when a
    /// resource is missing (pages then work as they do with scripting off).
    static let editor: ScriptModule? = {
        guard let shared = WebSite.sharedScript, let url = Bundle.module.url(forResource: "editor", withExtension: "js"),
            let data = try? Data(contentsOf: url)
        else { return nil }
        return ScriptModule(path: "/" + file, source: String(decoding: data, as: UTF8.self), dependencies: [shared])
    }()

    /// The module's file name under the prefix.
    static let file = "editor.js"

    /// The tags that load it on a page of the admin mounted at `prefix`: its imports preloaded,
    /// then the module; empty without it.
    static func tags(prefix: String) -> String {
        guard let editor else { return "" }
        return editor.imports.map { "<link rel=\"modulepreload\" href=\"\(HTML.escape($0))\">" }.joined()
            + "<script type=\"module\" src=\"\(HTML.escape(prefix + editor.versionedPath))\"></script>"
    }
}
