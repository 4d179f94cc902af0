import Foundation
import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer

/// What became of a widget on a composed page, in words a product person reads: "hidden on app
/// versions before 4", "shown as a list row with the title and composer on this app", "left out:
/// its provider took longer than 250 ms". The composer's own descriptions name mechanisms
/// ("fallback: the client does not render the kind"); these name what a user sees and why.
enum WidgetFate {
    /// The fate of `report`'s widget, told with its instance (for its conditions) and its kind's
    /// contract (for what older apps see instead), when known.
    static func words(for report: WidgetReport, instance: WidgetInstance?, contract: WidgetContract?, context: String = "this app") -> String {
        switch report.outcome {
        case .shown:
            return "shown"
        case .fallback(.kindNotRendered):
            let instead = contract?.versioning.fallback ?? "a simpler component"
            return "shown as \(instead): \(context) cannot draw a \(report.kind)"
        case .fallback(.unavailable(let reason)):
            return "a stand-in shown: " + left(reason)
        case .omitted(.conditionNotMet(let mismatch)):
            return "hidden: " + hidden(mismatch, conditions: instance?.conditions)
        case .omitted(.noFallbackForClient):
            return "hidden: \(context) cannot draw a \(report.kind), and it has nothing simpler to show instead"
        case .omitted(let reason):
            return "left out: " + left(reason)
        }
    }

    /// Why a condition hid it, with the condition's own values.
    static func hidden(_ mismatch: ConditionMismatch, conditions: WidgetConditions?) -> String {
        switch mismatch {
        case .platform(let platform):
            let listed = conditions?.platforms.map { $0.map(\.rawValue).sorted().joined(separator: " and ") }
            return "not shown on \(platform.rawValue)" + (listed.map { " (only on \($0))" } ?? "")
        case .apiVersion(let version):
            if let minimum = conditions?.apiVersions?.minimum, version < minimum {
                return "on app versions before \(minimum.rawValue) (this is \(version.rawValue))"
            }
            if let maximum = conditions?.apiVersions?.maximum, version > maximum {
                return "on app versions after \(maximum.rawValue) (this is \(version.rawValue))"
            }
            return "on app version \(version.rawValue)"
        case .locale(let locale):
            let listed = conditions?.locales?.joined(separator: ", ")
            return "for \(locale.map { "language \($0)" } ?? "users without a language")" + (listed.map { " (only for \($0))" } ?? "")
        case .segment:
            let listed = conditions?.segments.map { $0.sorted().joined(separator: ", ") }
            return "for users outside " + (listed.map { "the segments \($0)" } ?? "its segments")
        case .experiment(let key, let variant?):
            let listed = conditions?.experiment.map { $0.variants.sorted().joined(separator: ", ") }
            return "for variant \(variant) of \(key)" + (listed.map { " (only for \($0))" } ?? "")
        case .experiment(let key, nil):
            return "for users outside experiment \(key)"
        case .notYetStarted(let start):
            return "until \(AdminTime.words(start)) (scheduled)"
        case .ended(let end):
            return "since \(AdminTime.words(end)) (its schedule ended)"
        }
    }

    /// Why it is not on the page when nothing planned it so.
    static func left(_ reason: OmissionReason) -> String {
        switch reason {
        case .disabled: "switched off"
        case .timedOut(let after): "its provider took longer than \(after.formattedMilliseconds)"
        case .providerFailed(let error): "its provider failed (\(error))"
        case .noProvider: "no service provides its data"
        case .unknownKind: "this server does not know its kind"
        case .missingFromResponse: "its provider answered without it"
        case .cancelled: "the request was cancelled"
        case .tooLarge(let bytes, let limit): "its provider sent \(bytes) bytes, over the \(limit)-byte limit"
        case .malformedJSON, .contractViolation, .unresolvedBinding, .fallbackUnencodable, .invalidInstance:
            "its provider's answer was broken (\(reason))"
        case .conditionNotMet(let mismatch): "hidden (\(mismatch))"
        case .noFallbackForClient: "this app cannot draw it"
        }
    }

    /// Whether the outcome is a failure of a provider (worth a retry), not a decision.
    static func isProviderFailure(_ outcome: WidgetOutcome) -> Bool {
        switch outcome {
        case .omitted(let reason), .fallback(.unavailable(let reason)):
            switch reason {
            case .timedOut, .providerFailed, .missingFromResponse, .malformedJSON, .contractViolation, .tooLarge, .unresolvedBinding: true
            default: false
            }
        default: false
        }
    }
}

/// Times as the admin reads and writes them: `2026-12-01 10:00 Europe/Zurich`, in the one zone
/// the admin chose (``zone``, UTC until they choose), on every page and in every picker, so a
/// schedule, an experiment's start and the audit log's rows all read on the same clock.
enum AdminTime {
    /// The zone of the request being answered: the admin's choice (their zone cookie), set around
    /// the whole answer by ``AdminSite/respond(to:body:clientAddress:)``.
    @TaskLocal static var zone: TimeZone = utcZone

    static let utcZone = TimeZone(identifier: "UTC")!

    /// What the zone is called beside a time: its identifier (`Europe/Zurich`), or `UTC` (which
    /// some platforms name `GMT`).
    static var zoneName: String { ["GMT", "UTC"].contains(zone.identifier) ? "UTC" : zone.identifier }

    static func words(_ date: Date) -> String { inZone("yyyy-MM-dd HH:mm").string(from: date) + " " + zoneName }

    /// A formatter of `pattern` in the admin's zone, in the fixed POSIX locale (the same digits
    /// everywhere): what pickers show and are read with.
    static func inZone(_ pattern: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter
    }

    /// The zone named `identifier` (`Europe/Zurich`), if the system knows it by that name.
    static func known(_ identifier: String) -> TimeZone? {
        let trimmed = identifier.trimmingCharacters(in: .whitespaces)
        guard trimmed == "UTC" || TimeZone.knownTimeZoneIdentifiers.contains(trimmed) else { return nil }
        return TimeZone(identifier: trimmed)
    }
}
