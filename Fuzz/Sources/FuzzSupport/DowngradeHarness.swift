import Foundation
import ScreenplayContract
import ScreenplayServer

/// The downgrade pass: the bytes are a screen (and a command result) as the server holds it at
/// the latest version, decoded the way the server's own verification decodes; it is then shaped
/// for every older version, with and without the app-defined kinds the client renders.
///
/// Oracles, per version and client:
/// 1. No component of a kind the version lacks survives, and no app-defined kind reaches a client
///    that did not ask for it (or whose version predates it).
/// 2. Downgrading twice changes nothing (the pass is idempotent).
/// 3. The shaped value, encoded for that version, decodes strictly as that version's client
///    decodes it, with no issue but unknown *action* or *result* kinds already in the input; and
///    re-encodes to the same bytes. This is what the server's verification of fresh encodings
///    assumes: a screen it built correctly is never a 500 for an older app.
/// 4. At the latest version, for a client that renders every registered kind, a screen with no
///    unregistered kinds comes out unchanged.
/// 5. From v4, every component the client decodes has the id the service assigned.
///
/// The input is taken through what the service does around a downgrade: ids assigned before
/// (screens with duplicate ids or dangling bindings, or that fail the service's own v4
/// verification, are skipped: the service answers those with a 500), and from v4 ids for the
/// components fallbacks put in, after.
public enum DowngradeHarness {
    static let target = "FuzzDowngrade"

    /// App-defined kinds: `ticketOffer` (v3, falls back to a text), `ghost` (v2, falls back to a
    /// `ticketOffer`, so fallbacks are downgraded in turn).
    static let customKinds: [String: CustomComponentKind] = [
        "ticketOffer": CustomComponentKind(
            type: "ticketOffer", versioning: KindVersioning(introduced: .v3, fallback: "a text with its title"),
            fallback: { json in json["title"]?.stringValue.map { [.text(Component.Text($0))] } ?? [] }),
        "ghost": CustomComponentKind(
            type: "ghost", versioning: KindVersioning(introduced: .v2, fallback: "a ticket offer"),
            fallback: { json in
                var fields = json.objectValue ?? [:]
                fields["type"] = nil
                return [.custom("ticketOffer", fields: fields)]
            }),
    ]
    static let allClientKinds = Set(customKinds.keys)

    public static func run(_ bytes: UnsafeRawBufferPointer) {
        let data = Data(bytes)
        let decoder = ScreenplayDecoder(mode: .lossy, apiVersion: .latest, customKinds: allClientKinds)
        if let screen = try? decoder.decode(Screen.self, from: data).value { check(screen) }
        if let result = try? decoder.decode(CommandResult.self, from: data).value { check(result) }
    }

    /// What the service does before it downgrades: ids on every component, and a screen with a
    /// duplicate id or a dangling binding is a 500, never sent. Then the fresh v4 encoding must
    /// pass the service's verification, or there is nothing to downgrade: its JSON may hold
    /// anything in the members of an app-defined kind, which the app must get right.
    static func asBuilt(_ screen: Screen) -> Screen? {
        let built = screen.assigningComponentIDs()
        guard built.structuralProblems.isEmpty, passesVerification(built) else { return nil }
        return built
    }

    /// Whether the v4 encoding decodes strictly with no issue but unknown kinds: what the
    /// service's verification accepts (a result of an unknown kind is sent as its JSON, which
    /// the app must get right, as the members of an app-defined component).
    static func passesVerification<Value: Codable & Sendable>(_ value: Value) -> Bool {
        let bytes = Oracle.encode(value, at: .latest, target: target)
        guard let decoded = try? ScreenplayDecoder(mode: .strict, apiVersion: .latest, customKinds: allClientKinds).decode(Value.self, from: bytes)
        else { return false }
        return !decoded.issues.contains { $0.kind != .unknownKind }
    }

    static func check(_ input: Screen) {
        guard let screen = asBuilt(input) else { return }
        for version in Oracle.versions {
            for clientKinds in [Set<String>(), allClientKinds] {
                let downgrade = Downgrade(to: version, customKinds: customKinds, clientKinds: clientKinds)
                let shaped = withIDs(downgrade.screen(screen), for: version)
                let what = "screen for \(version) (client kinds \(clientKinds.sorted()))"
                checkKinds(shaped.allComponents, version: version, clientKinds: clientKinds, what: what)
                guard downgrade.screen(shaped) == shaped else { Oracle.fail(target, "\(what): downgrading twice changed the screen") }
                checkDecodes(shaped, version: version, clientKinds: clientKinds, what: what)
                #if FUZZ_PLANTED_BUG
                // Planted: a downgrade that mishandles, for v1, a grid of four columns with a card
                // without an action (its fallback is a list row). The seeds have grids of 2, 3 and
                // 6 columns; one has a card without an action.
                if version == .v1 {
                    for component in screen.allComponents {
                        if case .grid(let grid) = component.content, grid.columns == 4, grid.cards.contains(where: { $0.action == nil }) {
                            Oracle.planted(target, "the v1 fallback of a four-column grid with a card without an action")
                        }
                    }
                }
                #endif
            }
        }
        let hasUnregistered = screen.allComponents.contains {
            if case .unknown(let custom) = $0.content { return customKinds[custom.type] == nil }
            return false
        }
        if !hasUnregistered {
            let latest = Downgrade(to: .latest, customKinds: customKinds, clientKinds: allClientKinds).screen(screen)
            guard latest == screen else { Oracle.fail(target, "downgrading to the latest version changed a screen") }
        }
    }

