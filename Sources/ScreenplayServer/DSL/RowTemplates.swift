public import ScreenplayContract

/// A value a row's field may hold: the language's scalars and arrays of them.
public protocol RowFieldValue: Sendable {
    /// Its type in the language.
    static var expressionType: ExpressionType { get }
    /// A value of it as a state variable holds it.
    var expressionValue: ExpressionValue { get }
}

extension Bool: RowFieldValue {}
extension Int: RowFieldValue {}
extension Double: RowFieldValue {}
extension String: RowFieldValue {}

extension Array: RowFieldValue where Element: ExpressionValueType {
    /// An array of its element's type.
    public static var expressionType: ExpressionType { .array(Element.expressionType) }
    /// The elements' values.
    public var expressionValue: ExpressionValue { .array(map(\.expressionValue)) }
}

/// A field of the records a ``Component/Rows`` template reads, typed in Swift: what a template's
/// text writes (``text``) and what its bindings read (``value``), so `item.year` compares only
/// with ints.
///
/// ```swift
/// let title = RowField<String>("title"), year = RowField<Int>("year")
/// ListRow(title: title.text, subtitle: year.text)                   // "${item.title}", "${item.year}"
///     .visible(title.value.lowercased.contains(filter.value))       // per row, on the device
/// ```
public struct RowField<Value: RowFieldValue>: Sendable {
    /// The field's name in each record.
    public let name: String

    /// The field `name` (an identifier of the language).
    public init(_ name: String) { self.name = name }

    /// The field in a template's text: `${item.title}`.
    public var text: String { "${item.\(name)}" }

    /// The field as a template's expression reads it: `item.title`.
    public var source: String { "item.\(name)" }
}

extension RowField where Value: ExpressionValueType {
    /// The field in a template's binding.
    public var value: StateExpression<Value> { StateExpression(source: source) }
}

extension RowField where Value == [String] {
    /// Whether the field's strings include `text`: `contains(item.tracks, player.trackID)`.
    public func contains(_ text: StateExpression<String>) -> StateExpression<Bool> {
        StateExpression<Bool>(source: "contains(\(source), \(text.source))")
    }
}

/// The records a ``Component/Rows`` makes its rows from: a screen-scoped state variable holding
/// an array of records, built from Swift values. Every record has every field a record sets (one
/// that was not set holds its type's empty value), so the array has one element type.
public struct RowRecords: Sendable {
    /// One record being filled.
    public struct Record: Sendable {
        fileprivate var fields: [String: ExpressionValue] = [:]
        fileprivate var types: [String: ExpressionType] = [:]

        /// Sets `field` to `value`.
        public mutating func set<Value: RowFieldValue>(_ field: RowField<Value>, _ value: Value) {
            fields[field.name] = value.expressionValue
            types[field.name] = Value.expressionType
        }
    }

    /// The variable's name.
    public let name: String
    private var records: [Record] = []

    /// An empty list of records, declared as the variable `name`.
    public init(_ name: String) { self.name = name }

    /// Adds a record whose fields `fill` sets.
    public mutating func append(_ fill: (inout Record) -> Void) {
        var record = Record()
        fill(&record)
        records.append(record)
    }

    /// How many records there are.
    public var count: Int { records.count }

    /// The type of each record: every field any record sets.
    public var elementType: ExpressionType {
        .record(records.reduce(into: [String: ExpressionType]()) { types, record in types.merge(record.types) { first, _ in first } })
    }

    /// The declaration for the screen's `state`.
    public var declaration: (String, StateVariable) {
        guard case .record(let types) = elementType else { preconditionFailure("a record type") }
        let values: [ExpressionValue] = records.map { record in
            .record(types.reduce(into: [:]) { values, field in values[field.key] = record.fields[field.key] ?? Self.empty(field.value) })
        }
        // Each value is of the declared type by construction.
        return (name, try! StateVariable(.array(elementType), initial: .array(values)))
    }

    /// The value a field holds in a record that did not set it.
    private static func empty(_ type: ExpressionType) -> ExpressionValue {
        switch type {
        case .bool: .bool(false)
        case .int: .int(0)
        case .number: .number(0)
        case .array: .array([])
        case .record(let fields): .record(fields.mapValues(empty))
        default: .string("")
        }
    }
}

extension Component.Rows {
    /// Rows of `records`, each `template` filled from its record: its texts from ``RowField/text``
    /// holes, its bindings reading ``RowField/value``.
    public init(_ records: RowRecords, template: Component) {
        self.init(items: records.name, template: template)
    }

    /// These rows with the template's `member` (a field that is not a string: a count, a flag)
    /// taken from each record's `field`.
    public func filling<Value: RowFieldValue>(_ member: String, with field: RowField<Value>) -> Component.Rows {
        filling(member, with: field.source)
    }
}
