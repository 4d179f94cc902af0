public import ScreenplayContract

extension Screen {
    /// The screen with an id on every component: the author's where given, else one derived from
    /// the section, the kind and the component's identity key (`works/listRow:screens~work~12`),
    /// made unique with `~2`, `~3` in document order.
    ///
    /// The service runs this on every screen it builds, so authors name only the components they
    /// refer to (bindings, tests) and clients still key every view by a stable id. A derived id
    /// follows the component when the screen is reordered, because it comes from what the
    /// component is, not where it stands.
    public func assigningComponentIDs() -> Screen {
        var used = Set(allComponents.compactMap(\.id))
        var result = self
        func assign(_ components: [Component], prefix: String) -> [Component] {
            components.map { component in
                var component = component
                if component.id == nil {
                    let key = component.identityKey.map { ":" + Self.idSafe($0) } ?? ""
                    let base = String((prefix + "/" + component.kind.rawValue + key).prefix(ValueRules.ComponentID.maximum - 6))
                    var candidate = base
                    var count = 1
                    while used.contains(candidate) {
                        count += 1
                        candidate = base + "~\(count)"
                    }
                    used.insert(candidate)
                    component.id = candidate
                }
                switch component.content {
                case .verticalStack(var stack):
                    stack.children = assign(stack.children, prefix: component.id!)
                    component.content = .verticalStack(stack)
                case .horizontalStack(var stack):
                    stack.children = assign(stack.children, prefix: component.id!)
                    component.content = .horizontalStack(stack)
                case .reorderableList(var list):
                    list.children = assign(list.children, prefix: component.id!)
                    component.content = .reorderableList(list)
                default:
                    break
                }
                return component
            }
        }
        result.sections = sections.map { section in
            var section = section
            section.components = assign(section.components, prefix: Self.idSafe(section.id))
            return section
        }
        return result
    }

    /// What makes the screen unsendable, if anything: a duplicate component id, or a binding to an
    /// entity or member the screen does not carry. Each names the JSON path of the component.
    public var structuralProblems: [String] {
        var problems: [String] = []
        if let duplicate = duplicateComponentID {
            problems.append("\(duplicate.path): duplicate component id '\(duplicate.id)'")
        }
        func walk(_ components: [Component], path: String) {
            for (index, component) in components.enumerated() {
                let here = "\(path)[\(index)]"
                for problem in component.resolvingBindings(entities).problems { problems.append("\(here).bind: \(problem)") }
                walk(component.children, path: here + ".children")
            }
        }
        for (index, section) in sections.enumerated() { walk(section.components, path: "$.sections[\(index)].components") }
        return problems
    }

    /// `text` with each run of characters an id may not hold (spaces, `?`, quotes, non-ASCII)
    /// replaced by one `-`.
    static func idSafe(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", ".", "_", ":", "/", "~": result.append(scalar)
            default: if result.last != "-" { result.append("-") }
            }
        }
        return result.isEmpty ? "-" : String(result)
    }
}
