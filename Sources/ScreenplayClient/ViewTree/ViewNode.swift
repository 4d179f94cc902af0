import Foundation
public import ScreenplayContract

/// One node of the resolved view tree: everything a renderer needs to draw one element, with
/// every display decision already made.
///
/// The client core turns a screen (plus the client's state: commands in flight, registered
/// kinds) into these nodes once; HTML, SwiftUI and the terminal map node → view and send
/// ``BoundAction``s back. No renderer reads the raw contract, so one payload cannot look or
/// behave differently per platform: "2 recordings", `7:41`, the favorite toggle's label, a
/// color token the app does not know, a disabled action: all decided here.
public struct ViewNode: Sendable, Hashable, Identifiable {
    /// Stable across reloads of the same screen (see ``NodeID``), so renderers diff by identity.
    public var id: NodeID
    /// What the node is.
    public var role: NodeRole
    /// The main text: a title, a heading, a run of text, a button's label.
    public var text: String?
    /// A second line (subtitle).
    public var secondaryText: String?
    /// Short trailing facts, already formatted: a composer, "2 recordings", "7:41".
    public var details: [String]
    /// Running text, one string per paragraph.
    public var paragraphs: [String]
    /// A symbol name the app maps to an icon (`heart.fill`, `play`), when the node has one.
    public var icon: String?
    /// Layout and look, in semantic terms.
    public var style: NodeStyle
    /// The picture, when the node has one.
    public var image: NodeImage?
    /// What activating the node does, and whether it can right now.
    public var action: BoundAction?
    /// What assistive technologies announce.
    public var accessibility: NodeAccessibility
    /// Child nodes, in reading order.
    public var children: [ViewNode]
    /// For ``NodeRole/custom``: the app-defined kind, drawn by each renderer's registry.
    public var customKind: String?
    /// For ``NodeRole/custom``: the component's JSON, for the app's own view.
    public var customData: JSONValue?
    /// For ``NodeRole/textField``: the input's state and rules.
    public var field: NodeField?
    /// For ``NodeRole/toggle``: its state, and what it becomes when flipped.
    public var toggle: NodeToggle?
    /// Whether what the node shows is an optimistic outcome the server has not confirmed (it is
    /// bound to an entity a pending command set): renderers may dim it or say so to assistive
    /// technologies, and must keep it tappable.
    public var isPending = false
    /// The expressions this node's properties are computed by (v6), for a renderer that runs
    /// them itself (the web's script, ``ResolutionContext/carriesBindingSources``); empty
    /// otherwise: the other properties already hold their values.
    public var computed: [BindableProperty: String] = [:]
    /// Hidden by the state it was resolved with (`visible` computed false), kept only for a
    /// renderer that runs the bindings itself and may show it later; other trees leave it out.
    public var isHidden = false
    /// The key to report once the node has been seen (v6, ``ComponentReports/visible``): a
    /// renderer that can tell what is on screen feeds ``ImpressionTracker`` with it.
    public var reportsVisible: String?
    /// For ``NodeRole/reorderable``: how a new order is sent.
    public var reorder: NodeReorder?
    /// For a row of a reorderable list: the id its list's order names it by.
    public var reorderKey: String?
    /// The node's secondary actions (v6, a component's `menu`), each a button or link node
    /// beside its own action: what a "…" menu, a context menu or swipe actions show.
    public var moreActions: [ViewNode] = []

    /// Creates a node; most members default to empty.
    public init(
        id: NodeID, role: NodeRole, text: String? = nil, secondaryText: String? = nil, details: [String] = [], paragraphs: [String] = [],
        icon: String? = nil, style: NodeStyle = NodeStyle(), image: NodeImage? = nil, action: BoundAction? = nil,
        accessibility: NodeAccessibility = NodeAccessibility(), children: [ViewNode] = [], customKind: String? = nil,
        customData: JSONValue? = nil, field: NodeField? = nil, toggle: NodeToggle? = nil
    ) {
        self.id = id
        self.role = role
        self.text = text
        self.secondaryText = secondaryText
        self.details = details
        self.paragraphs = paragraphs
        self.icon = icon
        self.style = style
        self.image = image
        self.action = action
        self.accessibility = accessibility
        self.children = children
        self.customKind = customKind
        self.customData = customData
        self.field = field
        self.toggle = toggle
    }

    /// This node and all below it, depth first.
    public var allNodes: [ViewNode] { [self] + children.flatMap(\.allNodes) }

