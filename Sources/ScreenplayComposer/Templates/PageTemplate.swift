public import ScreenplayContract

/// One widget placed on a page: which kind, whose data, with which parameters, shown to whom.
///
/// Instances are what the layout admin arranges; they are stored as JSON inside a
/// ``PageTemplate``. The ``id`` is stable across revisions (moving a widget keeps it), is the
/// component id the client keys the widget's view by, and names the widget in every log line and
/// in the per-widget report.
public struct WidgetInstance: Codable, Sendable, Hashable, Identifiable {
    /// Stable and unique within its template; an identifier (1...128 of A-Z a-z 0-9 . _ : / ~ -)
    /// because it becomes the component's `id`.
    public var id: String
    /// The widget kind's wire `type` (a contract in the ``WidgetCatalog``).
    public var kind: String
    /// The team whose provider supplies the data (`shop`, `reviews`).
    public var vertical: String
    /// What the admin configured for this instance (a JSON object), checked against the kind's
    /// parameter contract and passed to the provider.
    public var parameters: JSONValue
    /// What the product team wrote for it (a JSON object by content field: texts by locale, an
    /// image, a link, a colour), checked against the kind's ``WidgetContract/content`` and written
    /// into the component by the composer; never sent to the provider.
    public var content: JSONValue
    /// Who sees it, and when.
    public var conditions: WidgetConditions
    /// The on/off switch: off takes the widget off the next composed page, whatever the
    /// conditions say.
    public var isEnabled: Bool
    /// How long this widget's provider may take when widgets are fetched one by one
    /// (``Composer/FanOut/perWidget``); `nil` uses the vertical's or the default timeout.
    public var timeoutMilliseconds: Int?

    /// Places a widget.
    public init(
        id: String, kind: String, vertical: String, parameters: JSONValue = [:], content: JSONValue = [:],
        conditions: WidgetConditions = .always, isEnabled: Bool = true, timeoutMilliseconds: Int? = nil
    ) {
        self.id = id
        self.content = content
        self.kind = kind
        self.vertical = vertical
        self.parameters = parameters
        self.conditions = conditions
        self.isEnabled = isEnabled
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, vertical, parameters, content, conditions, timeoutMilliseconds
        case isEnabled = "enabled"
    }

    /// Reads an instance; parameters, content, conditions, the switch and the timeout may be left out.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        kind = try container.decode(String.self, forKey: .kind)
        vertical = try container.decode(String.self, forKey: .vertical)
        parameters = try container.decodeIfPresent(JSONValue.self, forKey: .parameters) ?? [:]
        content = try container.decodeIfPresent(JSONValue.self, forKey: .content) ?? [:]
        conditions = try container.decodeIfPresent(WidgetConditions.self, forKey: .conditions) ?? .always
        isEnabled = try container.decodeIfPresent(Bool.self, forKey: .isEnabled) ?? true
        timeoutMilliseconds = try container.decodeIfPresent(Int.self, forKey: .timeoutMilliseconds)
    }

    /// Writes every member but defaults (no content, no conditions, enabled, no timeout), so stored templates
    /// stay short.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(vertical, forKey: .vertical)
        if parameters != [:] { try container.encode(parameters, forKey: .parameters) }
        if content != [:] { try container.encode(content, forKey: .content) }
        if conditions != .always { try container.encode(conditions, forKey: .conditions) }
        if !isEnabled { try container.encode(false, forKey: .isEnabled) }
        try container.encodeIfPresent(timeoutMilliseconds, forKey: .timeoutMilliseconds)
    }
}

/// The layout of one page: its route, title and ordered sections of widget instances, at one
/// revision.
///
/// The store keeps drafts and published revisions as JSON documents of this type; the composer
/// turns the published one into a screen per request. A template holds no data: every component
/// comes from a provider, so a deploy of the page's teams never needs a new template, and a new
/// template never needs a deploy.
public struct PageTemplate: Codable, Sendable, Hashable {
    /// A titled group of widgets; becomes a screen section.
    public struct Section: Codable, Sendable, Hashable, Identifiable {
        /// Unique within the template; the screen section's id.
        public var id: String
        /// The section header's title; `nil` for none.
        public var title: String?
        /// The widgets, top to bottom.
        public var widgets: [WidgetInstance]

        /// Creates a section.
        public init(id: String, title: String? = nil, widgets: [WidgetInstance]) {
            self.id = id
            self.title = title
            self.widgets = widgets
        }
    }

