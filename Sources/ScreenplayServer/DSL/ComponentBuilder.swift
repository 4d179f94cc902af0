public import ScreenplayContract

/// Builds a list of components from a block that reads like the screen.
///
/// Accepts any component payload (`TrackRow(...)`, `Text("...")`), a ``Component``, or an array
/// of them (so helper functions can return several), with `if`, `if let`, `switch` and `for`.
@resultBuilder
public enum ComponentBuilder {
    /// A single payload such as `Text("Hello")`.
    public static func buildExpression<Payload: ComponentPayload>(_ payload: Payload) -> [Component] { [payload.component] }
    /// A component value.
    public static func buildExpression(_ component: Component) -> [Component] { [component] }
    /// Several components, e.g. from a helper function.
    public static func buildExpression(_ components: [Component]) -> [Component] { components }
    /// Lines of a block, in order.
    public static func buildBlock(_ parts: [Component]...) -> [Component] { parts.flatMap { $0 } }
    /// `if` without `else`.
    public static func buildOptional(_ part: [Component]?) -> [Component] { part ?? [] }
    /// The `if` branch of `if`/`else` or a `switch` case.
    public static func buildEither(first part: [Component]) -> [Component] { part }
    /// The `else` branch or another `switch` case.
    public static func buildEither(second part: [Component]) -> [Component] { part }
    /// `for … in`.
    public static func buildArray(_ parts: [[Component]]) -> [Component] { parts.flatMap { $0 } }
    /// `if #available`.
    public static func buildLimitedAvailability(_ part: [Component]) -> [Component] { part }
}

/// Builds a screen's sections, with the same control flow as ``ComponentBuilder``.
@resultBuilder
public enum SectionBuilder {
    /// One section.
    public static func buildExpression(_ section: ScreenSection) -> [ScreenSection] { [section] }
    /// Several sections from a helper.
    public static func buildExpression(_ sections: [ScreenSection]) -> [ScreenSection] { sections }
    /// Lines of a block, in order.
    public static func buildBlock(_ parts: [ScreenSection]...) -> [ScreenSection] { parts.flatMap { $0 } }
    /// `if` without `else`.
    public static func buildOptional(_ part: [ScreenSection]?) -> [ScreenSection] { part ?? [] }
    /// The first branch.
    public static func buildEither(first part: [ScreenSection]) -> [ScreenSection] { part }
    /// The second branch.
    public static func buildEither(second part: [ScreenSection]) -> [ScreenSection] { part }
    /// `for … in`.
    public static func buildArray(_ parts: [[ScreenSection]]) -> [ScreenSection] { parts.flatMap { $0 } }
}

/// Builds toolbar and menu items, with the same control flow as ``ComponentBuilder``.
@resultBuilder
public enum MenuBuilder {
    /// One item.
    public static func buildExpression(_ item: MenuItem) -> [MenuItem] { [item] }
    /// Lines of a block, in order.
    public static func buildBlock(_ parts: [MenuItem]...) -> [MenuItem] { parts.flatMap { $0 } }
    /// `if` without `else`.
    public static func buildOptional(_ part: [MenuItem]?) -> [MenuItem] { part ?? [] }
    /// The first branch.
    public static func buildEither(first part: [MenuItem]) -> [MenuItem] { part }
    /// The second branch.
    public static func buildEither(second part: [MenuItem]) -> [MenuItem] { part }
    /// `for … in`.
    public static func buildArray(_ parts: [[MenuItem]]) -> [MenuItem] { parts.flatMap { $0 } }
}
