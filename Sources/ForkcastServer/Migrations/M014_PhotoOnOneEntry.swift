import Fluent
import SQLKit

/// A photo is shown by one diary entry at most: a unique index, so two requests at once
/// cannot both attach it (the check before the write could not stop that, and deleting one entry
/// then deleted the other's photo). Entries that already share a photo keep it on the earliest;
/// the later ones stop showing it (their nutrition and everything else stay).
struct M014_PhotoOnOneEntry: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("""
            UPDATE diary_entries SET photo_id = NULL
            WHERE photo_id IS NOT NULL AND EXISTS (
              SELECT 1 FROM diary_entries earlier WHERE earlier.photo_id = diary_entries.photo_id
                AND (earlier.created_at < diary_entries.created_at
                     OR (earlier.created_at = diary_entries.created_at AND CAST(earlier.id AS TEXT) < CAST(diary_entries.id AS TEXT))))
            """).run()
        try await sql.create(index: "diary_entries_photo").unique().on(DiaryEntryModel.schema).column("photo_id").run()
    }

    func revert(on database: any Database) async throws {
        try await (database as! any SQLDatabase).drop(index: "diary_entries_photo").run()
    }
}
