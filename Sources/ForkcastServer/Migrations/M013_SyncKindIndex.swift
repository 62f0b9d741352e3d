import Fluent
import SQLKit

/// Where one kind of a person's records stands in the change feed (``SyncLog/version(of:column:)``,
/// read with every bearer token so logging can keep the person's meal types): the last change is
/// one seek and the count a short range on (owner, kind, seq). Without it SQLite walked the feed
/// index (owner, seq) back from the head, past every newer change of other kinds (docs/performance.md).
struct M013_SyncKindIndex: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.create(index: "sync_records_kind_seq").on(SyncLog.table).column("owner_id").column("kind").column("seq").run()
    }

    func revert(on database: any Database) async throws {
        try await (database as! any SQLDatabase).drop(index: "sync_records_kind_seq").run()
    }
}
