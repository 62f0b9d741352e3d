import ForkcastCore
import Foundation

/// The household's pantry: its lots and what was used from them by hand. Writes store each lot
/// with its change-feed row (kind `pantryItem`); they decide no rule.
public protocol PantryRecords: Sendable {
    /// Every lot, in no particular order.
    func items() async throws -> [PantryItem]
    func item(_ id: UUID) async throws -> PantryItem?
    /// How many lots there are (the household's cap).
    func count() async throws -> Int
    /// The lots of these foods.
    func items(of foodIDs: [UUID]) async throws -> [PantryItem]
    func insert(_ item: PantryItem, now: Date) async throws
    /// False when the household has no lot with the item's id.
    func replace(_ item: PantryItem, now: Date) async throws -> Bool
    func delete(_ ids: [UUID], now: Date) async throws
    func record(_ use: PantryUse) async throws
    /// What was used by hand since `since`, oldest first.
    func uses(since: Date) async throws -> [PantryUse]
    /// Marks a plan entry as cooked from the pantry; false when it was already (its ingredients
    /// were taken out once, whoever logged it first).
    func markCooked(_ assignmentID: UUID, now: Date) async throws -> Bool
}

/// A lot as a person gives it: an amount in any unit the food can be turned into, its place and dates.
public struct PantryInput: Sendable, Hashable {
    public var foodId: UUID
    public var amount: Decimal
    public var unit: String?
    public var location: String?
    public var bestBefore: CalendarDate?
    public var opened: Bool

    public init(foodId: UUID, amount: Decimal, unit: String? = nil, location: String? = nil, bestBefore: CalendarDate? = nil, opened: Bool = false) {
        self.foodId = foodId
        self.amount = amount
        self.unit = unit
        self.location = location
        self.bestBefore = bestBefore
        self.opened = opened
    }
}

extension LibraryTransaction {
    /// The lot the input describes, checked against its food; throws naming the field.
    func pantryLot(_ input: PantryInput, id: UUID, createdAt: Date, now: Date, today: CalendarDate) async throws -> PantryItem {
        let place = try PantryRules.validated(location: input.location, bestBefore: input.bestBefore, today: today)
        guard let food = try await foods.find(input.foodId) else {
            throw Refusal.missingReference(field: "foodId", detail: "No food with id \(input.foodId) is in your household's foods.")
        }
        let amount = try PantryRules.basisAmount(of: food, quantity: input.amount, unitText: input.unit)
        return PantryItem(id: id, foodId: food.id, amount: amount, unit: food.basis, location: place.location,
                          bestBefore: place.bestBefore, opened: input.opened, createdAt: createdAt, updatedAt: now)
    }
}
