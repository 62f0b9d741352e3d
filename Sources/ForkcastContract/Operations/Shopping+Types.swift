import ForkcastCore
import Foundation

/// `POST /api/v1/shopping-lists`.
public struct ShoppingListInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var from: CalendarDate
    public var to: CalendarDate
    public var name: String?
    public init(from: CalendarDate, to: CalendarDate, name: String? = nil) {
        self.from = from
        self.to = to
        self.name = name
    }
    public static let schemaName = "ShoppingListInput"
    public static var fieldNotes: [String: FieldNote] {
        ["from": FieldNote("First day of the plan to shop for"),
         "to": FieldNote("Last day (not before from; at most \(ShoppingList.maximumDays) days)"),
         "name": FieldNote("Default \"Shopping <from> to <to>\"", maxLength: ShoppingList.maximumNameLength)]
    }
}

/// `POST /api/v1/shopping-lists/{id}/items`: something in no meal.
public struct ShoppingItemInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var name: String
    public var quantity: Decimal?
    public var unit: String?
    public var category: String?
    public init(name: String, quantity: Decimal? = nil, unit: String? = nil, category: String? = nil) {
        self.name = name
        self.quantity = quantity
        self.unit = unit
        self.category = category
    }
    public static let schemaName = "ShoppingItemInput"
    public static var fieldNotes: [String: FieldNote] { ShoppingItemUpdate.fieldNotes.filter { $0.key != "checked" } }
}

/// `PUT /api/v1/shopping-lists/{id}/items/{itemId}`: each field given changes, the others stay.
public struct ShoppingItemUpdate: Codable, Sendable, Hashable, SchemaDocumented {
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
    public static let schemaName = "ShoppingItemUpdate"
    public static var fieldNotes: [String: FieldNote] {
        ["name": FieldNote(maxLength: ShoppingItem.maximumNameLength, example: "dish soap"),
         "quantity": FieldNote(minimum: ShoppingItem.quantityRange.lower, maximum: ShoppingItem.quantityRange.upper),
         "unit": FieldNote("Any word (\"g\", \"bottle\")", maxLength: ShoppingItem.maximumUnitLength),
         "category": FieldNote("The aisle; a category you set is kept through refreshes and used for the food on later lists",
                               maxLength: ShoppingItem.maximumCategoryLength),
         "checked": FieldNote("In the basket")]
    }
    public var change: ShoppingItemChange { ShoppingItemChange(name: name, quantity: quantity, unit: unit, category: category, checked: checked) }
}

extension ShoppingItem.Source: SchemaLeaf {}

/// One line of a shopping list.
public struct ShoppingItemAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var id: UUID
    public var listId: UUID
    public var name: String
    public var foodId: UUID?
    /// In `unit`, shown sensibly (1,500 g as 1.5 kg).
    public var quantity: Decimal?
    public var unit: String?
    /// The amount as the list shows it ("1.5 kg").
    public var amount: String?
    public var category: String
    public var estimatedPrice: Decimal?
    public var checked: Bool
    public var source: Tolerant<ShoppingItem.Source>
    public var meals: [String]
    public var updatedAt: Date
    /// A plan item's need, what the pantry holds of it and what is left to buy, in `unit`.
    public var needed: Decimal?
    public var inPantry: Decimal?
    public var toBuy: Decimal?

    public init(_ item: ShoppingItem) {
        id = item.id
        listId = item.listId
        name = item.name
        foodId = item.foodId
        if let q = item.quantity, let u = item.unit, item.source == .plan {
            let shown = ShoppingAmount.display(quantity: q, unit: u)
            (quantity, unit) = (shown.quantity, shown.unit)
            // The pantry's part in the unit shown (kg when the need is shown in kg).
            let scale: Decimal = shown.unit == u ? 1 : 1000
            needed = shown.quantity
            inPantry = ((item.inPantry ?? 0) / scale).rounded(3)
            toBuy = item.toBuy.map { ($0 / scale).rounded(3) }
        } else {
            (quantity, unit) = (item.quantity, item.unit)
        }
        amount = item.amountText
        category = item.category
        estimatedPrice = item.estimatedPrice?.rounded(2)
        checked = item.checked
        source = .known(item.source)
        meals = item.meals
        updatedAt = item.updatedAt
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(listId, forKey: .listId); try c.encode(name, forKey: .name)
        try c.encode(foodId, forKey: .foodId); try c.encode(quantity, forKey: .quantity); try c.encode(unit, forKey: .unit)
        try c.encode(amount, forKey: .amount); try c.encode(category, forKey: .category); try c.encode(estimatedPrice, forKey: .estimatedPrice)
        try c.encode(checked, forKey: .checked); try c.encode(source, forKey: .source); try c.encode(meals, forKey: .meals)
        try c.encode(updatedAt, forKey: .updatedAt); try c.encode(needed, forKey: .needed); try c.encode(inPantry, forKey: .inPantry)
        try c.encode(toBuy, forKey: .toBuy)
    }

    public static let schemaName = "ShoppingItem"
    public static let writesNulls = true
    public static var fieldNotes: [String: FieldNote] {
        ["quantity": FieldNote("In unit; plan items in g, kg, ml, l or servings"), "amount": FieldNote(example: "1.5 kg"),
         "estimatedPrice": FieldNote("In your currency, from the foods' prices; null when unknown"),
         "source": FieldNote("plan: from the planned meals; manual: added by hand"),
         "meals": FieldNote("The planned meals that need it"),
         "needed": FieldNote("Plan items: what the planned meals need, in unit; null for your own items"),
         "inPantry": FieldNote("Plan items: what the household's pantry held of it at the last refresh, in unit"),
         "toBuy": FieldNote("Plan items: needed less inPantry, never below 0 (0: covered by the pantry)")]
    }
}

