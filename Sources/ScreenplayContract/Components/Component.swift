/// One element of a screen's body: what it is (``content``) and, from v4, the attributes every
/// kind shares (a stable ``id``, ``accessibility`` and entity ``bindings``).
///
/// Domain components (``TrackRow``, ``Carousel``, ``DetailButton``…) carry only the display data
/// they need, most of it optional so the server picks the variation. Layout primitives
/// (``VerticalStack``, ``Text``, ``Rectangle``…) let the server compose a one-off screen with no
/// app release. Both live in one tree. On the wire each is a JSON object whose `type` names the
/// kind and whose other members are the kind's fields, plus the shared attributes.
///
/// The attributes sit beside the kind rather than inside each payload so that every kind, including
/// app-defined ones, gets them the same way, and a client of v3 or older never sees them.
public struct Component: Sendable, Hashable {
    /// The kind and its fields.
    public var content: Content
    /// Attributes every kind shares (v4): id, accessibility, entity bindings.
    public var attributes: ComponentAttributes

    /// A component of `content` with `attributes`.
    public init(_ content: Content, attributes: ComponentAttributes = .init()) {
        self.content = content
        self.attributes = attributes
    }

    /// The kinds of component, each with its payload.
    public enum Content: Sendable, Hashable {
        /// A big header with title, subtitle and image, inside the body.
        case pageHeader(ScreenHeader)
        /// A title row for a group of components.
        case sectionHeader(SectionHeader)
        /// Paragraphs of running text (a biography).
        case paragraphs(Paragraphs)
        /// A row that links somewhere, with title, subtitle and image.
        case detailButton(DetailButton)
        /// A row with title, subtitle and optional accessories (composer, recording count).
        case listRow(ListRow)
        /// A playable track with its duration.
        case trackRow(TrackRow)
        /// A horizontally scrolling row of items.
        case carousel(Carousel)
        /// Children laid out top to bottom.
        case verticalStack(VerticalStack)
        /// Children laid out left to right.
        case horizontalStack(HorizontalStack)
        /// A single run of styled text.
        case text(Text)
        /// An image on its own.
        case image(Image)
        /// A filled rectangle (bars, dividers, swatches).
        case rectangle(Rectangle)
        /// A tappable button with a title.
        case button(Button)
        /// Empty space, fixed or flexible.
        case spacer(Spacer)
        /// A heart that toggles a favorite (v2).
        case favoriteButton(FavoriteButton)
        /// Cards in columns (v2).
        case grid(Grid)
        /// A labelled text input that writes into client storage (v4).
        case textField(TextField)
        /// Rows from an array in the state and one template (v6); expanded when the screen arrives.
        case rows(Rows)
        /// Rows the user reorders, answered by a command with the new order (v6).
        case reorderableList(ReorderableList)
        /// A kind this client does not know: kept with its JSON, never rendered, always logged.
        case unknown(Unknown)
    }
}

