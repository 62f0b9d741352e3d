import Foundation

/// A shopping list made from the plan of a range of days, plus what the person adds by hand.
public struct ShoppingList: Identifiable, Hashable, Sendable, Codable {
    public let id: UUID
    public var name: String
    public var from: CalendarDate
    public var to: CalendarDate
    public var createdAt: Date
    public var updatedAt: Date
    /// The token of the link that shares the list (read and check off only); nil when not shared.
    public var shareToken: String?

    public init(id: UUID, name: String, from: CalendarDate, to: CalendarDate, createdAt: Date, updatedAt: Date, shareToken: String? = nil) {
        self.id = id
        self.name = name
        self.from = from
        self.to = to
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.shareToken = shareToken
    }

    public static let maximumNameLength = 100
    /// The longest range a list is made for (the plan's own longest window).
    public static let maximumDays = WeekWindow.maximumLength
    /// Items on one list, plan and manual together.
    public static let maximumItems = 500

    /// The name a list gets when none is given: "Shopping 2 – 8 Mar".
    public static func defaultName(from: CalendarDate, to: CalendarDate) -> String {
        "Shopping \(from.iso) to \(to.iso)"
    }

    /// The checked name and range; throws ``ValidationError`` naming `name`, `from` or `to`.
    public static func validated(name: String?, from: CalendarDate, to: CalendarDate) throws(ValidationError) -> (name: String, from: CalendarDate, to: CalendarDate) {
        var problems: [ValidationError.Field] = []
        let trimmed = (name ?? "").trimmed
        if trimmed.count > maximumNameLength {
            problems.append(.init(field: "name", message: "A list's name is at most \(maximumNameLength) characters; this one has \(trimmed.count)."))
        }
        if to < from {
            problems.append(.init(field: "to", message: "The range ends (\(to.iso)) before it starts (\(from.iso))."))
        } else if from.days(until: to) >= maximumDays {
            problems.append(.init(field: "to", message: "A list covers at most \(maximumDays) days of the plan; \(from.iso) to \(to.iso) is \(from.days(until: to) + 1)."))
        }
        if !problems.isEmpty { throw ValidationError(problems) }
        return (trimmed.isEmpty ? defaultName(from: from, to: to) : trimmed, from, to)
    }
}

/// One line of a shopping list.
public struct ShoppingItem: Identifiable, Hashable, Sendable, Codable {
    public enum Source: String, Sendable, Codable, Hashable, CaseIterable { case plan, manual }

    public let id: UUID
    public var listId: UUID
    public var name: String
    /// The person's food it is for (plan items); nil for things not in any meal.
    public var foodId: UUID?
    /// How much, in `unit`: grams, millilitres or servings for plan items (the list shows kilograms
    /// and litres from 1,000 up); whatever the person wrote for manual ones.
    public var quantity: Decimal?
    public var unit: String?
    public var category: String
    /// True when the person chose the category (it then stays through refreshes and on later lists).
    public var categoryChosen: Bool
    public var estimatedPrice: Decimal?
    public var checked: Bool
    public var source: Source
    /// The planned meals that need it, in plan order.
    public var meals: [String]
    public var updatedAt: Date

    public init(id: UUID, listId: UUID, name: String, foodId: UUID? = nil, quantity: Decimal? = nil, unit: String? = nil,
                category: String = ShoppingCategory.other, categoryChosen: Bool = false, estimatedPrice: Decimal? = nil,
                checked: Bool = false, source: Source, meals: [String] = [], updatedAt: Date) {
        self.id = id
        self.listId = listId
        self.name = name
        self.foodId = foodId
        self.quantity = quantity
        self.unit = unit
        self.category = category
        self.categoryChosen = categoryChosen
        self.estimatedPrice = estimatedPrice
        self.checked = checked
        self.source = source
        self.meals = meals
        self.updatedAt = updatedAt
    }

    /// The amount as the list shows it: "650 g", "1.5 kg", "2 servings", "3 bottles".
    public var amountText: String? { ShoppingAmount.text(quantity: quantity, unit: unit) }

    public static let maximumNameLength = 200
    public static let maximumUnitLength = 20
    public static let maximumCategoryLength = 60
    public static let quantityRange = PlausibleRange(0, 1_000_000)
    public static let priceRange = PlausibleRange(0, 1_000_000)
}

