import Fluent

/// What is bought for a plan item when not by weight ("3 onions", "2 packs of 500 g").
struct M020_ShoppingPurchase: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ShoppingItemModel.schema).field("purchase", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ShoppingItemModel.schema).deleteField("purchase").update()
    }
}
