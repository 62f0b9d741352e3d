import Fluent
import ForkcastCore
import Foundation
import NIOCore
import SQLKit
import Vapor

/// Deletes what has stopped working: expired web sessions and API tokens, sign-in buckets that
/// have long been full again, sync tombstones and push results older than 90 days (a device whose
/// cursor is older is told to pull everything again). Runs at start-up and then every hour on each instance (the deletes
/// are idempotent, so several instances doing it at once is harmless).
enum Housekeeping {
    static let interval: TimeAmount = .hours(1)

    /// One pass; returns how many rows went.
    @discardableResult
    static func run(on db: any Database, now: Date, photoStore: (any PhotoStore)? = nil)
        async throws -> (sessions: Int, tokens: Int, buckets: Int, tombstones: Int, photos: Int) {
        // Every delete goes through the same write gate as everything else.
        let (sessions, tokens, buckets) = try await db.write { tx in
            let sessions = try await WebSessionModel.query(on: tx).filter(\.$expiresAt <= now).count()
            try await WebSessionModel.query(on: tx).filter(\.$expiresAt <= now).delete()
            let tokens = try await TokenModel.query(on: tx).filter(\.$expiresAt <= now).count()
            try await TokenModel.query(on: tx).filter(\.$expiresAt <= now).delete()
            // A bucket untouched for a day has refilled completely: it is the same as no row.
            let sql = tx as any SQLDatabase
            let cutoff = now.timeIntervalSince1970 - 24 * 3600
            let buckets = try await sql.raw("SELECT COUNT(*) AS n FROM login_buckets WHERE updated_at < \(bind: cutoff)").first()?
                .decode(column: "n", as: Int.self) ?? 0
            try await sql.raw("DELETE FROM login_buckets WHERE updated_at < \(bind: cutoff)").run()
            return (sessions, tokens, buckets)
        }
        let sql = db as! any SQLDatabase
        let tombstones = try await pruneTombstones(on: db, now: now)
        let photos = try await photoStore.asyncMap { try await sweepUnattachedPhotos(on: db, store: $0, now: now) } ?? 0
        if sql.dialect.name == "sqlite" {
            // The planner's statistics written and the log emptied in turns at the write gate, as every
            // write: run beside it, each waited for SQLite's lock in the busy handler while the
            // application's writers waited behind it (the first seconds after start-up, every hour).
            try await db.write { tx in try await refreshStatistics(on: tx as any SQLDatabase) }
            _ = try await db.emptySQLiteLog()
        }
        return (sessions, tokens, buckets, tombstones, photos)
    }

    /// How long an uploaded photo may wait for its entry (a client uploads, then logs).
    static let unattachedPhotoGrace: TimeInterval = 24 * 3600

    /// Deletes photos that no diary entry shows a day after their upload (an API upload never
    /// attached, an entry's photo replaced outside a write), with their files and a change each.
    static func sweepUnattachedPhotos(on db: any Database, store: any PhotoStore, now: Date) async throws -> Int {
        let cutoff = now.addingTimeInterval(-unattachedPhotoGrace)
        var removed = 0
        // 500 at a time, each batch found and deleted inside one write (an entry attaching one
        // meanwhile keeps it); only the orphans are read, through the unique index on photo_id.
        while true {
            let batch = try await db.write { tx in
                let rows = try await (tx as any SQLDatabase).raw("""
                    SELECT p.id AS id, p.user_id AS user_id FROM photos p WHERE p.created_at < \(bind: cutoff)
                      AND NOT EXISTS (SELECT 1 FROM diary_entries d WHERE d.photo_id = p.id) LIMIT 500
                    """).all()
                let orphans = try rows.map { (id: try $0.decode(column: "id", as: UUID.self), owner: try $0.decode(column: "user_id", as: UUID.self)) }
                for (owner, photos) in Dictionary(grouping: orphans, by: \.owner) {
                    try await PhotoRepository(db: tx, ownerID: owner, store: store).delete(photos.map(\.id), on: tx, now: now)
                }
                return orphans.count
            }
            removed += batch
            if batch < 500 { return removed }
        }
    }

    /// SQLite's query planner statistics. Without them it reads `user_id = ? AND id IN (…)` through
    /// the owner's index, scanning every food of the person (a week view took 290 ms with 100,000
    /// foods; 2 ms with statistics). Sampled (analysis_limit), so it takes milliseconds.
    static func refreshStatistics(on sql: any SQLDatabase) async throws {
        guard sql.dialect.name == "sqlite" else { return }
        _ = try await sql.raw("PRAGMA analysis_limit = 1000").all()
        _ = try await sql.raw("ANALYZE").all()
    }

    /// Forgets deletions older than ``SyncMerge/tombstoneDays``, remembering per owner the newest
    /// change number forgotten (older cursors answer 410).
    static func pruneTombstones(on db: any Database, now: Date) async throws -> Int {
        let cutoff = now.timeIntervalSince1970 - Double(SyncMerge.tombstoneDays) * 86_400
        return try await db.write { tx in
            let sql = tx as any SQLDatabase
            // Pushes' and creating POSTs' kept answers (Idempotency-Key) go whether or not any deletion does.
            try await sql.raw("DELETE FROM sync_mutations WHERE created_at < \(bind: cutoff)").run()
            let n = try await sql.raw("SELECT COUNT(*) AS n FROM sync_records WHERE op = 'delete' AND changed_at < \(bind: cutoff)").first()?
                .decode(column: "n", as: Int.self) ?? 0
            guard n > 0 else { return 0 }
            try await sql.raw("""
                INSERT INTO sync_horizons (owner_id, pruned_seq)
                SELECT owner_id, MAX(seq) FROM sync_records WHERE op = 'delete' AND changed_at < \(bind: cutoff) GROUP BY owner_id
                ON CONFLICT (owner_id) DO UPDATE SET pruned_seq =
                  CASE WHEN excluded.pruned_seq > sync_horizons.pruned_seq THEN excluded.pruned_seq ELSE sync_horizons.pruned_seq END
                """).run()
            try await sql.raw("DELETE FROM sync_records WHERE op = 'delete' AND changed_at < \(bind: cutoff)").run()
            return n
        }
    }

    /// Schedules ``run`` every hour while the application runs.
    struct Lifecycle: LifecycleHandler {
        func didBootAsync(_ app: Application) async throws {
            let db = app.db
            let now = app.dependencies.now
            let logger = app.logger
            let store = app.photoStore
            let loop = app.eventLoopGroup.next()
            // The food catalogue is loaded (first start, new version) and indexed in the background,
            // so the first search does not wait for it and start-up does not either.
            let catalog = app.catalogState, threads = CatalogState.threads
            Task {
                do { _ = try await catalog.index(db: db, threadPool: threads) } catch {
                    logger.warning("the food catalogue could not be loaded yet: \(String(describing: error))")
                }
            }
            loop.scheduleRepeatedAsyncTask(initialDelay: .seconds(5), delay: Housekeeping.interval) { _ in
                loop.makeFutureWithTask {
                    do { try await Housekeeping.run(on: db, now: now(), photoStore: store) } catch {
                        logger.warning("housekeeping failed: \(String(describing: error))")
                    }
                }
            }
        }
    }
}
