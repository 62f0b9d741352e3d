import Fluent
import ForkcastApp
import ForkcastContract
import ForkcastCore
import Vapor

/// `/api/v1/occasions`: meal-first history (seed 004 §7), as ForkcastContract's ``Occasions``.
enum OccasionsController {
    static func register(_ routes: OperationRoutes) {
        routes.on(Occasions.List.self) { req, query, _ in
            let limit = query.limit ?? 20
            guard (1...OccasionQuery.maximumLimit).contains(limit) else {
                throw AppError.badRequest("limit must be 1 to \(OccasionQuery.maximumLimit); got \(limit).")
            }
            let owner = try req.owner
            let occasions = try await owner.occasions.list(before: query.before, through: query.date, limit: limit)
            return try await answers(occasions, owner: owner, now: req.now)
        }
        routes.on(Occasions.Get.self) { req, parameters, _ in
            let owner = try req.owner
            guard let occasion = try await owner.occasions.find(parameters.id) else {
                throw AppError.notFound("No occasion with id \(parameters.id) exists in your account (an occasion ends with its last entry).")
            }
            return try await answers([occasion], owner: owner, now: req.now, withEntries: true)[0]
        }
    }

    static func answers(_ occasions: [OccasionSummary], owner: Owner, now: Date, withEntries: Bool = false) async throws -> [OccasionAnswer] {
        let types = try await owner.mealTypes.catalog(now: now)
        var photos: [UUID: Photo] = [:]
        if withEntries { photos = try await owner.photos.find(ids: occasions.flatMap(\.photoIds)) }
        return occasions.map { o in
            let type = types.resolve(o.mealType)
            return OccasionAnswer(id: o.id, date: o.date, mealType: o.mealType, mealTypeId: type?.id, mealTypeName: type?.name ?? o.mealType,
                                  firstLoggedAt: o.firstLoggedAt, lastLoggedAt: o.lastLoggedAt, entryCount: o.entries.count,
                                  uncountedEntries: o.uncounted, totals: MacrosAnswer(o.totals),
                                  photos: o.photoIds.map { OccasionAnswer.Thumbnail(id: $0) },
                                  entries: withEntries ? o.entries.map { DiaryEntryAnswer($0, owner: owner.id, photos: photos) } : nil)
        }
    }
}
