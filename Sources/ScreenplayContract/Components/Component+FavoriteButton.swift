extension Component {
    /// A heart that toggles whether something is a favorite (v2).
    ///
    /// It carries both commands so the client can flip it at once (optimistically) and post the
    /// matching one; v1 clients get a plain button carrying the command for the current state.
    public struct FavoriteButton: ComponentPayload {
        /// `favoriteButton`.
        public static let kind = ComponentKind(rawValue: "favoriteButton")
        /// New in v2; v1 gets a button.
        public static let versioning = KindVersioning(
            introduced: .v2,
            fallback: "a `button` titled \"Add to favorites\" or \"Remove from favorites\" carrying the command for the current state")
        /// Whether it is a favorite now.
        public var isFavorite: Bool
        /// What it favorites, for screen readers ("Baroque Essentials").
        public var label: String
        /// Posted when the user turns it on.
        public var add: Action.Command
        /// Posted when the user turns it off.
        public var remove: Action.Command

        /// Creates a favorite toggle.
        public init(isFavorite: Bool, label: String, add: Action.Command, remove: Action.Command) {
            self.isFavorite = isFavorite
            self.label = label
            self.add = add
            self.remove = remove
        }

        /// `.favoriteButton(self)`.
        public var component: Component { .favoriteButton(self) }

        /// A toggle for whether something is a favorite, carrying both commands so the client can flip it at once.
        public static let summary =
            "A toggle for whether something is a favorite, carrying both commands so the client can flip it at once."

        /// A typical value, shown in the generated contract docs.
        public static var example: Self {
            FavoriteButton(
                isFavorite: false, label: "Baroque Essentials", add: .init(url: "commands/favorites/add", payload: ["playlistId": 1]),
                remove: .init(url: "commands/favorites/remove", payload: ["playlistId": 1]))
        }

        /// The command a tap posts now.
        public var command: Action.Command { isFavorite ? remove : add }

        /// A plain button with the same command.
        public func fallback(for version: APIVersion) -> [Component] {
            [
                .button(
                    Button(title: isFavorite ? "Remove from favorites" : "Add to favorites", style: .secondary, action: .command(command)))
            ]
        }
    }
}
