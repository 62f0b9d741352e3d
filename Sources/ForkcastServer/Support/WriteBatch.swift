import Fluent
import ForkcastCore
import Foundation
import SQLKit
import NIOConcurrencyHelpers
import Vapor

/// One SQLite transaction shared by the writers that queued while it was open (group commit).
actor WriteBatch {
    /// A writer's error once the batch was opened: the gate is already taken care of.
    struct Opened: Error { let underlying: any Error }

    nonisolated let connection: any Database
    /// Each writer's part of the batch.
    static let savepoint = "forkcast_write"
    private var broken: (any Error)?
    private var outcome: Result<Void, any Error>?
    private var waiting: [CheckedContinuation<Void, any Error>] = []

    init(_ connection: any Database) { self.connection = connection }

    /// Runs one writer's changes in a savepoint, then hands the transaction to the next writer
    /// waiting or, with nobody waiting, commits it; returns once the batch is committed.
    nonisolated func take<T: Sendable>(turnOf body: @escaping @Sendable (WriteTransaction) async throws -> T,
                                       actions: WriteTransaction.Actions, gate: WriteGate) async throws -> T {
        let connection = connection
        let mine: Result<T, any Error>
        do {
            let tx = WriteTransaction(connection, actions, gate: gate)
            let value = try await Savepoint.run(Self.savepoint, on: tx) { try await body(tx) }
            mine = .success(value)
        } catch let broken as Savepoint.Broken where broken.savepoint == Self.savepoint {
            await breakBatch(broken.cause)
            mine = .failure(broken.underlying)
        } catch {
            mine = .failure(error)
        }
        if !(await gate.passOn(self)) {
            await commit()
            await gate.release()
        }
        var commitError: (any Error)?
        do { try await committed() } catch { commitError = error }
        switch mine {
        case .failure(let error): throw Opened(underlying: error)
        case .success(let value):
            if let commitError { throw Opened(underlying: commitError) }
            return value
        }
    }

    /// The transaction can no longer be trusted (a savepoint could not be opened or rolled back): roll it all back.
    private func breakBatch(_ error: any Error) { if broken == nil { broken = error } }

    private func commit() async {
        let sql = connection as! any SQLDatabase
        let result: Result<Void, any Error>
        if let broken {
            try? await sql.raw("ROLLBACK").run()
            result = .failure(broken)
        } else {
            do {
                try await sql.raw("COMMIT").run()
                result = .success(())
            } catch {
                try? await sql.raw("ROLLBACK").run()
                result = .failure(error)
            }
        }
        outcome = result
        for continuation in waiting { continuation.resume(with: result) }
        waiting = []
    }

    private func committed() async throws {
        if let outcome { return try outcome.get() }
        try await withCheckedThrowingContinuation { waiting.append($0) }
    }
}