    /// The first node, depth first, with this id.
    public func node(withID id: NodeID) -> ViewNode? {
        if self.id == id { return self }
        for child in children { if let found = child.node(withID: id) { return found } }
        return nil
    }
}

/// A node's stable identity: the section's id, then each component's kind and identity key (its
/// destination, its title), so inserting a row above another does not change the other's id.
/// Duplicates within one parent get `~2`, `~3` in document order.
public struct NodeID: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The id as text, such as `section:works/listRow:screens/work/12`.
    public let rawValue: String
    /// Wraps text.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a literal.
    public init(stringLiteral value: String) { self.rawValue = value }
    /// The text.
    public var description: String { rawValue }
    /// Orders by text.
    public static func < (lhs: NodeID, rhs: NodeID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// A child of this node, named by its kind and key.
    public func child(_ kind: String, _ key: String) -> NodeID {
        NodeID(rawValue: (rawValue.isEmpty ? "" : rawValue + "/") + kind + ":" + key)
    }
}

/// What a node is. Renderers switch over this exhaustively: a role without a mapping in a
/// renderer does not compile, and the conformance tests render every role.
public enum NodeRole: String, Sendable, Hashable, CaseIterable {
    /// The whole screen: its children are the header, the menu, the sections.
    case screen
    /// The big header: image, title (a heading), subtitle.
    case header
    /// A group of nodes with an optional heading.
    case section
    /// A title for what follows; ``NodeAccessibility/headingLevel`` says its level.
    case heading
    /// A run of styled text.
    case text
    /// Paragraphs of running text.
    case paragraphs
    /// A picture on its own.
    case image
    /// A row: title, subtitle, image, details, and usually an action.
    case row
    /// A control that performs an action in place (a command, play, share).
    case button
    /// A control that goes somewhere (another screen, a web page).
    case link
    /// An on/off control (a favorite heart); ``NodeAccessibility/traits`` has `.selected` when on.
    case toggle
    /// A text field: ``ViewNode/text`` is its current value, ``ViewNode/secondaryText`` its
    /// placeholder, ``NodeAccessibility/label`` its label; its id names the value it sets.
    case textField
    /// Children laid out along ``NodeStyle/axis``.
    case stack
    /// Tiles in ``NodeStyle/columns`` columns.
    case grid
    /// Tiles scrolling sideways.
    case carousel
    /// One cell of a grid or carousel.
    case tile
    /// Empty space, fixed (``NodeStyle/height``) or flexible.
    case spacer
    /// A filled shape (bars, dividers, swatches).
    case rectangle
    /// The screen's toolbar and overflow actions.
    case menu
    /// Waiting for content.
    case progress
    /// A message to the user: a failure with its retry, or a notice.
    case message
    /// An app-defined kind the renderer's own registry draws.
    case custom
    /// Rows the user reorders (v6): ``ViewNode/reorder`` says how a new order is sent; each child
    /// is one row, in order, its ``ViewNode/reorderKey`` the id the order names.
    case reorderable
}

/// How a reorderable list's new order is sent (v6, ``NodeRole/reorderable``): every renderer moves
/// rows its own way (a drag, `onMove`, a keyboard, a "Move up"), and asks this for the action to
/// perform, so the order on the wire is decided in one place.
public struct NodeReorder: Sendable, Hashable {
    /// What the list is ("Works of Late Night"), for the move controls' names.
    public var label: String
    /// Every row's key, top to bottom, as the list is now: shown or hidden by the state, an
    /// order the server gets names them all.
    public var order: [String]
    /// The keys of the rows shown (the node's children), top to bottom: what a renderer's
    /// indexes count.
    public var visible: [String]
    /// The command a new order is sent with (its payload gains `order`).
    public var move: Action.Command
    /// Whether a move can be sent now (not while a blocking command is in flight).
    public var isEnabled: Bool

    /// The facts of `list` as it is now, `visible` its rows shown (all of them by default).
    public init(_ list: Component.ReorderableList, visible: [String]? = nil, isEnabled: Bool = true) {
        self.label = list.label
        self.order = list.order
        self.visible = visible ?? list.order
        self.move = list.move
        self.isEnabled = isEnabled
    }

    /// The command that puts the rows in `order`.
    public func action(for order: [String]) -> Action {
        .command(
            Action.Command(url: move.url, payload: Component.ReorderableList.payload(of: move, for: order), optimistic: move.optimistic))
    }

