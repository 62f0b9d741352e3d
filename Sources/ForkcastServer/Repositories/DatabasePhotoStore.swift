import Fluent
import ForkcastApp
import ForkcastCore
import Foundation
import SQLKit
import Vapor

struct DatabasePhotoStore: PhotoStore {
    func save(_ id: UUID, variant: PhotoVariant, data: Data, on db: any Database) async throws {
        let blob = PhotoBlobModel()
        blob.id = UUID.timeOrdered()
        blob.photoID = id
        blob.variant = variant.rawValue
        blob.data = data
        try await blob.create(on: db)
    }

    func load(_ id: UUID, variant: PhotoVariant, on db: any Database) async throws -> Data? {
        try await PhotoBlobModel.query(on: db).filter(\.$photoID == id).filter(\.$variant == variant.rawValue).first()?.data
    }

    func remove(_ ids: [UUID], on db: any Database) async throws {
        guard !ids.isEmpty else { return }
        try await PhotoBlobModel.query(on: db).filter(\.$photoID ~~ ids).delete()
    }
}
