import ForkcastCore
import Foundation

/// Using some of a lot by hand, eaten or thrown away; what is thrown away is counted as waste.
public struct UsePantryItem: Sendable {
    let library: any Library
    let now: Date

    public init(library: any Library, now: Date) {
        self.library = library
        self.now = now
    }

    /// The lot with what is left (amount 0: it was used up and is gone); nil when there is no such
    /// lot. More than the lot holds is refused, naming `amount`: two phones taking the last 100 g
    /// at once get one yes and one refusal, never stock below zero.
    public func callAsFunction(_ id: UUID, amount: Decimal, unit: String?, reason: PantryUseReason) async throws -> PantryItem? {
        let now = now
        return try await library.write { tx in
            guard var lot = try await tx.pantry.item(id) else { return nil }
            guard let food = try await tx.foods.find(lot.foodId) else { return nil }
            let used = try PantryRules.basisAmount(of: food, quantity: amount, unitText: unit)
            guard used <= lot.amount else {
                throw ValidationError(field: "amount", "This lot holds \(ShoppingAmount.text(quantity: lot.amount, unit: lot.unit.rawValue) ?? "less"); \(ShoppingAmount.text(quantity: used, unit: lot.unit.rawValue) ?? "that") is more than that.")
            }
            lot.amount -= used
            lot.updatedAt = now
            if lot.amount > 0 {
                lot.opened = true
                _ = try await tx.pantry.replace(lot, now: now)
            } else {
                try await tx.pantry.delete([id], now: now)
            }
            let cost = try? FoodMath.cost(of: food, quantity: used, unit: food.basis == .milliliter ? .milliliter : .gram)
            try await tx.pantry.record(PantryUse(foodId: food.id, amount: used, unit: lot.unit, reason: reason, cost: cost, at: now))
            return lot
        }
    }
}
