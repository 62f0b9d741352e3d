import Fluent
import ForkcastApp
import ForkcastCore
import Foundation
import SQLKit
import Vapor

/// Where photo bytes live, behind one interface: a folder in the data directory for SQLite (the
/// database stays small and a backup copies the folder), the database itself for PostgreSQL (every
/// instance serves the same photos with no other service to run; an S3-compatible store would be
/// a third implementation of this protocol).
protocol PhotoStore: Sendable {
    /// Called inside the write transaction that creates the photo's row.
    func save(_ id: UUID, variant: PhotoVariant, data: Data, on db: any Database) async throws
    func load(_ id: UUID, variant: PhotoVariant, on db: any Database) async throws -> Data?
    /// Called inside the write transaction that deletes the rows; files go once it commits.
    func remove(_ ids: [UUID], on db: any Database) async throws
}

extension Application {
    /// The photo store for the configured database.
    var photoStore: any PhotoStore {
        switch forkcastConfig.storage {
        case .sqlite: DirectoryPhotoStore(directory: (forkcastConfig.dataDirectory as NSString).appendingPathComponent("photos"))
        case .postgres: DatabasePhotoStore()
        }
    }
}
