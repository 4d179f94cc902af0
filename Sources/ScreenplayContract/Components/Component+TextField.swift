extension Component {
    /// A labelled single-line text input that writes into the screen's client storage as the user
    /// types (v4).
    ///
    /// The client validates the text itself (length and pattern, with the server's message), so a
    /// user sees what is wrong before anything is sent; every command sent from the screen carries
    /// the storage, so the server reads the text under ``storageKey``.
    public struct TextField: ComponentPayload {
        /// `textField`.
        public static let kind = ComponentKind(rawValue: "textField")
        /// New in v4; older clients get a button that sends the submit command without the text.
        public static let versioning = KindVersioning(
            introduced: .v4,
            fallback:
                "a `button` titled with the label carrying the `submit` command (which then asks for the text with a prompt); dropped without one"
        )
        /// What the field is for ("Search"), shown above it and read by screen readers.
        public var label: String
        /// Shown while the field is empty ("Composer or work").
        public var hint: String?
        /// The storage key the text is kept under and sent as.
        public var storageKey: String
        /// Which keyboard to offer.
        public var keyboard: Keyboard?
        /// The longest text, in characters; typing stops there.
        public var maxLength: Int?
        /// A rule the text must match, with the message shown when it does not.
        public var validation: Validation?
        /// Present: the text may not be blank, and this is what the field says while it is
        /// ("Type a name"), with its submit disabled (v6; older clients leave it to the server).
        public var requiredMessage: String?
        /// What the keyboard's return key does (usually a command); `nil` does nothing.
        public var submit: Action?
        /// Where suggestions for the text typed so far are (v6): a screen URL the client asks,
        /// after a pause in typing, with the trimmed text as its `q` query parameter
        /// (`screens/search/suggestions?q=rach`), and whose rows it offers under the field, each
        /// doing what its row's action does. Older clients, and clients that cannot, show none:
        /// the field still submits as before.
        public var suggestions: String?

        /// Creates a text field.
        public init(
            label: String, hint: String? = nil, storageKey: String, keyboard: Keyboard? = nil, maxLength: Int? = nil,
            validation: Validation? = nil, requiredMessage: String? = nil, submit: Action? = nil, suggestions: String? = nil
        ) {
            self.label = label
            self.hint = hint
            self.storageKey = storageKey
            self.keyboard = keyboard
            self.maxLength = maxLength
            self.validation = validation
            self.requiredMessage = requiredMessage
            self.submit = submit
            self.suggestions = suggestions
        }

        /// The query parameter a ``suggestions`` URL is asked with.
        public static let suggestionsParameter = "q"

        /// `requiredMessage` joined in v6.
        public static let fieldChanges = [
            FieldChange(
                field: "requiredMessage", version: .v6,
                summary: "added in v6: the text may not be blank, and the message says so; older clients send a blank text and get the server's refusal."),
            FieldChange(
                field: "suggestions", version: .v6,
                summary: "added in v6: where suggestions for the text typed so far are (a screen asked with `?q=`); older clients show none."),
        ]

        enum CodingKeys: String, CodingKey { case label, hint, storageKey, keyboard, maxLength, validation, requiredMessage, submit, suggestions }

        /// Reads the fields, checking the label, the key and the length.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            label = try container.decode(checkedBy: ValueRules.Label.self, forKey: .label)
            hint = try container.decodeIfPresent(String.self, forKey: .hint)
            storageKey = try container.decode(checkedBy: ValueRules.Key.self, forKey: .storageKey)
            keyboard = try container.decodeIfPresent(Keyboard.self, forKey: .keyboard)
            maxLength = try container.decodeIfPresent(checkedBy: ValueRules.TextLength.self, forKey: .maxLength)
            validation = try container.decodeIfPresent(Validation.self, forKey: .validation)
            requiredMessage =
                decoder.screenplayAPIVersion >= .v6 ? try container.decodeIfPresent(checkedBy: ValueRules.Label.self, forKey: .requiredMessage) : nil
            submit = try container.decodeIfPresent(Action.self, forKey: .submit)
            suggestions =
                decoder.screenplayAPIVersion >= .v6 ? try container.decodeIfPresent(checkedBy: ValueRules.EndpointLink.self, forKey: .suggestions) : nil
        }

        /// Writes the fields; `requiredMessage` and `suggestions` only for v6 and later.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(label, forKey: .label)
            try container.encodeIfPresent(hint, forKey: .hint)
            try container.encode(storageKey, forKey: .storageKey)
            try container.encodeIfPresent(keyboard, forKey: .keyboard)
            try container.encodeIfPresent(maxLength, forKey: .maxLength)
            try container.encodeIfPresent(validation, forKey: .validation)
            if encoder.screenplayAPIVersion >= .v6 { try container.encodeIfPresent(requiredMessage, forKey: .requiredMessage) }
            try container.encodeIfPresent(submit, forKey: .submit)
            if encoder.screenplayAPIVersion >= .v6 { try container.encodeIfPresent(suggestions, forKey: .suggestions) }
        }

        /// `.textField(self)`.
        public var component: Component { .textField(self) }

        /// A labelled text input that writes into client storage as the user types, validated on the client.
        public static let summary =
            "A labelled text input that writes into client storage as the user types, validated on the client; commands sent from the screen carry the storage."

        /// A typical value, shown in the generated contract docs.
        public static var example: Self {
            TextField(
                label: "Search", hint: "Composer or work", storageKey: "query", keyboard: .search, maxLength: 100,
                validation: .init(pattern: "^.{2,}$", message: "Type at least two characters"),
                submit: .command(.init(url: "commands/search")))
        }

        /// A button with the submit command, so an older app can still start what the field starts.
        public func fallback(for version: APIVersion) -> [Component] {
            guard let submit else { return [] }
            return [.button(Button(title: label, style: .secondary, action: submit))]
        }

        /// The keyboard a field asks for.
        public enum Keyboard: String, Codable, Sendable, Hashable, CaseIterable {
            /// Plain text.
            case text
            /// Text with a search return key.
            case search
            /// An email address.
            case email
            /// Digits and a decimal separator.
            case number
            /// A phone number.
            case phone
            /// A web address.
            case url
        }

        /// A pattern the whole text must match, and what to tell the user when it does not.
        public struct Validation: Sendable, Hashable {
            /// A regular expression (the ICU and ECMAScript common subset) matched against the whole text.
            public var pattern: String
            /// Shown under the field while the text does not match ("Type at least two characters").
            public var message: String

            /// Creates a rule.
            public init(pattern: String, message: String) {
                self.pattern = pattern
                self.message = message
            }
        }
    }
}

extension Component.TextField.Validation: Codable {
    enum CodingKeys: String, CodingKey { case pattern, message }

    /// Reads the pattern and message, both required and bounded.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        pattern = try container.decode(checkedBy: ValueRules.PatternSource.self, forKey: .pattern)
        message = try container.decode(checkedBy: ValueRules.Label.self, forKey: .message)
    }
}

extension Component.TextField.Keyboard: OpenEnumeration {
    /// The plain keyboard: any text can be typed on it.
    public static let fallback = Self.text
}
