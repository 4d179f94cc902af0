/// What a tap does. Actions are data: the server decides, the client carries out.
///
/// `navigate` and `command` go back to the server; `play`, `share`, `openURL` and `custom` are
/// handled on the device. On the wire each is a JSON object whose `type` names the kind.
public enum Action: Sendable, Hashable {
    /// Push (or present) another screen, showing its header at once.
    case navigate(Navigate)
    /// POST a payload to the server; the answer is a ``CommandResult``.
    case command(Command)
    /// Start playback at once with the first track, then fetch the whole queue.
    case play(Play)
    /// Open the system share sheet.
    case share(Share)
    /// Hand a URL to the system (browser, mail, phone).
    case openURL(OpenURL)
    /// An action only the app knows, by name, with a payload for its handler.
    case custom(Custom)
    /// Set a variable of the screen's state to an expression's value, on the device (v6).
    case set(SetVariable)
    /// Several actions, one after the other (v6): a `set`, then a command.
    case sequence(Sequence)
    /// A kind this client does not know: kept, never performed, always logged.
    case unknown(type: String, json: JSONValue)

    /// The wire name of this action's kind.
    public var kind: String {
        switch self {
        case .navigate: Navigate.kind
        case .command: Command.kind
        case .play: Play.kind
        case .share: Share.kind
        case .openURL: OpenURL.kind
        case .custom: Custom.kind
        case .set: SetVariable.kind
        case .sequence: Sequence.kind
        case .unknown(let type, _): type
        }
    }

    /// Every kind this build knows.
    public static let knownKinds: [String] = [
        Navigate.kind, Command.kind, Play.kind, Share.kind, OpenURL.kind, Custom.kind, SetVariable.kind, Sequence.kind,
    ]

    /// When each action kind joined the contract and what older clients get instead.
    public static let versioning: [String: KindVersioning] = Dictionary(uniqueKeysWithValues: knownKinds.map { ($0, .original) })
        .merging([
            SetVariable.kind: KindVersioning(
                introduced: ClientState.introduced,
                fallback: "nothing: the server evaluates bindings with the initial state, so a local change has nothing to change; a button or row whose only action it is is dropped"),
            Sequence.kind: KindVersioning(
                introduced: ClientState.introduced, fallback: "its first step that is not local (a `set`), or nothing when every step is"),
        ]) { _, later in later }

    /// Whether it runs on the device alone, changing the screen's state and nothing else.
    public var isLocal: Bool {
        switch self {
        case .set: true
        case .sequence(let sequence): sequence.actions.allSatisfy(\.isLocal)
        default: false
        }
    }
}

private enum TypeKey: String, CodingKey { case type }

extension Action: Codable {
    /// Reads `type`, then the kind's fields from the same object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TypeKey.self)
        let type = try container.decode(String.self, forKey: .type)
        let known = Self.versioning[type].map { $0.introduced <= decoder.screenplayAPIVersion } ?? false
        switch known ? type : "" {
        case Navigate.kind: self = .navigate(try Navigate(from: decoder))
        case Command.kind: self = .command(try Command(from: decoder))
        case Play.kind: self = .play(try Play(from: decoder))
        case Share.kind: self = .share(try Share(from: decoder))
        case OpenURL.kind: self = .openURL(try OpenURL(from: decoder))
        case Custom.kind: self = .custom(try Custom(from: decoder))
        case SetVariable.kind: self = .set(try SetVariable(from: decoder))
        case Sequence.kind: self = .sequence(try Sequence(from: decoder))
        default:
            decoder.recordUnknownKind("action", type: type)
            self = .unknown(type: type, json: try JSONValue(from: decoder))
        }
    }

    /// Writes `type` and the kind's fields into one object.
    public func encode(to encoder: any Encoder) throws {
        if case .unknown(_, let json) = self {
            try json.encode(to: encoder)
            return
        }
        var container = encoder.container(keyedBy: TypeKey.self)
        try container.encode(kind, forKey: .type)
        switch self {
        case .navigate(let value): try value.encode(to: encoder)
        case .command(let value): try value.encode(to: encoder)
        case .play(let value): try value.encode(to: encoder)
        case .share(let value): try value.encode(to: encoder)
        case .openURL(let value): try value.encode(to: encoder)
        case .custom(let value): try value.encode(to: encoder)
        case .set(let value): try value.encode(to: encoder)
        case .sequence(let value): try value.encode(to: encoder)
        case .unknown: break
        }
    }
}