extension Component {
    /// A page header component.
    public static func pageHeader(_ value: ScreenHeader) -> Component { Component(.pageHeader(value)) }
    /// A section header component.
    public static func sectionHeader(_ value: SectionHeader) -> Component { Component(.sectionHeader(value)) }
    /// A paragraphs component.
    public static func paragraphs(_ value: Paragraphs) -> Component { Component(.paragraphs(value)) }
    /// A detail button component.
    public static func detailButton(_ value: DetailButton) -> Component { Component(.detailButton(value)) }
    /// A list row component.
    public static func listRow(_ value: ListRow) -> Component { Component(.listRow(value)) }
    /// A track row component.
    public static func trackRow(_ value: TrackRow) -> Component { Component(.trackRow(value)) }
    /// A carousel component.
    public static func carousel(_ value: Carousel) -> Component { Component(.carousel(value)) }
    /// A vertical stack component.
    public static func verticalStack(_ value: VerticalStack) -> Component { Component(.verticalStack(value)) }
    /// A horizontal stack component.
    public static func horizontalStack(_ value: HorizontalStack) -> Component { Component(.horizontalStack(value)) }
    /// A text component.
    public static func text(_ value: Text) -> Component { Component(.text(value)) }
    /// An image component.
    public static func image(_ value: Image) -> Component { Component(.image(value)) }
    /// A rectangle component.
    public static func rectangle(_ value: Rectangle) -> Component { Component(.rectangle(value)) }
    /// A button component.
    public static func button(_ value: Button) -> Component { Component(.button(value)) }
    /// A spacer component.
    public static func spacer(_ value: Spacer) -> Component { Component(.spacer(value)) }
    /// A favorite button component (v2).
    public static func favoriteButton(_ value: FavoriteButton) -> Component { Component(.favoriteButton(value)) }
    /// A grid component (v2).
    public static func grid(_ value: Grid) -> Component { Component(.grid(value)) }
    /// A text field component (v4).
    public static func textField(_ value: TextField) -> Component { Component(.textField(value)) }
    /// A reorderable list component (v6).
    public static func reorderableList(_ value: ReorderableList) -> Component { Component(.reorderableList(value)) }
    /// A rows component (v6).
    public static func rows(_ value: Rows) -> Component { Component(.rows(value)) }
    /// A component of a kind this client does not know.
    public static func unknown(_ value: Unknown) -> Component { Component(.unknown(value)) }

    /// The author's or the DSL's stable id (v4); unique within a screen.
    public var id: String? {
        get { attributes.id }
        set { attributes.id = newValue }
    }

    /// This component with `id`.
    public func id(_ id: String) -> Component {
        var copy = self
        copy.attributes.id = id
        return copy
    }

    /// This component with accessibility text for what the visual alone does not say.
    public func accessibility(label: String? = nil, hint: String? = nil, headingLevel: Int? = nil) -> Component {
        var copy = self
        copy.attributes.accessibility = Accessibility(label: label, hint: hint, headingLevel: headingLevel)
        return copy
    }

    /// This component with its field `field` taken from entity `entity`'s member `member`.
    public func bind(_ field: String, to entity: String, _ member: String) -> Component {
        var copy = self
        copy.attributes.bindings[field] = EntityReference(entity: entity, field: member)
        return copy
    }

    /// This component with `property` computed on the device from the screen's state by
    /// `expression` (v6; the component needs an id). Older clients get it evaluated with the
    /// initial state.
    public func computing(_ property: BindableProperty, _ expression: String) -> Component {
        var copy = self
        copy.attributes.compute[property] = expression
        return copy
    }

    /// This component with `items` as its secondary actions (v6): a row's "…" menu beside its
    /// own action. Older clients get the component alone.
    public func menu(_ items: [MenuItem]) -> Component {
        var copy = self
        copy.attributes.menu = items
        return copy
    }

    /// This component reporting `key` once per screen view when it has been seen (v6, see
    /// ``ComponentReports``): an impression a server counts. Older clients report nothing.
    public func reportingVisible(_ key: String) -> Component {
        var copy = self
        copy.attributes.report.visible = key
        return copy
    }
}

extension ComponentPayload {
    /// The component with `id`.
    public func id(_ id: String) -> Component { component.id(id) }
    /// The component with accessibility text.
    public func accessibility(label: String? = nil, hint: String? = nil, headingLevel: Int? = nil) -> Component {
        component.accessibility(label: label, hint: hint, headingLevel: headingLevel)
    }
    /// The component with `field` bound to an entity's member.
    public func bind(_ field: String, to entity: String, _ member: String) -> Component { component.bind(field, to: entity, member) }
    /// The component with `property` computed from the screen's state (v6).
    public func computing(_ property: BindableProperty, _ expression: String) -> Component { component.computing(property, expression) }
    /// The component reporting `key` when seen (v6).
    public func reportingVisible(_ key: String) -> Component { component.reportingVisible(key) }
    /// The component with secondary actions (v6).
    public func menu(_ items: [MenuItem]) -> Component { component.menu(items) }
}