    /// The command that moves the shown row at `from` to `to` (indexes among the rows shown,
    /// `to` clamped to them); `nil` when that changes nothing. A hidden row keeps its place
    /// beside its neighbours: the moved row lands just before the shown row it now precedes (or
    /// just after the one it follows, at the end).
    public func action(moving from: Int, to: Int) -> Action? {
        guard visible.indices.contains(from) else { return nil }
        let key = visible[from]
        let shown = Component.ReorderableList.order(visible, moving: from, to: to)
        guard shown != visible, let landed = shown.firstIndex(of: key) else { return nil }
        var full = order.filter { $0 != key }
        if landed + 1 < shown.count, let next = full.firstIndex(of: shown[landed + 1]) {
            full.insert(key, at: next)
        } else if landed > 0, let previous = full.firstIndex(of: shown[landed - 1]) {
            full.insert(key, at: previous + 1)
        } else {
            full.insert(key, at: 0)
        }
        return action(for: full)
    }

    /// What "Move up" or "Move down" on the row at `index` is called, for a control without
    /// room for words: "Move Nocturnes up in Works of Late Night".
    public func moveLabel(_ title: String, up: Bool) -> String {
        "Move \(title) \(up ? "up" : "down") in \(label)"
    }
}

/// Layout and look of a node, in semantic terms renderers map to their own.
public struct NodeStyle: Sendable, Hashable {
    /// Stack direction.
    public enum Axis: String, Sendable, Hashable {
        /// Top to bottom.
        case vertical
        /// Leading to trailing.
        case horizontal
    }

    /// Cross-axis alignment of a stack's children.
    public enum Alignment: String, Sendable, Hashable {
        /// Start of a vertical stack's width.
        case leading
        /// The middle.
        case center
        /// End of a vertical stack's width.
        case trailing
        /// Top of a horizontal stack's height.
        case top
        /// Bottom of a horizontal stack's height.
        case bottom
    }

    /// How prominent a control is.
    public enum Emphasis: String, Sendable, Hashable {
        /// Filled with the accent color.
        case primary
        /// Outlined.
        case secondary
        /// Looks like a link.
        case plain
    }

    /// The shape of a tile's picture.
    public enum TileShape: String, Sendable, Hashable {
        /// Round (people).
        case portrait
        /// Square (covers).
        case square
        /// Wide banner.
        case wide
    }

    /// For stacks.
    public var axis: Axis?
    /// For stacks.
    public var alignment: Alignment?
    /// Space between children, in points.
    public var spacing: Double?
    /// Space inside the edges, in points.
    public var padding: Double?
    /// Fill behind the node.
    public var background: SemanticColor?
    /// Text or shape color.
    public var foreground: SemanticColor?
    /// The font of the node's text.
    public var font: NodeFont?
    /// Fixed width in points.
    public var width: Double?
    /// Fixed height in points (a spacer's length).
    public var height: Double?
    /// Rounded corners, in points.
    public var cornerRadius: Double?
    /// Columns of a grid.
    public var columns: Int?
    /// Prominence of a control.
    public var emphasis: Emphasis?
    /// Shape of tiles in a grid or carousel.
    public var tileShape: TileShape?
    /// Whether the node takes the free space (a spacer with no length).
    public var isFlexible: Bool

    /// A style; everything defaults to "the renderer's default".
    public init(
        axis: Axis? = nil, alignment: Alignment? = nil, spacing: Double? = nil, padding: Double? = nil, background: SemanticColor? = nil,
        foreground: SemanticColor? = nil, font: NodeFont? = nil, width: Double? = nil, height: Double? = nil, cornerRadius: Double? = nil,
        columns: Int? = nil, emphasis: Emphasis? = nil, tileShape: TileShape? = nil, isFlexible: Bool = false
    ) {
        self.axis = axis
        self.alignment = alignment
        self.spacing = spacing
        self.padding = padding
        self.background = background
        self.foreground = foreground
        self.font = font
        self.width = width
        self.height = height
        self.cornerRadius = cornerRadius
        self.columns = columns
        self.emphasis = emphasis
        self.tileShape = tileShape
        self.isFlexible = isFlexible
    }
}