extension Action {
    /// Go to another screen. Carries the destination's header so the push is instant.
    public struct Navigate: Codable, Sendable, Hashable {
        /// `navigate`.
        public static let kind = "navigate"
        /// The destination screen's URL, relative to the API base (`screens/composer/mozart`).
        public var url: String
        /// The destination's header, identical to the one the destination screen carries.
        public var header: ScreenHeader?
        /// How the destination appears.
        public var presentation: Presentation?

        /// Creates a navigate action.
        public init(url: String, header: ScreenHeader? = nil, presentation: Presentation? = nil) {
            self.url = url
            self.header = header
            self.presentation = presentation
        }

        /// How a navigated-to screen appears.
        public enum Presentation: String, Codable, Sendable, Hashable, CaseIterable {
            /// Onto the navigation stack (the default).
            case push
            /// As a sheet over the current screen.
            case modal
        }

        enum CodingKeys: String, CodingKey { case url, header, presentation }

        /// Decodes and checks `url` against ``LinkPolicy/endpoint``.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            url = try container.decode(checkedBy: ValueRules.EndpointLink.self, forKey: .url)
            header = try container.decodeIfPresent(ScreenHeader.self, forKey: .header)
            presentation = try container.decodeIfPresent(Presentation.self, forKey: .presentation)
        }
    }

    /// A remote command: POST `payload` to `url`; the server answers with a ``CommandResult``.
    public struct Command: Codable, Sendable, Hashable {
        /// `command`.
        public static let kind = "command"
        /// Where to POST, relative to the API base (`commands/favorites/add`).
        public var url: String
        /// The JSON body to send; for prompts the entered text is added to it.
        public var payload: JSONValue?
        /// What the command is expected to change, shown before the answer (v5).
        public var optimistic: OptimisticOutcome?

        /// Creates a command.
        public init(url: String, payload: JSONValue? = nil, optimistic: OptimisticOutcome? = nil) {
            self.url = url
            self.payload = payload
            self.optimistic = optimistic
        }

        enum CodingKeys: String, CodingKey { case url, payload, optimistic }

        /// Decodes and checks `url` against ``LinkPolicy/endpoint``; from v5 reads `optimistic`
        /// (a bad one is reported and dropped: the command still works, it just waits).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            url = try container.decode(checkedBy: ValueRules.EndpointLink.self, forKey: .url)
            payload = try container.decodeIfPresent(JSONValue.self, forKey: .payload)
            optimistic =
                decoder.screenplayAPIVersion >= OptimisticOutcome.introduced
                ? try container.decodeLossyIfPresent(OptimisticOutcome.self, forKey: .optimistic) : nil
        }

        /// Writes the members; `optimistic` only for v5 and later.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(url, forKey: .url)
            try container.encodeIfPresent(payload, forKey: .payload)
            if encoder.screenplayAPIVersion >= OptimisticOutcome.introduced {
                try container.encodeIfPresent(optimistic, forKey: .optimistic)
            }
        }
    }

    /// Start playing now with `firstTrack`, while the full queue loads from `metadataURL`.
    public struct Play: Codable, Sendable, Hashable {
        /// `play`.
        public static let kind = "play"
        /// The version whose play actions may ask for the queue shuffled (``shuffle``): a
        /// non-breaking addition to v6; older versions never get it, and play the queue in order
        /// from ``firstTrack`` (which a shuffle's server picks at random), which is what a
        /// listener of an older app expects of a Shuffle button.
        public static let shuffleIntroduced = APIVersion.v6

        /// Returns the complete queue, in order.
        public var metadataURL: String
        /// Enough to start playback without waiting for `metadataURL`.
        public var firstTrack: Track
        /// Play the queue in a random order (v6): `firstTrack` first, then the rest of the queue
        /// shuffled by the client (``PlayQueue`` in the client core decides it for every renderer).
        public var shuffle: Bool

        /// Creates a play action.
        public init(metadataURL: String, firstTrack: Track, shuffle: Bool = false) {
            self.metadataURL = metadataURL
            self.firstTrack = firstTrack
            self.shuffle = shuffle
        }

        /// A playable track.
        public struct Track: Codable, Sendable, Hashable {
            /// The version whose tracks say what they belong to (``work``, ``composer``,
            /// ``artwork``), for the player and the system's now playing: a non-breaking addition
            /// to v6 (optional members an older v6 decoder ignores); older versions never get them.
            public static let nowPlayingIntroduced = APIVersion.v6

            /// Stable id.
            public var id: String
            /// Shown in the mini player.
            public var title: String
            /// Performers.
            public var subtitle: String?
            /// Length in seconds.
            public var durationSeconds: Int?
            /// The audio stream.
            public var streamURL: String
            /// The work the track is part of ("Cello Suite No. 1"), for now playing (v6).
            public var work: String?
            /// Who wrote it ("Johann Sebastian Bach"), for now playing (v6).
            public var composer: String?
            /// The picture now playing shows beside it (v6): its low-res URL first, then the full one.
            public var artwork: RemoteImage?
            /// What the player offers for this track while it plays (v6), its "…": add its
            /// recording to a playlist, go to its composer. At most
            /// ``ComponentAttributes/maximumMenuItems``; a bad item is left out and reported.
            public var menu: [MenuItem]

            /// Creates a track.
            public init(
                id: String, title: String, subtitle: String? = nil, durationSeconds: Int? = nil, streamURL: String, work: String? = nil,
                composer: String? = nil, artwork: RemoteImage? = nil, menu: [MenuItem] = []
            ) {
                self.id = id
                self.title = title
                self.subtitle = subtitle
                self.durationSeconds = durationSeconds
                self.streamURL = streamURL
                self.work = work
                self.composer = composer
                self.artwork = artwork
                self.menu = menu
            }

            enum CodingKeys: String, CodingKey { case id, title, subtitle, durationSeconds, streamURL, work, composer, artwork, menu }

            /// Decodes and checks `streamURL` against ``LinkPolicy/resource``; from v6 reads what
            /// the track belongs to and its menu (a bad picture or menu item is reported and
            /// dropped: the track still plays).
            public init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                id = try container.decode(String.self, forKey: .id)
                title = try container.decode(String.self, forKey: .title)
                subtitle = try container.decodeIfPresent(String.self, forKey: .subtitle)
                durationSeconds = try container.decodeIfPresent(Int.self, forKey: .durationSeconds)
                streamURL = try container.decode(checkedBy: ValueRules.ResourceLink.self, forKey: .streamURL)
                if decoder.screenplayAPIVersion >= Self.nowPlayingIntroduced {
                    work = try container.decodeIfPresent(String.self, forKey: .work)
                    composer = try container.decodeIfPresent(String.self, forKey: .composer)
                    artwork = try container.decodeLossyIfPresent(RemoteImage.self, forKey: .artwork)
                }
                menu = []
                if decoder.screenplayAPIVersion >= Self.nowPlayingIntroduced,
                    let items = try container.decodeLossyIfPresent([LossyElement<MenuItem>].self, forKey: .menu)?.compactMap(\.value)
                {
                    if items.count > ComponentAttributes.maximumMenuItems {
                        try decoder.reportInvalid(
                            "a track's menu holds at most \(ComponentAttributes.maximumMenuItems) items; the rest are left out",
                            at: container.codingPath + [CodingKeys.menu])
                    }
                    menu = Array(items.prefix(ComponentAttributes.maximumMenuItems))
                }
            }

            /// Writes the members; what the track belongs to only for v6 and later.
            public func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(id, forKey: .id)
                try container.encode(title, forKey: .title)
                try container.encodeIfPresent(subtitle, forKey: .subtitle)
                try container.encodeIfPresent(durationSeconds, forKey: .durationSeconds)
                try container.encode(streamURL, forKey: .streamURL)
                if encoder.screenplayAPIVersion >= Self.nowPlayingIntroduced {
                    try container.encodeIfPresent(work, forKey: .work)
                    try container.encodeIfPresent(composer, forKey: .composer)
                    try container.encodeIfPresent(artwork, forKey: .artwork)
                    // No more than a reader keeps: every client shows the same items.
                    if !menu.isEmpty { try container.encode(Array(menu.prefix(ComponentAttributes.maximumMenuItems)), forKey: .menu) }
                }
            }
        }

        enum CodingKeys: String, CodingKey { case metadataURL, firstTrack, shuffle }

        /// Decodes and checks `metadataURL`; from v6 reads ``shuffle`` (absent: in order).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            metadataURL = try container.decode(checkedBy: ValueRules.EndpointLink.self, forKey: .metadataURL)
            firstTrack = try container.decode(Track.self, forKey: .firstTrack)
            shuffle = decoder.screenplayAPIVersion >= Self.shuffleIntroduced ? try container.decodeIfPresent(Bool.self, forKey: .shuffle) ?? false : false
        }

        /// Writes the members; ``shuffle`` only when set, and only for v6 and later.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(metadataURL, forKey: .metadataURL)
            try container.encode(firstTrack, forKey: .firstTrack)
            if shuffle, encoder.screenplayAPIVersion >= Self.shuffleIntroduced { try container.encode(true, forKey: .shuffle) }
        }
    }

    /// Share a title and a universal link through the system share sheet.
    public struct Share: Codable, Sendable, Hashable {
        /// `share`.
        public static let kind = "share"
        /// What is shared.
        public var title: String
        /// A link that opens the same thing on any device.
        public var url: String

        /// Creates a share action.
        public init(title: String, url: String) {
            self.title = title
            self.url = url
        }

        enum CodingKeys: String, CodingKey { case title, url }

        /// Decodes and checks `url` against ``LinkPolicy/external``.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            title = try container.decode(String.self, forKey: .title)
            url = try container.decode(checkedBy: ValueRules.ExternalLink.self, forKey: .url)
        }
    }

    /// Open a URL with the system.
    public struct OpenURL: Codable, Sendable, Hashable {
        /// `openURL`.
        public static let kind = "openURL"
        /// The URL (http, https, mailto, tel).
        public var url: String

        /// Creates an open-URL action.
        public init(url: String) { self.url = url }

        enum CodingKeys: String, CodingKey { case url }

        /// Decodes and checks `url` against ``LinkPolicy/external``.
        public init(from decoder: any Decoder) throws {
            url = try decoder.container(keyedBy: CodingKeys.self).decode(checkedBy: ValueRules.ExternalLink.self, forKey: .url)
        }
    }

    /// An action only the app can do (purchase, open the camera), handled by a registered name.
    public struct Custom: Codable, Sendable, Hashable {
        /// `custom`.
        public static let kind = "custom"
        /// The handler's registered name.
        public var name: String
        /// Data for the handler.
        public var payload: JSONValue?

        /// Creates a custom action.
        public init(name: String, payload: JSONValue? = nil) {
            self.name = name
            self.payload = payload
        }
    }
}

