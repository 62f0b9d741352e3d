import Foundation

/// What the plan needs from the shop, and how a list follows a plan that changed.
public enum ShoppingPlan {
    /// One food's need over the range.
    public struct Need: Hashable, Sendable {
        public let foodId: UUID
        public let name: String
        /// Grams, millilitres, or servings for a food without a serving size.
        public let quantity: Decimal
        public let unit: String
        /// What is bought for it when not by weight (``ShoppingPurchase``).
        public var purchase: String?
        public let category: String
        public let categoryChosen: Bool
        public var estimatedPrice: Decimal?
        public let meals: [String]
        /// What the household's pantry holds of it, in `unit` (0 when nothing).
        public var inPantry: Decimal = 0
        /// What is left to buy.
        public var toBuy: Decimal { max(0, quantity - inPantry) }
    }

    /// The needs with what the pantry holds (`stock`: each food's lots summed, in its g or ml): what
    /// to buy, its packs or pieces and its price follow the shortfall, not the whole need.
    public static func covered(_ needs: [Need], stock: [UUID: Decimal], foods: [UUID: Food]) -> [Need] {
        needs.map { need in
            guard let food = foods[need.foodId], need.unit == food.basis.rawValue, let held = stock[need.foodId], held > 0 else { return need }
            var covered = need
            covered.inPantry = held
            covered.purchase = ShoppingPurchase.of(food, quantity: covered.toBuy, unit: need.unit)
            covered.estimatedPrice = need.estimatedPrice.map { need.quantity > 0 ? ShoppingAmount.roundedUp($0 * covered.toBuy / need.quantity, places: 2) : $0 }
            return covered
        }
    }

    /// Every ingredient of every planned meal, scaled by its portions, summed per food in the food's
    /// own unit (servings turned into grams or millilitres where the food has a serving size).
    /// - Parameters:
    ///   - categories: the aisle of each food (the person's choice, the catalogue's, or the icon's),
    ///     with whether the person chose it.
    public static func needs(_ entries: [PlanDay.Entry], foods: [UUID: Food], categories: [UUID: (name: String, chosen: Bool)]) -> [Need] {
        struct Sum { var quantity: Decimal = 0; var price: Decimal? = 0; var meals: [String] = [] }
        var sums: [String: Sum] = [:], order: [String] = [], parts: [String: (food: Food, unit: String)] = [:]
        for entry in entries {
            let scale = entry.assignment.scale(of: entry.meal)
            for ingredient in entry.meal.ingredients {
                guard let food = foods[ingredient.foodId] else { continue }
                let amount = ingredient.quantity * scale
                let unit: String, quantity: Decimal
                if let basis = try? FoodMath.basisAmount(of: food, quantity: amount, unit: ingredient.unit) {
                    (quantity, unit) = (basis, food.basis.rawValue)
                } else {
                    (quantity, unit) = (amount, ingredient.unit.rawValue)
                }
                let key = "\(food.id.uuidString)|\(unit)"
                if sums[key] == nil { order.append(key); parts[key] = (food, unit) }
                var sum = sums[key] ?? Sum()
                sum.quantity += quantity
                let cost = (try? FoodMath.cost(of: food, quantity: amount, unit: ingredient.unit)) ?? nil
                sum.price = cost.flatMap { c in sum.price.map { $0 + c } }
                if !sum.meals.contains(entry.meal.description) { sum.meals.append(entry.meal.description) }
                sums[key] = sum
            }
        }
        return order.map { key in
            let (food, unit) = parts[key]!, sum = sums[key]!
            let category = categories[food.id] ?? (ShoppingCategory.of(food, catalogCategory: nil), false)
            return Need(foodId: food.id, name: food.name, quantity: sum.quantity, unit: unit,
                        purchase: ShoppingPurchase.of(food, quantity: sum.quantity, unit: unit), category: category.name,
                        categoryChosen: category.chosen, estimatedPrice: sum.price.map { ShoppingAmount.roundedUp($0, places: 2) }, meals: sum.meals)
        }
    }

    /// What a refresh does to a list's items.
    public struct Refresh: Sendable, Equatable {
        public var changed: [ShoppingItem] = []
        public var added: [ShoppingItem] = []
        public var removed: [UUID] = []
    }