    /// The page's route (`shop`): the composed screen's id.
    public var route: String
    /// The navigation title.
    public var title: String
    /// Increases with every published change; part of the composed page's cache key.
    public var revision: Int
    /// The body, in order.
    public var sections: [Section]

    /// Creates a template.
    public init(route: String, title: String, revision: Int, sections: [Section]) {
        self.route = route
        self.title = title
        self.revision = revision
        self.sections = sections
    }

    /// How deep an instance's parameters may nest: settings for a widget are flat in practice, and
    /// a bound keeps every copy of a template (stored, in the admin's answers, in previews)
    /// encodable by any JSON writer.
    public static let maximumParameterDepth = 16

    /// What is wrong with `route` as a page's route, or `nil`: 1...128 bytes of path segments
    /// joined by `/`, each 1...64 of lowercase `a-z`, digits, `-` and `_`. Routes become URLs
    /// (`screens/{route}`) and admin links, so no dots (no `..`), no empty segments, no spaces,
    /// no capitals or look-alike letters that would make two pages read the same.
    public static func routeProblem(_ route: String) -> TemplateProblem? {
        guard !route.isEmpty else { return TemplateProblem(path: "$.route", message: "a page needs a route") }
        let segments = route.split(separator: "/", omittingEmptySubsequences: false)
        let valid =
            route.utf8.count <= 128
            && segments.allSatisfy { segment in
                (1...64).contains(segment.utf8.count)
                    && segment.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x5F }
            }
        guard !valid else { return nil }
        return TemplateProblem(
            path: "$.route",
            message:
                "'\(route.prefix(64))' is not a route: segments of lowercase a-z, 0-9, - and _ (1...64 each) joined by /, at most 128 in all"
        )
    }

    private enum TemplateKeys: String, CodingKey { case route, title, revision, sections }

    /// Reads a template. `revision` may be left out (a draft sent to the admin API has none yet:
    /// publishing numbers it), and reads as 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TemplateKeys.self)
        route = try container.decode(String.self, forKey: .route)
        title = try container.decode(String.self, forKey: .title)
        revision = try container.decodeIfPresent(Int.self, forKey: .revision) ?? 0
        sections = try container.decode([Section].self, forKey: .sections)
    }

    /// Writes every member.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: TemplateKeys.self)
        try container.encode(route, forKey: .route)
        try container.encode(title, forKey: .title)
        try container.encode(revision, forKey: .revision)
        try container.encode(sections, forKey: .sections)
    }

    /// Every instance in page order.
    public var instances: [WidgetInstance] { sections.flatMap(\.widgets) }

    /// Everything that would make the template compose wrongly, each with its JSON path: a
    /// section or instance id that is missing, malformed or repeated; a kind the catalog lacks; a
    /// vertical no provider serves; parameters that break the kind's parameter contract (unknown
    /// parameters are warnings, as is a vertical other than the one the kind's example names);
    /// conditions nobody can meet; a negative timeout. Saving a draft
    /// with errors should be refused; warnings are shown.
    ///
    /// - Parameters:
    ///   - catalog: The widget kinds the server knows.
    ///   - verticals: The verticals that have a provider.
    ///   - experiments: The experiments conditions may name; `nil` skips that check.
    public func validate(catalog: WidgetCatalog, verticals: Set<String>, experiments: ExperimentCatalog? = nil) -> [TemplateProblem] {
        var problems: [TemplateProblem] = []
        if let problem = Self.routeProblem(route) { problems.append(problem) }
        if title.isEmpty { problems.append(.init(path: "$.title", message: "a page needs a title")) }
        var sectionIDs: [String: String] = [:]
        var instanceIDs: [String: String] = [:]
        for (sectionIndex, section) in sections.enumerated() {
            let sectionPath = "$.sections[\(sectionIndex)]"
            if section.id.isEmpty {
                problems.append(.init(path: sectionPath + ".id", message: "a section needs an id"))
            } else if !ValueRules.isIdentifier(section.id, maximum: ValueRules.ComponentID.maximum) {
                problems.append(
                    .init(path: sectionPath + ".id", message: "'\(section.id.prefix(40))' is not an id: 1...128 of A-Z a-z 0-9 . _ : / ~ -")
                )
            } else if section.id.allSatisfy({ $0 == "." }) {
                problems.append(.init(path: sectionPath + ".id", message: Self.dotsMessage(section.id)))
            } else if let first = sectionIDs[section.id] {
                problems.append(.init(path: sectionPath + ".id", message: "duplicate section id '\(section.id)' (first at \(first))"))
            } else {
                sectionIDs[section.id] = sectionPath + ".id"
            }
            if let title = section.title, title.count > Self.maximumTitle {
                problems.append(.init(path: sectionPath + ".title", message: "\(title.count) characters; a section title holds at most \(Self.maximumTitle)"))
            }
            for (index, instance) in section.widgets.enumerated() {
                let path = "\(sectionPath).widgets[\(index)]"
                if !ValueRules.isIdentifier(instance.id, maximum: ValueRules.ComponentID.maximum) {
                    problems.append(
                        .init(path: path + ".id", message: "'\(instance.id.prefix(40))' is not an id: 1...128 of A-Z a-z 0-9 . _ : / ~ -"))
                } else if instance.id.allSatisfy({ $0 == "." }) {
                    problems.append(.init(path: path + ".id", message: Self.dotsMessage(instance.id)))
                } else if let first = instanceIDs[instance.id] {
                    problems.append(.init(path: path + ".id", message: "duplicate instance id '\(instance.id)' (first at \(first))"))
                } else {
                    instanceIDs[instance.id] = path + ".id"
                }
                if instance.parameters.nestingDepth > Self.maximumParameterDepth {
                    problems.append(
                        .init(
                            path: path + ".parameters",
                            message:
                                "nested \(instance.parameters.nestingDepth) levels deep; parameters nest at most \(Self.maximumParameterDepth)"
                        ))
                } else if let contract = catalog[instance.kind] {
                    for problem in contract.validateParameters(instance.parameters) {
                        problems.append(
                            .init(
                                path: path + ".parameters" + problem.path.dropFirst(), message: problem.message,
                                isWarning: problem.isWarning))
                    }
                    if instance.content.nestingDepth > Self.maximumParameterDepth {
                        problems.append(
                            .init(path: path + ".content", message: "nested \(instance.content.nestingDepth) levels deep; content nests at most \(Self.maximumParameterDepth)"))
                    } else if instance.content != [:] || !contract.content.isEmpty {
                        for problem in contract.validateContent(instance.content, rules: catalog.content) {
                            problems.append(
                                .init(path: path + ".content" + problem.path.dropFirst(), message: problem.message, isWarning: problem.isWarning))
                        }
                    }
                } else {
                    let known = catalog.contracts.keys.sorted().joined(separator: ", ")
                    problems.append(.init(path: path + ".kind", message: "no widget kind '\(instance.kind.prefix(64))' (known: \(known))"))
                }
                if !verticals.contains(instance.vertical) {
                    let known = verticals.sorted().joined(separator: ", ")
                    problems.append(
                        .init(
                            path: path + ".vertical",
                            message: "no provider for vertical '\(instance.vertical.prefix(64))' (known: \(known))"))
                } else if let example = catalog[instance.kind]?.example, example.vertical != instance.vertical {
                    // A warning, not an error: a vertical may answer more kinds than their examples
                    // say, but the usual cause is a slip, and the widget would then never show.
                    problems.append(
                        .init(
                            path: path + ".vertical",
                            message:
                                "'\(instance.kind)' is answered by vertical '\(example.vertical)'; '\(instance.vertical.prefix(64))' may leave it out",
                            isWarning: true))
                }
                if let timeout = instance.timeoutMilliseconds, timeout <= 0 {
                    problems.append(.init(path: path + ".timeoutMilliseconds", message: "\(timeout) ms; a timeout must be positive"))
                }
                problems += instance.conditions.problems(at: path + ".conditions", experiments: experiments)
            }
        }
        return problems
    }
}

/// One thing wrong with a stored template or experiment, and where (a JSON path into it).
public struct TemplateProblem: Sendable, Hashable, CustomStringConvertible {
    /// The JSON path (`$.sections[0].widgets[2].kind`).
    public let path: String
    /// What is wrong, naming the value.
    public let message: String
    /// Whether the template may still be published with it.
    public let isWarning: Bool

    /// Creates a problem.
    public init(path: String, message: String, isWarning: Bool = false) {
        self.path = path
        self.message = message
        self.isWarning = isWarning
    }

    /// `$.sections[0].widgets[2].kind: no widget kind 'banner'`.
    public var description: String { "\(path): \(message)\(isWarning ? " (warning)" : "")" }
}

extension PageTemplate {
    /// The longest section title: a heading, not a paragraph (a longer one breaks every layout).
    public static let maximumTitle = 200

    /// Why an id of dots only is refused: in a URL (the admin's, a client's) `.` and `..` are
    /// path steps, so the thing could be made but never reached again.
    static func dotsMessage(_ id: String) -> String {
        "'\(id.prefix(40))' is not an id: dots alone read as a step in a path; add a letter or digit"
    }
}
