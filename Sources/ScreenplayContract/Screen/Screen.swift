/// One screen of an app, exactly as the server sends it.
///
/// A screen is a title, an optional header, sections of components and optional toolbar and
/// menu actions. The client renders it as a list of sections; everything a screen shows and
/// does is in here, so one request draws the whole screen.
public struct Screen: Sendable, Hashable {
    /// Stable identity of the screen, e.g. `composer/mozart`; used for caching and diffing.
    public var id: String
    /// The navigation title.
    public var title: String
    /// The big header on top; the same value navigate actions carry so it shows at once.
    public var header: ScreenHeader?
    /// The body, in order.
    public var sections: [ScreenSection]
    /// Actions shown as toolbar buttons (share, favorite).
    public var toolbar: [MenuItem]?
    /// Actions shown in the overflow menu (remote commands).
    public var menu: [MenuItem]?
    /// Key/values the client keeps while the screen is shown (v4): text fields write here and
    /// every command sent from the screen carries them.
    public var storage: ClientStorage
    /// Facts several components show, sent once (v4); components bind to them by id.
    public var entities: Entities
    /// Whether and how the client keeps the screen current while it is shown (v5).
    public var live: LiveUpdates?
    /// The variables the screen declares (v6): what its components' `compute` bindings read and
    /// its `set` actions write, on the device, with no round trip.
    public var state: StateVariables

    /// Creates a screen.
    public init(
        id: String, title: String, header: ScreenHeader? = nil, sections: [ScreenSection],
        toolbar: [MenuItem]? = nil, menu: [MenuItem]? = nil, storage: ClientStorage = [:], entities: Entities = [:],
        live: LiveUpdates? = nil, state: StateVariables = [:]
    ) {
        self.id = id
        self.title = title
        self.header = header
        self.sections = sections
        self.toolbar = toolbar
        self.menu = menu
        self.storage = storage
        self.entities = entities
        self.live = live
        self.state = state
    }

    /// The types of every variable the screen's expressions may read: the client's own and the
    /// screen's declared ones.
    public var expressionTypes: [String: ExpressionType] { ClientVariables.types(with: state) }

    /// Every component of the screen, depth first (stack children after their stack).
    public var allComponents: [Component] {
        var result: [Component] = []
        func walk(_ components: [Component]) {
            for component in components {
                result.append(component)
                walk(component.children)
            }
        }
        for section in sections { walk(section.components) }
        return result
    }
}

extension Screen: Codable {
    enum CodingKeys: String, CodingKey { case id, title, header, sections, toolbar, menu, storage, entities, live, state }

