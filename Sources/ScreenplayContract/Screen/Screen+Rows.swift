import Foundation

extension Screen {
    /// Whether a `rows` component (v6) is anywhere in the body, stacks included.
    public var hasRows: Bool {
        func any(_ components: [Component]) -> Bool {
            components.contains { component in
                if case .rows = component.content { return true }
                return any(component.children)
            }
        }
        return sections.contains { any($0.components) }
    }

    /// The screen with its rows made (``expandingRows(apiVersion:locale:customKinds:)``, issues
    /// dropped), or itself when it has none: for a screen built in Swift that reaches a consumer
    /// of plain components (a decoded screen's rows are already made).
    public func withRowsMade(locale: String = "en") -> Screen {
        hasRows ? expandingRows(locale: locale).value : self
    }

    /// The screen with every `rows` component replaced by its rows, made from the initial value of
    /// its `items` and its template (``Component/Rows``), and what was left out on the way.
    ///
    /// What a client does once, when the screen arrives, and what the server does for clients
    /// older than v6 and for the web page: after it, bindings, the view tree and renderers see
    /// plain components. A row whose hole stops (an index out of range) or whose JSON is not a
    /// component of `apiVersion` is left out, and so are the rows past
    /// ``Component/Rows/maximumRows`` in the whole screen; each is a ``DecodingIssue`` at its path
    /// (`$.sections[0].components[2].rows[7].title`). A screen without rows comes back as it is.
    ///
    /// - Parameters:
    ///   - apiVersion: The version the rows are read as (a template of a kind the version lacks
    ///     makes unknown components, as the wire would).
    ///   - locale: The reader's locale: what a hole's `formatNumber` or `formatDate` writes with.
    ///   - customKinds: App-defined kinds the client renders (a template may be one).
    public func expandingRows(apiVersion: APIVersion = .latest, locale: String = "en", customKinds: Set<String> = []) -> Decoded<Screen> {
        guard hasRows else { return Decoded(value: self, issues: []) }
        var expansion = RowExpansion(screen: self, apiVersion: apiVersion, locale: locale, customKinds: customKinds)
        var result = self
        for index in result.sections.indices {
            result.sections[index].components = expansion.expand(result.sections[index].components, at: "$.sections[\(index)].components")
        }
        return Decoded(value: result, issues: expansion.issues)
    }
}

/// One screen's rows being expanded: the budget of rows left and the issues met.
private struct RowExpansion {
    let screen: Screen
    let apiVersion: APIVersion
    let locale: String
    let customKinds: Set<String>
    let types: [String: ExpressionType]
    var budget = Component.Rows.maximumRows
    var bytes = Component.Rows.maximumBytes
    var issues: [DecodingIssue] = []
    /// Every component id the screen uses so far: a row's id that is taken gets `~2`, `~3`.
    var usedIDs: Set<String>

    init(screen: Screen, apiVersion: APIVersion, locale: String, customKinds: Set<String>) {
        self.screen = screen
        self.apiVersion = apiVersion
        self.locale = locale
        self.customKinds = customKinds
        types = screen.expressionTypes
        usedIDs = Set(screen.allComponents.compactMap { $0.kind == Component.Rows.kind ? nil : $0.id })
    }

    /// `id`, or `id~2`, `id~3`… when it is taken; now taken.
    mutating func unique(_ id: String) -> String {
        var candidate = id
        var count = 1
        while usedIDs.contains(candidate) {
            count += 1
            candidate = "\(id)~\(count)"
        }
        usedIDs.insert(candidate)
        return candidate
    }