/// A shopping list with its items: unchecked first, then by aisle and name.
public struct ShoppingListAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var id: UUID
    public var name: String
    public var from: CalendarDate
    public var to: CalendarDate
    public var createdAt: Date
    public var updatedAt: Date
    public var items: [ShoppingItemAnswer]
    public var estimatedTotal: Decimal?
    public var currency: String
    /// Whether a sharing link is open.
    public var shared: Bool

    public init(_ contents: ShoppingListContents, currency: String) {
        id = contents.list.id
        name = contents.list.name
        from = contents.list.from
        to = contents.list.to
        createdAt = contents.list.createdAt
        updatedAt = contents.list.updatedAt
        items = contents.items.map(ShoppingItemAnswer.init)
        estimatedTotal = ShoppingPlan.estimatedTotal(contents.items)?.rounded(2)
        self.currency = currency
        shared = contents.list.shareToken != nil
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(name, forKey: .name); try c.encode(from, forKey: .from); try c.encode(to, forKey: .to)
        try c.encode(createdAt, forKey: .createdAt); try c.encode(updatedAt, forKey: .updatedAt); try c.encode(items, forKey: .items)
        try c.encode(estimatedTotal, forKey: .estimatedTotal); try c.encode(currency, forKey: .currency); try c.encode(shared, forKey: .shared)
    }

    public static let schemaName = "ShoppingList"
    public static let writesNulls = true
    public static var fieldNotes: [String: FieldNote] {
        ["estimatedTotal": FieldNote("Sum of the items' known prices; null when none is known"),
         "shared": FieldNote("A sharing link is open (POST …/share gives it)")]
    }
}

/// A list in the list of lists (and in the change feed): no items, their counts.
public struct ShoppingListSummaryAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var id: UUID
    public var name: String
    public var from: CalendarDate
    public var to: CalendarDate
    public var createdAt: Date
    public var updatedAt: Date
    public var itemCount: Int
    public var checkedCount: Int
    public var shared: Bool
    public init(_ list: ShoppingList, itemCount: Int, checkedCount: Int) {
        id = list.id
        name = list.name
        from = list.from
        to = list.to
        createdAt = list.createdAt
        updatedAt = list.updatedAt
        self.itemCount = itemCount
        self.checkedCount = checkedCount
        shared = list.shareToken != nil
    }
    public static let schemaName = "ShoppingListSummary"
}

/// `POST /api/v1/shopping-lists/{id}/share`.
public struct ShoppingShareAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    /// The page that opens the list on any phone, without an account.
    public var url: String
    /// The same link's API: GET it for the list, PUT …/items/{itemId} {checked} to check off.
    public var apiPath: String
    public init(url: String, apiPath: String) {
        self.url = url
        self.apiPath = apiPath
    }
    public static let schemaName = "ShoppingShare"
}

/// A shopping item pushed by a synced device: the list it is on and the fields to change (an item
/// the server does not have is added, as one of the person's own, and then needs a name).
public struct ShoppingItemSyncInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var listId: UUID
    public var name: String?
    public var quantity: Decimal?
    public var unit: String?
    public var category: String?
    public var checked: Bool?
    public init(listId: UUID, name: String? = nil, quantity: Decimal? = nil, unit: String? = nil, category: String? = nil, checked: Bool? = nil) {
        self.listId = listId
        self.name = name
        self.quantity = quantity
        self.unit = unit
        self.category = category
        self.checked = checked
    }
    public static let schemaName = "ShoppingItemSyncInput"
    public var change: ShoppingItemChange { ShoppingItemChange(name: name, quantity: quantity, unit: unit, category: category, checked: checked) }
}

/// `{id}` of a list and `{itemId}` of one of its items.
public struct ShoppingItemParameters: Codable, Sendable, Hashable {
    public var id: UUID
    public var itemId: UUID
    public init(id: UUID, itemId: UUID) {
        self.id = id
        self.itemId = itemId
    }
}
