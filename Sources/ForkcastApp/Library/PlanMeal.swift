import ForkcastCore
import Foundation

/// Planning a meal on a day: the one way an assignment is made or changed, from the API, the planner
/// page, a synced device, an account import and accepted suggestions. The meal must be the person's
/// own, a meal slot, when one is asked for, must be one of their meal types (stored by its key, so
/// "Dinner" and "dinner" plan the same slot), and the portions made are 1 to 100 (nil: the meal's
/// own). The checks and the write happen in one transaction, so a meal deleted meanwhile is never planned.
public struct PlanMeal: Sendable {
    let library: any Library
    let now: Date

    public init(library: any Library, now: Date) {
        self.library = library
        self.now = now
    }

    /// One meal to plan.
    public struct Request: Sendable, Hashable {
        public var mealID: UUID
        public var date: CalendarDate
        public var mealType: String?
        public var servings: Int?
        public var id: UUID
        /// Who eats it (nil: everyone in the household, one portion each).
        public var eaters: [Eater]?
        /// The repeat it belongs to; nil: none, or, when it replaces an entry, the entry's own.
        public var seriesId: UUID?
        public init(mealID: UUID, date: CalendarDate, mealType: String?, servings: Int?, id: UUID, eaters: [Eater]? = nil, seriesId: UUID? = nil) {
            self.seriesId = seriesId
            self.mealID = mealID
            self.date = date
            self.mealType = mealType
            self.servings = servings
            self.id = id
            self.eaters = eaters
        }
    }

    /// Plans `mealID` on `date` as assignment `id`, in `mealType`'s slot or none, making `servings`
    /// portions (nil: the meal's own); nil when the person has no such meal. `replacing`: a synced
    /// device's edit — an assignment with that id is replaced (keeping its place in the day).
    /// Throws ``ValidationError`` for a meal type the person does not have or portions out of range.
    @discardableResult
    public func callAsFunction(_ mealID: UUID, on date: CalendarDate, mealType: String?, servings: Int? = nil, id: UUID,
                               replacing: Bool = false, eaters: [Eater]? = nil, seriesId: UUID? = nil) async throws -> PlanDay.Entry? {
        let request = Request(mealID: mealID, date: date, mealType: mealType, servings: servings, id: id, eaters: eaters, seriesId: seriesId)
        try Self.check(request)
        let now = now
        return try await library.write { tx in try await Self.plan(request, replacing: replacing, in: tx, now: now) }
    }

    /// Changes assignment `id` (its meal, day, slot or portions); nil when the person has no such
    /// assignment or no such meal.
    public func change(_ id: UUID, to request: Request) async throws -> PlanDay.Entry? {
        var changed = request
        changed.id = id
        try Self.check(changed)
        let (now, request) = (now, changed)
        return try await library.write { tx in
            guard try await tx.plan.find(id) != nil, try await tx.meals.find(request.mealID) != nil else { return nil }
            return try await Self.plan(request, replacing: true, in: tx, now: now)
        }
    }

    /// Plans every one of `requests`, or none: the first meal the person does not have is a
    /// ``Refusal/missingReference(field:detail:)`` naming it (`assignments[2].mealId`).
    public func all(_ requests: [Request]) async throws -> [PlanDay.Entry] {
        if let problem = Assignment.problem(plannedAtOnce: requests.count) { throw ValidationError([problem]) }
        for (index, request) in requests.enumerated() {
            do { try Self.check(request) } catch let error as ValidationError { throw error.prefixed("assignments[\(index)].") }
        }
        let now = now
        return try await library.write { tx in
            var entries: [PlanDay.Entry] = []
            for (index, request) in requests.enumerated() {
                let entry: PlanDay.Entry?
                do { entry = try await Self.plan(request, replacing: false, in: tx, now: now) } catch let error as ValidationError {
                    throw error.prefixed("assignments[\(index)].")
                }
                guard let entry else {
                    throw Refusal.missingReference(field: "assignments[\(index)].mealId", detail: "No meal with id \(request.mealID) exists in your account.")
                }
                entries.append(entry)
            }
            return entries
        }
    }

    static func check(_ request: Request) throws {
        let problems = [Assignment.problem(servings: request.servings), request.date.problem(field: "date")].compactMap { $0 }
            + Assignment.problems(eaters: request.eaters, members: nil)
        if !problems.isEmpty { throw ValidationError(problems) }
    }

    static func plan(_ request: Request, replacing: Bool, in tx: any LibraryTransaction, now: Date) async throws -> PlanDay.Entry? {
        var slot: String?
        if let asked = request.mealType?.trimmed.nilIfEmptyString {
            let types = try await tx.mealTypes.catalog(now: now)
            if let problem = types.problem(asked) { throw ValidationError([problem]) }
            slot = types.normalized(asked)
        }
        let eaterProblems = Assignment.problems(eaters: request.eaters, members: Set(tx.members))
        if !eaterProblems.isEmpty { throw ValidationError(eaterProblems) }
        guard let meal = try await tx.meals.find(request.mealID) else { return nil }
        var createdAt = now, seriesId = request.seriesId
        if replacing, let old = try await tx.plan.delete(request.id, now: now) { (createdAt, seriesId) = (old.createdAt, seriesId ?? old.seriesId) }
        let assignment = Assignment(id: request.id, mealId: request.mealID, date: request.date, createdAt: createdAt,
                                    mealType: slot, servings: request.servings, eaters: request.eaters, seriesId: seriesId)
        try await tx.plan.insert(assignment, now: now)
        return PlanDay.Entry(assignment: assignment, meal: meal)
    }
}