/// The `type` string of a component kind.
public struct ComponentKind: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The wire name.
    public let rawValue: String
    /// Wraps a wire name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The wire name.
    public var description: String { rawValue }
}

/// The payload of one component kind: its fields, its wire name, its versions and its fallback.
///
/// Adding a kind means one file with a type conforming to this protocol, and one line in
/// ``Component/catalog``.
public protocol ComponentPayload: Codable, Sendable, Hashable {
    /// The `type` this payload is sent under.
    static var kind: ComponentKind { get }
    /// When the kind joined the contract and what older clients get instead.
    static var versioning: KindVersioning { get }
    /// Fields whose wire shape changed after the kind was introduced.
    static var fieldChanges: [FieldChange] { get }
    /// One sentence on what the kind is for, for the generated docs.
    static var summary: String { get }
    /// A typical value, for the generated docs' example JSON.
    static var example: Self { get }
    /// Wraps the payload as a component.
    var component: Component { get }
    /// What a client of `version` (older than ``versioning``'s `introduced`) gets instead:
    /// components built from the same data, or nothing (the kind is dropped).
    func fallback(for version: APIVersion) -> [Component]
}

extension ComponentPayload {
    /// Part of v1 unless the kind says otherwise.
    public static var versioning: KindVersioning { .original }
    /// No field changes unless the kind lists them.
    public static var fieldChanges: [FieldChange] { [] }
    /// Dropped unless the kind builds a fallback.
    public func fallback(for version: APIVersion) -> [Component] { [] }
}

extension Component {
    /// Every built-in kind's payload type, in catalog order: the single list the decoder, the
    /// downgrade, the schema and the docs are generated from.
    public static let catalog: [any ComponentPayload.Type] = [
        ScreenHeader.self, SectionHeader.self, Paragraphs.self, DetailButton.self, ListRow.self, TrackRow.self,
        Carousel.self, VerticalStack.self, HorizontalStack.self, Text.self, Image.self, Rectangle.self,
        Button.self, Spacer.self, FavoriteButton.self, Grid.self, TextField.self, Rows.self, ReorderableList.self,
    ]

    /// Every kind this build knows, in catalog order.
    public static let knownKinds: [ComponentKind] = catalog.map { $0.kind }

    /// The kinds a client of `version` knows.
    public static func kinds(knownAt version: APIVersion) -> [ComponentKind] {
        catalog.filter { $0.versioning.introduced <= version }.map { $0.kind }
    }

    /// This component's kind; for `unknown`, the type it arrived with.
    public var kind: ComponentKind {
        payload.map { type(of: $0).kind }
            ?? {
                if case .unknown(let unknown) = content { return ComponentKind(rawValue: unknown.type) }
                return ComponentKind(rawValue: "unknown")
            }()
    }

    /// The kind-specific payload, or `nil` for an unknown kind.
    public var payload: (any ComponentPayload)? {
        switch content {
        case .pageHeader(let value): value
        case .sectionHeader(let value): value
        case .paragraphs(let value): value
        case .detailButton(let value): value
        case .listRow(let value): value
        case .trackRow(let value): value
        case .carousel(let value): value
        case .verticalStack(let value): value
        case .horizontalStack(let value): value
        case .text(let value): value
        case .image(let value): value
        case .rectangle(let value): value
        case .button(let value): value
        case .spacer(let value): value
        case .favoriteButton(let value): value
        case .grid(let value): value
        case .textField(let value): value
        case .rows(let value): value
        case .reorderableList(let value): value
        case .unknown: nil
        }
    }

    /// Direct children (stack contents, a reorderable list's rows); empty for leaves. Carousel
    /// items are not components.
    public var children: [Component] {
        switch content {
        case .verticalStack(let stack): stack.children
        case .horizontalStack(let stack): stack.children
        case .reorderableList(let list): list.children
        default: []
        }
    }

