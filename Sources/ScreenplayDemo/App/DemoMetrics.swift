import ScreenplayContract
import ScreenplayLayoutStore
import SQLKit

/// What the demo's experiments are measured on, in the admin's results.
enum DemoMetrics {
    /// Playlists each exposed user created after their first exposure (0 for most): the home
    /// teaser and the shop are meant to send listeners into the library.
    static let playlistCreations = ExperimentMetric(id: "playlist-creations", name: "Playlists created per exposed user, after exposure") {
        experiment, database in try await rowsAfterExposure(in: "playlists", at: "created_at", experiment: experiment, on: database)
    }

    /// Offers each exposed user opened on the shop at or after their first exposure (0 for most):
    /// the clicks ``ShopClicks`` records, from the recording offers and buy buttons alike.
    static let shopClicks = ExperimentMetric(id: "shop-clicks", name: "Shop clicks per exposed user, after exposure") {
        experiment, database in try await rowsAfterExposure(in: "shop_clicks", at: "at", experiment: experiment, on: database)
    }

    /// Tracks each exposed user played (30 seconds heard, as their apps and pages reported) at
    /// or after their first exposure: whether a variant makes people listen.
    static let plays = ExperimentMetric(id: "plays", name: "Tracks played per exposed user, after exposure") {
        experiment, database in try await eventsAfterExposure(of: .played, experiment: experiment, on: database)
    }

    /// Shop offers each exposed user saw (half on screen for a second, once per page view) at or
    /// after their first exposure: the impressions behind the clicks.
    static let offersSeen = ExperimentMetric(id: "offers-seen", name: "Shop offers seen per exposed user, after exposure") {
        experiment, database in try await eventsAfterExposure(of: .visible, keyPrefix: "shop/", experiment: experiment, on: database)
    }

    /// How many reported events of `kind` (with a key starting `keyPrefix`) each user exposed to
    /// `experiment` sent about moments at or after their exposure, by variant; 0 for none.
    static func eventsAfterExposure(
        of kind: ClientEvent.Kind, keyPrefix: String = "", experiment: String, on database: any SQLDatabase
    ) async throws -> [(user: String, variant: String, value: Double)] {
        try await database.raw(
            """
            SELECT e.user_id AS user_id, e.variant AS variant, COUNT(r.event_id) AS n FROM screenplay_exposures e
            LEFT JOIN screenplay_client_events r ON CAST(r.user_id AS TEXT) = e.user_id AND r.kind = \(bind: kind.rawValue)
                AND r.at >= e.at AND r.key LIKE \(bind: keyPrefix + "%")
            WHERE e.experiment = \(bind: experiment) GROUP BY e.user_id, e.variant
            """
        ).all().map { row in
            (
                user: try row.decode(column: "user_id", as: String.self), variant: try row.decode(column: "variant", as: String.self),
                value: Double(try row.decode(column: "n", as: Int.self))
            )
        }
    }

    /// How many rows of `table` (one of the demo's own, with a `user_id` and the time column
    /// `time`) each user exposed to `experiment` made at or after their exposure, by variant;
    /// 0 for a user who made none.
    static func rowsAfterExposure(
        in table: String, at time: String, experiment: String, on database: any SQLDatabase
    ) async throws -> [(user: String, variant: String, value: Double)] {
        try await database.raw(
            """
            SELECT e.user_id AS user_id, e.variant AS variant, COUNT(r.id) AS n FROM screenplay_exposures e
            LEFT JOIN \(unsafeRaw: table) r ON CAST(r.user_id AS TEXT) = e.user_id AND r.\(unsafeRaw: time) >= e.at
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
    static let all = [playlistCreations, shopClicks, plays, offersSeen]
}
