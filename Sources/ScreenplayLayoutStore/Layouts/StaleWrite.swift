/// A write refused because what it was made to has changed since its writer read it: what that
/// is, its version now, and what changed, so the writer can look again instead of guessing.
public struct StaleWrite: Sendable, Hashable, CustomStringConvertible {
    /// What was written to, in words: `experiment 'shop-free-shipping'`, `the draft of 'shop'`.
    public var subject: String
    /// Its version now (an ETag, quotes included); `nil` when it does not exist now.
    public var currentVersion: String?
    /// Who changed it last, when known.
    public var changedBy: String?
    /// When (ISO 8601, UTC), when known.
    public var changedAt: String?
    /// What changed since the version the writer read, in words (`weights control 50 → 70`), when
    /// that version is still known to the store; `nil` when it is not (too old, or never ours).
    public var changes: String?

    /// A refusal of a write to `subject`.
    public init(subject: String, currentVersion: String?, changedBy: String? = nil, changedAt: String? = nil, changes: String? = nil) {
        self.subject = subject
        self.currentVersion = currentVersion
        self.changedBy = changedBy
        self.changedAt = changedAt
        self.changes = changes
    }

    /// One sentence: what changed, by whom, and what to do.
    public var description: String {
        var words = currentVersion == nil ? "\(subject) is gone since you read it" : "\(subject) changed since you read it"
        if let changedBy { words += " (by \(changedBy)\(changedAt.map { " at \($0)" } ?? ""))" }
        if let changes, !changes.isEmpty { words += ": \(changes)" }
        return words + "; nothing was written. Read it again, redo your change on what is there now, and send that."
    }
}
