import Fluent
import SQLKit
import ForkcastApp
import ForkcastCore
import Foundation

/// The plan of one owner: assignments of that owner's meals to days.
struct PlanRepository: PlanRecords {
    let db: any Database
    let kitchen: Kitchen

    var meals: MealRepository { MealRepository(db: db, kitchen: kitchen) }

    /// The days of a window with their planned meals (seed 002 Req 4).
    func days(in window: WeekWindow) async throws -> [PlanDay] {
        // A plain query, as ``Kitchen/rows(of:where:in:order:on:)`` says why.
        let assignments = try await (db as! any SQLDatabase).raw("""
            SELECT * FROM assignments WHERE \(kitchen.holds("user_id")) AND date >= \(bind: window.start.iso) AND date <= \(bind: window.end.iso)
            """).all().map { try $0.decode(fluentModel: AssignmentModel.self).domain }
        let meals = try await meals.find(ids: Array(Set(assignments.map(\.mealId))))
        var types: MealTypeCatalog?
        if assignments.contains(where: { $0.mealType != nil }) { types = try await MealTypeRepository(db: db, kitchen: kitchen).catalog(now: Date.distantPast) }
        return PlanBuilder.days(in: window, assignments: assignments, meals: meals, types: types)
    }

    func entries(from: CalendarDate, to: CalendarDate) async throws -> [PlanDay.Entry] {
        try await days(in: WeekWindow(start: from, length: from.days(until: to) + 1)).flatMap(\.entries)
    }

    /// Stores an assignment with its change-feed row. The rules (the meal is the owner's, the slot is
    /// one of their meal types) are ``PlanMeal``'s; this only writes.
    func insert(_ assignment: Assignment, now: Date) async throws {
        let model = AssignmentModel(id: assignment.id, ownerID: kitchen.user, mealID: assignment.mealId, date: assignment.date,
                                    createdAt: assignment.createdAt, mealType: assignment.mealType, servings: assignment.servings,
                                    eaters: assignment.eaters, seriesID: assignment.seriesId)
        try await db.write { tx in
            try await model.create(on: tx)
            try await kitchen.record(.assignment, [assignment.id], op: .upsert, on: tx, now: now)
        }
    }

    /// The last day each meal was planned on before `date` (meals never planned before are absent).
    func lastPlanned(before date: CalendarDate) async throws -> [UUID: CalendarDate] {
        // One row per meal: the database takes the MAX (years of plan stay in the database).
        let rows = try await (db as! any SQLDatabase).raw("""
            SELECT meal_id, MAX(date) AS last FROM assignments WHERE \(kitchen.holds("user_id")) AND date < \(bind: date.iso) GROUP BY meal_id
            """).all()
        var result: [UUID: CalendarDate] = [:]
        for row in rows { result[try row.decode(column: "meal_id", as: UUID.self)] = CalendarDate(stored: try row.decode(column: "last", as: String.self)) }
        return result
    }

    /// The meal types each meal has been planned in or eaten at (Fill my week's slots).
    func slotHistory() async throws -> [UUID: Set<String>] {
        let rows = try await (db as! any SQLDatabase).raw("""
            SELECT meal_id, meal_type FROM assignments WHERE \(kitchen.holds("user_id")) AND meal_type IS NOT NULL GROUP BY meal_id, meal_type
            UNION SELECT meal_id, meal_type FROM diary_entries WHERE user_id = \(bind: kitchen.user) AND kind = 'meal' AND meal_id IS NOT NULL GROUP BY meal_id, meal_type
            """).all()
        var result: [UUID: Set<String>] = [:]
        for row in rows {
            guard let id = try? row.decode(column: "meal_id", as: UUID.self), let type = try? row.decode(column: "meal_type", as: String.self) else { continue }
            result[id, default: []].insert(type)
        }
        return result
    }

    /// How many times a meal is planned, in a window or at all.
    func timesPlanned(_ mealID: UUID, in window: WeekWindow? = nil) async throws -> Int {
        var query = AssignmentModel.query(on: db).filter(kitchen).filter(\.$meal.$id == mealID)
        if let window { query = query.filter(\.$date >= window.start.iso).filter(\.$date <= window.end.iso) }
        return try await query.count()
    }

    func find(_ id: UUID) async throws -> Assignment? {
        try await AssignmentModel.query(on: db).filter(kitchen).filter(\.$id == id).first()?.domain
    }

    func series(_ id: UUID) async throws -> [Assignment] {
        try await AssignmentModel.query(on: db).filter(kitchen).filter(\.$seriesID == id).sort(\.$date).all().map(\.domain)
    }

    /// The owner's assignments among `ids` (others' and missing ones are absent).
    func find(ids: [UUID]) async throws -> [Assignment] {
        guard !ids.isEmpty else { return [] }
        return try await AssignmentModel.query(on: db).filter(kitchen).filter(\.$id ~~ Set(ids)).all().map(\.domain)
    }

    /// Which of `mealIDs` are planned on a day of `window`.
    func planned(_ mealIDs: [UUID], in window: WeekWindow) async throws -> Set<UUID> {
        guard !mealIDs.isEmpty else { return [] }
        return Set(try await AssignmentModel.query(on: db).filter(kitchen).filter(\.$meal.$id ~~ Set(mealIDs))
            .filter(\.$date >= window.start.iso).filter(\.$date <= window.end.iso).all().map(\.$meal.id))
    }

    /// Removes an assignment with its change-feed row; the assignment removed, nil when the owner
    /// has none with that id.
    func delete(_ id: UUID, now: Date) async throws -> Assignment? {
        try await db.write { tx in
            guard let model = try await AssignmentModel.query(on: tx).filter(kitchen).filter(\.$id == id).first() else {
                return nil
            }
            let removed = model.domain
            try await model.delete(on: tx)
            try await kitchen.record(.assignment, [id], op: .delete, on: tx, now: now)
            return removed
        }
    }

    func deleteAll(of mealID: UUID, now: Date) async throws -> [Assignment] {
        try await db.write { tx in
            let planned = try await AssignmentModel.query(on: tx).filter(kitchen).filter(\.$meal.$id == mealID).all()
            guard !planned.isEmpty else { return [] }
            let ids = planned.compactMap(\.id)
            try await AssignmentModel.query(on: tx).filter(kitchen).filter(\.$id ~~ ids).delete()
            try await kitchen.record(.assignment, ids, op: .delete, on: tx, now: now)
            return planned.map(\.domain)
        }
    }
}

extension UserModel {
    /// Today in the user's time zone.
    func today(now: Date) -> CalendarDate { CalendarDate(now, in: zone) }
}
