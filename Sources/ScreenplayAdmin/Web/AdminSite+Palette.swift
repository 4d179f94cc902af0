import Foundation
import ScreenplayComposer
import ScreenplayContract
import ScreenplayLayoutStore
import ScreenplayWeb

/// The editor's widget palette: every kind the page can hold (a kind of the catalog whose vertical
/// has a provider here), each with its contract in a sentence, its parameters, a rendered example
/// and an Add button. A person adds a widget by pressing Add (Enter on the focused button), or,
/// with the script, by dragging the kind onto a place among the cards; the widget arrives with
/// the example's parameters and an id of its own, its card open with the focus in its first
/// field. A filter narrows the list (a GET without the script, as you type with it).
extension AdminSite {
    /// One kind as the palette offers it.
    struct PaletteEntry {
        let contract: WidgetContract
        /// The vertical a widget added from the palette asks: the example's, when this server has
        /// it; `nil` when the kind names none (the Add form then offers every vertical).
        let vertical: String?

        /// What the filter searches, lowercased: kind, sentence, parameters, vertical, fallback.
        var searchText: String {
            ([contract.type, contract.summary, vertical ?? "", contract.versioning.fallback]
                + contract.parameters.flatMap { [$0.name, $0.summary] })
                .joined(separator: " ").lowercased()
        }

        /// Whether every word of `filter` is in ``searchText`` (an empty filter matches).
        func matches(_ filter: String) -> Bool {
            let text = searchText
            return filter.lowercased().split(whereSeparator: \.isWhitespace).allSatisfy { text.contains($0) }
        }
    }

    /// The kinds `route`'s editor offers: those of the composer's catalog with a vertical here.
    func paletteEntries() -> [PaletteEntry] {
        guard let composer = pages?.composer else { return [] }
        let verticals = Set(composer.providers.keys)
        return composer.catalog.sorted.compactMap { contract in
            guard let example = contract.example else { return verticals.isEmpty ? nil : PaletteEntry(contract: contract, vertical: nil) }
            return verticals.contains(example.vertical) ? PaletteEntry(contract: contract, vertical: example.vertical) : nil
        }
    }

    /// The palette's HTML, beside the cards: `action` is the editor's path, `filter` the query's.
    func palette(action: String, csrf: String, template: PageTemplate, filter: String, section chosen: String? = nil) -> String {
        let entries = paletteEntries()
        let shown = entries.filter { $0.matches(filter) }
        let renderer = HTMLRenderer()
        // The section the last add went to stays chosen: adding several widgets to one section is common.
        let sectionOptions = template.sections.map { "<option\($0.id == chosen ? " selected" : "")>\(HTML.escape($0.id))</option>" }.joined()
        let verticalOptions = (pages?.composer.providers.keys.sorted() ?? []).map { "<option>\(HTML.escape($0))</option>" }.joined()
        var items = ""
        for entry in entries {
            let contract = entry.contract
            let key = HTML.escape(Self.fieldID(contract.type))
            let parameters =
                contract.parameters.isEmpty
                ? "no parameters"
                : contract.parameters.map { "\($0.name) (\($0.type)\($0.isRequired ? ", required" : ""))" }.joined(separator: ", ")
            // The example as the web and older apps show it: the kind's fallback of the sample
            // component. Inert: its links are the example's, not a way off the editor.
            let example =
                contract.exampleComponent.map { component in
                    let html = contract.fallback(component).map { renderer.component($0, back: action) }.joined()
                    return html.isEmpty ? "" : "<div class=\"example rendered\" inert>\(html)</div>"
                } ?? ""
            let vertical =
                entry.vertical.map { "<input type=\"hidden\" name=\"vertical\" value=\"\(HTML.escape($0))\">" }
                ?? "<label for=\"palette-vertical-\(key)\">From</label><select id=\"palette-vertical-\(key)\" name=\"vertical\">\(verticalOptions)</select>"
            items += """
                <li class="palette-item" id="palette-\(key)" data-kind="\(HTML.escape(contract.type))" data-search="\(HTML.escape(entry.searchText))"\
                \(entry.matches(filter) ? "" : " hidden")>\
                <h3>\(HTML.escape(contract.type))<span class="kind"> · \(HTML.escape(entry.vertical ?? "any vertical"))</span></h3>\
                <p>\(HTML.escape(contract.summary))</p><p class="kind">Parameters: \(HTML.escape(parameters))</p>\(example)\
                <p class="kind">\(HTML.escape(Self.versionWords(contract.versioning)))</p>\
                <form method="post" action="\(action)/add" class="add">\(csrf)<input type="hidden" name="from" value="palette">\
                <input type="hidden" name="seen" value="\(HTML.escape(template.digest))">\
                <input type="hidden" name="kind" value="\(HTML.escape(contract.type))">\(vertical)\
                <label for="palette-section-\(key)">Add to</label><select id="palette-section-\(key)" name="section">\(sectionOptions)</select>\
                <button type="submit" id="palette-add-\(key)" aria-label="Add \(HTML.escape(contract.type))">Add</button></form></li>
                """
        }
        let count = filter.isEmpty ? "\(entries.count) kinds" : "\(shown.count) of \(entries.count) kinds match “\(filter)”"
        return """
            <aside class="palette" id="palette" aria-labelledby="palette-title"><h2 id="palette-title" tabindex="-1">Add a widget</h2>\
            <form method="get" action="\(action)" role="search" id="palette-filter-form">\
            <label for="palette-filter">Filter kinds</label><input type="search" id="palette-filter" name="filter" value="\(HTML.escape(filter))">\
            <button type="submit" id="palette-filter-button">Filter</button></form>\
            <p id="palette-count" role="status">\(HTML.escape(count))</p>\
            <p class="kind">Drag a kind onto a place among the cards, or press its Add button.</p>\
            <ul class="palette-list">\(items)</ul></aside>
            """
    }

