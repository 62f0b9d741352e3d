import Fluent
import ForkcastApp
import ForkcastCore
import Foundation
import SQLKit
import Vapor

/// One person's photos (seed 004): uploaded once, checked by content, stored without metadata,
/// private to their owner, deleted with their entry.
struct PhotoRepository {
    let db: any Database
    let ownerID: UUID
    let store: any PhotoStore
    /// What all of the person's photos may take (AppConfig.photoQuotaBytes).
    var quotaBytes: Int64 = .max

    /// The largest thumbnail accepted from a client (it is still checked like the photo).
    static let maximumThumbnailBytes = 256 * 1024
    static let maximumThumbnailSide = 640

    /// Checks, strips and stores a photo (and its thumbnail: the client's, else the one embedded in
    /// a JPEG, else none and the photo itself stands in).
    func create(_ data: Data, thumbnail clientThumbnail: Data?, capturedAt: Date?, id: UUID, now: Date) async throws -> Photo {
        // Parsing and stripping are CPU work on up to 15 MB: done on the thread pool, not an event loop.
        let (image, stripped, thumbnail) = try await NIOThreadPool.singleton.runIfActive { try Self.prepare(data, thumbnail: clientThumbnail) }
        let photo = Photo(id: id, format: image.format, width: image.width, height: image.height, byteSize: stripped.count,
                          capturedAt: capturedAt ?? now, createdAt: now, updatedAt: now)
        let quota = quotaBytes, ownerID = ownerID
        try await db.write { tx in
            if quota < .max {
                let row = try await (tx as any SQLDatabase).raw("SELECT CAST(COALESCE(SUM(byte_size + thumbnail_size), 0) AS BIGINT) AS used FROM photos WHERE user_id = \(bind: ownerID)").first()
                let used = try row?.decode(column: "used", as: Int64.self) ?? 0
                if used + Int64(stripped.count + (thumbnail?.count ?? 0)) > quota {
                    throw AppError.payloadTooLarge("Your photos take \(used >> 20) MB of the \(quota >> 20) MB this server keeps for each person, and this one does not fit. Nothing was saved: delete photo entries you no longer need, or ask the server's owner to raise FORKCAST_PHOTO_QUOTA_MB.")
                }
            }
            let model = PhotoModel()
            model.id = id
            model.ownerID = ownerID
            model.format = photo.format.rawValue
            model.width = photo.width
            model.height = photo.height
            model.byteSize = photo.byteSize
            model.thumbnailSize = thumbnail?.count ?? 0
            model.capturedAt = photo.capturedAt
            model.createdAt = now
            model.updatedAt = now
            try await model.create(on: tx)
            try await store.save(id, variant: .full, data: stripped, on: tx)
            if let thumbnail { try await store.save(id, variant: .thumbnail, data: thumbnail, on: tx) }
            try await SyncLog.record(.photo, [id], op: .upsert, owner: ownerID, on: tx, now: now)
        }
        return photo
    }

    /// The photo checked and stripped of its metadata, with the thumbnail to keep; what a photo must be
    /// is refused as ``appError(_:field:)`` says.
    static func prepare(_ data: Data, thumbnail clientThumbnail: Data?) throws -> (image: ImageFile, stripped: Data, thumbnail: Data?) {
        let image: ImageFile, stripped: Data
        do {
            image = try ImageFile.inspect(data)
            stripped = try ImageFile.strippingMetadata(data)
        } catch { throw Self.appError(error, field: "photo") }
        guard let clientThumbnail, !clientThumbnail.isEmpty else { return (image, stripped, ImageFile.embeddedThumbnail(data)) }
        do {
            let small = try ImageFile.inspect(clientThumbnail)
            guard clientThumbnail.count <= Self.maximumThumbnailBytes, max(small.width, small.height) <= Self.maximumThumbnailSide,
                  small.format != .heic else {
                throw AppError.validation(ValidationError(field: "thumbnail", "A thumbnail is a JPEG, PNG or WebP of at most \(Self.maximumThumbnailSide) px per side and \(Self.maximumThumbnailBytes / 1024) KB."))
            }
            return (image, stripped, try ImageFile.strippingMetadata(clientThumbnail))
        } catch let error as ImageFile.Problem { throw Self.appError(error, field: "thumbnail") }
    }

    func find(_ id: UUID) async throws -> Photo? { try await find(ids: [id])[id] }

    func find(ids: [UUID]) async throws -> [UUID: Photo] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await PhotoModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$id ~~ ids).all()
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.id!, Self.photo($0)) })
    }

    /// The bytes to serve (the photo itself when it has no thumbnail); nil for another person's photo.
    func bytes(_ id: UUID, variant: PhotoVariant) async throws -> (Data, ImageFormat)? {
        guard let model = try await PhotoModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$id == id).first(),
              let format = ImageFormat(rawValue: model.format) else { return nil }
        if variant == .thumbnail, model.thumbnailSize > 0, let data = try await store.load(id, variant: .thumbnail, on: db) {
            return (data, (try? ImageFile.inspect(data).format) ?? .jpeg)
        }
        guard let data = try await store.load(id, variant: .full, on: db) else { return nil }
        return (data, format)
    }

    /// Deletes photos (inside the caller's write transaction).
    func delete(_ ids: [UUID], on tx: any Database, now: Date) async throws {
        guard !ids.isEmpty else { return }
        try await store.remove(ids, on: tx)
        try await PhotoModel.query(on: tx).filter(\.$ownerID == ownerID).filter(\.$id ~~ ids).delete()
        try await SyncLog.record(.photo, ids, op: .delete, owner: ownerID, on: tx, now: now)
    }

    /// Not an image of ours: 415; an image we cannot use: 422.
    static func appError(_ problem: ImageFile.Problem, field: String) -> AppError {
        switch problem {
        case .notAnImage, .unsupported: .unsupportedMediaType(problem.message)
        default: .validation(ValidationError(field: field, problem.message))
        }
    }

    static func photo(_ m: PhotoModel) -> Photo {
        Photo(id: m.id!, format: ImageFormat(rawValue: m.format) ?? .jpeg, width: m.width, height: m.height, byteSize: m.byteSize,
              capturedAt: m.capturedAt, createdAt: m.createdAt, updatedAt: m.updatedAt)
    }
}
