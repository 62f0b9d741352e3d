import Fluent
import SQLKit

/// A savepoint in the write transaction a connection is inside: a part of a write that fails undoes
/// only its own changes. Group commit gives each writer of a batch one (``WriteBatch``), and a sync
/// push each of the mutations it applies in a shared write (``FluentSyncStore``).
///
/// What the part asks to do after the commit (``WriteTransaction/afterCommit(_:)``) and how to put
/// back what it changed in memory (``WriteTransaction/onRollback(_:)``) are gathered apart, as the
/// transaction's innermost part: handed to the part around it when the savepoint is released,
/// dropped and undone, respectively, when it is rolled back.
enum Savepoint {
    /// The savepoint could not be opened or rolled back, so the transaction around it can no longer
    /// be trusted (SQLite rolls a whole transaction back after a full disk or an I/O error, and
    /// `ROLLBACK TO` then finds no savepoint). `cause` is the savepoint's error, `underlying` the
    /// part's (the same when the savepoint could not be opened). A part that throws another
    /// savepoint's `Broken` threw an error like any other: its own savepoint is rolled back.
    struct Broken: Error {
        /// The savepoint's name: a savepoint inside the part is the part's own affair.
        let savepoint: String
        let cause: any Error
        let underlying: any Error
    }

    static func run<T: Sendable>(_ name: String, on tx: WriteTransaction,
                                 _ body: @Sendable () async throws -> T) async throws -> T {
        let sql: any SQLDatabase = tx
        do {
            try await sql.raw("SAVEPOINT \(unsafeRaw: name)").run()
        } catch {
            throw Broken(savepoint: name, cause: error, underlying: error)
        }
        let part = WriteTransaction.Actions()
        tx.parts.withLockedValue { $0.append(part) }
        // The part ends here however the body ends: the part around it is the innermost again.
        func end() -> WriteTransaction.Actions {
            tx.parts.withLockedValue { parts in
                parts.removeAll { $0.afterCommit === part.afterCommit }
                return parts.last!
            }
        }
        do {
            let value = try await body()
            try await sql.raw("RELEASE \(unsafeRaw: name)").run()
            let outer = end()
            outer.afterCommit.add(contentsOf: part.afterCommit)
            outer.onRollback.add(contentsOf: part.onRollback)
            return value
        } catch {
            _ = end()
            await part.onRollback.undo()
            do {
                try await sql.raw("ROLLBACK TO \(unsafeRaw: name)").run()
                try await sql.raw("RELEASE \(unsafeRaw: name)").run()
            } catch let rollback {
                throw Broken(savepoint: name, cause: rollback, underlying: error)
            }
            throw error
        }
    }
}
