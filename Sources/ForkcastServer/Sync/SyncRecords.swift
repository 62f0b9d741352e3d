import Fluent
import ForkcastCore
import Foundation
import Vapor

/// Reads synced records in the shape their own API answers with, and applies pushed changes
/// through the same use cases the API and the web pages call.
struct SyncRecords {
    let user: UserModel
    let db: any Database
    let now: Date
    let uuid: @Sendable () -> UUID
    let application: Application

    var ownerID: UUID { user.id! }
    var photoStore: any PhotoStore { application.photoStore }
    /// The person's use cases, on this push's transaction.
    var owner: Owner { get throws { try Owner(user: user, db: db, now: now, uuid: uuid, application: application) } }

    /// A record to encode inside a change, whatever its type.
    struct Record: Encodable, @unchecked Sendable {
        let value: any Encodable
        func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
    }

    /// The current records of `ids` of one kind, by id (missing ones are absent).
    func load(_ kind: SyncKind, _ ids: [UUID]) async throws -> [UUID: Record] {
        guard !ids.isEmpty else { return [:] }
        let today = user.today(now: now)
        switch kind {
        case .meal:
            let repository = MealRepository(db: db, ownerID: ownerID)
            let meals = try await repository.find(ids: ids)
            let presenter = try await MealPresenter.load(Array(meals.values), repository: repository, currency: user.currency)
            let window = WeekWindow(start: today)
            let planned = Set(try await AssignmentModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$meal.$id ~~ ids)
                .filter(\.$date >= window.start.iso).filter(\.$date <= window.end.iso).all().map(\.$meal.id))
            return meals.mapValues { Record(value: presenter.dto($0, isPlanned: planned.contains($0.id))) }
        case .assignment:
            let plan = PlanRepository(db: db, ownerID: ownerID)
            let models = try await AssignmentModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$id ~~ ids).all()
            let meals = try await plan.meals.find(ids: Array(Set(models.map(\.$meal.id))))
            let presenter = try await MealPresenter.load(Array(meals.values), repository: plan.meals, currency: user.currency)
            var result: [UUID: Record] = [:]
            for model in models {
                guard let meal = meals[model.$meal.id] else { continue }
                result[model.id!] = Record(value: AssignmentDTO(PlanDay.Entry(assignment: model.domain, meal: meal), presenter: presenter))
            }
            return result
        case .food:
            let models = try await FoodModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$id ~~ ids).all()
            return Dictionary(uniqueKeysWithValues: models.map { ($0.id!, Record(value: FoodDTO($0.domain, currency: user.currency))) })
        case .diaryEntry:
            let models = try await DiaryEntryModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$id ~~ ids).all()
            let photos = try await PhotoRepository(db: db, ownerID: ownerID, store: photoStore).find(ids: models.compactMap(\.photoID))
            return Dictionary(uniqueKeysWithValues: models.map { ($0.id!, Record(value: DiaryEntryDTO($0.domain, owner: ownerID, photos: photos))) })
        case .mealType:
            let types = try await MealTypeRepository(db: db, ownerID: ownerID).catalog(now: now)
            return Dictionary(uniqueKeysWithValues: types.all.filter { ids.contains($0.id) }.map { ($0.id, Record(value: MealTypeDTO($0))) })
        case .photo:
            return try await PhotoRepository(db: db, ownerID: ownerID, store: photoStore).find(ids: ids).mapValues { Record(value: PhotoDTO($0)) }
        case .weight:
            let models = try await WeightEntryModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$id ~~ ids).all()
            return Dictionary(uniqueKeysWithValues: models.map {
                ($0.id!, Record(value: WeightDTO(id: $0.id!, measuredAt: $0.measuredAt, weightKg: Decimal(shortest: $0.weightKg), source: $0.source)))
            })
        case .goals:
            let (goals, calculation) = try await BodyRepository(db: db, ownerID: ownerID).goals(today: today)
            return [ownerID: Record(value: GoalsDTO(goals, steps: calculation?.steps))]
        case .bodyProfile:
            guard let profile = try await BodyRepository(db: db, ownerID: ownerID).profile() else { return [:] }
            return [ownerID: Record(value: BodyProfileDTO(profile, today: today))]
        case .settings:
            return [ownerID: Record(value: UserDTO(user))]
        }
    }

    /// Creates or replaces a record from its create/update input, keeping its id.
    func upsert(_ kind: SyncKind, id: UUID, input data: Data) async throws {
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try JSONDecoder.forkcast.decode(T.self, from: data) }
        switch kind {
        case .meal:
            let content: MealContent
            do { content = try decode(MealInput.self).draft().validated() } catch let error as ValidationError { throw AppError.validation(error) }
            let meals = MealRepository(db: db, ownerID: ownerID)
            if try await meals.update(id, with: content, now: now) == nil { _ = try await meals.create(content, id: id, now: now) }
        case .assignment:
            let input = try decode(AssignmentInput.self)
            let plan = PlanRepository(db: db, ownerID: ownerID)
            try await db.write { tx in
                let plan = PlanRepository(db: tx, ownerID: ownerID)
                if try await plan.find(id) != nil { _ = try await plan.remove(id, now: now) }
                guard try await plan.assign(mealID: input.mealId, to: input.date, mealType: input.mealType, id: id, now: now) != nil else {
                    throw AppError.missingReference(field: "mealId", detail: "No meal with id \(input.mealId) exists in your account.")
                }
            }
            _ = plan
        case .food:
            let input = try decode(FoodInput.self)
            let foods = FoodRepository(db: db, ownerID: ownerID)
            let existing = try await foods.find(id)
            let food: Food
            do { food = try input.draft().validated(id: id, createdAt: existing?.createdAt ?? now, now: now) } catch let error as ValidationError {
                throw AppError.validation(error)
            }
            if existing != nil { _ = try await foods.update(food) } else { _ = try await foods.create(food) }
        case .diaryEntry:
            let input = try decode(DiaryEntryInput.self)
            let owner = try owner
            // A device's time edit was confirmed on the device.
            if try await owner.editEntry(id, with: input, confirmMove: true) == nil {
                do { try await owner.logEntry.single(input, id: id) } catch let error as ValidationError { throw AppError.validation(error) }
            }
        case .weight:
            let input = try decode(WeightInput.self)
            try await owner.recordWeight(.init(measuredAt: input.measuredAt, weightKg: input.weightKg, weightLb: input.weightLb), id: id)
        case .goals:
            try await owner.setGoals(try decode(GoalsInput.self))
        case .bodyProfile:
            try await owner.saveBodyProfile(try decode(BodyProfileInput.self))
        case .settings:
            let input = try decode(ProfileInput.self)
            try await AccountSettings.update(user, displayName: input.displayName, timeZone: input.timeZone, currency: input.currency, db: db, now: now)
        case .mealType:
            let change = try decode(MealTypeInput.self).change
            let repository = MealTypeRepository(db: db, ownerID: ownerID)
            if try await repository.update(id, with: change, now: now) == nil { _ = try await repository.create(change, id: id, now: now) }
        case .photo:
            throw AppError.validation(ValidationError(field: "kind", "Photos are uploaded with POST /api/v1/photos (sync carries their metadata, not their bytes); attach one to an entry through its photoId."))
        }
    }

    /// Deletes a record; a record that is already gone is simply recorded as deleted.
    func delete(_ kind: SyncKind, id: UUID) async throws {
        let found: Bool
        switch kind {
        case .meal: found = try await MealRepository(db: db, ownerID: ownerID).delete(id, now: now)
        case .assignment: found = try await PlanRepository(db: db, ownerID: ownerID).remove(id, now: now)
        case .food:
            switch try await FoodRepository(db: db, ownerID: ownerID).delete(id, now: now) {
            case .deleted: found = true
            case .notFound: found = false
            case .usedIn(let meals):
                throw AppError.conflict("This food is an ingredient of \(meals.map { "“\($0)”" }.joined(separator: ", ")); remove it from those meals first.")
            }
        case .diaryEntry: found = try await owner.deleteEntry(id) != nil
        case .mealType:
            throw AppError.validation(ValidationError(field: "op", "Meal types are not deleted (their entries keep them); hide one instead."))
        case .photo:
            throw AppError.validation(ValidationError(field: "op", "A photo is deleted with the diary entry that shows it."))
        case .weight: found = try await BodyRepository(db: db, ownerID: ownerID).deleteWeight(id, now: now)
        case .goals, .bodyProfile, .settings:
            throw AppError.validation(ValidationError(field: "op", "\(kind.rawValue) cannot be deleted; send an upsert instead."))
        }
        if !found {
            // Deleted on the server already, or never seen here: remember the tombstone so the
            // push is answered consistently (a foreign id stays indistinguishable from a missing one).
            try await db.write { tx in try await SyncLog.record(kind, [id], op: .delete, owner: ownerID, on: tx, now: now) }
        }
    }
}