/// The rules for what a person types into a list: names, amounts, units, categories.
public enum ShoppingItemRules {
    /// The change a person asks for, checked; throws ``ValidationError`` naming the field.
    public static func validated(name: String?, quantity: Decimal?, unit: String?, category: String?, requireName: Bool) throws(ValidationError)
        -> (name: String?, quantity: Decimal?, unit: String?, category: String?) {
        var problems: [ValidationError.Field] = []
        let name = name?.trimmed, unit = unit?.trimmed.nilIfEmptyString, category = category?.trimmed.nilIfEmptyString
        if let name {
            if name.isEmpty { problems.append(.init(field: "name", message: "Give the item a name (\"dish soap\").")) }
            else if name.count > ShoppingItem.maximumNameLength {
                problems.append(.init(field: "name", message: "An item's name is at most \(ShoppingItem.maximumNameLength) characters; this one has \(name.count)."))
            }
        } else if requireName {
            problems.append(.init(field: "name", message: "Give the item a name (\"dish soap\")."))
        }
        if let quantity, !ShoppingItem.quantityRange.contains(quantity) {
            problems.append(.init(field: "quantity", message: "The quantity must be from 0 to 1,000,000; got \(quantity)."))
        }
        if let unit, unit.count > ShoppingItem.maximumUnitLength {
            problems.append(.init(field: "unit", message: "A unit is at most \(ShoppingItem.maximumUnitLength) characters."))
        }
        if let category, category.count > ShoppingItem.maximumCategoryLength {
            problems.append(.init(field: "category", message: "A category is at most \(ShoppingItem.maximumCategoryLength) characters."))
        }
        if !problems.isEmpty { throw ValidationError(problems) }
        return (name?.isEmpty == true ? nil : name, quantity, unit, category)
    }
}

/// The amounts of a list in sensible units.
public enum ShoppingAmount {
    /// 1,500 g → (1.5, "kg"); 1,250 ml → (1.25, "l"); smaller amounts stay; grams and millilitres are
    /// rounded up to whole ones, kilograms and litres to hundredths.
    public static func display(quantity: Decimal, unit: String) -> (quantity: Decimal, unit: String) {
        switch unit {
        case "g" where quantity >= 1000: (roundedUp(quantity / 1000, places: 2), "kg")
        case "ml" where quantity >= 1000: (roundedUp(quantity / 1000, places: 2), "l")
        case "g", "ml": (roundedUp(quantity, places: 0), unit)
        default: (roundedUp(quantity, places: 2), unit)
        }
    }

    public static func text(quantity: Decimal?, unit: String?) -> String? {
        guard let quantity else { return unit }
        guard let unit else { return quantity.description }
        let shown = display(quantity: quantity, unit: unit)
        let word = shown.unit == "serving" ? (shown.quantity == 1 ? "serving" : "servings") : shown.unit
        return "\(shown.quantity.description) \(word)"
    }

    static func roundedUp(_ value: Decimal, places: Int) -> Decimal {
        var input = value, result = Decimal()
        NSDecimalRound(&result, &input, places, .up)
        return result
    }
}

/// Which aisle an item is in when the person has not said.
public enum ShoppingCategory {
    public static let other = "Other"

    /// The catalogue's category for a food adopted from it; else one from the food's icon.
    public static func of(_ food: Food, catalogCategory: String?) -> String {
        if let catalogCategory = catalogCategory?.trimmed.nilIfEmptyString { return catalogCategory }
        // A food left with the plain icon gets the one its name suggests ("Chicken breast": meat).
        let icon = food.icon == .generic ? FoodIcon.guess(name: food.name, category: nil) : food.icon
        return switch icon {
        case .apple, .carrot, .leaf: "Fruit and vegetables"
        case .bread, .grain: "Bread, grains and pasta"
        case .cheese, .egg, .milk: "Dairy and eggs"
        case .fish, .meat: "Meat and fish"
        case .drink: "Drinks"
        case .nut: "Nuts and seeds"
        case .sweet: "Sweets and snacks"
        case .generic, .bowl: other
        }
    }
}

/// What the plan needs from the shop, and how a list follows a plan that changed.
public enum ShoppingPlan {
    /// One food's need over the range.
    public struct Need: Hashable, Sendable {
        public let foodId: UUID
        public let name: String
        /// Grams, millilitres, or servings for a food without a serving size.
        public let quantity: Decimal
        public let unit: String
        public let category: String
        public let categoryChosen: Bool
        public let estimatedPrice: Decimal?
        public let meals: [String]
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
            return Need(foodId: food.id, name: food.name, quantity: sum.quantity, unit: unit, category: category.name,
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
                item.estimatedPrice = need.estimatedPrice
                item.meals = need.meals
                if !item.categoryChosen { item.category = need.category; item.categoryChosen = need.categoryChosen }
                if item != before { item.updatedAt = now; result.changed.append(item) }
            } else {
                result.added.append(ShoppingItem(id: newID(), listId: listId, name: need.name, foodId: need.foodId, quantity: need.quantity,
                                                 unit: need.unit, category: need.category, categoryChosen: need.categoryChosen,
                                                 estimatedPrice: need.estimatedPrice, source: .plan, meals: need.meals, updatedAt: now))
            }
        }
        result.removed.append(contentsOf: byKey.values.map(\.id).sorted { $0.uuidString < $1.uuidString })
        return result
    }

    /// The order a list is shown in: unchecked before checked, then by aisle, then by name.
    public static func ordered(_ items: [ShoppingItem]) -> [ShoppingItem] {
        items.sorted {
            ($0.checked ? 1 : 0, $0.category.matchKey, $0.name.matchKey, $0.id.uuidString)
                < ($1.checked ? 1 : 0, $1.category.matchKey, $1.name.matchKey, $1.id.uuidString)
        }
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

