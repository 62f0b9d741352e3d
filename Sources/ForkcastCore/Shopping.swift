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

    /// The name a list gets when none is given: "Shopping 8–14 December", "Shopping 29 December – 4 January 2027".
    public static func defaultName(from: CalendarDate, to: CalendarDate) -> String {
        "Shopping \(CalendarDate.rangeText(from: from, to: to))"
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
    /// What is bought for a plan item's amount when it is not bought by weight ("3 onions",
    /// "2 packs of 500 g": ``ShoppingPurchase``); nil otherwise.
    public var purchase: String?
    public var category: String
    /// True when the person chose the category (it then stays through refreshes and on later lists).
    public var categoryChosen: Bool
    public var estimatedPrice: Decimal?
    public var checked: Bool
    public var source: Source
    /// The planned meals that need it, in plan order.
    public var meals: [String]
    public var updatedAt: Date
    /// What the household's pantry held of a plan item's food when the list was made or last
    /// refreshed, in `unit`; nil when nothing (or a manual item).
    public var inPantry: Decimal?

    public init(id: UUID, listId: UUID, name: String, foodId: UUID? = nil, quantity: Decimal? = nil, unit: String? = nil,
                category: String = ShoppingCategory.other, categoryChosen: Bool = false, estimatedPrice: Decimal? = nil,
                checked: Bool = false, source: Source, meals: [String] = [], updatedAt: Date, purchase: String? = nil, inPantry: Decimal? = nil) {
        self.id = id
        self.listId = listId
        self.name = name
        self.foodId = foodId
        self.quantity = quantity
        self.unit = unit
        self.purchase = purchase
        self.category = category
        self.categoryChosen = categoryChosen
        self.estimatedPrice = estimatedPrice
        self.checked = checked
        self.source = source
        self.meals = meals
        self.updatedAt = updatedAt
        self.inPantry = inPantry
    }

    /// What is left to buy once the pantry's part is taken off (the whole quantity without one).
    public var toBuy: Decimal? { quantity.map { max(0, $0 - (inPantry ?? 0)) } }
    /// Whether the pantry holds all of it: the list shows it as covered rather than leave it out.
    public var covered: Bool { inPantry != nil && toBuy == 0 }

    /// The amount as the list shows it: "650 g", "1.5 kg", "2 servings", "3 bottles", "3 onions (267 g)";
    /// with a pantry, what to buy of the need: "250 g of 750 g", "covered by the pantry (750 g)".
    public var amountText: String? {
        if inPantry != nil, let toBuy, let needed = ShoppingAmount.text(quantity: quantity, unit: unit) {
            if toBuy == 0 { return "covered by the pantry (\(needed))" }
            let buy = ShoppingAmount.text(quantity: toBuy, unit: unit) ?? ""
            return "\(purchase.map { "\($0) (\(buy))" } ?? buy) of \(needed)"
        }
        let amount = ShoppingAmount.text(quantity: quantity, unit: unit)
        guard let purchase else { return amount }
        return amount.map { "\(purchase) (\($0))" } ?? purchase
    }

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
    public static let other = ShoppingAisle.other.rawValue

    /// The catalogue category's aisle for a food adopted from it; else the one its icon or name gives.
    public static func of(_ food: Food, catalogCategory: String?) -> String {
        if let category = catalogCategory?.trimmed.nilIfEmptyString, let aisle = ShoppingAisle.of(catalogCategory: category) {
            return aisle.rawValue
        }
        return ShoppingAisle.of(food).rawValue
    }
}
