import Foundation
public import ScreenplayContract

/// A patch the event stream sent for one screen: from the version tagged `from` to `to`.
struct PendingPatch: Sendable {
    let from: String
    let to: String
    let patch: JSONValue
}

extension ScreenLoader {
    /// Keeps a patch the event stream sent for the screen at `reference` (v6, `patches=1`): the
    /// screen's next load applies it to the cached copy instead of asking the server, when that
    /// copy is the version the patch starts from and the result is exactly the version announced
    /// (its canonical bytes carry tag `to`). Anything else (another version cached, a patch that
    /// does not apply, a tag that does not match) is counted in ``patchesRefused`` and the load
    /// asks the server as it would have.
    public func offer(patch: JSONValue, from: String, to: String, for reference: String) {
        guard let url = endpoint.resolve(reference) else { return }
        setPendingPatch(PendingPatch(from: from, to: to, patch: patch), for: url)
    }

    /// The cached screen at `url` with its pending patch applied, or `nil` (no patch, or one that
    /// did not give the announced version: then the caller fetches).
    func applyPendingPatch(for url: URL, reference: String) async -> LoadedScreen? {
        guard let pending = takePendingPatch(for: url) else { return nil }
        guard let cached = cachedCopy(at: url), let held = cached.etag, EntityTag.identity(of: held) == pending.from, let body = cached.body else {
            notePatch(applied: false)
            return nil
        }
        let bytes: [UInt8]
        do {
            let document = try JSONDecoder().decode(JSONValue.self, from: Data(body))
            bytes = try ScreenPatch(json: pending.patch).applied(to: document).canonicalBytes
        } catch {
            notePatch(applied: false)
            return nil
        }
        guard EntityTag.strong(for: bytes) == pending.to, let decoded = try? decoder.decode(Screen.self, from: Data(bytes)) else {
            notePatch(applied: false)
            return nil
        }
        let loaded = LoadedScreen(screen: decoded.value, issues: decoded.issues, etag: pending.to, revalidated: false)
        keep(loaded, body: bytes, for: url)
        notePatch(applied: true)
        await keepOfflineCopyCurrent(reference, etag: loaded.etag, body: bytes)
        return loaded
    }
}