extension Action {
    /// Sets a variable the screen declares to an expression's value (v6): `{"type": "set",
    /// "variable": "expanded", "value": "!expanded"}`. Runs on the device; nothing is sent.
    ///
    /// Checked when the screen is decoded: a variable the screen does not declare, a client
    /// variable (read-only) or a value of another type fails the action there, not on a tap.
    public struct SetVariable: Codable, Sendable, Hashable {
        /// `set`.
        public static let kind = "set"
        /// The name of a `screen` or `app` variable of the screen's state.
        public var variable: String
        /// The source of an expression of the variable's type, evaluated with the state of the tap.
        public var value: String

        /// Creates a set action.
        public init(variable: String, value: String) {
            self.variable = variable
            self.value = value
        }

        enum CodingKeys: String, CodingKey { case variable, value }

        /// Decodes and checks the variable and the value against the screen's state.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            variable = try container.decode(checkedBy: ValueRules.VariableName.self, forKey: .variable)
            value = try container.decode(ExpressionText.self, forKey: .value).source
            let types = decoder.expressionTypes
            if let types {
                guard let type = types[variable] else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .variable, in: container, debugDescription: "'variable' names '\(variable)', which the screen does not declare")
                }
                do {
                    try ClientState.check(value, as: type, types: types)
                } catch {
                    throw DecodingError.dataCorruptedError(forKey: .value, in: container, debugDescription: "'value' for '\(variable)': \(error)")
                }
            } else {
                do { try ClientState.check(value, as: nil, types: nil) } catch {
                    throw DecodingError.dataCorruptedError(forKey: .value, in: container, debugDescription: "'value': \(error)")
                }
            }
        }
    }

    /// Several actions performed in order (v6): `{"type": "sequence", "actions": [...]}`. A step
    /// that fails stops the ones after it; a step of a kind this client does not know is skipped.
    public struct Sequence: Codable, Sendable, Hashable {
        /// `sequence`.
        public static let kind = "sequence"
        /// The most steps one sequence holds.
        public static let maximumSteps = 16
        /// The steps, in order.
        public var actions: [Action]

        /// Creates a sequence.
        public init(_ actions: [Action]) { self.actions = actions }

        enum CodingKeys: String, CodingKey { case actions }

        /// Decodes the steps: one to ``maximumSteps``, every one decoding cleanly (a sequence
        /// missing a step would do something else than the screen says).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            actions = try container.decode(checkedBy: ValueRules.SequenceSteps.self, forKey: .actions)
        }
    }
}
