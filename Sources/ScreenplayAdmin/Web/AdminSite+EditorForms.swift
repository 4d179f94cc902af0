import Foundation
import HTTPTypes
import ScreenplayComposer
import ScreenplayContract
import ScreenplayLayoutStore
import ScreenplayServer
import ScreenplayStore
import ScreenplayWeb

/// The editor's form fields: labelled inputs with their errors, platform boxes, the experiment
/// menu, and reading a widget's settings from what a form sent.
extension AdminSite {
    // MARK: Forms

    /// The attempt id of a section form: no widget has it (ids cannot hold `§`).
    static let sectionAttempt = "§section"

    /// Where an attempt's errors that belong to no input of the sent form are kept.
    static let pageErrorKey = "!page"

    static var conditionInputs: [(String, String)] {
        [
            ("c.platforms", "Platforms"),
            ("c.locales", "Locales (comma-separated prefixes: de, fr-CH; empty: all)"),
            ("c.segments", "Segments (comma-separated; empty: everyone)"),
            ("c.experiment", "Only in an experiment's variant"),
            ("c.from", "Shown from (\(AdminTime.zoneName); empty: at once)"),
            ("c.until", "Shown until (\(AdminTime.zoneName); empty: no end)"),
            ("c.minVersion", "App versions from"),
            ("c.maxVersion", "App versions up to"),
        ]
    }

    /// The condition inputs that are date and time pickers.
    static let dateInputs: Set<String> = ["c.from", "c.until"]

    /// The platforms offered as boxes to tick; others a widget names (platforms are open) are
    /// shown ticked beside them, so saving the card keeps them.
    static let knownPlatforms: [(value: String, label: String)] = [("ios", "iOS"), ("android", "Android"), ("web", "Web")]

