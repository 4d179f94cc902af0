import Foundation
import ScreenplayServer

/// The site's script modules (`Script/*.js`, resources of this module, loaded through
/// `Bundle.module`): `core.js`, the shared one (fetch a page, morph it in, follow it live), and
/// `site.js`, the listener's pages (navigation, commands, dialogs, the player), which imports it.
/// The layout admin's editor module imports `core.js` too (``WebSite/sharedScript``).
enum WebScript {
    /// The shared module; `nil` when the resource is missing (pages then carry no script and work
    /// as they do with scripting off).
    static let core: ScriptModule? = source("core").map { ScriptModule(path: "/web/core.js", source: $0) }

    /// The listener's pages' module.
    static let site: ScriptModule? = core.flatMap { core in
        source("site").map { ScriptModule(path: "/web/site.js", source: $0, dependencies: [core]) }
    }

    /// The expression language's evaluator (the same cases as the Swift one).
    static let expressions: ScriptModule? = source("expressions").map { ScriptModule(path: "/web/expressions.js", source: $0) }

    /// Client state (v6): loaded by pages whose screen has state or bindings, never by others
    /// (the page names its URL; `core.js` imports it when it is there).
    static let state: ScriptModule? = expressions.flatMap { expressions in
        source("state").map { ScriptModule(path: "/web/state.js", source: $0, dependencies: [expressions]) }
    }

    /// Text fields checked as the user types (a length counter, a required field's message):
    /// loaded only by a page or dialog with such a field, which names its URL (`data-check`).
    static let fields: ScriptModule? = core.flatMap { core in
        source("fields").map { ScriptModule(path: "/web/fields.js", source: $0, dependencies: [core]) }
    }

    /// Suggestions under the site's search box as the user types: loaded the first time the box
    /// is focused (the box names its URL, `data-suggest`), so a page that is only read never
    /// downloads it.
    static let suggest: ScriptModule? = core.flatMap { core in
        source("suggest").map { ScriptModule(path: "/web/suggest.js", source: $0, dependencies: [core]) }
    }

    /// Prompts and choices as a modal dialog over the page: loaded the first time a command
    /// answers with one (every page names its URL, `data-dialogs`).
    static let dialogs: ScriptModule? = core.flatMap { core in
        source("dialogs").map { ScriptModule(path: "/web/dialogs.js", source: $0, dependencies: [core]) }
    }

    /// Reports (v6): components seen and tracks heard, sent back in batches. Loaded the first
    /// time a page carries a component to report or a track starts (every page names its URL,
    /// `data-reports`), so a page that is only read never downloads it.
    static let reports: ScriptModule? = core.flatMap { core in
        source("reports").map { ScriptModule(path: "/web/reports.js", source: $0, dependencies: [core]) }
    }

    /// Share (the system's sheet, else the link copied): loaded the first time a Share is tapped
    /// (every page names its URL, `data-share`).
    static let share: ScriptModule? = core.flatMap { core in
        source("share").map { ScriptModule(path: "/web/share.js", source: $0, dependencies: [core]) }
    }

    /// Reorderable lists (v6): a drag, or the arrow keys on a row's handle, then one command with
    /// the new order. Loaded only by a page with such a list, which names its URL
    /// (`data-reorder`); without it the rows' "Move up" and "Move down" forms still work.
    static let reorder: ScriptModule? = core.flatMap { core in
        source("reorder").map { ScriptModule(path: "/web/reorder.js", source: $0, dependencies: [core]) }
    }

    /// The player: the bar, the queue (in order or shuffled, shown on demand), the system's now
    /// playing, and the player kept across reloads. Loaded by the first play (the tap starts the
    /// audio itself) or at once on a page load when a player was kept (every page names its URL,
    /// `data-player-module`), so a listener who only reads never downloads it.
    static let player: ScriptModule? = core.flatMap { core in
        source("player").map { ScriptModule(path: "/web/player.js", source: $0, dependencies: [core]) }
    }

    /// Every module the site serves.
    static let all: [ScriptModule] = [core, site, expressions, state, fields, suggest, dialogs, reports, share, reorder, player].compactMap { $0 }

    static func source(_ name: String) -> String? {
        guard let url = Bundle.module.url(forResource: name, withExtension: "js"), let data = try? Data(contentsOf: url) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

/// The pages' stylesheet (``WebStylesheet``) as a file of its own: one download a browser keeps
/// (its URL names its version), instead of 11 KB in every page.
enum WebStyle {
    /// Where pages load it from.
    static let path = "/web/screenplay.css"

    /// The stylesheet, its ETag and gzip form.
    static let asset = EncodedBody(bytes: Array(WebStylesheet.css.utf8))

    /// The URL pages reference: the path and a version from the content's tag.
    static let versionedPath = path + "?v=" + asset.etag.filter { $0.isHexDigit || $0 == "-" }.suffix(16)
}
