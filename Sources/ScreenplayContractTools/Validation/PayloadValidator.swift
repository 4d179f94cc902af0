public import Foundation
public import ScreenplayContract

/// Decodes a payload exactly as a client of one API version would and reports every problem:
/// the engine behind `screenplay validate`.
public struct PayloadValidator: Sendable {
    /// What the payload is supposed to be.
    public enum Kind: Sendable {
        /// A screen (`GET …/screens/…`).
        case screen
        /// A command result (`POST …/commands/…`).
        case commandResult
    }

    /// The outcome.
    public struct Report: Sendable, Hashable {
        /// Problems, each `path: message`, in document order.
        public let problems: [String]

        /// Whether the payload decodes with no issue at all.
        public var isClean: Bool { problems.isEmpty }

        /// `clean: …` or `N issues`.
        public var summary: String {
            isClean ? "clean: decodes with no issues" : "\(problems.count) issue\(problems.count == 1 ? "" : "s")"
        }
    }

    /// The client version to decode as.
    public let apiVersion: APIVersion

    /// A validator for clients of `apiVersion`.
    public init(apiVersion: APIVersion) { self.apiVersion = apiVersion }

    /// Validates `data`.
    public func validate(_ data: Data, as kind: Kind) -> Report {
        let decoder = ScreenplayDecoder(mode: .lossy, apiVersion: apiVersion)
        do {
            let issues: [DecodingIssue]
            switch kind {
            case .screen: issues = try decoder.decode(Screen.self, from: data).issues
            case .commandResult: issues = try decoder.decode(CommandResult.self, from: data).issues
            }
            return Report(problems: issues.map(\.description))
        } catch {
            return Report(problems: [error.description])
        }
    }
}
