public import ScreenplayContract
public import ScreenplayServer

/// The widget kinds a server knows, by wire `type`: what templates may place and what the
/// composer checks providers' answers against.
public struct WidgetCatalog: Sendable {
    /// The contracts, by wire `type`.
    public let contracts: [String: WidgetContract]
    /// What instances' content is checked against: the app's locales, the screens links may
    /// open, how images are checked to load.
    public var content: ContentRules
    /// Each kind's ``WidgetContract/sharing``, kept apart: what every served page reads per
    /// widget (``sharing(of:)``) without copying the whole contract out.
    private let sharings: [String: ScreenplayRoutes.Sharing]

    /// A catalog of `contracts`, whose content follows `content`'s rules.
    ///
    /// - Throws: ``WidgetContractError`` when two contracts share a `type`: which one a page would
    ///   be checked against would otherwise depend on the order of a list.
    public init(_ contracts: [WidgetContract], content: ContentRules = ContentRules()) throws(WidgetContractError) {
        self.content = content
        var byType: [String: WidgetContract] = [:]
        for contract in contracts {
            guard byType[contract.type] == nil else { throw WidgetContractError("the widget kind '\(contract.type)' is declared twice") }
            byType[contract.type] = contract
        }
        self.contracts = byType
        self.sharings = byType.mapValues(\.sharing)
    }

    /// Whose data a widget of `type` holds, or `nil` when the catalog has no such kind.
    public func sharing(of type: String) -> ScreenplayRoutes.Sharing? { sharings[type] }

    /// The contract of `type`, when the catalog has it.
    public subscript(type: String) -> WidgetContract? { contracts[type] }

    /// Every widget kind as a custom component kind, for the downgrade and for
    /// ``ScreenplayRoutes/componentKind(_:)``.
    public var customKinds: [String: CustomComponentKind] { contracts.mapValues(\.customKind) }

    /// The contracts sorted by `type`, for docs and listings.
    public var sorted: [WidgetContract] { contracts.values.sorted { $0.type < $1.type } }

    /// Every kind as the contract tools list it, sorted by `type`: pass these to
    /// `ContractSchema.document(for:appKinds:)`, `ContractDocs.files(appKinds:)` and
    /// `ContractCheck(releasedIn:appKinds:)` so the app's schema, docs and CI gate cover its widgets.
    public var appDefinedKinds: [AppDefinedKind] { sorted.map(\.appDefinedKind) }
}
