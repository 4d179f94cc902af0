/// A place inside one definition: the definition's name and the path of fields and array
/// elements below it.
struct SchemaPath {
    enum Step {
        case field(String)
        case items
        case keyword(String)
    }

    let definition: String
    var steps: [Step] = []

    /// The path below the definition, as `x-field-changes` names fields: `duration`, `cards[].title`.
    var relative: String {
        var text = ""
        for step in steps {
            switch step {
            case .field(let name): text += text.isEmpty ? name : "." + name
            case .items: text += "[]"
            case .keyword: break
            }
        }
        return text
    }

    var location: String {
        let relative = self.relative
        if relative.isEmpty { return definition }
        return definition + (relative.hasPrefix("[") ? "" : ".") + relative
    }

    /// The JSON pointer of this node in the document.
    var pointer: String {
        var text = definition == "#" ? "#" : "#/$defs/" + SchemaDocumentCheck.pointerEscape(definition)
        for step in steps {
            switch step {
            case .field(let name): text += "/properties/" + SchemaDocumentCheck.pointerEscape(name)
            case .items: text += "/items"
            case .keyword(let keyword): text += "/" + keyword
            }
        }
        return text
    }

    func field(_ name: String) -> SchemaPath {
        var path = self
        path.steps.append(.field(name))
        return path
    }

    func items() -> SchemaPath {
        var path = self
        path.steps.append(.items)
        return path
    }

    func keyword(_ keyword: String) -> SchemaPath {
        var path = self
        path.steps.append(.keyword(keyword))
        return path
    }
}
