import Foundation
import ScreenplayClient
import ScreenplayContract
import ScreenplayWeb

/// The HTML renderer: the bytes are strings for a screen with every component kind (and for a
/// prompt, a choice and an error page). Input format: chunks separated by `0xFF` (never part of
/// UTF-8); a chunk's first byte picks a slot, the rest is its text (invalid UTF-8 repaired).
///
/// An input is rendered one of two ways (the first selector's top bit picks): as the web pages
/// render a screen from the API (the screen's JSON with the slots' strings, decoded lossily as a
/// client does), or from the Swift values directly, as a command's answer is rendered in process
/// (no contract checks on the way), with a prompt, a choice and an error page.
///
/// Oracles:
/// 1. Structural (``HTMLOracle``): only the renderer's own tags and attributes, quoted values, no
///    raw `<`/`>`/quotes from input, entities only, no control characters, safe URLs and CSS.
/// 2. Differential escaping, for `<`, `>` and `&`: the page is rendered again with each of them
///    in the input replaced by a private-use look-alike that no rule treats differently (no
///    decision of the renderer or the contract depends on these three characters). Mapping the
///    look-alikes in the second page to `&lt;`, `&gt;`, `&amp;` must give the first page byte for
///    byte: every such character from the input reached the output escaped, whatever tag it
///    tried to form. (Validation patterns and stored text are left as they are: a regular
///    expression does treat them differently.)
public enum HTMLRendererHarness {
    static let target = "FuzzHTMLRenderer"
    static let markup: [(Unicode.Scalar, Unicode.Scalar, String)] = [("<", "\u{E000}", "&lt;"), (">", "\u{E001}", "&gt;"), ("&", "\u{E002}", "&amp;")]

    struct TicketOffer: Decodable, Sendable {
        let title: String
        let price: String
    }

    static let renderer: HTMLRenderer = {
        var registry = ComponentRegistry()
        registry.register("ticketOffer", as: TicketOffer.self) { offer, id in
            [ViewNode(id: id, role: .row, text: offer.title, details: [offer.price])]
        }
        registry.registerCustomNode("mapPin", label: { $0["label"]?.stringValue })
        return HTMLRenderer(
            registry: registry,
            customNodes: [
                "mapPin": { node in
                    // An app's own renderer for its custom node. It must escape like the library does.
                    #if FUZZ_PLANTED_BUG
                    // Planted: this one forgot, when the pin's label is long (the seeds' labels are short).
                    let label = node.accessibility.label ?? ""
                    if label.count > 24, HTML.escape(label) != label { plantedPathTaken = true }
                    return "<div class=\"map\">" + (label.count > 24 ? label : HTML.escape(label)) + "</div>"
                    #else
                    return "<div class=\"map\">" + HTML.escape(node.accessibility.label ?? "") + "</div>"
                    #endif
                }
            ], appColorTokens: ["brand"])
    }()

    /// The stylesheet, as the renderer writes it (read from a page, so it is not restated here).
    static let stylesheet: String = {
        let page = HTMLRenderer().errorPage(title: "x", message: "y", back: nil)
        let start = page.range(of: "<style>")!.upperBound
        let end = page.range(of: "</style>")!.lowerBound
        return String(page[start..<end])
    }()

    /// The kitchen-sink screen as JSON, and where each of its strings sits.
    static let template: JSONValue = {
        let data = try! ScreenplayEncoder(apiVersion: .latest).encode(KitchenSink().screen)
        return try! JSONDecoder().decode(JSONValue.self, from: data)
    }()
    /// The template's string leaves in a fixed order: their path and whether it is a pattern or
    /// stored text (left out of the look-alike swap).
    static let leaves: [(path: [String], swappable: Bool)] = {
        var result: [(path: [String], swappable: Bool)] = []
        func walk(_ value: JSONValue, _ path: [String]) {
            switch value {
            case .string:
                guard path.last != "type" else { return }
                result.append((path, !(path.contains("pattern") || path.first == "storage")))
            case .array(let elements):
                for (index, element) in elements.enumerated() { walk(element, path + [String(index)]) }
            case .object(let members):
                for key in members.keys.sorted() { walk(members[key]!, path + [key]) }
            default:
                break
            }
        }
        walk(template, [])
        return result
    }()

    public static func run(_ bytes: UnsafeRawBufferPointer) {
        // Chunks: selector byte + text.
        var chunks: [(UInt8, String)] = []
        for part in bytes.split(separator: 0xFF, omittingEmptySubsequences: true) {
            guard let selector = part.first else { continue }
            var text = String(decoding: part.dropFirst(), as: UTF8.self)
            // The look-alikes themselves would blur the comparison: fold them into another one.
            text = String(String.UnicodeScalarView(text.unicodeScalars.map { (0xE000...0xE002).contains($0.value) ? "\u{E003}" : $0 }))
            chunks.append((selector, text))
        }
        guard let first = chunks.first else { return }
        // Half the inputs take each path (the first selector's top bit), which halves the cost
        // of an input; both paths see the same strings.
        if first.0 & 0x80 == 0 { renderDecoded(chunks) } else { renderValues(chunks) }
    }

