import ArgumentParser
import Foundation
import ScreenplayClient
import ScreenplayClientNIO
import ScreenplayContract
import ScreenplayTerminal

#if https
import ScreenplayClientAsyncHTTPClient
#endif

/// `screenplay render <URL> [--tap X]… [--type key=value]…`: the resolved view tree of a screen
/// as an outline, and a way to drive the real navigator (navigation, commands, prompts, choices)
/// from a terminal, printing the state after each step.
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Print a screen's resolved view tree; --tap and --type drive the navigator step by step.",
        discussion: """
            URL is a screen's address, such as http://127.0.0.1:8080/api/v3/screens/home. Steps run in the order \
            given: `--tap` activates the one node whose id, text or label matches (ids first, then exact text, \
            then text containing it; a choice's options and a prompt's submit button count as nodes while they \
            are shown); `--type name=value` fills the shown prompt's field, or else the screen's text field that stores `name`. Exit code 1 when a tap matches \
            nothing or more than one node, or a step fails. `--follow` then keeps the screen current (a live screen, v5, on the \
            server's event stream or its polling interval) and prints what changed and the new state each time, until \
            interrupted or `--changes` states were printed.
            """)

    @Argument(help: "The screen's URL, e.g. http://127.0.0.1:8080/api/v3/screens/home.")
    var url: String

    @Option(name: .customLong("api-version"), help: "The API version to speak (default: the one in the URL, else the latest).")
    var apiVersion: Int?

    @Option(name: .customLong("tap"), help: "Activate the node with this id, text or label (repeatable).")
    var taps: [String] = []

    @Option(
        name: .customLong("type"),
        help: "Type into the shown prompt's field, or the screen's text field with that storage key: name=value (repeatable).")
    var types: [String] = []

    @Flag(name: .customLong("follow"), help: "After the steps, print each new state of the screen as the server announces it.")
    var follow = false

    @Option(name: .customLong("changes"), help: "With --follow: stop after this many changed states.")
    var changes: Int?

    @Option(name: .customLong("token"), help: "Speak as the user this identity token names (default: a new anonymous one).")
    var token: String?

    enum Step {
        case tap(String)
        case type(name: String, value: String)
    }

    func validate() throws {
        for entry in types where !entry.contains("=") {
            throw ValidationError("--type '\(entry)' must be name=value")
        }
        if let apiVersion, !APIVersion.supported.contains(APIVersion(apiVersion)) {
            throw ValidationError("--api-version \(apiVersion) is not a version this build speaks")
        }
    }

    /// The steps in the order given on the command line (the parser keeps each option's values
    /// apart; their interleaving comes from the raw arguments).
    func orderedSteps(_ arguments: [String] = CommandLine.arguments) -> [Step] {
        var steps: [Step] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            func value(_ option: String) -> String? {
                if argument == option, index + 1 < arguments.count {
                    index += 1
                    return arguments[index]
                }
                if argument.hasPrefix(option + "=") { return String(argument.dropFirst(option.count + 1)) }
                return nil
            }
            if let tap = value("--tap") {
                steps.append(.tap(tap))
            } else if let typed = value("--type"), let equals = typed.firstIndex(of: "=") {
                steps.append(.type(name: String(typed[..<equals]), value: String(typed[typed.index(after: equals)...])))
            }
            index += 1
        }
        return steps
    }

    func run() async throws {
        let (endpoint, reference) = try Self.endpoint(of: url, apiVersion: apiVersion)
        let loader = ScreenLoader(endpoint: endpoint, transport: try Self.transport(for: endpoint.root), tokens: InMemoryTokenStore(token: token))
        let navigator = ScreenNavigator(loader: loader)
        let printer = TerminalRenderer()

        await navigator.start(at: reference)
        var state = await navigator.snapshot
        print(Self.describe(state, printer: printer), terminator: "")
        var typed: [String: String] = [:]
        for (number, step) in orderedSteps().enumerated() {
            switch step {
            case .type(let name, let value):
                if case .prompt(let prompt)? = state.presented, prompt.field.name == name {
                    typed[name] = value
                    print("── step \(number + 1): typed \(name)")
                    continue
                }
                // Not a prompt: a text field of the screen, which keeps the text in its storage.
                do {
                    try await navigator.type(value, into: name)
                } catch {
                    throw Failure("step \(number + 1): --type \(name)=…: no prompt field and \(error)")
                }
                print("── step \(number + 1): typed \(name)")
            case .tap(let target):
                print("── step \(number + 1): tap \(target)")
                let tree = Self.tree(of: state, typed: typed)
                let node = try Self.match(target, in: tree)
                guard let bound = node.action, bound.isEnabled else {
                    throw Failure("'\(target)' matches \(node.id), which cannot be activated now")
                }
                switch state.presented {
                case .prompt(let prompt)? where node.id.rawValue.hasPrefix("presented/submit:"):
                    await navigator.submit(prompt, text: typed[prompt.field.name] ?? prompt.field.initialValue ?? "")
                case .choice(let choice)? where node.id.rawValue.hasPrefix("presented/option:"):
                    guard let option = choice.options.first(where: { $0.title == node.text }) else {
                        throw Failure("no option '\(target)'")
                    }
                    await navigator.choose(option)
                default:
                    await navigator.dismiss()
                    await navigator.perform(bound.action)
                }
            }
            state = await navigator.snapshot
            print(Self.describe(state, printer: printer), terminator: "")
            if case .failed(_, let error)? = state.top?.state { throw Failure("the screen failed to load: \(error.message)") }
        }
        if case .failed(_, let error)? = state.top?.state { throw Failure("the screen failed to load: \(error.message)") }
        if follow { try await self.follow(navigator, from: state, printer: printer) }
    }

    /// Prints each new state of the top screen with what changed (the keyed diff), until
    /// interrupted or `--changes` states were printed.
    func follow(_ navigator: ScreenNavigator, from state: ScreenNavigator.Snapshot, printer: TerminalRenderer) async throws {
        let watching = await navigator.watching
        guard !watching.isEmpty else {
            throw Failure("\(state.top?.url ?? "the screen") is not live (it declares no `live`, or the API version is before v5)")
        }
        // Written straight to the file, not through print's buffer: a reader of a pipe sees each
        // change as it happens.
        func write(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }
        fflush(nil)  // what the steps printed comes first
        write("── following \((watching.streamEntries + watching.intervals.keys.sorted()).joined(separator: ", "))\n")
        var previous = Self.tree(of: state)
        var printed = 0
        for await snapshot in await navigator.snapshots() {
            let tree = Self.tree(of: snapshot)
            let diff = ScreenDiff(from: previous, to: tree)
            guard !diff.isEmpty else { continue }
            previous = tree
            printed += 1
            write("── change \(printed)\n" + printer.changes(diff) + Self.describe(snapshot, printer: printer))
            if let changes, printed >= changes { return }
        }
    }

    /// The transport for a server at `root`: plain HTTP over the project's own NIO transport
    /// (no TLS stack to build), and for `https://` AsyncHTTPClient when the `https` trait built
    /// it in; without it, a clear refusal that says how to build it in.
    static func transport(for root: URL) throws -> any ScreenTransport & EventStreamTransport {
        guard root.scheme?.lowercased() == "https" else { return PlainHTTPTransport() }
        #if https
        return AsyncHTTPClientTransport()
        #else
        throw Failure(httpsLeftOut(root.absoluteString))
        #endif
    }

    /// What a build without the `https` trait says to an `https://` URL.
    static func httpsLeftOut(_ url: String) -> String {
        "\(url) is an https:// address, and this build of screenplay has no TLS stack (plain HTTP only); "
            + "build HTTPS in with the https trait: swift run --traits https screenplay render URL"
    }

    /// Splits a screen's URL into the server (root, path prefix, version) and the screen's
    /// reference, keeping the path's percent-encoding (`a%2Fb` stays one segment).
    static func endpoint(of url: String, apiVersion: Int?) throws -> (ServerEndpoint, String) {
        guard let address = URL(string: url), let scheme = address.scheme?.lowercased(), ["http", "https"].contains(scheme),
            var components = URLComponents(url: address, resolvingAgainstBaseURL: false)
        else { throw ValidationError("'\(url)' is not an http(s) URL") }
        let path = components.percentEncodedPath
        guard let range = path.range(of: #"/v[0-9]{1,4}/"#, options: .regularExpression) else {
            throw ValidationError("'\(url)' has no /api/v<N>/ in its path")
        }
        let number = Int(path[range].dropFirst(2).dropLast()) ?? 0
        let version = APIVersion(apiVersion ?? number)
        guard APIVersion.supported.contains(version) else {
            throw ValidationError(
                "'\(url)' asks for API v\(number); this build speaks \(APIVersion.supported.lowerBound)...\(APIVersion.supported.upperBound)"
            )
        }
        let prefix = String(path[..<range.lowerBound])
        var reference = String(path[range.upperBound...])
        if let query = components.percentEncodedQuery { reference += "?" + query }
        components.scheme = scheme
        components.percentEncodedPath = "/"
        components.percentEncodedQuery = nil
        components.fragment = nil
        guard let root = components.url else { throw ValidationError("'\(url)' has no usable host") }
        return (ServerEndpoint(root: root, apiVersion: version, pathPrefix: prefix.isEmpty ? "/" : prefix), reference)
    }

    /// The top screen's tree with what is presented over it, as one tree to match taps in;
    /// `typed` is what `--type` put into a prompt's field so far (a blank required name disables
    /// its submit button, as on a device).
    static func tree(of state: ScreenNavigator.Snapshot, typed: [String: String] = [:]) -> ViewNode {
        let resolver = ViewTreeResolver()
        var root = state.top.map { resolver.resolve($0).root } ?? ViewNode(id: "screen", role: .screen)
        if let presented = state.presented {
            var text: String?
            if case .prompt(let prompt) = presented { text = typed[prompt.field.name] }
            root.children.append(resolver.resolve(presented, typed: text))
        }
        return root
    }

    static func describe(_ state: ScreenNavigator.Snapshot, printer: TerminalRenderer) -> String {
        var text = "screen \(state.entries.count) on the stack: \(state.top?.url ?? "(none)")\n"
        text += printer.outline(tree(of: state))
        return text
    }

    /// The one actionable node `target` names: by id, then exact text or label, then text containing it.
    static func match(_ target: String, in tree: ViewNode) throws -> ViewNode {
        let actionable = tree.allNodes.filter { $0.action != nil }
        // A node id, or a component's own id (which nodes carry as `id:<id>`).
        if let byID = actionable.first(where: { $0.id.rawValue == target || $0.id.rawValue == "id:" + target }) { return byID }
        let lowered = target.lowercased()
        let exact = actionable.filter { $0.text?.lowercased() == lowered || $0.accessibility.label?.lowercased() == lowered }
        let candidates = exact.isEmpty ? actionable.filter { ($0.text ?? "").lowercased().contains(lowered) } : exact
        switch candidates.count {
        case 1: return candidates[0]
        case 0: throw Failure("--tap '\(target)' matches no node that can be activated")
        default:
            let listed = candidates.prefix(8).map { "  \($0.id) \"\($0.text ?? "")\"" }.joined(separator: "\n")
            throw Failure("--tap '\(target)' matches \(candidates.count) nodes; use an id:\n\(listed)")
        }
    }

    /// A step that cannot go on: printed to standard error, exit code 1.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
