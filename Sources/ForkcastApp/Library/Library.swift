import ForkcastCore
import Foundation

/// One person's library — foods, meals, the plan and meal types — as the use cases see it.
///
/// An implementation is made for one person and reaches only their records: owner scoping is the
/// type, not a `WHERE` clause each caller must remember. The server's is Fluent's (SQLite or
/// PostgreSQL); ``InMemoryLibrary`` is the fake the use cases are tested with alone, and the same
/// contract tests run against all three.
public protocol Library: Sendable {
    /// Runs `body` as one transaction: everything it writes is stored together, or nothing is when
    /// it throws. Writers run one at a time, so what `body` reads stays true until it returns.
    func write<T: Sendable>(_ body: @escaping @Sendable (any LibraryTransaction) async throws -> T) async throws -> T
}

/// The records of one person's library inside one ``Library/write(_:)``.
public protocol LibraryTransaction: Sendable {
    var foods: any FoodRecords { get }
    var meals: any MealRecords { get }
    var plan: any PlanRecords { get }
    var mealTypes: any MealTypeRecords { get }
    var shopping: any ShoppingRecords { get }
    var pantry: any PantryRecords { get }
    var templates: any PlanTemplateRecords { get }
    /// The people of the household sharing the library (the person among them).
    var members: [UUID] { get }
}

/// A person's foods. Writes store the food with its change-feed row; they decide no rule.
public protocol FoodRecords: Sendable {
    func find(_ id: UUID) async throws -> Food?
    /// The person's foods among `ids`, by id (ids of no food of theirs are absent).
    func find(ids: [UUID]) async throws -> [UUID: Food]
    /// Another of the person's foods with this barcode, if any.
    func holder(of barcode: Barcode, except id: UUID) async throws -> Food?
    /// The person's food adopted from this catalogue food, if any.
    func adopted(_ catalogId: String) async throws -> Food?
    /// The descriptions of the person's meals that use the food as an ingredient, sorted.
    func meals(using id: UUID) async throws -> [String]
    func insert(_ food: Food) async throws
    /// False when the person has no food with the food's id.
    func replace(_ food: Food) async throws -> Bool
    /// False when the person has no food with that id.
    func delete(_ id: UUID, now: Date) async throws -> Bool
}

/// A person's meals, with their components and ingredients.
public protocol MealRecords: Sendable {
    func find(_ id: UUID) async throws -> Meal?
    func insert(_ content: MealContent, id: UUID, now: Date) async throws -> Meal
    /// The meal as stored now; nil when the person has no meal with that id. `createdAt` is kept.
    func replace(_ id: UUID, with content: MealContent, now: Date) async throws -> Meal?
    /// Deletes the meal with its components and ingredients; false when the person has no such meal.
    /// A meal still planned is not deleted (it throws ``StillReferenced``): the use case removes its
    /// plan days first (``PlanRecords/deleteAll(of:now:)``), so each is in the change feed.
    func delete(_ id: UUID, now: Date) async throws -> Bool
    /// The token of the meal's read-only link; nil when it is not shared (or there is no such meal).
    func shareToken(of id: UUID) async throws -> String?
    /// Sets or clears (nil) the meal's link token; false when the person has no such meal. Not in
    /// the change feed: a link is no part of the recipe a device keeps.
    func setShareToken(_ token: String?, of id: UUID) async throws -> Bool
    /// Puts the photo on the meal in place of any it had, or takes it off (nil), with a change in
    /// the feed; false when the person has no such meal.
    func setPhoto(_ photo: MealPhoto?, of id: UUID, now: Date) async throws -> Bool
    /// What the household's recipe photos take, in bytes, leaving out meal `id`'s.
    func photoBytes(except id: UUID) async throws -> Int64
}

/// A person's plan: which meal on which day, in which slot.
public protocol PlanRecords: Sendable {
    /// The planned meals of `from` … `to`, day by day in the planner's order.
    func entries(from: CalendarDate, to: CalendarDate) async throws -> [PlanDay.Entry]
    func find(_ id: UUID) async throws -> Assignment?
    /// The days of one repeat (``Assignment/seriesId``), in date order.
    func series(_ id: UUID) async throws -> [Assignment]
    func insert(_ assignment: Assignment, now: Date) async throws
    /// The assignment removed; nil when the person has none with that id.
    func delete(_ id: UUID, now: Date) async throws -> Assignment?
    /// Removes every day the meal is planned on, each with its change-feed row; the assignments removed.
    func deleteAll(of mealID: UUID, now: Date) async throws -> [Assignment]
}

/// A household's week templates (not in the change feed: devices plan from them through the API).
public protocol PlanTemplateRecords: Sendable {
    /// Every template, by name.
    func all() async throws -> [PlanTemplate]
    func find(_ id: UUID) async throws -> PlanTemplate?
    func insert(_ template: PlanTemplate) async throws
    /// False when the household has no template with that id.
    func delete(_ id: UUID) async throws -> Bool
}

/// A record that others still refer to was to be deleted (a food some meal uses, a meal still
/// planned). The use cases never ask for this; the stores refuse it rather than leave a dangling
/// reference or delete the others without a trace in the change feed.
public struct StillReferenced: Error, Sendable {
    public let id: UUID
    public init(id: UUID) { self.id = id }
}

/// A person's meal types.
public protocol MealTypeRecords: Sendable {
    /// The person's types; the defaults (not stored) when they have none yet.
    func catalog(now: Date) async throws -> MealTypeCatalog
    /// The stored types, storing the defaults first when there are none. Inside a write it holds
    /// the person's lock, so two changes at once cannot both take a name.
    func stored(now: Date) async throws -> MealTypeCatalog
    func find(_ id: UUID) async throws -> MealType?
    func insert(_ type: MealType, now: Date) async throws
    /// False when the person has no type with the type's id.
    func replace(_ type: MealType, now: Date) async throws -> Bool
    /// Puts a type at `position` (0 = first) and numbers the others after it in their order.
    func move(_ id: UUID, to position: Int, in catalog: MealTypeCatalog, now: Date) async throws
}