    mutating func expand(_ components: [Component], at path: String) -> [Component] {
        var result: [Component] = []
        for (index, component) in components.enumerated() {
            let here = "\(path)[\(index)]"
            var component = component
            switch component.content {
            case .rows(let rows):
                if !component.attributes.compute.isEmpty || component.attributes.accessibility != nil || !component.attributes.bindings.isEmpty {
                    // Ignored, as an unknown member is: reported, and the rows are made all the same.
                    issues.append(
                        DecodingIssue(
                            kind: .unknownValue, path: here,
                            message: "the rows' own compute, accessibility and bind are not carried to its rows: put them on the template"))
                }
                result += expand(rows, id: component.id, at: here)
                continue
            case .verticalStack(var stack):
                stack.children = expand(stack.children, at: here + ".children")
                component.content = .verticalStack(stack)
            case .horizontalStack(var stack):
                stack.children = expand(stack.children, at: here + ".children")
                component.content = .horizontalStack(stack)
            case .reorderableList(var list):
                list.children = expand(list.children, at: here + ".children")
                component.content = .reorderableList(list)
            default:
                break
            }
            result.append(component)
        }
        return result
    }

    private mutating func report(_ message: String, at path: String) {
        issues.append(DecodingIssue(kind: .invalidElement, path: path, message: message))
    }

    private mutating func expand(_ rows: Component.Rows, id: String?, at path: String) -> [Component] {
        guard let variable = screen.state[rows.items], case .array(let elementType) = variable.type,
            case .array(let elements) = variable.initial
        else {
            report("no rows: '\(rows.items)' is not an array this screen's state declares", at: path + ".items")
            return []
        }
        guard variable.scope == .screen else {
            report("no rows: '\(rows.items)' is kept by the app; rows come from the screen's own data", at: path + ".items")
            return []
        }
        let template: RowTemplate
        do throws(RowTemplate.Problem) {
            template = try RowTemplate(
                rows.template, items: rows.items, element: elementType, screen: types, rows: min(elements.count, Component.Rows.maximumRows))
        } catch {
            report("no rows: \(error.message)", at: path + JSONPath.render([AnyCodingKey("template")] + error.path).dropFirst())
            return []
        }
        // Rows past the screen's count, or past its bytes at the template's size, are left out.
        let templateBytes = max(1, rows.template.jsonText.utf8.count)
        let shown = min(elements.count, budget, bytes / templateBytes)
        if shown < elements.count {
            let limit =
                shown == budget
                ? "a screen shows at most \(Component.Rows.maximumRows) rows from templates"
                : "a screen's rows from templates hold at most \(Component.Rows.maximumBytes) bytes, and this template is \(templateBytes)"
            report("\(elements.count - shown) of \(elements.count) rows left out: \(limit)", at: path + ".items")
        }
        budget -= shown
        bytes -= shown * templateBytes
        var filled: [JSONValue] = []
        var indices: [Int] = []
        let prefix = id ?? rows.items
        for (index, element) in elements.prefix(shown).enumerated() {
            do throws(RowTemplate.Problem) {
                var json = try template.fill(element, at: index, locale: locale)
                // A kind made by a hole is checked as the template's own: rows cannot hold rows.
                if let nested = RowTemplate.rowsInside(json) {
                    throw RowTemplate.Problem(path: nested, message: "rows cannot hold rows: a template makes one row per element")
                }
                if case .object(var members) = json {
                    let given = template.hasID ? members["id"]?.stringValue : nil
                    members["id"] = .string(unique(given ?? "\(prefix)-\(index)"))
                    json = .object(members)
                }
                filled.append(json)
                indices.append(index)
            } catch {
                report("row left out: \(error.message)", at: rowPath(path, index, error.path))
            }
        }
        // A row's `set` of a rows' array (written in the template, or named by a hole) is refused too.
        let refusal = SetRefusal(names: screen.rowsItems)
        return zip(decode(filled, indices: indices, at: path), 0...).compactMap { made, position in
            let (kept, refused) = refusal.strip(made.component)
            if refused { issues.append(refusal.issue(at: path + ".rows[\(made.index)]")) }
            return kept
        }
    }

    /// `$.sections[0].components[2].rows[7].title`.
    private func rowPath(_ path: String, _ index: Int, _ rest: [any CodingKey]) -> String {
        path + ".rows[\(index)]" + JSONPath.render(rest).dropFirst()
    }

