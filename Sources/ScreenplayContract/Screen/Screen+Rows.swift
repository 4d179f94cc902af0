public import Foundation

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
    public func expandingRows(apiVersion: APIVersion = .latest, locale: String = "en") -> Decoded<Screen> {
        guard hasRows else { return Decoded(value: self, issues: []) }
        var expansion = RowExpansion(screen: self, apiVersion: apiVersion, locale: locale)
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
    let types: [String: ExpressionType]
    var budget = Component.Rows.maximumRows
    var issues: [DecodingIssue] = []

    init(screen: Screen, apiVersion: APIVersion, locale: String) {
        self.screen = screen
        self.apiVersion = apiVersion
        self.locale = locale
        types = screen.expressionTypes
    }

    mutating func expand(_ components: [Component], at path: String) -> [Component] {
        var result: [Component] = []
        for (index, component) in components.enumerated() {
            let here = "\(path)[\(index)]"
            var component = component
            switch component.content {
            case .rows(let rows):
                result += expand(rows, id: component.id, at: here)
                continue
            case .verticalStack(var stack):
                stack.children = expand(stack.children, at: here + ".children")
                component.content = .verticalStack(stack)
            case .horizontalStack(var stack):
                stack.children = expand(stack.children, at: here + ".children")
                component.content = .horizontalStack(stack)
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
            template = try RowTemplate(rows.template, items: rows.items, element: elementType, screen: types)
        } catch {
            report("no rows: \(error.message)", at: path + JSONPath.render([AnyCodingKey("template")] + error.path).dropFirst())
            return []
        }
        let shown = min(elements.count, budget)
        if shown < elements.count {
            report(
                "\(elements.count - shown) of \(elements.count) rows left out: a screen shows at most \(Component.Rows.maximumRows) rows from templates",
                at: path + ".items")
        }
        budget -= shown
        var filled: [JSONValue] = []
        var indices: [Int] = []
        let prefix = id ?? rows.items
        for (index, element) in elements.prefix(shown).enumerated() {
            do throws(RowTemplate.Problem) {
                var json = try template.fill(element, at: index, locale: locale)
                if !template.hasID, case .object(var members) = json {
                    members["id"] = .string("\(prefix)-\(index)")
                    json = .object(members)
                }
                filled.append(json)
                indices.append(index)
            } catch {
                report("row left out: \(error.message)", at: rowPath(path, index, error.path))
            }
        }
        return decode(filled, indices: indices, at: path)
    }

    /// `$.sections[0].components[2].rows[7].title`.
    private func rowPath(_ path: String, _ index: Int, _ rest: [any CodingKey]) -> String {
        path + ".rows[\(index)]" + JSONPath.render(rest).dropFirst()
    }

    /// The rows' JSON read as components, as the wire would be: one decode for all of them, each
    /// bad row left out and reported at its own path.
    private mutating func decode(_ rows: [JSONValue], indices: [Int], at path: String) -> [Component] {
        guard !rows.isEmpty else { return [] }
        let log = DecodingIssueLog(mode: .lossy)
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
            return decoded.compactMap(\.value)
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
    /// action (a button) goes when its action goes.
    func refusingSets(of names: Set<String>) -> Decoded<Screen> {
        var issues: [DecodingIssue] = []
        var refusedHere = false
        func strip(_ action: Action) -> Action? {
            switch action {
            case .set(let set) where names.contains(set.variable):
                refusedHere = true
                return nil
            case .sequence(let sequence):
                let steps = sequence.actions.compactMap(strip)
                return steps.isEmpty ? nil : .sequence(.init(steps))
            default:
                return action
            }
        }
        func report(_ path: String) {
            guard refusedHere else { return }
            issues.append(
                DecodingIssue(
                    kind: .invalidElement, path: path,
                    message: "a `set` of \(names.sorted().map { "'\($0)'" }.joined(separator: ", ")) is refused: rows are made from it, and rows are the server's data"))
            refusedHere = false
        }
        var result = self
        for (index, section) in sections.enumerated() {
            result.sections[index].components = section.components.enumerated().compactMap { position, component in
                let kept = component.mappingActions(strip)
                report("$.sections[\(index)].components[\(position)]")
                return kept
            }
        }
        func items(_ list: [MenuItem]?, _ name: String) -> [MenuItem]? {
            list.map { list in
                list.enumerated().compactMap { position, item in
                    var item = item
                    let action = strip(item.action)
                    report("$.\(name)[\(position)].action")
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
