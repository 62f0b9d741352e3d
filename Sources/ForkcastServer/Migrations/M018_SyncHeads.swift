import Fluent
import SQLKit

/// PostgreSQL: each owner's newest change number in a row of its own (`seq`), and how many
/// changes the write that last moved it numbered (`added`), so one statement can number changes
/// and record them (``SyncLog/recording(_:_:op:origin:)``). Filled from the change feed and
/// the pruning horizons. SQLite numbers changes under its one writer and keeps no such row.
struct M018_SyncHeads: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        guard sql.dialect.name == "postgresql" else { return }
        try await database.schema("sync_heads")
            .field("owner_id", .uuid, .identifier(auto: false), .references(UserModel.schema, "id", onDelete: .cascade))
            .field("seq", .int64, .required)
            .field("added", .int64, .required)
            .create()
        try await sql.raw("""
            INSERT INTO sync_heads (owner_id, seq, added)
            SELECT owner_id, MAX(seq), 0 FROM (
              SELECT owner_id, seq FROM sync_records UNION ALL SELECT owner_id, pruned_seq FROM sync_horizons) AS heads
            GROUP BY owner_id
            """).run()
    }

    func revert(on database: any Database) async throws {
        guard (database as! any SQLDatabase).dialect.name == "postgresql" else { return }
        try await database.schema("sync_heads").delete()
    }
}
