import Foundation

extension Component {
    /// Rows made on the device from an array in the screen's state and one row template (v6):
    /// the data apart from the layout, so a list of 300 works is 300 records and one row, not
    /// 300 rows (contract/expressions/README.md, "Row templates").
    ///
    /// ```json
    /// {"type": "rows", "id": "works", "items": "works",
    ///  "template": {"type": "listRow", "title": "${item.title}", "subtitle": "${item.year}",
    ///               "action": {"type": "navigate", "url": "/screens/work/${item.id}"},
    ///               "compute": {"visible": "contains(lower(item.title), lower(query))"}}}
    /// ```
    ///
    /// - `items` names a screen-scoped state variable holding an array: one row per element, in
    ///   order, at most ``maximumRows`` (and ``maximumBytes``) in the whole screen.
    /// - `template` is one component. Each string in it is a text with `${…}` holes that read
    ///   `item` (the element) and `index` (from 0); `\$` writes a dollar sign. An object
    ///   `{"$value": "item.count"}` stands for that expression's value, of any type (a count where
    ///   a text could only write a string). Its `compute`
    ///   bindings read `item` and `index` besides the screen's variables, and stay bindings: row 3
    ///   of `works` computes `contains(lower(works[3].title), lower(query))`.
    /// - A row's id is the template's `id` text when it has one, else the rows' id (or `items`)
    ///   and the index: `works-3`; an id the screen already uses gets `~2`, `~3`.
    ///
    /// A client makes the rows once, when the screen is decoded
    /// (``Screen/expandingRows(apiVersion:locale:customKinds:)``), so the view tree, the bindings
    /// and every renderer see plain components. The rows are the server's data: a `set` of
    /// `items` is refused when the screen is decoded, so a list never changes shape on the device.
    /// A client older than v6 gets the rows made by the server.
    public struct Rows: ComponentPayload {
        /// `rows`.
        public static let kind = ComponentKind(rawValue: "rows")
        /// New in v6; older clients get the rows expanded from the initial state by the server.
        public static let versioning = KindVersioning(
            introduced: .v6, fallback: "the rows themselves, one component per element, expanded by the server from the initial state")
        /// The most rows one screen makes from templates: elements past it are left out and
        /// reported. A screen of more rows than a person scrolls through is a search or a paged
        /// list instead.
        public static let maximumRows = 5_000
        /// The most bytes of rows one screen makes from templates, counted as each row's template
        /// size: a small screen whose large template is repeated 5 000 times would otherwise
        /// take gigabytes to make.
        public static let maximumBytes = 4 << 20

        /// The member of an object in a template that stands for a value of any type:
        /// `"recordingCount": {"$value": "item.recordings"}` writes the int itself, where a text
        /// could only write a string.
        public static let valueMember = "$value"

        /// The state variable (an array) the rows come from.
        public var items: String
        /// The component each element becomes, as JSON: its strings are texts with holes.
        public var template: JSONValue

        /// Rows of `items` (a state variable holding an array), each `template` with its holes
        /// filled from the element.
        public init(items: String, template: JSONValue) {
            self.items = items
            self.template = template
        }

        /// Rows of `items`, each `template` (a component whose strings may hold `${item.…}`
        /// holes) filled from the element.
        public init(items: String, template: Component) {
            self.items = items
            self.template = (try? JSONDecoder().decode(JSONValue.self, from: ScreenplayEncoder(apiVersion: .v6).encode(template))) ?? .null
        }

        /// These rows with the template's member `member` set to `expression`'s value for each
        /// element (`{"$value": …}`): how a field that is not a string (a count, a flag) comes
        /// from the element. `expression` reads `item` and `index`.
        public func filling(_ member: String, with expression: String) -> Rows {
            var copy = self
            if case .object(var members) = template {
                members[member] = .object([Self.valueMember: .string(expression)])
                copy.template = .object(members)
            }
            return copy
        }

        /// `text` as a template's text that writes it as it is: a `$` or `\` in it starts no hole
        /// (`\$`, `\\`). What a server puts around a hole when the text is its data.
        public static func text(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "$", with: "\\$")
        }

        /// `.rows(self)`.
        public var component: Component { .rows(self) }

        /// Rows from an array in the state and one template (v6): the data apart from the layout.
        public static let summary =
            "Rows from an array in the screen's state and one row template (v6): each string of the template is a text with ${…} holes reading `item` and `index`, its `compute` bindings read them too; older clients get the rows expanded by the server."

        /// A typical value, shown in the generated contract docs.
        public static var example: Self {
            Rows(
                items: "works",
                template: [
                    "type": "listRow", "title": "${item.title}", "subtitle": "${item.year}",
                    "action": ["type": "navigate", "url": "/screens/work/${item.id}"],
                ])
        }

        enum CodingKeys: String, CodingKey { case items, template }

