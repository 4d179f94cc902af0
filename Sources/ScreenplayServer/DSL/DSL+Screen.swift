public import ScreenplayContract

// The DSL's vocabulary: short names for the contract's component kinds, so server code reads
// like the screen it describes. They are the contract types themselves, not copies.

/// A section of a screen.
public typealias Section = ScreenSection
/// Children top to bottom.
public typealias VStack = Component.VerticalStack
/// Children left to right.
public typealias HStack = Component.HorizontalStack
/// Styled text.
public typealias Text = Component.Text
/// An image component.
public typealias Image = Component.Image
/// A filled rectangle.
public typealias Rectangle = Component.Rectangle
/// Empty space.
public typealias Spacer = Component.Spacer
/// A button.
public typealias Button = Component.Button
/// A playable track row.
public typealias TrackRow = Component.TrackRow
/// Rows the user reorders (v6).
public typealias ReorderableList = Component.ReorderableList
/// A list row.
public typealias ListRow = Component.ListRow
/// A row that links somewhere.
public typealias DetailButton = Component.DetailButton
/// A horizontally scrolling row.
public typealias Carousel = Component.Carousel
/// Running text.
public typealias Paragraphs = Component.Paragraphs
/// Cards in columns (v2).
public typealias Grid = Component.Grid
/// A favorite toggle (v2).
public typealias FavoriteButton = Component.FavoriteButton
/// A section's title row.
public typealias SectionHeader = Component.SectionHeader
/// A text input bound to client storage (v4).
public typealias TextField = Component.TextField

extension Screen {
    /// A screen whose sections are written as a block.
    ///
    /// ```swift
    /// Screen(id: "home", title: "Home") {
    ///     Section("composers", header: "Top composers") { Carousel(...) }
    /// }
    /// ```
    public init(
        id: String, title: String, header: ScreenHeader? = nil, toolbar: [MenuItem]? = nil, menu: [MenuItem]? = nil,
        storage: ClientStorage = [:], entities: Entities = [:], live: LiveUpdates? = nil, state: StateVariables = [:],
        @SectionBuilder sections: () throws -> [ScreenSection]
    ) rethrows {
        self.init(
            id: id, title: title, header: header, sections: try sections(), toolbar: toolbar, menu: menu, storage: storage,
            entities: entities, live: live, state: state)
    }
}

extension ScreenSection {
    /// A section whose components are written as a block; `header` is a plain title.
    public init(_ id: String, header: String? = nil, @ComponentBuilder components: () throws -> [Component]) rethrows {
        self.init(id: id, header: header.map { Component.SectionHeader(title: $0) }, components: try components())
    }

    /// A section with a full header (subtitle, "See all" action).
    public init(_ id: String, header: Component.SectionHeader, @ComponentBuilder components: () throws -> [Component]) rethrows {
        self.init(id: id, header: header, components: try components())
    }
}

extension Component.VerticalStack {
    /// A vertical stack whose children are written as a block.
    public init(
        alignment: Component.HorizontalAlignment? = nil, spacing: Double? = nil, background: ColorValue? = nil,
        padding: Double? = nil, @ComponentBuilder _ children: () throws -> [Component]
    ) rethrows {
        self.init(alignment: alignment, spacing: spacing, background: background, padding: padding, children: try children())
    }
}

extension Component.HorizontalStack {
    /// A horizontal stack whose children are written as a block.
    public init(
        alignment: Component.VerticalAlignment? = nil, spacing: Double? = nil, background: ColorValue? = nil,
        padding: Double? = nil, @ComponentBuilder _ children: () throws -> [Component]
    ) rethrows {
        self.init(alignment: alignment, spacing: spacing, background: background, padding: padding, children: try children())
    }
}

extension Component.ReorderableList {
    /// A reorderable list whose rows (each with an id) are written as a block.
    public init(label: String, move: Action.Command, @ComponentBuilder _ children: () throws -> [Component]) rethrows {
        self.init(label: label, move: move, children: try children())
    }
}

extension Component.Image {
    /// An image from a URL with a size, the way layouts usually state it.
    public init(_ url: String, width: Double, height: Double, alt: String? = nil, action: Action? = nil) {
        self.init(RemoteImage(url: url, size: .init(width: width, height: height), alt: alt), action: action)
    }
}

extension Action {
    /// Navigate to a screen path relative to the API base (`screens/composer/mozart`), carrying
    /// the destination's header so the client can show it at once.
    public static func navigate(to url: String, header: ScreenHeader? = nil, presentation: Navigate.Presentation? = nil) -> Action {
        .navigate(Navigate(url: url, header: header, presentation: presentation))
    }

    /// POST `payload` to a command path relative to the API base (`commands/favorites/add`).
    public static func command(_ url: String, payload: JSONValue? = nil) -> Action {
        .command(Command(url: url, payload: payload))
    }
}
