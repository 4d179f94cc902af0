import Foundation

/// A binding that could not be applied: the entity or its member is missing, the kind has no such
/// field, or the value does not fit the field. The component keeps its own value for that field.
public struct BindingProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The component field that is bound.
    public let field: String
    /// What it is bound to.
    public let reference: EntityReference
    /// What is wrong, in words.
    public let message: String

    /// `'isFavorite' ← playlist/3.favorite: no entity 'playlist/3'`.
    public var description: String { "'\(field)' ← \(reference.description): \(message)" }
}

extension Component {
    /// The component with each bound field replaced by the entity member it names.
    ///
    /// Both the server (resolving bindings into plain fields for clients older than v4) and the
    /// client (re-resolving bound components after a patch) use this one function, so a binding
    /// means the same thing on both sides. The component's own value is the fallback: a binding
    /// that cannot be applied leaves the field as it was and is returned as a problem. Children of
    /// stacks are not touched; callers walk the tree.
    public func resolvingBindings(_ entities: Entities) -> (component: Component, problems: [BindingProblem]) {
        guard !attributes.bindings.isEmpty else { return (self, []) }
        var problems: [BindingProblem] = []
        var resolved = self
        for (field, reference) in attributes.bindings.sorted(by: { $0.key < $1.key }) {
            guard let entity = entities[reference.entity] else {
                problems.append(.init(field: field, reference: reference, message: "no entity '\(reference.entity)' on the screen"))
                continue
            }
            guard let value = entity[reference.field] else {
                problems.append(
                    .init(field: field, reference: reference, message: "entity '\(reference.entity)' has no member '\(reference.field)'"))
                continue
            }
            do {
                resolved.content = try resolved.replacing(field: field, with: value)
            } catch {
                problems.append(.init(field: field, reference: reference, message: error.message))
            }
        }
        return (resolved, problems)
    }

    /// The content with one field of the payload replaced: directly for the fields bindings are
    /// usually for (a flag, a title, a price text), else through the kind's own decoder so its
    /// checks run on the bound value.
    private func replacing(field: String, with value: JSONValue) throws(ContractViolation) -> Content {
        guard field != "type" else { throw ContractViolation("'type' cannot be bound") }
        guard let payload else {
            // App-defined kinds (widgets) have no Swift model: the bound value replaces the member
            // of their JSON, which is what the app's renderer reads.
            guard case .unknown(var unknown) = content, case .object(var members) = unknown.json else {
                throw ContractViolation("a component of unknown kind '\(kind)' has no fields to bind")
            }
            members[field] = value
            unknown.json = .object(members)
            return .unknown(unknown)
        }
        if let direct = try Self.directlyBound(content, field: field, value: value) { return direct }
        do {
            let encoder = ScreenplayEncoder(apiVersion: .latest)
            guard case .object(var object) = try JSONDecoder().decode(JSONValue.self, from: encoder.encode(payload)) else {
                throw ContractViolation("the payload is not an object")
            }
            object[field] = value
            let data = try encoder.encode(JSONValue.object(object))
            let decoded = try type(of: payload).decodedComponent(from: data)
            // A field the kind does not have is ignored by its decoder: say so instead.
            guard let written = decoded.payload,
                case .object(let members) = try JSONDecoder().decode(JSONValue.self, from: encoder.encode(written)),
                members[field] != nil
            else { throw ContractViolation("a '\(kind)' has no field '\(field)'") }
            return decoded.content
        } catch let violation as ContractViolation {
            throw violation
        } catch {
            let (path, message) = JSONPath.describe(error, fallbackPath: [])
            throw ContractViolation("the value does not fit: \(path == "$" ? "" : path + ": ")\(message)")
        }
    }

}

extension Component {
    /// The common bound fields, set without a JSON round trip (about 100 times faster); `nil` for
    /// any other field, which then goes through the decoder. Each case checks the value's type as
    /// the decoder would.
    fileprivate static func directlyBound(_ content: Content, field: String, value: JSONValue) throws(ContractViolation) -> Content? {
        func text() throws(ContractViolation) -> String {
            guard case .string(let text) = value else {
                throw ContractViolation("the value does not fit: expected a string, found \(value.typeName)")
            }
            return text
        }
        func optionalText() throws(ContractViolation) -> String? { value == .null ? nil : try text() }
        switch (content, field) {
        case (.favoriteButton(var toggle), "isFavorite"):
            guard case .bool(let flag) = value else {
                throw ContractViolation("the value does not fit: expected a boolean, found \(value.typeName)")
            }
            toggle.isFavorite = flag
            return .favoriteButton(toggle)
        case (.favoriteButton(var toggle), "label"):
            toggle.label = try text()
            return .favoriteButton(toggle)
        case (.text(var run), "text"):
            run.text = try text()
            return .text(run)
        case (.button(var button), "title"):
            button.title = try text()
            return .button(button)
        case (.listRow(var row), "title"):
            row.title = try text()
            return .listRow(row)
        case (.listRow(var row), "subtitle"):
            row.subtitle = try optionalText()
            return .listRow(row)
        case (.detailButton(var row), "title"):
            row.title = try text()
            return .detailButton(row)
        case (.detailButton(var row), "subtitle"):
            row.subtitle = try optionalText()
            return .detailButton(row)
        default:
            return nil
        }
    }
}

extension ComponentPayload {
    /// A component of this kind decoded from `data` (plain JSON, latest version).
    fileprivate static func decodedComponent(from data: Data) throws -> Component {
        try JSONDecoder().decode(Self.self, from: data).component
    }
}

extension Screen {
    /// Where each component id is used, and the first duplicate found; `nil` when all are unique.
    ///
    /// Servers refuse to send a screen with duplicate ids; clients log one and key the second
    /// component by position.
    public var duplicateComponentID: (id: String, path: String)? {
        var seen: Set<String> = []
        var duplicate: (String, String)?
        func walk(_ components: [Component], path: String) {
            for (index, component) in components.enumerated() where duplicate == nil {
                let here = "\(path)[\(index)]"
                if let id = component.id, !seen.insert(id).inserted {
                    duplicate = (id, here)
                    return
                }
                walk(component.children, path: here + ".children")
            }
        }
        for (index, section) in sections.enumerated() where duplicate == nil {
            walk(section.components, path: "$.sections[\(index)].components")
        }
        return duplicate
    }
}
