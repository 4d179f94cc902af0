/// The server's answer to a command: what the client shows next (``outcome``) and, from v4, the
/// state it updates on the way (``updates``: storage, entity patches, local effects).
///
/// Whole flows (create a playlist, add a work to one) are orchestrated by the server through
/// these answers; the client only knows how to show each one.
public struct CommandResult: Sendable, Hashable {
    /// What the client shows next.
    public var outcome: Outcome
    /// Storage to set, entities to patch and local actions to run once the outcome is applied (v4).
    public var updates: ClientUpdates

    /// A result with `outcome` and `updates`.
    public init(_ outcome: Outcome, updates: ClientUpdates = .init()) {
        self.outcome = outcome
        self.updates = updates
    }

    /// The kinds of answer.
    public enum Outcome: Sendable, Hashable {
        /// It worked; show `message` and, when asked, reload the screen behind.
        case done(Done)
        /// Replace the current screen with this one.
        case screen(Screen)
        /// Ask the user to pick an option; each option carries its follow-up command.
        case choice(Choice)
        /// Ask the user for text; the submit command receives it.
        case prompt(Prompt)
        /// Go to another screen.
        case navigate(Action.Navigate)
        /// It failed; show `message`. The screen stays as it was.
        case error(Failure)
        /// A kind this client does not know: shown as a generic failure, always logged.
        case unknown(type: String, json: JSONValue)
    }

    /// Success.
    public static func done(_ value: Done) -> CommandResult { CommandResult(.done(value)) }
    /// A replacement screen.
    public static func screen(_ value: Screen) -> CommandResult { CommandResult(.screen(value)) }
    /// A choice.
    public static func choice(_ value: Choice) -> CommandResult { CommandResult(.choice(value)) }
    /// A prompt.
    public static func prompt(_ value: Prompt) -> CommandResult { CommandResult(.prompt(value)) }
    /// A navigation.
    public static func navigate(_ value: Action.Navigate) -> CommandResult { CommandResult(.navigate(value)) }
    /// A failure.
    public static func error(_ value: Failure) -> CommandResult { CommandResult(.error(value)) }
    /// A kind this client does not know.
    public static func unknown(type: String, json: JSONValue) -> CommandResult { CommandResult(.unknown(type: type, json: json)) }

    /// This result with `updates`.
    public func with(_ updates: ClientUpdates) -> CommandResult { CommandResult(outcome, updates: updates) }

    /// The wire name of this result's kind.
    public var kind: String {
        switch outcome {
        case .done: "done"
        case .screen: "screen"
        case .choice: "choice"
        case .prompt: "prompt"
        case .navigate: "navigate"
        case .error: "error"
        case .unknown(let type, _): type
        }
    }

    /// Every kind this build knows.
    public static let knownKinds = ["done", "screen", "choice", "prompt", "navigate", "error"]

    /// When each result kind joined the contract and what older clients get instead; all are v1
    /// so far.
    public static let versioning: [String: KindVersioning] = Dictionary(uniqueKeysWithValues: knownKinds.map { ($0, .original) })

    /// Success.
    public struct Done: Codable, Sendable, Hashable {
        /// A short confirmation ("Added to favorites").
        public var message: String?
        /// Whether the screen behind should be reloaded because the command changed it.
        public var refresh: Bool

        /// Creates a success result.
        public init(message: String? = nil, refresh: Bool = false) {
            self.message = message
            self.refresh = refresh
        }

        enum CodingKeys: String, CodingKey { case message, refresh }

