import Fluent
import ForkcastApp
import ForkcastCore
import Foundation
import SQLKit
import Vapor

struct DirectoryPhotoStore: PhotoStore {
    let directory: String

    private func path(_ id: UUID, _ variant: PhotoVariant) -> String { "\(directory)/\(Self.relativePath(id, variant))" }

    /// Where a photo's file is inside the photo folder (and inside a backup's).
    static func relativePath(_ id: UUID, _ variant: PhotoVariant) -> String {
        let name = id.uuidString.lowercased()
        return "\(name.prefix(2))/\(name).\(variant.rawValue)"
    }

    func save(_ id: UUID, variant: PhotoVariant, data: Data, on db: any Database) async throws {
        let target = path(id, variant)
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // Written whole to a temporary name, flushed, then renamed: a crash leaves the old state or the new.
        let temporary = target + ".part"
        guard FileManager.default.createFile(atPath: temporary, contents: nil) else { throw AppError.storageUnavailable }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
        try handle.write(contentsOf: data)
        try handle.synchronize()
        try handle.close()
        if rename(temporary, target) != 0 { throw AppError.storageUnavailable }
        // The rename is durable only once the folder that holds the name is flushed too.
        try Self.synchronizeDirectory((target as NSString).deletingLastPathComponent)
    }

    static func synchronizeDirectory(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else { throw AppError.storageUnavailable }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw AppError.storageUnavailable }
    }

    func load(_ id: UUID, variant: PhotoVariant, on db: any Database) async throws -> Data? {
        FileManager.default.contents(atPath: path(id, variant))
    }

    func remove(_ ids: [UUID], on db: any Database) async throws {
        let paths = ids.flatMap { id in PhotoVariant.allCases.map { path(id, $0) } }
        let delete: @Sendable () async -> Void = { for p in paths { try? FileManager.default.removeItem(atPath: p) } }
        if let tx = db as? WriteTransaction { tx.afterCommit(delete) } else { await delete() }
    }
}
