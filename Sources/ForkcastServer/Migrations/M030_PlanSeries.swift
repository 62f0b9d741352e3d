import Fluent
import SQLKit

/// Repeating plan entries (``Assignment/seriesId``): the days of one repeat share a series id,
/// found by its index when one day's change reaches the others.
struct M030_PlanSeries: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(AssignmentModel.schema).field("series_id", .uuid).update()
        try await (database as! any SQLDatabase).raw("CREATE INDEX assignments_series ON assignments (series_id) WHERE series_id IS NOT NULL").run()
    }

    func revert(on database: any Database) async throws {
        try await (database as! any SQLDatabase).raw("DROP INDEX assignments_series").run()
        try await database.schema(AssignmentModel.schema).deleteField("series_id").update()
    }
}