    /// The rows' JSON read as components, as the wire would be: one decode for all of them, each
    /// bad row left out and reported at its own path.
    private mutating func decode(_ rows: [JSONValue], indices: [Int], at path: String) -> [(component: Component, index: Int)] {
        guard !rows.isEmpty else { return [] }
        let log = DecodingIssueLog(mode: .lossy, customKinds: customKinds)
        let decoder = JSONDecoder()
        decoder.userInfo[.screenplayIssueLog] = log
        decoder.userInfo[.screenplayAPIVersion] = apiVersion
        do {
            let data = try JSONEncoder().encode(JSONValue.array(rows))
            let decoded = try log.withExpressionScope(types) { try decoder.decode([LossyElement<Component>].self, from: data) }
            for issue in log.recorded {
                // `$[3].title` is row indices[3]'s `title`.
                var rest = issue.path.dropFirst(2)
                let digits = rest.prefix { $0.isNumber }
                rest = rest.dropFirst(digits.count + 1)
                let row = Int(digits).map { indices[$0] } ?? 0
                issues.append(DecodingIssue(kind: issue.kind, path: path + ".rows[\(row)]" + rest, message: issue.message))
            }
            return zip(decoded, indices).compactMap { element, index in element.value.map { ($0, index) } }
        } catch {
            report("no rows: \(error)", at: path)
            return []
        }
    }
}

extension Screen {
    /// The variables the screen's `rows` are made from.
    var rowsItems: Set<String> {
        var names: Set<String> = []
        func walk(_ components: [Component]) {
            for component in components {
                if case .rows(let rows) = component.content { names.insert(rows.items) }
                walk(component.children)
            }
        }
        for section in sections { walk(section.components) }
        return names
    }

    /// The screen without any `set` of one of `names` (the variables rows are made from, which are
    /// the server's data: a list does not change shape on the device), and an issue for each
    /// component or menu item that held one. A sequence loses that step; a kind that requires its
    /// action (a button) goes when its action goes. (The rows themselves are checked as they are
    /// made: ``expandingRows(apiVersion:locale:customKinds:)``.)
    func refusingSets(of names: Set<String>) -> Decoded<Screen> {
        let refusal = SetRefusal(names: names)
        var issues: [DecodingIssue] = []
        var result = self
        for (index, section) in sections.enumerated() {
            result.sections[index].components = section.components.enumerated().compactMap { position, component in
                let (kept, refused) = refusal.strip(component)
                if refused { issues.append(refusal.issue(at: "$.sections[\(index)].components[\(position)]")) }
                return kept
            }
        }
        func items(_ list: [MenuItem]?, _ name: String) -> [MenuItem]? {
            list.map { list in
                list.enumerated().compactMap { position, item in
                    var item = item
                    var refused = false
                    let action = refusal.strip(item.action, refused: &refused)
                    if refused { issues.append(refusal.issue(at: "$.\(name)[\(position)].action")) }
                    guard let action else { return nil }
                    item.action = action
                    return item
                }
            }
        }
        result.toolbar = items(toolbar, "toolbar")
        result.menu = items(menu, "menu")
        return Decoded(value: result, issues: issues)
    }
}

/// Takes every `set` of the rows' arrays out of what it is given.
struct SetRefusal {
    let names: Set<String>

    /// `action` without a `set` of one of ``names`` (`nil` when nothing is left); `refused` says
    /// whether one was taken out.
    func strip(_ action: Action, refused: inout Bool) -> Action? {
        switch action {
        case .set(let set) where names.contains(set.variable):
            refused = true
            return nil
        case .sequence(let sequence):
            let steps = sequence.actions.compactMap { strip($0, refused: &refused) }
            return steps.isEmpty ? nil : .sequence(.init(steps))
        default:
            return action
        }
    }

    /// `component` (children included) without such a `set`, or `nil` when it required the action
    /// that went; and whether one was taken out.
    func strip(_ component: Component) -> (Component?, refused: Bool) {
        var refused = false
        let kept = component.mappingActions { strip($0, refused: &refused) }
        return (kept, refused)
    }

    /// The issue for what held a refused `set`, at `path`.
    func issue(at path: String) -> DecodingIssue {
        DecodingIssue(
            kind: .invalidElement, path: path,
            message: "a `set` of \(names.sorted().map { "'\($0)'" }.joined(separator: ", ")) is refused: rows are made from it, and rows are the server's data")
    }
}