    static func check(_ input: CommandResult) {
        var result = input
        guard passesVerification(input) else { return }
        if case .screen(let screen) = input.outcome {
            guard let built = asBuilt(screen) else { return }
            result.outcome = .screen(built)
        }
        for version in Oracle.versions {
            for clientKinds in [Set<String>(), allClientKinds] {
                let downgrade = Downgrade(to: version, customKinds: customKinds, clientKinds: clientKinds)
                var shaped = downgrade.result(result)
                if case .screen(let screen) = shaped.outcome { shaped.outcome = .screen(withIDs(screen, for: version)) }
                let what = "command result for \(version) (client kinds \(clientKinds.sorted()))"
                if case .screen(let screen) = shaped.outcome {
                    checkKinds(screen.allComponents, version: version, clientKinds: clientKinds, what: what)
                }
                if version < ClientUpdates.introduced, !shaped.updates.isEmpty {
                    Oracle.fail(target, "\(what): updates reach a client older than \(ClientUpdates.introduced)")
                }
                guard downgrade.result(shaped) == shaped else { Oracle.fail(target, "\(what): downgrading twice changed the result") }
                checkDecodes(shaped, version: version, clientKinds: clientKinds, what: what)
            }
        }
    }

    /// What the service does after a downgrade: from v4, ids for the components a fallback put in.
    static func withIDs(_ screen: Screen, for version: APIVersion) -> Screen {
        version >= ComponentAttributes.introduced ? screen.assigningComponentIDs() : screen
    }

    static func checkKinds(_ components: [Component], version: APIVersion, clientKinds: Set<String>, what: String) {
        for component in components {
            if let payload = component.payload {
                let introduced = type(of: payload).versioning.introduced
                guard introduced <= version else { Oracle.fail(target, "\(what): a \(component.kind) (from \(introduced)) survived") }
            } else if case .unknown(let custom) = component.content {
                guard clientKinds.contains(custom.type), let kind = customKinds[custom.type], kind.versioning.introduced <= version else {
                    Oracle.fail(target, "\(what): app-defined kind '\(custom.type)' reached a client that cannot show it")
                }
            }
        }
    }

    static func checkDecodes<Value: Codable & Sendable>(_ value: Value, version: APIVersion, clientKinds: Set<String>, what: String) {
        let bytes = Oracle.encode(value, at: version, target: target)
        let decoder = ScreenplayDecoder(mode: .strict, apiVersion: version, customKinds: clientKinds)
        let decoded: Decoded<Value>
        do {
            decoded = try decoder.decode(Value.self, from: bytes)
        } catch {
            Oracle.fail(target, "\(what): the client cannot decode what the server sends: \(error)\n  sent: \(Oracle.excerpt(bytes))")
        }
        for issue in decoded.issues {
            let tolerated =
                issue.kind == .unknownKind
                && (issue.message.hasPrefix("unknown action type") || issue.message.hasPrefix("unknown command result type"))
            guard tolerated else { Oracle.fail(target, "\(what): the client reports an issue: \(issue)\n  sent: \(Oracle.excerpt(bytes))") }
        }
        // From v4 every component the client receives carries the id the service gave it.
        if version >= ComponentAttributes.introduced {
            let screen = (decoded.value as? Screen) ?? {
                if case .screen(let screen)? = (decoded.value as? CommandResult)?.outcome { return screen }
                return nil
            }()
            for component in screen?.allComponents ?? [] where component.id == nil {
                Oracle.fail(target, "\(what): a \(component.kind) reaches the client without its id\n  sent: \(Oracle.excerpt(bytes))")
            }
        }
        let again = Oracle.encode(decoded.value, at: version, target: target)
        guard again == bytes else {
            Oracle.fail(target, "\(what): the client's reading re-encodes differently\n  sent:  \(Oracle.excerpt(bytes))\n  again: \(Oracle.excerpt(again))")
        }
    }
}
