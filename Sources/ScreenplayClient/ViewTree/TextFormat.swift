import Foundation
import ScreenplayContract

/// Every text the client derives from data, decided once for every renderer.
public enum TextFormat {
    /// `1 recording`, `2 recordings`, `No recordings`.
    public static func recordingCount(_ count: Int) -> String {
        switch count {
        case ...0: "No recordings"
        case 1: "1 recording"
        default: "\(count) recordings"
        }
    }

    /// `7:41`, or `1:02:03` from an hour.
    public static func duration(seconds: Int) -> String { Component.TrackRow.format(seconds) }

    /// What the favorite toggle offers: the opposite of its state.
    public static func favoriteTitle(isFavorite: Bool) -> String { isFavorite ? "Remove from favorites" : "Add to favorites" }

    /// The play button's spoken label.
    public static func playLabel(_ title: String) -> String { "Play \(title)" }

    /// A duration as spoken: `7 minutes 41 seconds`.
    public static func spokenDuration(seconds: Int) -> String {
        let hours = seconds / 3600
        let minutes = seconds % 3600 / 60
        let rest = seconds % 60
        func unit(_ value: Int, _ name: String) -> String? {
            guard value > 0 else { return nil }
            return value == 1 ? "1 \(name)" : "\(value) \(name)s"
        }
        let parts = [unit(hours, "hour"), unit(minutes, "minute"), unit(rest, "second")].compactMap { $0 }
        return parts.isEmpty ? "0 seconds" : parts.joined(separator: " ")
    }

}
