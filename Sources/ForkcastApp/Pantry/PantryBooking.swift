import ForkcastCore
import Foundation

/// A plan item ticked in the shop goes into the pantry with what was to be bought; unticked, it
/// comes out again. The lot takes the item's id, so it is booked once however often the tick
/// arrives (a phone that was offline, a shared link) and found again to undo.
enum PantryBooking {
    static func book(_ item: ShoppingItem, in tx: any LibraryTransaction, now: Date) async throws {
        guard !item.checked else { return try await stock(item, in: tx, now: now) }
        // Unticked: what is left of the lot goes (some may have been used meanwhile).
        if try await tx.pantry.item(item.id) != nil { try await tx.pantry.delete([item.id], now: now) }
    }

    private static func stock(_ item: ShoppingItem, in tx: any LibraryTransaction, now: Date) async throws {
        guard item.source == .plan, let foodID = item.foodId, let amount = item.toBuy, amount > 0,
              PantryItem.amountRange.contains(amount), try await tx.pantry.item(item.id) == nil,
              let food = try await tx.foods.find(foodID), item.unit == food.basis.rawValue else { return }
        // Where the household keeps that food already; else the cupboard.
        let place = try await tx.pantry.items(of: [foodID]).max { $0.updatedAt < $1.updatedAt }?.location ?? PantryLocation.cupboard
        try await tx.pantry.insert(PantryItem(id: item.id, foodId: foodID, amount: amount, unit: food.basis, location: place,
                                              createdAt: now, updatedAt: now), now: now)
    }
}