/// A color renderers map to their palette (tokens) or draw as given (literal colors).
public enum SemanticColor: Sendable, Hashable {
    /// The main text color.
    case primaryText
    /// Less prominent text.
    case secondaryText
    /// The brand's accent.
    case accent
    /// The screen's background.
    case background
    /// A raised surface.
    case surface
    /// Good news.
    case positive
    /// Bad news.
    case negative
    /// A token the app registered in ``ResolutionContext/appColorTokens``.
    case appToken(String)
    /// A literal color, 0...255 per channel.
    case rgba(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)
}

/// A font in semantic terms.
public struct NodeFont: Sendable, Hashable {
    /// The role of the text, which renderers map to their type scale.
    public enum TextStyle: String, Sendable, Hashable {
        /// The screen's title.
        case largeTitle
        /// A section's title.
        case title
        /// Emphasized body text (row titles).
        case headline
        /// Running text.
        case body
        /// Secondary lines.
        case subheadline
        /// Small print (durations, counts).
        case caption
    }

    /// Weights every renderer maps.
    public enum Weight: String, Sendable, Hashable {
        /// Body text.
        case regular
        /// Slight emphasis.
        case medium
        /// Headings.
        case semibold
        /// Strong emphasis.
        case bold
    }

    /// The text style.
    public var textStyle: TextStyle
    /// An explicit point size, overriding the style's.
    public var size: Double?
    /// The weight.
    public var weight: Weight

    /// Creates a font.
    public init(_ textStyle: TextStyle, size: Double? = nil, weight: Weight = .regular) {
        self.textStyle = textStyle
        self.size = size
        self.weight = weight
    }
}

/// A picture with its low-resolution stand-in and its description.
public struct NodeImage: Sendable, Hashable {
    /// The full image, as the server sent it (relative to the API base or absolute).
    public var url: String
    /// A small variant to show while `url` loads.
    public var placeholderURL: String?
    /// What it shows; `nil` for decoration (then ``NodeAccessibility/isHidden`` on image nodes).
    public var alt: String?
    /// Layout size in points, when the server set one.
    public var width: Double?
    /// Layout size in points, when the server set one.
    public var height: Double?
    /// What to draw at once: the full image when the app's image cache has it, else the
    /// low-resolution one when the cache has that; `nil` draws the empty placeholder box. Without
    /// a cache to ask (``ResolutionContext/imageCache``), the low-resolution one, loaded first.
    public var showFirst: String?
    /// What to load and swap in when it arrives: the full image, unless it is already shown first.
    public var swapIn: String?

    /// Creates an image; `showFirst` and `swapIn` default to the low-resolution image first, then
    /// the full one.
    public init(
        url: String, placeholderURL: String? = nil, alt: String? = nil, width: Double? = nil, height: Double? = nil,
        showFirst: String?? = nil, swapIn: String?? = nil
    ) {
        self.url = url
        self.placeholderURL = placeholderURL
        self.alt = alt
        self.width = width
        self.height = height
        self.showFirst = showFirst ?? placeholderURL
        self.swapIn = swapIn ?? url
    }
}

/// An action bound to a node, with its state now.
public struct BoundAction: Sendable, Hashable {
    /// What activating the node does.
    public var action: Action
    /// Whether it can be activated now (not for kinds this app cannot perform, nor while a
    /// blocking command is in flight).
    public var isEnabled: Bool
    /// Whether this node's own command is in flight (show a spinner on it).
    public var isBusy: Bool

    /// Creates a bound action.
    public init(_ action: Action, isEnabled: Bool = true, isBusy: Bool = false) {
        self.action = action
        self.isEnabled = isEnabled
        self.isBusy = isBusy
    }
}

/// What assistive technologies announce for a node.
public struct NodeAccessibility: Sendable, Hashable {
    /// A trait of a node.
    public enum Trait: String, Sendable, Hashable, CaseIterable, Comparable {
        /// A heading.
        case header
        /// Performs an action.
        case button
        /// Goes somewhere.
        case link
        /// A picture.
        case image
        /// On, for toggles.
        case selected
        /// Cannot be activated now.
        case disabled
        /// Busy: its command is in flight.
        case updatesFrequently

        /// Orders by name, for stable output.
        public static func < (lhs: Trait, rhs: Trait) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What is read out; `nil` means the node's visible text.
    public var label: String?
    /// What activating it will do, when not obvious from the label.
    public var hint: String?
    /// The node's traits.
    public var traits: Set<Trait>
    /// For headings: 1 is the screen's title.
    public var headingLevel: Int?
    /// Decoration that assistive technologies skip.
    public var isHidden: Bool

