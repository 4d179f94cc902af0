public import Foundation
import Synchronization

/// A user seeing a variant of an experiment for the first time: the unit an experiment report
/// counts ("exposures per variant").
///
/// An exposure is recorded when the composer evaluates a widget condition that names the
/// experiment for a user who has a variant, and every other condition of that widget holds: the
/// moment the experiment decides what the user sees, whichever variant that is.
public struct Exposure: Codable, Sendable, Hashable {
    /// Who was exposed.
    public var userID: String
    /// The experiment's key.
    public var experiment: String
    /// The variant they were bucketed into.
    public var variant: String
    /// When the composition that exposed them ran.
    public var at: Date

    /// Creates an exposure.
    public init(userID: String, experiment: String, variant: String, at: Date) {
        self.userID = userID
        self.experiment = experiment
        self.variant = variant
        self.at = at
    }
}

/// Where first exposures are kept. The composer records every exposure of every page; the
/// recorder keeps only the first of each (user, experiment, variant), so a user who opens the
/// page a hundred times counts once.
///
/// The in-memory recorder serves tests and single-process demos; the store adds a table-backed
/// one. Recording runs beside the widget providers and never fails a page: an error is logged.
public protocol ExposureRecorder: Sendable {
    /// Records `exposure` unless the same (user, experiment, variant) was recorded before;
    /// returns whether this call recorded it.
    func recordFirstExposure(_ exposure: Exposure) async throws -> Bool

    /// Whether this recorder knows, without asking anything slower than its memory, that
    /// `exposure`'s (user, experiment, variant) is recorded: such an exposure is not recorded
    /// again, so a page served to a user already counted costs no call. `false` when unsure.
    func isKnownRecorded(_ exposure: Exposure) -> Bool
}

extension ExposureRecorder {
    /// Unsure: every exposure is recorded (the recorder sees the repeat).
    public func isKnownRecorded(_ exposure: Exposure) -> Bool { false }
}

/// First exposures in memory, with a per-variant report. Lost at exit.
public final class InMemoryExposureRecorder: ExposureRecorder {
    private struct Key: Hashable {
        let userID: String
        let experiment: String
        let variant: String
    }

    private let recorded = Mutex<[Key: Exposure]>([:])

    /// An empty recorder.
    public init() {}

    /// Whether `exposure`'s (user, experiment, variant) is recorded.
    public func isKnownRecorded(_ exposure: Exposure) -> Bool {
        let key = Key(userID: exposure.userID, experiment: exposure.experiment, variant: exposure.variant)
        return recorded.withLock { $0[key] != nil }
    }

    /// Records the exposure when it is the first of its (user, experiment, variant).
    public func recordFirstExposure(_ exposure: Exposure) async throws -> Bool {
        let key = Key(userID: exposure.userID, experiment: exposure.experiment, variant: exposure.variant)
        return recorded.withLock { recorded in
            guard recorded[key] == nil else { return false }
            recorded[key] = exposure
            return true
        }
    }

    /// Every first exposure to `experiment`, oldest first (then by user).
    public func exposures(to experiment: String) -> [Exposure] {
        recorded.withLock { Array($0.values) }.filter { $0.experiment == experiment }.sorted {
            ($0.at, $0.userID, $0.variant) < ($1.at, $1.userID, $1.variant)
        }
    }

    /// How many users were first exposed to each variant of `experiment`.
    public func exposureCounts(for experiment: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for exposure in exposures(to: experiment) { counts[exposure.variant, default: 0] += 1 }
        return counts
    }
}
