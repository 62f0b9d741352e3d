import Fluent
import ForkcastCore
import Foundation

/// A person's shopping list for a range of the plan.
final class ShoppingListModel: Model, @unchecked Sendable {
    static let schema = "shopping_lists"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var ownerID: UUID
    @Field(key: "name") var name: String
    @Field(key: "from_date") var from: String
    @Field(key: "to_date") var to: String
    @OptionalField(key: "share_token") var shareToken: String?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date
    var properties: [any AnyProperty] { [$id, $ownerID, $name, $from, $to, $shareToken, $createdAt, $updatedAt] }

    init() {}

    init(_ list: ShoppingList, ownerID: UUID) {
        id = list.id
        self.ownerID = ownerID
        createdAt = list.createdAt
        shareToken = list.shareToken
        apply(list)
    }

    func apply(_ list: ShoppingList) {
        name = list.name
        from = list.from.iso
        to = list.to.iso
        updatedAt = list.updatedAt
    }

    var domain: ShoppingList {
        ShoppingList(id: id!, name: name, from: CalendarDate(stored: from), to: CalendarDate(stored: to), createdAt: createdAt,
                     updatedAt: updatedAt, shareToken: shareToken)
    }
}

/// One line of a shopping list. Amounts and prices are exact decimals stored as text.
final class ShoppingItemModel: Model, @unchecked Sendable {
    static let schema = "shopping_items"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var ownerID: UUID
    @Field(key: "list_id") var listID: UUID
    @Field(key: "name") var name: String
    @OptionalField(key: "food_id") var foodID: UUID?
    @OptionalField(key: "quantity") var quantity: String?
    @OptionalField(key: "unit") var unit: String?
    @OptionalField(key: "purchase") var purchase: String?
    @Field(key: "category") var category: String
    @Field(key: "category_chosen") var categoryChosen: Bool
    @OptionalField(key: "estimated_price") var estimatedPrice: String?
    @Field(key: "checked") var checked: Bool
    @Field(key: "source") var source: String
    @Field(key: "meals") var meals: String
    @Field(key: "updated_at") var updatedAt: Date
    @OptionalField(key: "in_pantry") var inPantry: String?
    var properties: [any AnyProperty] {
        [$id, $ownerID, $listID, $name, $foodID, $quantity, $unit, $purchase, $category, $categoryChosen, $estimatedPrice, $checked, $source, $meals, $updatedAt, $inPantry]
    }

    init() {}

    init(_ item: ShoppingItem, ownerID: UUID) {
        id = item.id
        self.ownerID = ownerID
        apply(item)
    }

    func apply(_ item: ShoppingItem) {
        listID = item.listId
        name = item.name
        foodID = item.foodId
        quantity = item.quantity.map { "\($0)" }
        unit = item.unit
        purchase = item.purchase
        category = item.category
        categoryChosen = item.categoryChosen
        estimatedPrice = item.estimatedPrice.map { "\($0)" }
        checked = item.checked
        source = item.source.rawValue
        meals = item.meals.map { $0.replacingOccurrences(of: "\n", with: " ") }.joined(separator: "\n")
        updatedAt = item.updatedAt
        inPantry = item.inPantry.map { "\($0)" }
    }

    var domain: ShoppingItem {
        ShoppingItem(id: id!, listId: listID, name: name, foodId: foodID, quantity: quantity.flatMap { Decimal(string: $0) }, unit: unit,
                     category: category, categoryChosen: categoryChosen, estimatedPrice: estimatedPrice.flatMap { Decimal(string: $0) },
                     checked: checked, source: ShoppingItem.Source(rawValue: source) ?? .manual,
                     meals: meals.isEmpty ? [] : meals.components(separatedBy: "\n"), updatedAt: updatedAt, purchase: purchase,
                     inPantry: inPantry.flatMap { Decimal(string: $0) })
    }
}