        /// `refresh` defaults to `false` when absent.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            message = try container.decodeIfPresent(String.self, forKey: .message)
            refresh = try container.decodeIfPresent(Bool.self, forKey: .refresh) ?? false
        }
    }

    /// A list of options; picking one performs its command.
    public struct Choice: Codable, Sendable, Hashable {
        /// The question ("Add to playlist").
        public var title: String
        /// More context.
        public var message: String?
        /// The options; bad ones are skipped by the lossy decoder.
        public var options: [Option]

        /// Creates a choice.
        public init(title: String, message: String? = nil, options: [Option]) {
            self.title = title
            self.message = message
            self.options = options
        }

        /// One option and what picking it does.
        public struct Option: Codable, Sendable, Hashable {
            /// The label.
            public var title: String
            /// A second line.
            public var subtitle: String?
            /// Performed when picked.
            public var command: Action.Command

            /// Creates an option.
            public init(title: String, subtitle: String? = nil, command: Action.Command) {
                self.title = title
                self.subtitle = subtitle
                self.command = command
            }
        }

        enum CodingKeys: String, CodingKey { case title, message, options }

        /// Decodes lossily: a bad option does not lose the others.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            title = try container.decode(String.self, forKey: .title)
            message = try container.decodeIfPresent(String.self, forKey: .message)
            options = try container.decodeLossyArray(of: Option.self, forKey: .options)
        }
    }

    /// A text field and the command that receives its text.
    public struct Prompt: Codable, Sendable, Hashable {
        /// The question ("New playlist").
        public var title: String
        /// More context.
        public var message: String?
        /// The field to show.
        public var field: Field
        /// The label of the submit button.
        public var submitTitle: String
        /// POSTed with its payload plus `field.name: <text>`.
        public var submit: Action.Command

        /// Creates a prompt.
        public init(title: String, message: String? = nil, field: Field, submitTitle: String, submit: Action.Command) {
            self.title = title
            self.message = message
            self.field = field
            self.submitTitle = submitTitle
            self.submit = submit
        }

        /// A single-line text field.
        public struct Field: Codable, Sendable, Hashable {
            /// The payload key the text is sent under.
            public var name: String
            /// Hint shown while empty.
            public var placeholder: String?
            /// Text already in the field.
            public var initialValue: String?
            /// The longest text the server accepts, so the client can stop typing there.
            public var maxLength: Int?
            /// Present: the text may not be blank, and this is what the client says while it is
            /// ("Name the playlist"), with the submit button disabled; the server still refuses a
            /// blank text (v6; older clients send it and get the server's refusal).
            public var requiredMessage: String?

            /// Creates a field.
            public init(name: String, placeholder: String? = nil, initialValue: String? = nil, maxLength: Int? = nil, requiredMessage: String? = nil) {
                self.name = name
                self.placeholder = placeholder
                self.initialValue = initialValue
                self.maxLength = maxLength
                self.requiredMessage = requiredMessage
            }

            /// When ``requiredMessage`` joined the contract.
            public static let requiredMessageIntroduced = APIVersion.v6

            enum CodingKeys: String, CodingKey { case name, placeholder, initialValue, maxLength, requiredMessage }

            /// Reads the fields; `requiredMessage` from v6 on, bounded like a label.
            public init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                name = try container.decode(String.self, forKey: .name)
                placeholder = try container.decodeIfPresent(String.self, forKey: .placeholder)
                initialValue = try container.decodeIfPresent(String.self, forKey: .initialValue)
                maxLength = try container.decodeIfPresent(Int.self, forKey: .maxLength)
                requiredMessage =
                    decoder.screenplayAPIVersion >= Self.requiredMessageIntroduced
                    ? try container.decodeIfPresent(checkedBy: ValueRules.Label.self, forKey: .requiredMessage) : nil
            }

            /// Writes the fields; `requiredMessage` only for v6 and later.
            public func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(name, forKey: .name)
                try container.encodeIfPresent(placeholder, forKey: .placeholder)
                try container.encodeIfPresent(initialValue, forKey: .initialValue)
                try container.encodeIfPresent(maxLength, forKey: .maxLength)
                if encoder.screenplayAPIVersion >= Self.requiredMessageIntroduced {
                    try container.encodeIfPresent(requiredMessage, forKey: .requiredMessage)
                }
            }
        }
    }

    /// A failure the user should see.
    public struct Failure: Codable, Sendable, Hashable {
        /// What went wrong, for the user.
        public var message: String

        /// Creates a failure.
        public init(message: String) { self.message = message }
    }
}

private enum ResultCodingKeys: String, CodingKey { case type, screen }