    /// Creates the description.
    public init(label: String? = nil, hint: String? = nil, traits: Set<Trait> = [], headingLevel: Int? = nil, isHidden: Bool = false) {
        self.label = label
        self.hint = hint
        self.traits = traits
        self.headingLevel = headingLevel
        self.isHidden = isHidden
    }
}

/// A text input as the core decided it: what it stores, what it holds now, and whether that is
/// acceptable, so every renderer shows the same text, limit and message.
public struct NodeField: Sendable, Hashable {
    /// The storage key the text is kept under (a prompt's field name for prompts).
    public var storageKey: String
    /// The current text.
    public var value: String
    /// Shown while empty.
    public var placeholder: String?
    /// Which keyboard to offer.
    public var keyboard: Keyboard
    /// The longest text, in characters.
    public var maxLength: Int?
    /// The message to show under the field now (the text is typed and breaks the rule).
    public var validationMessage: String?
    /// Whether the current text may be submitted.
    public var isValid: Bool
    /// The pattern, for renderers that can check as the user types (HTML `pattern`).
    public var pattern: String?
    /// The message for text that breaks ``pattern``, for renderers that check as the user types.
    public var patternMessage: String?
    /// The label of the button that submits the field, when it has a submit action.
    public var submitTitle: String?
    /// What the field says while its text is blank, when a text is required (v6); a renderer
    /// that checks as the user types shows it then.
    public var requiredMessage: String?
    /// Where suggestions for the text typed so far are (v6): ask ``suggestionsURL(for:)`` after
    /// ``suggestionPause`` without typing, and offer the answer's rows under the field.
    public var suggestions: String?

    /// How long typing pauses before suggestions are asked for: a request per pause, not per key.
    public static let suggestionPause = Duration.milliseconds(150)

    /// The URL to ask for suggestions for `text`: the field's ``suggestions`` with the trimmed
    /// text as `q` (percent-encoded); `nil` when the field has none or the text is blank.
    public func suggestionsURL(for text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let suggestions, !trimmed.isEmpty else { return nil }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+#")
        let query = trimmed.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        return suggestions + (suggestions.contains("?") ? "&" : "?") + Component.TextField.suggestionsParameter + "=" + query
    }

    /// The keyboards a field may ask for: the contract's, which renderers map to their own.
    public typealias Keyboard = Component.TextField.Keyboard

    /// Creates a field state.
    public init(
        storageKey: String, value: String = "", placeholder: String? = nil, keyboard: Keyboard = .text, maxLength: Int? = nil,
        validationMessage: String? = nil, isValid: Bool = true, pattern: String? = nil, patternMessage: String? = nil,
        submitTitle: String? = nil, requiredMessage: String? = nil, suggestions: String? = nil
    ) {
        self.requiredMessage = requiredMessage
        self.suggestions = suggestions
        self.storageKey = storageKey
        self.value = value
        self.placeholder = placeholder
        self.keyboard = keyboard
        self.maxLength = maxLength
        self.validationMessage = validationMessage
        self.isValid = isValid
        self.pattern = pattern
        self.patternMessage = patternMessage
        self.submitTitle = submitTitle
    }
}

/// A toggle's two faces, decided once here: what it shows and does now (the node itself) and
/// what it shows and does once flipped, so a renderer can flip it the moment it is tapped (the
/// command still runs; its answer, or its failure, settles the state) without deciding a label.
public struct NodeToggle: Sendable, Hashable {
    /// Whether it is on now.
    public var isOn: Bool
    /// The node's text, icon, spoken label and action once flipped.
    public var flipped: Face
    /// The entity member the state is bound to (`playlist/3.favorite`), when it is: every toggle
    /// bound to it on a screen flips together. `nil`: this node alone.
    public var binding: String?

    /// One face of a toggle.
    public struct Face: Sendable, Hashable {
        /// The visible title.
        public var text: String
        /// The symbol name.
        public var icon: String?
        /// The spoken label.
        public var label: String?
        /// What a tap on this face does.
        public var action: Action

        /// Creates a face.
        public init(text: String, icon: String?, label: String?, action: Action) {
            self.text = text
            self.icon = icon
            self.label = label
            self.action = action
        }
    }

    /// Creates a toggle's state.
    public init(isOn: Bool, flipped: Face, binding: String? = nil) {
        self.isOn = isOn
        self.flipped = flipped
        self.binding = binding
    }
}
