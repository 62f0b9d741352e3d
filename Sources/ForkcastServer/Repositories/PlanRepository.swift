import Fluent
import ForkcastCore
import Foundation

/// The plan of one owner: assignments of that owner's meals to days.
struct PlanRepository {
    let db: any Database
    let ownerID: UUID

    var meals: MealRepository { MealRepository(db: db, ownerID: ownerID) }

    /// The days of a window with their planned meals (seed 002 Req 4).
    func days(in window: WeekWindow) async throws -> [PlanDay] {
        let assignments = try await AssignmentModel.query(on: db)
            .filter(\.$ownerID == ownerID)
            .filter(\.$date >= window.start.iso).filter(\.$date <= window.end.iso)
            .all().map(\.domain)
        let meals = try await meals.find(ids: Array(Set(assignments.map(\.mealId))))
        var types: MealTypeCatalog?
        if assignments.contains(where: { $0.mealType != nil }) { types = try await MealTypeRepository(db: db, ownerID: ownerID).catalog(now: Date.distantPast) }
        return PlanBuilder.days(in: window, assignments: assignments, meals: meals, types: types)
    }

    /// Plans a meal on a day, in a meal slot or none; nil when the owner has no such meal. A day
    /// (and a slot) holds any number of meals. The one path for the API, the pages and sync.
    func assign(mealID: UUID, to date: CalendarDate, mealType: String? = nil, id: UUID, now: Date) async throws -> PlanDay.Entry? {
        var slot = mealType?.trimmed.nilIfEmptyString
        if let given = slot {
            let types = try await MealTypeRepository(db: db, ownerID: ownerID).catalog(now: now)
            if let problem = types.problem(given) { throw AppError.validation(ValidationError([problem])) }
            slot = types.normalized(given)
        }
        guard let meal = try await meals.find(mealID) else { return nil }
        let model = AssignmentModel(id: id, ownerID: ownerID, mealID: mealID, date: date, createdAt: now, mealType: slot)
        try await db.write { tx in
            try await model.create(on: tx)
            try await SyncLog.record(.assignment, [id], op: .upsert, owner: ownerID, on: tx, now: now)
        }
        return PlanDay.Entry(assignment: model.domain, meal: meal)
    }

    /// How many times a meal is planned, in a window or at all.
    func timesPlanned(_ mealID: UUID, in window: WeekWindow? = nil) async throws -> Int {
        var query = AssignmentModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$meal.$id == mealID)
        if let window { query = query.filter(\.$date >= window.start.iso).filter(\.$date <= window.end.iso) }
        return try await query.count()
    }

    func find(_ id: UUID) async throws -> Assignment? {
        try await AssignmentModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$id == id).first()?.domain
    }

    /// Removes an assignment; false when the owner has none with that id.
    func remove(_ id: UUID, now: Date) async throws -> Bool {
        try await db.write { tx in
            guard let model = try await AssignmentModel.query(on: tx).filter(\.$ownerID == ownerID).filter(\.$id == id).first() else {
                return false
            }
            try await model.delete(on: tx)
            try await SyncLog.record(.assignment, [id], op: .delete, owner: ownerID, on: tx, now: now)
            return true
        }
    }
}

extension UserModel {
    /// Today in the user's time zone.
    func today(now: Date) -> CalendarDate { CalendarDate(now, in: zone) }
}
