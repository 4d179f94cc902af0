/// One page in the admin's list.
/// Encodable: the admin API sends it as it is, member for member.
public struct PageSummary: Sendable, Hashable, Encodable {
    /// The route.
    public var route: String
    /// The live template's title (`nil`: never published).
    public var title: String?
    /// The live revision (`nil`: never published).
    public var liveRevision: Int?
    /// When it went live.
    public var publishedAt: String?
    /// Who last saved the draft, when there is one.
    public var draftUpdatedBy: String?
    /// When.
    public var draftUpdatedAt: String?

    init(
        route: String, title: String?, liveRevision: Int?, publishedAt: String?, draftUpdatedBy: String? = nil,
        draftUpdatedAt: String? = nil
    ) {
        self.route = route
        self.title = title
        self.liveRevision = liveRevision
        self.publishedAt = publishedAt
        self.draftUpdatedBy = draftUpdatedBy
        self.draftUpdatedAt = draftUpdatedAt
    }
}
