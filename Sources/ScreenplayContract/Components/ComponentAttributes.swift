/// The attributes every component kind shares from v4: a stable id, accessibility text and
/// bindings to the screen's entities.
///
/// They are read from the component's own JSON object, beside `type` and the kind's fields, and
/// only by clients of v4 or later; older clients never see them (the server resolves bindings into
/// the fields before it downgrades).
public struct ComponentAttributes: Sendable, Hashable {
    /// The version the attributes joined the contract.
    public static let introduced = APIVersion.v4

    /// Unique within a screen; renderers key views by it so a reordered screen animates instead of
    /// redrawing. The DSL derives one when the author gives none.
    public var id: String?
    /// What a screen reader says where the visual alone says too little.
    public var accessibility: Accessibility?
    /// Fields of the component taken from an entity of the screen, by field name.
    public var bindings: [String: EntityReference]
    /// Properties computed on the device from the screen's state (v6), each an expression's
    /// source. Clients of v5 and older get them evaluated with the initial state instead.
    public var compute: ComputedProperties
    /// What the client reports about the component (v6): see ``ComponentReports``. Clients of
    /// v5 and older never get it.
    public var report: ComponentReports
    /// A row's secondary actions (v6), beside its primary one (its own `action`: tap plays or
    /// opens): a "…" menu on the web and the terminal, a context menu and swipe actions in
    /// SwiftUI. At most ``maximumMenuItems``. Clients of v5 and older get the row alone.
    public var menu: [MenuItem]

    /// The most secondary actions one component carries: a menu a person reads at a glance.
    public static let maximumMenuItems = 8

    /// Creates attributes.
    public init(
        id: String? = nil, accessibility: Accessibility? = nil, bindings: [String: EntityReference] = [:], compute: ComputedProperties = [:],
        report: ComponentReports = .init(), menu: [MenuItem] = []
    ) {
        self.id = id
        self.accessibility = accessibility
        self.bindings = bindings
        self.compute = compute
        self.report = report
        self.menu = menu
    }

    /// Whether nothing is set (nothing is written).
    public var isEmpty: Bool { id == nil && accessibility == nil && bindings.isEmpty && compute.isEmpty && report.isEmpty && menu.isEmpty }
}

extension ComponentAttributes: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, accessibility
        case bindings = "bind"
        case compute
        case report
        case menu
    }

    /// The JSON members the attributes occupy in a component's object.
    static var memberNames: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// Reads `id`, `accessibility`, `bind` and (from v6) `compute`, `report` and `menu`, each optional and checked (a
    /// bad menu item is left out and reported, items past ``maximumMenuItems`` too). A
    /// bad one is reported and left out; the component still shows, with its own values and a
    /// positional key (a bad binding: with that property's static value).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeLossyIfPresent(checkedBy: ValueRules.ComponentID.self, forKey: .id)
        accessibility = try container.decodeLossyIfPresent(Accessibility.self, forKey: .accessibility)
        bindings = try container.decodeLossyIfPresent(checkedBy: ValueRules.Bindings.self, forKey: .bindings) ?? [:]
        compute =
            decoder.screenplayAPIVersion >= ClientState.introduced
            ? try container.decodeLossyIfPresent(ComputeDeclarations.self, forKey: .compute)?.properties ?? [:] : [:]
        if !compute.isEmpty && id == nil {
            // The client keeps a binding's value by component id: without one it has nowhere to go.
            try decoder.reportInvalid(
                "'compute' needs the component's 'id'; its properties keep their static values", at: container.codingPath + [CodingKeys.compute])
            compute = [:]
        }
        report =
            decoder.screenplayAPIVersion >= ComponentReports.introduced
            ? try container.decodeLossyIfPresent(ComponentReports.self, forKey: .report) ?? .init() : .init()
        menu = []
        if decoder.screenplayAPIVersion >= ComponentReports.introduced,
            let items = try container.decodeLossyIfPresent([LossyElement<MenuItem>].self, forKey: .menu)?.compactMap(\.value)
        {
            if items.count > Self.maximumMenuItems {
                try decoder.reportInvalid(
                    "a menu holds at most \(Self.maximumMenuItems) items; the rest are left out", at: container.codingPath + [CodingKeys.menu])
            }
            menu = Array(items.prefix(Self.maximumMenuItems))
        }
    }

    /// Writes the members that are set (`compute`, `report` and `menu` only for v6 and later).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encodeIfPresent(accessibility, forKey: .accessibility)
        if !bindings.isEmpty { try container.encode(bindings, forKey: .bindings) }
        if encoder.screenplayAPIVersion >= ClientState.introduced && !compute.isEmpty {
            try container.encode(Dictionary(uniqueKeysWithValues: compute.map { ($0.key.rawValue, $0.value) }), forKey: .compute)
        }
        if encoder.screenplayAPIVersion >= ComponentReports.introduced && !report.isEmpty { try container.encode(report, forKey: .report) }
        if encoder.screenplayAPIVersion >= ComponentReports.introduced && !menu.isEmpty { try container.encode(menu, forKey: .menu) }
    }
}

/// Accessibility text for a component (v4): what an image-only or icon-only component means, what
/// tapping it does, and which texts are headings.
public struct Accessibility: Sendable, Hashable {
    /// Replaces what a screen reader would read ("Add Baroque Essentials to favorites").
    public var label: String?
    /// What happens on activation ("Opens the playlist").
    public var hint: String?
    /// 1 (most important) to 6: the component is a heading at that level.
    public var headingLevel: Int?

    /// Creates accessibility text.
    public init(label: String? = nil, hint: String? = nil, headingLevel: Int? = nil) {
        self.label = label
        self.hint = hint
        self.headingLevel = headingLevel
    }
}

extension Accessibility: Codable {
    enum CodingKeys: String, CodingKey { case label, hint, headingLevel }

    /// Reads the three optional members, each checked.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        label = try container.decodeIfPresent(checkedBy: ValueRules.AccessibilityText.self, forKey: .label)
        hint = try container.decodeIfPresent(checkedBy: ValueRules.AccessibilityText.self, forKey: .hint)
        headingLevel = try container.decodeIfPresent(checkedBy: ValueRules.HeadingLevel.self, forKey: .headingLevel)
    }
}

/// A member of an entity that a component field shows: `{"entity": "playlist/3", "field": "favorite"}`.
public struct EntityReference: Codable, Sendable, Hashable {
    /// The entity's id in the screen's `entities`.
    public var entity: String
    /// The member of that entity.
    public var field: String

    /// Creates a reference.
    public init(entity: String, field: String) {
        self.entity = entity
        self.field = field
    }

    /// `playlist/3.favorite`.
    public var description: String { "\(entity).\(field)" }
}

/// Values a screen carries once and components bind to (v4): `{"playlist/3": {"favorite": true}}`.
///
/// A command result may patch them; the client re-resolves every bound component, so a toggle on
/// one screen and a row on another change together with no reload.
public typealias Entities = [String: [String: JSONValue]]

/// Key/values the client keeps for a screen (v4): text fields write into them, every command sent
/// from the screen carries them, command results may set them.
public typealias ClientStorage = [String: String]