    /// The screen as the API sends it, decoded as a client decodes it.
    static func renderDecoded(_ chunks: [(UInt8, String)]) {
        var json = template
        var jsonTwin = template
        for (selector, text) in chunks {
            let leaf = leaves[Int(selector) % leaves.count]
            json = setting(json, at: leaf.path[...], to: .string(text))
            jsonTwin = setting(jsonTwin, at: leaf.path[...], to: .string(leaf.swappable ? swap(text) : text))
        }
        let decoder = ScreenplayDecoder(mode: .lossy, apiVersion: .latest, customKinds: ["ticketOffer", "mapPin"])
        let path = chunks.first { Int($0.0) % leaves.count == 0 }.map { "/screens/" + $0.1 } ?? "/screens/composer/mozart"
        if let screen = try? decoder.decode(Screen.self, from: ScreenplayEncoder().encode(json)).value,
            let twin = try? decoder.decode(Screen.self, from: ScreenplayEncoder().encode(jsonTwin)).value
        {
            compare(renderer.page(for: screen, currentPath: path), renderer.page(for: twin, currentPath: swap(path)), "decoded screen page")
        }

    }

    /// Swift values straight into the renderer (a command's answer, rendered in process).
    static func renderValues(_ chunks: [(UInt8, String)]) {
        var sink = KitchenSink()
        var sinkTwin = KitchenSink()
        for (selector, text) in chunks {
            let slot = Int(selector) % KitchenSink.slots.count
            sink.values[slot] = text
            let role = KitchenSink.slots[slot].role
            sinkTwin.values[slot] = role == .pattern || role == .storedValue ? text : swap(text)
        }
        let back = sink["page.path"]
        let backTwin = sinkTwin["page.path"]
        // Both kinds of notice (a confirmation and an error), the same kind for the twin.
        let isError = sink["page.notice"].utf8.count % 2 == 1
        compare(
            renderer.page(for: sink.screen, currentPath: back, notice: WebNotice(sink["page.notice"], isError: isError)),
            renderer.page(for: sinkTwin.screen, currentPath: backTwin, notice: WebNotice(sinkTwin["page.notice"], isError: isError)),
            "screen page")
        compare(renderer.page(for: sink.prompt, back: back), renderer.page(for: sinkTwin.prompt, back: backTwin), "prompt page")
        compare(renderer.page(for: sink.choice, back: back), renderer.page(for: sinkTwin.choice, back: backTwin), "choice page")
        compare(
            renderer.errorPage(title: sink["error.title"], message: sink["error.message"], back: back),
            renderer.errorPage(title: sinkTwin["error.title"], message: sinkTwin["error.message"], back: backTwin), "error page")
    }

    #if FUZZ_PLANTED_BUG
    /// Whether the planted path (a long pin label left unescaped, with something to escape in it)
    /// ran since the last check: a violation then is the planted bug, whichever oracle saw it
    /// (a raw `<`, or a control character the escaping would have replaced). libFuzzer runs
    /// inputs one at a time, on one thread.
    nonisolated(unsafe) static var plantedPathTaken = false
    #endif

    static func compare(_ page: String, _ twinPage: String, _ what: String) {
        #if FUZZ_PLANTED_BUG
        defer { plantedPathTaken = false }
        #endif
        if let problem = HTMLOracle.violation(in: page, stylesheet: stylesheet) {
            #if FUZZ_PLANTED_BUG
            if plantedPathTaken { Oracle.planted(target, "the oracle caught the unescaped map pin: \(problem)") }
            #endif
            Oracle.fail(target, "\(what): \(problem)")
        }
        // The look-alikes are three-byte UTF-8 sequences EE 80 80…82; map them back to entities.
        let twin = Array(twinPage.utf8)
        var mapped: [UInt8] = []
        mapped.reserveCapacity(twin.count + 64)
        var i = 0
        while i < twin.count {
            // In an element id (`HTML.identifier`) a look-alike is spelled as hex bytes.
            if let index = identifierLookAlikes.firstIndex(where: { twin[i...].starts(with: $0) }) {
                mapped += identifierMarkup[index]
                i += identifierLookAlikes[index].count
            } else if twin[i] == 0xEE, i + 2 < twin.count, twin[i + 1] == 0x80, (0x80...0x82).contains(twin[i + 2]) {
                mapped += markupEntities[Int(twin[i + 2] - 0x80)]
                i += 3
            } else {
                mapped.append(twin[i])
                i += 1
            }
        }
        let original = Array(page.utf8)
        guard mapped == original else {
            let at = (0..<min(original.count, mapped.count)).first(where: { original[$0] != mapped[$0] }) ?? min(original.count, mapped.count)
            #if FUZZ_PLANTED_BUG
            if plantedPathTaken {
                Oracle.planted(target, "the differential oracle caught the unescaped map pin: \(HTMLOracle.context(original, at))")
            }
            #endif
            Oracle.fail(
                target,
                "\(what): a '<', '>' or '&' from the input was not escaped (or changed the page)\n  page: \(HTMLOracle.context(original, at))\n  twin: \(HTMLOracle.context(mapped, at))")
        }
    }

    static let markupEntities = markup.map { Array($0.2.utf8) }
    static let identifierLookAlikes = ["_EE_80_80", "_EE_80_81", "_EE_80_82"].map { Array($0.utf8) }
    static let identifierMarkup = ["_3C", "_3E", "_26"].map { Array($0.utf8) }

    static func swap(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in markup.first { $0.0 == scalar }?.1 ?? scalar }))
    }

    static func setting(_ value: JSONValue, at path: ArraySlice<String>, to leaf: JSONValue) -> JSONValue {
        guard let key = path.first else { return leaf }
        switch value {
        case .object(var members):
            members[key] = setting(members[key] ?? .null, at: path.dropFirst(), to: leaf)
            return .object(members)
        case .array(var elements):
            let index = Int(key)!
            elements[index] = setting(elements[index], at: path.dropFirst(), to: leaf)
            return .array(elements)
        default:
            return value
        }
    }
}