extension CommandResult: Codable {
    /// Reads `type`, then the kind's fields (a replacement screen sits under `screen`), then, for
    /// v4 and later, the updates beside them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ResultCodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "done": outcome = .done(try Done(from: decoder))
        case "screen": outcome = .screen(try container.decode(Screen.self, forKey: .screen))
        case "choice": outcome = .choice(try Choice(from: decoder))
        case "prompt": outcome = .prompt(try Prompt(from: decoder))
        case "navigate": outcome = .navigate(try Action.Navigate(from: decoder))
        case "error": outcome = .error(try Failure(from: decoder))
        default:
            decoder.recordUnknownKind("command result", type: type)
            outcome = .unknown(type: type, json: try JSONValue(from: decoder))
        }
        updates = decoder.screenplayAPIVersion >= ClientUpdates.introduced ? try ClientUpdates(from: decoder) : .init()
    }

    /// Writes `type` and the kind's fields into one object, and the updates for v4 and later.
    public func encode(to encoder: any Encoder) throws {
        if case .unknown(_, let json) = outcome {
            try json.encode(to: encoder)
            return
        }
        var container = encoder.container(keyedBy: ResultCodingKeys.self)
        try container.encode(kind, forKey: .type)
        switch outcome {
        case .done(let value): try value.encode(to: encoder)
        case .screen(let screen): try container.encode(screen, forKey: .screen)
        case .choice(let value): try value.encode(to: encoder)
        case .prompt(let value): try value.encode(to: encoder)
        case .navigate(let value): try value.encode(to: encoder)
        case .error(let value): try value.encode(to: encoder)
        case .unknown: break
        }
        if encoder.screenplayAPIVersion >= ClientUpdates.introduced && !updates.isEmpty { try updates.encode(to: encoder) }
    }
}

/// What a command result changes on the client beside its outcome (v4): storage values to set,
/// entity members to patch (every bound component re-resolves, on every screen that shows the
/// entity, with no reload), and local actions to run once the outcome is applied.
public struct ClientUpdates: Sendable, Hashable {
    /// The version the updates joined the contract.
    public static let introduced = APIVersion.v4

    /// Storage values to set on the screen the command was sent from.
    public var storage: ClientStorage
    /// Entity members to replace, by entity id; members not named keep their values.
    public var entities: Entities
    /// Local actions (open a URL, play, share, an app action) run after the outcome; actions that
    /// go back to the server (navigate, command) are refused by the client and logged.
    public var effects: [Action]

    /// Creates updates.
    public init(storage: ClientStorage = [:], entities: Entities = [:], effects: [Action] = []) {
        self.storage = storage
        self.entities = entities
        self.effects = effects
    }

    /// Whether it changes nothing.
    public var isEmpty: Bool { storage.isEmpty && entities.isEmpty && effects.isEmpty }
}

extension ClientUpdates: Codable {
    enum CodingKeys: String, CodingKey { case storage, entities, effects }

    /// Reads the three optional members; a bad effect is skipped and reported.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        storage = try container.decodeLossyIfPresent(checkedBy: ValueRules.StorageValues.self, forKey: .storage) ?? [:]
        entities = try container.decodeLossyIfPresent(checkedBy: ValueRules.EntityValues.self, forKey: .entities) ?? [:]
        effects = try container.decodeLossyArrayIfPresent(of: Action.self, forKey: .effects) ?? []
    }

    /// Writes the members that are set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if !storage.isEmpty { try container.encode(storage, forKey: .storage) }
        if !entities.isEmpty { try container.encode(entities, forKey: .entities) }
        if !effects.isEmpty { try container.encode(effects, forKey: .effects) }
    }
}

/// The error body every Screenplay server sends with a 4xx or 5xx status.
///
/// `{"error": {"code": "notFound", "message": "...", "path": "$.playlistId"}}`: `code` is stable
/// for programs, `message` is for people, `path` points into the request when it is to blame.
public struct ErrorBody: Codable, Sendable, Hashable {
    /// The error.
    public var error: Detail

    /// Creates an error body.
    public init(code: String, message: String, path: String? = nil) {
        self.error = Detail(code: code, message: message, path: path)
    }

    /// The error's fields.
    public struct Detail: Codable, Sendable, Hashable {
        /// Stable, machine-readable: `notFound`, `malformedJSON`, `payloadTooLarge`…
        public var code: String
        /// For people: what and where.
        public var message: String
        /// A JSON path into the request body, or the request path, when relevant.
        public var path: String?
    }
}
