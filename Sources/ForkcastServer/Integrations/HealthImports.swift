import Foundation
import ForkcastContract
import NIOPosix
import Vapor

/// Imports in progress, per user (one at a time), and how far each has read.
/// Each application has its own (`Application.healthImports`, made by `configure`).
actor HealthImports {
    /// A thread of its own: parsing gigabytes must not hold up the pool that runs every SQLite
    /// query and file read. Imports from several users (and applications) take turns on it. A
    /// thread of the process, like the event loops: starting one blocks its caller until the
    /// thread runs, which must not happen on an event loop for every application made.
    nonisolated var parsingThread: NIOThreadPool { Self.thread }

    private static let thread: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        return pool
    }()

    typealias Status = HealthImportStatus

    private var running: [UUID: Status] = [:]

    func begin(_ user: UUID) -> Bool {
        guard running[user] == nil else { return false }
        running[user] = Status(running: true, phase: .uploading, bytesRead: 0, bytesTotal: 0)
        return true
    }

    func update(_ user: UUID, phase: Status.Phase, bytesRead: Int64, bytesTotal: Int64) {
        guard running[user] != nil else { return }
        running[user] = Status(running: true, phase: phase, bytesRead: bytesRead, bytesTotal: bytesTotal)
    }

    func end(_ user: UUID) { running[user] = nil }

    func status(_ user: UUID) -> Status { running[user] ?? Status(running: false, phase: nil, bytesRead: 0, bytesTotal: 0) }
}

extension Application {
    private struct HealthImportsKey: StorageKey { typealias Value = HealthImports }

    /// This application's Apple Health imports under way (set up by `configure`).
    var healthImports: HealthImports {
        get { configured(HealthImportsKey.self) }
        set { storage[HealthImportsKey.self] = newValue }
    }
}
