import Fluent
import ForkcastApp
import ForkcastCore
import Vapor

/// `/api/v1/occasions`: meal-first history (seed 004 §7).
struct OccasionsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let occasions = routes.grouped("occasions")
        occasions.get(use: list)
        occasions.get(":id", use: show)
    }

    @Sendable func list(req: Request) async throws -> [OccasionDTO] {
        let query = req.queryParameters
        let limit = try query.int("limit") ?? 20
        guard (1...OccasionRepository.maximumLimit).contains(limit) else {
            throw AppError.badRequest("limit must be 1 to \(OccasionRepository.maximumLimit); got \(limit).")
        }
        let owner = try req.owner
        let occasions = try await owner.occasions.list(before: try query.date("before"), through: try query.date("date"), limit: limit)
        return try await OccasionDTO.list(occasions, owner: owner, now: req.now)
    }

    @Sendable func show(req: Request) async throws -> OccasionDTO {
        let id = try req.idParameter(what: "occasion")
        let owner = try req.owner
        guard let occasion = try await owner.occasions.find(id) else {
            throw AppError.notFound("No occasion with id \(id) exists in your account (an occasion ends with its last entry).")
        }
        return try await OccasionDTO.list([occasion], owner: owner, now: req.now, withEntries: true)[0]
    }
}

struct OccasionDTO: Content {
    struct PhotoThumb: Content { var id: UUID; var thumbnailUrl: String }
    var id: UUID
    var date: CalendarDate
    var mealType: String
    var mealTypeId: UUID?
    var mealTypeName: String
    var firstLoggedAt: Date
    var lastLoggedAt: Date
    var entryCount: Int
    var uncountedEntries: Int
    var totals: MacrosDTO
    var photos: [PhotoThumb]
    var entries: [DiaryEntryDTO]?

    static func list(_ occasions: [OccasionSummary], owner: Owner, now: Date, withEntries: Bool = false) async throws -> [OccasionDTO] {
        let types = try await owner.mealTypes.catalog(now: now)
        var photos: [UUID: Photo] = [:]
        if withEntries { photos = try await owner.photos.find(ids: occasions.flatMap(\.photoIds)) }
        return occasions.map { o in
            let type = types.resolve(o.mealType)
            return OccasionDTO(id: o.id, date: o.date, mealType: o.mealType, mealTypeId: type?.id, mealTypeName: type?.name ?? o.mealType,
                               firstLoggedAt: o.firstLoggedAt, lastLoggedAt: o.lastLoggedAt, entryCount: o.entries.count,
                               uncountedEntries: o.uncounted, totals: MacrosDTO(o.totals),
                               photos: o.photoIds.map { PhotoThumb(id: $0, thumbnailUrl: PhotoURL.thumbnail($0)) },
                               entries: withEntries ? o.entries.map { DiaryEntryDTO($0, owner: owner.id, photos: photos) } : nil)
        }
    }
}
