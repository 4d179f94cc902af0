import ScreenplayLayoutStore
import SQLKit

/// What the demo's experiments are measured on, in the admin's results.
enum DemoMetrics {
    /// Playlists each exposed user created after their first exposure (0 for most): the home
    /// teaser and the shop are meant to send listeners into the library.
    static let playlistCreations = ExperimentMetric(id: "playlist-creations", name: "Playlists created per exposed user, after exposure") {
        experiment, database in
        try await database.raw(
            """
            SELECT e.user_id AS user_id, e.variant AS variant, COUNT(p.id) AS n FROM screenplay_exposures e
            LEFT JOIN playlists p ON CAST(p.user_id AS TEXT) = e.user_id AND p.created_at >= e.at
            WHERE e.experiment = \(bind: experiment) GROUP BY e.user_id, e.variant
            """
        ).all().map { row in
            (
                user: try row.decode(column: "user_id", as: String.self), variant: try row.decode(column: "variant", as: String.self),
                value: Double(try row.decode(column: "n", as: Int.self))
            )
        }
    }

    /// Offers each exposed user opened on the shop at or after their first exposure (0 for most):
    /// the clicks ``ShopClicks`` records, from the recording offers and buy buttons alike.
    static let shopClicks = ExperimentMetric(id: "shop-clicks", name: "Shop clicks per exposed user, after exposure") {
        experiment, database in
        try await database.raw(
            """
            SELECT e.user_id AS user_id, e.variant AS variant, COUNT(c.id) AS n FROM screenplay_exposures e
            LEFT JOIN shop_clicks c ON CAST(c.user_id AS TEXT) = e.user_id AND c.at >= e.at
            WHERE e.experiment = \(bind: experiment) GROUP BY e.user_id, e.variant
            """
        ).all().map { row in
            (
                user: try row.decode(column: "user_id", as: String.self), variant: try row.decode(column: "variant", as: String.self),
                value: Double(try row.decode(column: "n", as: Int.self))
            )
        }
    }

    /// Every metric, the first shown by default.
    static let all = [playlistCreations, shopClicks]
}
