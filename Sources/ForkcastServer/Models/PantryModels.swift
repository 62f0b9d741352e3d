import Fluent
import ForkcastCore
import Foundation

/// One lot in a household's pantry. Amounts are exact decimals stored as text.
final class PantryItemModel: Model, @unchecked Sendable {
    static let schema = "pantry_items"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var ownerID: UUID
    @Field(key: "food_id") var foodID: UUID
    @Field(key: "amount") var amount: String
    @Field(key: "unit") var unit: String
    @Field(key: "location") var location: String
    @OptionalField(key: "best_before") var bestBefore: String?
    @Field(key: "opened") var opened: Bool
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date
    var properties: [any AnyProperty] { [$id, $ownerID, $foodID, $amount, $unit, $location, $bestBefore, $opened, $createdAt, $updatedAt] }

    init() {}

    init(_ item: PantryItem, ownerID: UUID) {
        id = item.id
        self.ownerID = ownerID
        createdAt = item.createdAt
        apply(item)
    }

    func apply(_ item: PantryItem) {
        foodID = item.foodId
        amount = "\(item.amount)"
        unit = item.unit.rawValue
        location = item.location
        bestBefore = item.bestBefore?.iso
        opened = item.opened
        updatedAt = item.updatedAt
    }

    var domain: PantryItem {
        PantryItem(id: id!, foodId: foodID, amount: Decimal(string: amount) ?? 0, unit: NutritionBasis(rawValue: unit) ?? .gram,
                   location: location, bestBefore: bestBefore.map { CalendarDate(stored: $0) }, opened: opened,
                   createdAt: createdAt, updatedAt: updatedAt)
    }
}

/// An amount used from the pantry by hand, eaten or thrown away.
final class PantryUseModel: Model, @unchecked Sendable {
    static let schema = "pantry_uses"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var ownerID: UUID
    @Field(key: "food_id") var foodID: UUID
    @Field(key: "amount") var amount: String
    @Field(key: "unit") var unit: String
    @Field(key: "reason") var reason: String
    @OptionalField(key: "cost") var cost: String?
    @Field(key: "used_at") var usedAt: Date
    var properties: [any AnyProperty] { [$id, $ownerID, $foodID, $amount, $unit, $reason, $cost, $usedAt] }

    init() {}

    init(_ use: PantryUse, id: UUID, ownerID: UUID) {
        self.id = id
        self.ownerID = ownerID
        foodID = use.foodId
        amount = "\(use.amount)"
        unit = use.unit.rawValue
        reason = use.reason.rawValue
        cost = use.cost.map { "\($0)" }
        usedAt = use.at
    }

    var domain: PantryUse {
        PantryUse(foodId: foodID, amount: Decimal(string: amount) ?? 0, unit: NutritionBasis(rawValue: unit) ?? .gram,
                  reason: PantryUseReason(rawValue: reason) ?? .eaten, cost: cost.flatMap { Decimal(string: $0) }, at: usedAt)
    }
}
