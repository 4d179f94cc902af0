/// What a component asks the client to report about it (v6): the server names a key, and the
/// client sends it back in a ``ClientEvent`` when the moment comes. The server decides what it
/// wants to hear about; the client decides nothing but when.
///
/// Today one moment exists, ``visible``: an impression, as DivKit's visibility actions and ad
/// viewability count one. It is how a product team learns that a banner or a row was seen, not
/// just served: experiments count it per exposed user, and a feed learns what was skipped.
///
/// Written as `"report": {"visible": "shop/offer:12"}` among the component's attributes. Older
/// clients never get it (attributes are v4, this member v6); they report nothing and lose nothing.
public struct ComponentReports: Sendable, Hashable {
    /// The version that introduced reports.
    public static let introduced = APIVersion.v6

    /// Reported once per screen view, after the component has been at least
    /// ``ImpressionRule/visibleFraction`` visible for ``ImpressionRule/visibleSeconds``.
    public var visible: String?

    /// Reports for `visible`.
    public init(visible: String? = nil) {
        self.visible = visible
    }

    /// Whether nothing is asked (nothing is written).
    public var isEmpty: Bool { visible == nil }
}

extension ComponentReports: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case visible
    }

    /// Reads `visible`, a report key (``ClientEvent/Limits/keyLength`` identifier characters); a
    /// bad key is reported and left out, and the component still shows.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        visible = try container.decodeLossyIfPresent(checkedBy: ValueRules.ReportKey.self, forKey: .visible)
    }

    /// Writes the keys that are set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(visible, forKey: .visible)
    }
}

/// When a component counts as seen: the rule every renderer applies (the web's
/// IntersectionObserver, SwiftUI's geometry, a terminal's printed rows), kept here so they agree.
public enum ImpressionRule {
    /// At least half the component on screen.
    public static let visibleFraction = 0.5
    /// For at least one second without a break.
    public static let visibleSeconds = 1.0
}

/// When a track counts as played: the rule the player applies before it reports `played`.
public enum PlayRule {
    /// Thirty seconds of the track heard (paused time does not count, seeking forward does not
    /// count), as streaming services count a play.
    public static let playedSeconds = 30.0
}

extension ValueRules {
    /// A report key (v6): what the server asked to hear back, and a played track's id.
    package enum ReportKey: IdentifierRule {
        package static let maximum = ClientEvent.Limits.keyLength
    }
}