    /// A list's items after the plan changed: plan items follow the plan (their quantities, units,
    /// prices and meals; one no longer needed goes), their checked marks and chosen categories stay;
    /// manual items stay as they are. An item is the same need when its food and unit are; failing
    /// that, when its food is (a unit changed by hand, or the food's basis or serving size changed).
    public static func refresh(_ items: [ShoppingItem], with needs: [Need], listId: UUID, now: Date, newID: () -> UUID) -> Refresh {
        var result = Refresh()
        var byKey: [String: ShoppingItem] = [:]
        for item in items.sorted(by: { $0.id.uuidString < $1.id.uuidString }) where item.source == .plan {
            guard let foodId = item.foodId else { result.removed.append(item.id); continue }
            let key = "\(foodId.uuidString)|\(item.unit ?? "")"
            if byKey[key] != nil { result.removed.append(item.id) } else { byKey[key] = item }
        }
        let exact = Set(needs.map { "\($0.foodId.uuidString)|\($0.unit)" })
        func match(_ need: Need) -> ShoppingItem? {
            if let item = byKey.removeValue(forKey: "\(need.foodId.uuidString)|\(need.unit)") { return item }
            // The same food under another unit, not itself needed under that unit.
            guard let key = byKey.keys.sorted().first(where: { $0.hasPrefix(need.foodId.uuidString + "|") && !exact.contains($0) }) else { return nil }
            return byKey.removeValue(forKey: key)
        }
        for need in needs {
            if var item = match(need) {
                let before = item
                item.name = need.name
                item.quantity = need.quantity
                item.unit = need.unit
                item.purchase = need.purchase
                item.estimatedPrice = need.estimatedPrice
                item.meals = need.meals
                item.inPantry = need.inPantry > 0 ? need.inPantry : nil
                if !item.categoryChosen { item.category = need.category; item.categoryChosen = need.categoryChosen }
                if item != before { item.updatedAt = now; result.changed.append(item) }
            } else {
                result.added.append(ShoppingItem(id: newID(), listId: listId, name: need.name, foodId: need.foodId, quantity: need.quantity,
                                                 unit: need.unit, category: need.category, categoryChosen: need.categoryChosen,
                                                 estimatedPrice: need.estimatedPrice, source: .plan, meals: need.meals, updatedAt: now,
                                                 purchase: need.purchase, inPantry: need.inPantry > 0 ? need.inPantry : nil))
            }
        }
        result.removed.append(contentsOf: byKey.values.map(\.id).sorted { $0.uuidString < $1.uuidString })
        return result
    }

    /// The order a list is shown in: unchecked before checked, then by aisle in the order a shop
    /// is walked (``ShoppingAisle``; aisles a person named after them), then by name.
    public static func ordered(_ items: [ShoppingItem]) -> [ShoppingItem] {
        items.sorted {
            ($0.checked ? 1 : 0, ShoppingAisle.position(of: $0.category), $0.category.matchKey, $0.name.matchKey, $0.id.uuidString)
                < ($1.checked ? 1 : 0, ShoppingAisle.position(of: $1.category), $1.category.matchKey, $1.name.matchKey, $1.id.uuidString)
        }
    }

    /// The planned meals of a range that put nothing on a list (no ingredients, or none of their
    /// foods left), each once, in plan order: the list names them rather than leave them out unsaid.
    public static func uncounted(_ entries: [PlanDay.Entry], foods: Set<UUID>) -> [String] {
        var names: [String] = []
        for entry in entries where !entry.meal.ingredients.contains(where: { foods.contains($0.foodId) }) {
            if !names.contains(entry.meal.description) { names.append(entry.meal.description) }
        }
        return names
    }

    /// The list's estimated total: the sum of the known prices (nil when none is known).
    public static func estimatedTotal(_ items: [ShoppingItem]) -> Decimal? {
        let prices = items.compactMap(\.estimatedPrice)
        return prices.isEmpty ? nil : prices.reduce(0, +)
    }
}

/// A list with its items, in the order the list shows them (``ShoppingPlan/ordered(_:)``).
public struct ShoppingListContents: Sendable, Hashable {
    public let list: ShoppingList
    public let items: [ShoppingItem]
    public init(list: ShoppingList, items: [ShoppingItem]) {
        self.list = list
        self.items = ShoppingPlan.ordered(items)
    }
}

/// What a person changes on an item: each field given is changed, the others stay.
public struct ShoppingItemChange: Sendable, Hashable {
    public var name: String?
    public var quantity: Decimal?
    public var unit: String?
    public var category: String?
    public var checked: Bool?

    public init(name: String? = nil, quantity: Decimal? = nil, unit: String? = nil, category: String? = nil, checked: Bool? = nil) {
        self.name = name
        self.quantity = quantity
        self.unit = unit
        self.category = category
        self.checked = checked
    }
}