    /// When a kind reaches apps, in words: "Apps from API version 2 show it as their own; older
    /// apps and the web: a list row with …".
    static func versionWords(_ versioning: KindVersioning) -> String {
        "Apps from API version \(versioning.introduced.rawValue) that know the kind show their own; the web and the rest: \(versioning.fallback)."
    }

    /// A widget id for a new `kind` that `template` does not use yet: `priceTag-1`, `priceTag-2`…
    static func newWidgetID(kind: String, in template: PageTemplate) -> String {
        let taken = Set(template.instances.map(\.id))
        var number = 1
        while taken.contains("\(kind)-\(number)") { number += 1 }
        return "\(kind)-\(number)"
    }

    /// The editor's own look: the palette a column beside the cards on wide screens, below them
    /// on narrow ones; a card's "Move to…" among its buttons, its menu on a line of its own once open.
    static let editorStyle = """
        article.card .actions{flex-wrap:wrap}details.move-to>summary{margin:0}details.move-to[open]{flex-basis:100%}
        #sections-menu ul{display:flex;flex-wrap:wrap;gap:.3rem 1rem;list-style:none;padding:0;margin:.5rem 0 1rem}
        h2[tabindex="-1"]:focus{outline:2px solid currentColor;outline-offset:2px}
        form.move-to{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:.5rem 0}form.move-to select{max-width:100%}
        .editor{display:grid;grid-template-columns:minmax(0,1fr) 20rem;gap:1.5rem;align-items:start}
        .palette{position:sticky;top:.5rem;max-height:calc(100vh - 1rem);overflow:auto;border-left:1px solid #ccc;padding-left:1rem}
        .palette-list{list-style:none;padding:0;margin:0}.palette-item{border:1px solid #ccc;border-radius:.4rem;padding:.5rem;margin:.5rem 0}
        .palette-item h3{margin:0;font-size:1rem}.palette-item p{margin:.2rem 0}.palette-item[draggable=true]{cursor:grab}
        .palette .example{max-height:9rem;overflow:hidden;margin:.3rem 0;pointer-events:none}
        .palette form.add{display:flex;flex-wrap:wrap;gap:.3rem;align-items:center;margin-top:.3rem}
        #palette-filter-form{display:flex;flex-wrap:wrap;gap:.3rem;align-items:center}
        @media (max-width:60rem){.editor{grid-template-columns:1fr}.palette{position:static;max-height:none;border-left:0;padding-left:0;order:-1}}
        @media (prefers-color-scheme:dark){.palette{border-color:#48484a}.palette-item{border-color:#48484a}}
        """
}