    /// The platforms a form (or a widget's form values) names: each ticked box
    /// (`c.platforms.ios=yes`), and any in a `c.platforms` list, as a script may send them.
    static func platforms(in values: [String: String]) -> [String] {
        let ticked = values.filter { $0.key.hasPrefix("c.platforms.") && $0.value == "yes" }.map { String($0.key.dropFirst("c.platforms.".count)) }
        let listed = (values["c.platforms"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        var seen = Set<String>()
        return (ticked + listed).map { $0.lowercased() }.filter { !$0.isEmpty && seen.insert($0).inserted }.sorted()
    }

    /// A box per platform, none ticked meaning every platform: a group labelled "Platforms", the
    /// first box carrying the id errors link to.
    static func platformBoxes(ticked: [String], error: String?, id: String) -> String {
        let safeID = fieldID(id)
        let extra = ticked.filter { platform in !knownPlatforms.contains { $0.value == platform } }
        let boxes = (knownPlatforms + extra.map { ($0, $0) }).enumerated().map { index, platform in
            let boxID = index == 0 ? safeID : "\(safeID)-\(fieldID(platform.value))"
            return """
                <label class="box"><input type="checkbox" id="\(boxID)" name="c.platforms.\(HTML.escape(platform.value))" value="yes"\
                \(ticked.contains(platform.value) ? " checked" : "")>\(HTML.escape(platform.label))</label>
                """
        }.joined()
        let errorID = "\(safeID)-error"
        let message = error.map { "<span class=\"error\" id=\"\(errorID)\">\(HTML.escape($0))</span>" } ?? ""
        return """
            <span class="label" id="\(safeID)-legend">Platforms</span><div class="boxes" role="group" aria-labelledby="\(safeID)-legend"\
            \(error == nil ? "" : " aria-describedby=\"\(errorID)\"")>\(boxes)<span class="hint">none ticked: every platform</span></div>\(message)
            """
    }

    /// A menu of the variants a widget can be limited to ("shop-free-shipping: banner"), "Everyone"
    /// first; a value the menu does not list (several variants, an experiment since deleted, what
    /// a script sent) is kept as an option of its own, so nothing is lost by saving the card.
    static func experimentMenu(value: String, experiments: ExperimentCatalog, error: String?, id: String) -> String {
        var options: [(value: String, label: String)] = [("", "Everyone (no experiment)")]
        for key in experiments.experiments.keys.sorted() {
            for variant in experiments[key]?.variants.map(\.name) ?? [] { options.append(("\(key)=\(variant)", "\(key): \(variant)")) }
        }
        let current = value.trimmingCharacters(in: .whitespaces)
        if !options.contains(where: { $0.value == current }) {
            let label = current.replacingOccurrences(of: "=", with: ": ").replacingOccurrences(of: "|", with: ", ")
            options.append((current, label))
        }
        return menu(name: "c.experiment", label: "Only in an experiment's variant", options: options, current: current, error: error, id: id)
    }

    /// A labelled menu of `options` with `current` chosen and its error (if any) read with it.
    static func menu(
        name: String, label: String, options: [(value: String, label: String)], current: String, error: String?, id: String, extra: String = ""
    ) -> String {
        let safeID = fieldID(id)
        let errorID = "\(safeID)-error"
        let items = options.map { option in
            "<option value=\"\(HTML.escape(option.value))\"\(option.value == current ? " selected" : "")>\(HTML.escape(option.label))</option>"
        }.joined()
        let message = error.map { "<span class=\"error\" id=\"\(errorID)\">\(HTML.escape($0))</span>" } ?? ""
        return """
            <label for="\(safeID)">\(HTML.escape(label))</label><select id="\(safeID)" name="\(HTML.escape(name))"\(extra)\
            \(error == nil ? "" : " aria-invalid=\"true\" aria-describedby=\"\(errorID)\"")>\(items)</select>\(message)
            """
    }

    /// A menu of the released API versions for one end of a widget's version range, each with
    /// the share of requests it reaches in the last seven days (`4 and later — 93 % of requests`),
    /// "any" first; a stored value no client sends stays listed as such, so the card shows it
    /// (and its error) rather than silently dropping it.
    static func versionMenu(name: String, label: String, value: String, error: String?, id: String, mix: ClientMix.Counts?) -> String {
        let lowest = name == "c.minVersion"
        var options: [(value: String, label: String)] = [("", lowest ? "Any: the oldest apps too" : "Any: the newest apps too")]
        for number in APIVersion.supported.lowerBound.rawValue...APIVersion.supported.upperBound.rawValue {
            let version = APIVersion(number)
            let reach: String
            if let mix, mix.total > 0 {
                let share = lowest ? mix.share(from: version) ?? 0 : 1 - (mix.share(from: APIVersion(number + 1)) ?? 0)
                reach = " — \(Self.percent(share)) of requests in the last 7 days"
            } else {
                reach = " — no requests seen yet"
            }
            options.append((String(number), (lowest ? "\(number) and later" : "up to \(number)") + reach))
        }
        let current = value.trimmingCharacters(in: .whitespaces)
        if !current.isEmpty, !options.contains(where: { $0.value == current }) {
            options.append((current, "\(current): not a released version"))
        }
        return menu(name: name, label: label, options: options, current: current, error: error, id: id)
    }

    /// `0.934` → "93 %", and "under 1 %" for a little above nothing.
    static func percent(_ share: Double) -> String {
        if share > 0, share < 0.01 { return "under 1 %" }
        return "\(Int((share * 100).rounded())) %"
    }

    /// A labelled input with its error beside it; `extra` adds attributes (`type="datetime-local"`).
    /// A labelled input, its error (if any) and a hint (if any) under it, both read with it.
    static func field(name: String, label: String, value: String, error: String?, id: String, extra: String = "", hint: String? = nil) -> String {
        let safeID = fieldID(id)
        let errorID = "\(safeID)-error"
        let hintID = "\(safeID)-hint"
        let describedBy = (hint == nil ? [] : [hintID]) + (error == nil ? [] : [errorID])
        let described =
            (error == nil ? "" : " aria-invalid=\"true\"") + (describedBy.isEmpty ? "" : " aria-describedby=\"\(describedBy.joined(separator: " "))\"")
        let message = error.map { "<span class=\"error\" id=\"\(errorID)\">\(HTML.escape($0))</span>" } ?? ""
        let note = hint.map { "<span class=\"hint\" id=\"\(hintID)\">\(HTML.escape($0))</span>" } ?? ""
        return """
            <label for="\(safeID)">\(HTML.escape(label))</label><input\(extra.isEmpty ? "" : " " + extra) id="\(safeID)" \
            name="\(HTML.escape(name))" value="\(HTML.escape(value))"\(described)>\(note)\(message)
            """
    }

    /// The form values showing `widget` as it is.
    static func formValues(of widget: WidgetInstance) -> [String: String] {
        var values: [String: String] = [:]
        for (name, value) in widget.parameters.objectValue ?? [:] {
            values["p.\(name)"] = value.stringValue ?? (try? String(decoding: JSONEncoder().encode(value), as: UTF8.self)) ?? ""
        }
        values.merge(contentValues(of: widget.content)) { _, content in content }
        let conditions = widget.conditions
        for platform in conditions.platforms ?? [] { values["c.platforms.\(platform.rawValue)"] = "yes" }
        values["c.locales"] = conditions.locales?.joined(separator: ", ") ?? ""
        values["c.segments"] = conditions.segments.map { $0.sorted().joined(separator: ", ") } ?? ""
        values["c.experiment"] = conditions.experiment.map { "\($0.key)=\($0.variants.sorted().joined(separator: "|"))" } ?? ""
        values["c.from"] = conditions.window?.start.map(localValue) ?? ""
        values["c.until"] = conditions.window?.end.map(localValue) ?? ""
        values["c.minVersion"] = conditions.apiVersions?.minimum.map { String($0.rawValue) } ?? ""
        values["c.maxVersion"] = conditions.apiVersions?.maximum.map { String($0.rawValue) } ?? ""
        return values
    }

    /// `widget` with the form's parameters, content (in `rules`' locales) and conditions; what
    /// cannot be read goes to `errors` by input name.
    static func widget(
        _ widget: WidgetInstance, from form: [String: String], contract: WidgetContract?, rules: ContentRules = ContentRules(),
        errors: inout [String: String]
    ) -> WidgetInstance {
        var updated = widget
        updated.content = content(from: form, contract: contract, rules: rules, keeping: widget.content)
        var parameters: [String: JSONValue] = [:]
        for field in contract?.parameters ?? [] {
            let text = (form["p.\(field.name)"] ?? "").trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            switch field.type {
            case .string, .url: parameters[field.name] = .string(text)
            case .integer:
                if let number = Int(text) {
                    parameters[field.name] = .integer(number)
                } else {
                    errors["p.\(field.name)"] = "'\(text)' is not a whole number"
                }
            case .number:
                if let number = Double(text), number.isFinite {
                    parameters[field.name] = .number(number)
                } else {
                    errors["p.\(field.name)"] = "'\(text)' is not a number"
                }
            case .boolean:
                if text == "true" || text == "false" {
                    parameters[field.name] = .bool(text == "true")
                } else {
                    errors["p.\(field.name)"] = "write true or false"
                }
            case .object, .array:
                if let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) {
                    parameters[field.name] = value
                } else {
                    errors["p.\(field.name)"] = "not valid JSON"
                }
            }
        }
        updated.parameters = .object(parameters)
        func list(_ name: String) -> [String]? {
            let items = (form[name] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return items.isEmpty ? nil : items
        }
        func date(_ name: String) -> Date? {
            let text = (form[name] ?? "").trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return nil }
            // The picker's value (in the admin's zone), or ISO 8601 with its zone, as a script might send it.
            if let value = try? Date(text, strategy: .iso8601) { return value }
            return parseDate(text, field: name, errors: &errors)
        }
        func version(_ name: String) -> APIVersion? {
            let text = (form[name] ?? "").trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return nil }
            guard let number = Int(text), (1...999).contains(number) else {
                errors[name] = "'\(text)' is not an API version number"
                return nil
            }
            return APIVersion(number)
        }
        var conditions = WidgetConditions()
        let platforms = Self.platforms(in: form)
        conditions.platforms = platforms.isEmpty ? nil : Set(platforms.map { Platform($0) })
        conditions.locales = list("c.locales")
        conditions.segments = list("c.segments").map(Set.init)
        let experiment = (form["c.experiment"] ?? "").trimmingCharacters(in: .whitespaces)
        if !experiment.isEmpty {
            let parts = experiment.split(separator: "=", maxSplits: 1)
            if parts.count == 2, !parts[0].isEmpty {
                conditions.experiment = ExperimentCondition(
                    key: String(parts[0]).trimmingCharacters(in: .whitespaces),
                    variants: Set(parts[1].split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }))
            } else {
                errors["c.experiment"] = "write key=variant, or key=variant|variant"
            }
        }
        let (from, until) = (date("c.from"), date("c.until"))
        if from != nil || until != nil { conditions.window = DateWindow(start: from, end: until) }
        let (minimum, maximum) = (version("c.minVersion"), version("c.maxVersion"))
        if minimum != nil || maximum != nil { conditions.apiVersions = APIVersionRange(minimum: minimum, maximum: maximum) }
        updated.conditions = conditions
        return updated
    }

    /// The widget and the input a problem's JSON path points at (`$.sections[0].widgets[2].parameters.workID`
    /// → that widget, `p.workID`); `""` for the widget as a whole.
    static func input(for path: String, in template: PageTemplate) -> (String, String)? {
        guard let match = path.firstMatch(of: /^\$\.sections\[(\d+)\]\.widgets\[(\d+)\](.*)$/),
            let section = Int(match.1), let index = Int(match.2), template.sections.indices.contains(section),
            template.sections[section].widgets.indices.contains(index)
        else { return nil }
        let id = template.sections[section].widgets[index].id
        let rest = String(match.3)
        if rest.hasPrefix(".parameters.") {
            return (id, "p." + (rest.dropFirst(".parameters.".count).split(separator: ".").first.map(String.init) ?? ""))
        }
        // Content paths name their input: `.content.headline.de` is `k.headline.de`, an image's
        // `.content.image.url` is `k.image.url` (paths in brackets point at the field's first).
        if rest.hasPrefix(".content") {
            // `["pt-BR"]` (a key JSONPath quotes) is the input's `.pt-BR`.
            let inner = String(rest.dropFirst(".content".count)).replacing(/\["([^"\\]*)"\]/) { "." + $0.output.1 }
            return (id, "k" + (inner.isEmpty ? "." : inner))
        }
        let conditions: [String: String] = [
            ".conditions.platforms": "c.platforms", ".conditions.locales": "c.locales", ".conditions.segments": "c.segments",
            ".conditions.experiment": "c.experiment", ".conditions.window": "c.from", ".conditions.apiVersions": "c.minVersion",
        ]
        if rest.hasPrefix(".conditions.apiVersions.maximum") { return (id, "c.maxVersion") }
        for (prefix, input) in conditions where rest.hasPrefix(prefix) { return (id, input) }
        if rest == ".id" { return (id, "id") }
        return (id, "")
    }
}