        /// Reads the variable and the template, and checks the template against the screen's
        /// variables: `items` must be a declared array, every text's holes and every binding must
        /// check with `item` of its element type. Anything wrong refuses the rows at its path.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            items = try container.decode(checkedBy: ValueRules.VariableName.self, forKey: .items)
            template = try container.decode(RowTemplateJSON.self, forKey: .template).json
            let types = decoder.expressionTypes
            var element: ExpressionType?
            if let types {
                guard case .array(let declared) = types[items] else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .items, in: container,
                        debugDescription: "'items' is '\(items)', not an array this screen's state declares")
                }
                element = declared
            }
            do throws(RowTemplate.Problem) {
                _ = try RowTemplate(template, items: items, element: element, screen: types)
            } catch {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: container.codingPath + [CodingKeys.template] + error.path, debugDescription: error.message))
            }
        }
    }
}

/// A rows template as read from the wire: a component's JSON object whose strings may hold holes,
/// so it is not read as a component (a URL with `${item.id}` is not yet a URL).
package struct RowTemplateJSON: Decodable, Sendable, SchemaDescribedValue {
    /// The object.
    package let json: JSONValue

    package init(json: JSONValue) { self.json = json }

    package init(from decoder: any Decoder) throws {
        json = try JSONValue(from: decoder)
        guard case .object(let members) = json, case .string(let type)? = members["type"] else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a template is a component: an object with a 'type'"))
        }
        guard type != Component.Rows.kind.rawValue else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a template cannot be rows itself"))
        }
    }

    package static var schemaFragment: JSONValue {
        [
            "type": "object", "required": ["type"],
            "properties": ["type": ["type": "string", "pattern": #"^(?!rows(?![\s\S]))"#]],
            "description":
                "one component, as JSON; each string is a text whose ${…} holes read `item` and `index`, and its `compute` bindings read them besides the screen's variables",
        ]
    }
    package static var standInValue: Any { RowTemplateJSON(json: ["type": "text", "text": "${item}"]) }
}

/// A rows template compiled once: every text with holes parsed and checked, every binding parsed,
/// ready to fill for each element.
struct RowTemplate: Sendable {
    /// Why a template cannot be used, and where in it.
    struct Problem: Error {
        let path: [any CodingKey]
        let message: String
    }

    private indirect enum Part: Sendable {
        case constant(JSONValue)
        case text(ScreenExpression)
        /// `{"$value": "item.count"}`: the expression's value, of its own type.
        case value(ScreenExpression)
        /// A binding, parsed: written again for each row with `item` and `index` replaced.
        case binding(ExpressionSyntax)
        case array([Part])
        case object([String: Part])

        var isConstant: Bool {
            if case .constant = self { return true }
            return false
        }
    }

    /// The path of a `rows` inside `json` (a component's JSON), if it holds one.
    static func rowsInside(_ json: JSONValue, at path: [any CodingKey] = []) -> [any CodingKey]? {
        switch json {
        case .object(let members):
            if case .string(Component.Rows.kind.rawValue)? = members["type"] { return path }
            for (key, value) in members.sorted(by: { $0.key < $1.key }) {
                if let found = rowsInside(value, at: path + [AnyCodingKey(key)]) { return found }
            }
            return nil
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let found = rowsInside(element, at: path + [AnyCodingKey(intValue: index)]) { return found }
            }
            return nil
        default:
            return nil
        }
    }

    private let root: Part
    private let items: String
    let hasID: Bool

    /// Compiles `json` for rows of `items`, whose elements are of type `element` (nil: not known
    /// here, so only syntax is checked), on a screen whose expressions read `screen` (nil likewise).
    /// With `rows`, the number of rows it will make, each binding is also checked as the last row
    /// writes it (`item` as `works[4999]`: longer and one level deeper), so every row's binding fits
    /// the limits or the template is refused.
    init(_ json: JSONValue, items: String, element: ExpressionType?, screen: [String: ExpressionType]?, rows: Int? = nil) throws(Problem) {
        self.items = items
        let textTypes: [String: ExpressionType]? = element.map { ["item": $0, "index": .int] }
        let bindingTypes: [String: ExpressionType]? = screen.flatMap { screen in textTypes.map { screen.merging($0) { _, row in row } } }
        let last = rows.map { max(0, $0 - 1) }
        /// A binding (`property`), a `set`'s value (any type: the row's decode checks it against
        /// its variable), or JSON.
        func compile(_ json: JSONValue, at path: [any CodingKey], binding property: BindableProperty? = nil, setValue: Bool = false) throws(Problem) -> Part {
            switch json {
            case .string(let text) where property != nil || setValue:
                do throws(ExpressionError) {
                    let syntax = try ExpressionParser.parse(text)
                    if let bindingTypes, let property {
                        let checked = try ScreenExpression(text, types: bindingTypes)
                        guard checked.type == property.type else {
                            throw ExpressionError(.type, "typeMismatch", "'\(property.rawValue)' takes a \(property.type); this expression is a \(checked.type)")
                        }
                    }
                    if let last {
                        let written = syntax.source(replacing: ["item": "\(items)[\(last)]", "index": String(last)])
                        do throws(ExpressionError) {
                            _ = try ExpressionParser.parse(written)
                        } catch {
                            throw ExpressionError(error.kind, error.code, "as the last row writes it, with item as \(items)[\(last)]: \(error.message)")
                        }
                    }
                    return .binding(syntax)
                } catch {
                    throw Problem(path: path, message: "\(error)")
                }
            case .string(let text) where text.contains("$") || text.contains("\\"):
                do throws(ExpressionError) {
                    guard let textTypes else {
                        _ = try ExpressionParser.parseTemplate(text)
                        return .constant(json)
                    }
                    return .text(try ScreenExpression(template: text, types: textTypes))
                } catch {
                    let hint = error.code == "unknownVariable" ? " (a template's text reads only item and index; compute a property to read the state)" : ""
                    throw Problem(path: path, message: "\(error)\(hint)")
                }
            case .array(let elements):
                var parts: [Part] = []
                for (index, element) in elements.enumerated() { parts.append(try compile(element, at: path + [AnyCodingKey(intValue: index)])) }
                return parts.allSatisfy(\.isConstant) ? .constant(json) : .array(parts)
            case .object(let members):
                if case .string(Component.Rows.kind.rawValue)? = members["type"] {
                    throw Problem(path: path, message: "rows cannot hold rows: a template makes one row per element")
                }
                if members.count == 1, case .string(let source)? = members[Component.Rows.valueMember] {
                    let here = path + [AnyCodingKey(Component.Rows.valueMember)]
                    do throws(ExpressionError) {
                        let syntax = try ExpressionParser.parse(source)
                        guard let textTypes else { return .constant(json) }
                        let expression = try ScreenExpression(syntax: syntax, source: source, types: textTypes)
                        return .value(expression)
                    } catch {
                        throw Problem(path: here, message: "\(error)")
                    }
                }
                var parts: [String: Part] = [:]
                for (key, value) in members.sorted(by: { $0.key < $1.key }) {
                    let here = path + [AnyCodingKey(key)]
                    if key == "value", case .string(Action.SetVariable.kind)? = members["type"] {
                        parts[key] = try compile(value, at: here, setValue: true)
                    } else if key == "compute", case .object(let bindings) = value {
                        var compiled: [String: Part] = [:]
                        for (name, source) in bindings.sorted(by: { $0.key < $1.key }) {
                            guard let property = BindableProperty(rawValue: name) else {
                                compiled[name] = .constant(source)
                                continue
                            }
                            compiled[name] = try compile(source, at: here + [AnyCodingKey(name)], binding: property)
                        }
                        parts[key] = .object(compiled)
                    } else {
                        parts[key] = try compile(value, at: here)
                    }
                }
                return parts.values.allSatisfy(\.isConstant) ? .constant(json) : .object(parts)
            default:
                return .constant(json)
            }
        }
        root = try compile(json, at: [])
        if case .object(let members) = json { hasID = members["id"] != nil } else { hasID = false }
    }

    /// The JSON of the row for `element` at `index`: every text filled, every binding written for
    /// this row. Throws the first runtime error of a hole (the row is then left out).
    func fill(_ element: ExpressionValue, at index: Int, locale: String) throws(Problem) -> JSONValue {
        let environment = ExpressionEnvironment(values: ["item": element, "index": .int(index)], locale: locale)
        let replacements = ["item": "\(items)[\(index)]", "index": String(index)]
        func fill(_ part: Part, at path: [any CodingKey]) throws(Problem) -> JSONValue {
            switch part {
            case .constant(let json): return json
            case .text(let expression):
                do throws(ExpressionError) {
                    guard case .string(let text) = try expression.evaluate(in: environment) else { return .null }
                    return .string(text)
                } catch {
                    throw Problem(path: path, message: "\(error)")
                }
            case .value(let expression):
                do throws(ExpressionError) {
                    return try expression.evaluate(in: environment).json
                } catch {
                    throw Problem(path: path + [AnyCodingKey(Component.Rows.valueMember)], message: "\(error)")
                }
            case .binding(let syntax): return .string(syntax.source(replacing: replacements))
            case .array(let parts):
                var values: [JSONValue] = []
                for (position, part) in parts.enumerated() { values.append(try fill(part, at: path + [AnyCodingKey(intValue: position)])) }
                return .array(values)
            case .object(let parts):
                var members: [String: JSONValue] = [:]
                for (key, part) in parts { members[key] = try fill(part, at: path + [AnyCodingKey(key)]) }
                return .object(members)
            }
        }
        return try fill(root, at: [])
    }
}