    /// The component kind read from a JSON object, kept verbatim when unknown.
    public struct Unknown: Sendable, Hashable {
        /// The `type` it arrived with.
        public var type: String
        /// The whole JSON object, `type` included.
        public var json: JSONValue

        /// Creates an unknown component.
        public init(type: String, json: JSONValue) {
            self.type = type
            self.json = json
        }
    }
}

private enum TypeKey: String, CodingKey { case type }

/// Each known kind's payload type and the version that introduced it, by wire name.
private let componentTypes: [String: any ComponentPayload.Type] = Dictionary(
    uniqueKeysWithValues: Component.catalog.map { ($0.kind.rawValue, $0) })

extension Component: Codable {
    /// Reads `type`, then the kind's fields from the same object. Unknown types become
    /// ``unknown(_:)`` and are reported.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TypeKey.self)
        let type = try container.decode(String.self, forKey: .type)
        if let payload = componentTypes[type], payload.versioning.introduced <= decoder.screenplayAPIVersion {
            self = try payload.init(from: decoder).component
        } else {
            decoder.recordUnknownKind("component", type: type)
            self = .unknown(Unknown(type: type, json: try JSONValue(from: decoder)))
        }
        if decoder.screenplayAPIVersion >= ComponentAttributes.introduced {
            attributes = try ComponentAttributes(from: decoder)
        }
        // A verdict is a text field's (v6): elsewhere it is reported and ignored.
        if attributes.compute[.validation] != nil, !isTextField {
            attributes.compute[.validation] = nil
            decoder.issueLog?.record(
                DecodingIssue(
                    kind: .unknownValue, path: JSONPath.render(decoder.codingPath + [AnyCodingKey("compute"), AnyCodingKey("validation")]),
                    message: "'validation' is a text field's; a \(kind) ignores it"))
        }
    }

    /// Whether this is a text field: the one kind a `validation` binding is for.
    private var isTextField: Bool {
        if case .textField = content { return true }
        return false
    }

    /// Writes `type` and the kind's fields into one object.
    public func encode(to encoder: any Encoder) throws {
        guard let payload else {
            guard case .unknown(let unknown) = content else { return }
            // An app-defined or unknown kind carries the shared attributes too (from v4): the
            // attributes win over same-named members its JSON may hold.
            guard encoder.screenplayAPIVersion >= ComponentAttributes.introduced, !attributes.isEmpty,
                case .object(var members) = unknown.json
            else {
                try unknown.json.encode(to: encoder)
                return
            }
            for key in ComponentAttributes.memberNames { members[key] = nil }
            try JSONValue.object(members).encode(to: encoder)
            try attributes.encode(to: encoder)
            return
        }
        var container = encoder.container(keyedBy: TypeKey.self)
        try container.encode(type(of: payload).kind.rawValue, forKey: .type)
        try payload.encode(to: encoder)
        if encoder.screenplayAPIVersion >= ComponentAttributes.introduced && !attributes.isEmpty {
            try attributes.encode(to: encoder)
        }
    }
}

extension ScreenHeader: ComponentPayload {
    /// `pageHeader`: the header type doubles as a body component.
    public static let kind = ComponentKind(rawValue: "pageHeader")
    /// A big header with title, subtitle and image; the same type screens and navigate actions carry.
    public static let summary =
        "A big header with title, subtitle and image; the same type screens and navigate actions carry as their header."
    /// A typical value, shown in the generated contract docs.
    public static var example: Self {
        ScreenHeader(
            title: "Wolfgang Amadeus Mozart", subtitle: "1756–1791 · Austrian · Classical",
            image: RemoteImage(url: "/images/composer/mozart.svg", lowResURL: "/images/composer/mozart-low.svg", alt: "Portrait of Mozart"))
    }
    /// `.pageHeader(self)`.
    public var component: Component { .pageHeader(self) }
}
