import ScreenplayComposer

/// Edits as JSON, for the admin API's `POST pages/{route}/draft/edits`: an object with its
/// operation in `op` beside that operation's fields, the way JSON Patch writes operations:
///
///     {"op": "insert", "widget": {…}, "section": "main", "index": 0}
///     {"op": "change", "widget": {…}}
///     {"op": "remove", "id": "deal-buy"}
///     {"op": "move", "id": "deal-buy", "section": "main", "index": 2}
///     {"op": "nudge", "id": "deal-buy", "by": -1}
///     {"op": "addSection", "section": "extras", "title": "More"}
///     {"op": "retitleSection", "section": "extras", "title": null}
///     {"op": "moveSection", "section": "extras", "by": 1}
///     {"op": "removeSection", "section": "extras"}
///
/// An unknown `op` or a missing field is a decoding error naming it and where.
extension DraftEdit: Codable {
    private enum Key: String, CodingKey {
        case op, widget, id, section, index, by, title
    }

    /// The operations' names, as `op` spells them.
    public static let operations = ["insert", "change", "remove", "move", "nudge", "addSection", "retitleSection", "moveSection", "removeSection"]

    /// Reads one edit (see the type's documentation for the shapes).
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Key.self)
        let op = try fields.decode(String.self, forKey: .op)
        switch op {
        case "insert":
            self = .insert(
                try fields.decode(WidgetInstance.self, forKey: .widget), section: try fields.decode(String.self, forKey: .section),
                index: try fields.decodeIfPresent(Int.self, forKey: .index))
        case "change": self = .change(try fields.decode(WidgetInstance.self, forKey: .widget))
        case "remove": self = .remove(widget: try fields.decode(String.self, forKey: .id))
        case "move":
            self = .move(
                widget: try fields.decode(String.self, forKey: .id), section: try fields.decode(String.self, forKey: .section),
                index: try fields.decode(Int.self, forKey: .index))
        case "nudge": self = .nudge(widget: try fields.decode(String.self, forKey: .id), by: try fields.decode(Int.self, forKey: .by))
        case "addSection":
            self = .addSection(id: try fields.decode(String.self, forKey: .section), title: try fields.decodeIfPresent(String.self, forKey: .title))
        case "retitleSection":
            self = .retitleSection(id: try fields.decode(String.self, forKey: .section), title: try fields.decodeIfPresent(String.self, forKey: .title))
        case "moveSection": self = .moveSection(id: try fields.decode(String.self, forKey: .section), by: try fields.decode(Int.self, forKey: .by))
        case "removeSection": self = .removeSection(id: try fields.decode(String.self, forKey: .section))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .op, in: fields, debugDescription: "no edit '\(op.prefix(40))'; one of \(Self.operations.joined(separator: ", "))")
        }
    }

    /// Writes the edit in the shape ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: Key.self)
        switch self {
        case .insert(let widget, let section, let index):
            try fields.encode("insert", forKey: .op)
            try fields.encode(widget, forKey: .widget)
            try fields.encode(section, forKey: .section)
            try fields.encodeIfPresent(index, forKey: .index)
        case .change(let widget):
            try fields.encode("change", forKey: .op)
            try fields.encode(widget, forKey: .widget)
        case .remove(let id):
            try fields.encode("remove", forKey: .op)
            try fields.encode(id, forKey: .id)
        case .move(let id, let section, let index):
            try fields.encode("move", forKey: .op)
            try fields.encode(id, forKey: .id)
            try fields.encode(section, forKey: .section)
            try fields.encode(index, forKey: .index)
        case .nudge(let id, let by):
            try fields.encode("nudge", forKey: .op)
            try fields.encode(id, forKey: .id)
            try fields.encode(by, forKey: .by)
        case .addSection(let id, let title), .retitleSection(let id, let title):
            if case .addSection = self { try fields.encode("addSection", forKey: .op) } else { try fields.encode("retitleSection", forKey: .op) }
            try fields.encode(id, forKey: .section)
            try fields.encode(title, forKey: .title)
        case .moveSection(let id, let by):
            try fields.encode("moveSection", forKey: .op)
            try fields.encode(id, forKey: .section)
            try fields.encode(by, forKey: .by)
        case .removeSection(let id):
            try fields.encode("removeSection", forKey: .op)
            try fields.encode(id, forKey: .section)
        }
    }
}