    /// Decodes lossily: bad sections, components and menu items are skipped and reported. From
    /// v6 the screen's `state` is read first, and every expression under it is checked against it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        header = try container.decodeIfPresent(ScreenHeader.self, forKey: .header)
        guard container.contains(.sections) else {
            throw DecodingError.keyNotFound(
                CodingKeys.sections, .init(codingPath: container.codingPath, debugDescription: "a screen needs 'sections'"))
        }
        state =
            decoder.screenplayAPIVersion >= ClientState.introduced
            ? try container.decodeLossyIfPresent(StateDeclarations.self, forKey: .state)?.variables ?? [:] : [:]
        let types = ClientVariables.types(with: state)
        func body() throws -> ([ScreenSection], [MenuItem]?, [MenuItem]?) {
            (
                try container.decodeLossyArray(of: ScreenSection.self, forKey: .sections),
                try container.decodeLossyArrayIfPresent(of: MenuItem.self, forKey: .toolbar),
                try container.decodeLossyArrayIfPresent(of: MenuItem.self, forKey: .menu)
            )
        }
        if let log = decoder.issueLog {
            (sections, toolbar, menu) = try log.withExpressionScope(types, body)
        } else {
            (sections, toolbar, menu) = try body()
        }
        if decoder.screenplayAPIVersion >= .v4 {
            storage = try container.decodeLossyIfPresent(checkedBy: ValueRules.StorageValues.self, forKey: .storage) ?? [:]
            entities = try container.decodeLossyIfPresent(checkedBy: ValueRules.EntityValues.self, forKey: .entities) ?? [:]
        } else {
            storage = [:]
            entities = [:]
        }
        live = decoder.screenplayAPIVersion >= LiveUpdates.introduced ? try container.decodeLossyIfPresent(LiveUpdates.self, forKey: .live) : nil
        // Rows (v6) are made once, here: everything that reads a decoded screen sees plain rows.
        if hasRows {
            // Every `set` of the rows' arrays refused (at its path on the wire), then the rows made
            // (which refuse such a `set` in a row too).
            let refused = refusingSets(of: rowsItems)
            (sections, toolbar, menu) = (refused.value.sections, refused.value.toolbar, refused.value.menu)
            let expanded = expandingRows(
                apiVersion: decoder.screenplayAPIVersion, locale: decoder.screenplayLocale, customKinds: decoder.issueLog?.customKinds ?? [])
            sections = expanded.value.sections
            // As on the wire: a strict decode fails at an element left out, and records, as a
            // lossy one does, an unknown kind kept aside or an unknown value replaced.
            for issue in refused.issues + expanded.issues {
                if issue.kind == .invalidElement && decoder.issueLog?.mode != .lossy {
                    throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(issue.path): \(issue.message)"))
                }
                decoder.issueLog?.record(issue)
            }
        }
    }

    /// Writes the members; storage and entities only for v4 and later, `live` for v5 and later,
    /// `state` for v6 and later, each only when set. (The server evaluates bindings for older
    /// clients before it encodes; see `Downgrade`.)
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encodeIfPresent(header, forKey: .header)
        try container.encode(sections, forKey: .sections)
        try container.encodeIfPresent(toolbar, forKey: .toolbar)
        try container.encodeIfPresent(menu, forKey: .menu)
        if encoder.screenplayAPIVersion >= .v4 {
            if !storage.isEmpty { try container.encode(storage, forKey: .storage) }
            if !entities.isEmpty { try container.encode(entities, forKey: .entities) }
        }
        if encoder.screenplayAPIVersion >= LiveUpdates.introduced, let live, live.isLive { try container.encode(live, forKey: .live) }
        if encoder.screenplayAPIVersion >= ClientState.introduced && !state.isEmpty { try container.encode(state, forKey: .state) }
    }
}

/// A group of components with an optional header ("Popular works", "Biography").
public struct ScreenSection: Sendable, Hashable, Identifiable {
    /// Unique within its screen; lets clients animate changes section by section.
    public var id: String
    /// The section's title row.
    public var header: Component.SectionHeader?
    /// The section's content, in order.
    public var components: [Component]

    /// Creates a section.
    public init(id: String, header: Component.SectionHeader? = nil, components: [Component]) {
        self.id = id
        self.header = header
        self.components = components
    }
}

extension ScreenSection: Codable {
    enum CodingKeys: String, CodingKey { case id, header, components }

    /// Decodes lossily: one bad component does not lose the section.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        header = try container.decodeIfPresent(Component.SectionHeader.self, forKey: .header)
        components = try container.decodeLossyArray(of: Component.self, forKey: .components)
    }
}

/// The header of a screen: a title, a subtitle and an image (artist, composer, work).
///
/// Navigate actions carry the destination's header so the client can push the new screen and
/// draw its header before the body has loaded.
public struct ScreenHeader: Codable, Sendable, Hashable {
    /// Large title.
    public var title: String
    /// Line under the title ("1756–1791 · Austrian").
    public var subtitle: String?
    /// Hero image; its `lowResURL` should be one the previous screen showed.
    public var image: RemoteImage?

    /// Creates a header.
    public init(title: String, subtitle: String? = nil, image: RemoteImage? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.image = image
    }
}

/// A titled action in a toolbar or menu.
public struct MenuItem: Codable, Sendable, Hashable {
    /// The label.
    public var title: String
    /// A symbol name the app maps to an icon (`heart`, `share`); optional decoration.
    public var icon: String?
    /// What tapping it does.
    public var action: Action

    /// Creates a menu item.
    public init(title: String, icon: String? = nil, action: Action) {
        self.title = title
        self.icon = icon
        self.action = action
    }
}
