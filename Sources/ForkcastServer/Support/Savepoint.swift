import Fluent
import SQLKit

/// A savepoint in the write transaction a connection is inside: a part of a write that fails undoes
/// only its own changes. Group commit gives each writer of a batch one (``WriteBatch``), and a sync
/// push each of the mutations it applies in a shared write (``FluentSyncStore``).
///
/// What the part asks to do after the commit (``WriteContext/afterCommit``) and how to put back
/// what it changed in memory (``WriteContext/onRollback``) are gathered apart: handed to the
/// write's when the savepoint is released, dropped and undone, respectively, when it is rolled back.
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

    static func run<T: Sendable>(_ name: String, on connection: any Database,
                                 _ body: @Sendable () async throws -> T) async throws -> T {
        let sql = connection as! any SQLDatabase
        let (outerCommit, outerRollback) = (WriteContext.afterCommit, WriteContext.onRollback)
        let part = WriteContext.Actions()
        let (afterCommit, onRollback) = (part.afterCommit, part.onRollback)
        do {
            try await sql.raw("SAVEPOINT \(unsafeRaw: name)").run()
        } catch {
            throw Broken(savepoint: name, cause: error, underlying: error)
        }
        do {
            let value = try await WriteContext(database: connection, part).run(body)
            try await sql.raw("RELEASE \(unsafeRaw: name)").run()
            outerCommit?.add(contentsOf: afterCommit)
            outerRollback?.add(contentsOf: onRollback)
            return value
        } catch {
            await onRollback.undo()
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
