import ForkcastCore
import Foundation

// What a sharing link opens, for anyone who holds it: the list to shop from and checking its items
// off. Nothing that names the owner's other records (food, meal or list ids, the meals behind an
// item) is in these answers.

/// `{token}` of a sharing link.
public struct ShareTokenParameter: Codable, Sendable, Hashable {
    public var token: String
    public init(token: String) { self.token = token }
}

/// `{token}` of a sharing link and `{itemId}` of an item on its list.
public struct SharedItemParameters: Codable, Sendable, Hashable {
    public var token: String
    public var itemId: UUID
    public init(token: String, itemId: UUID) {
        self.token = token
        self.itemId = itemId
    }
}

/// `PUT /api/v1/shared/shopping-lists/{token}/items/{itemId}`: a link's holder may only check off.
public struct SharedCheckInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var checked: Bool
    public init(checked: Bool) { self.checked = checked }
    public static let schemaName = "SharedCheckInput"
}

/// An item of a shared list: what to buy, how much, in which aisle, and whether it is in the basket.
public struct SharedShoppingItemAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var id: UUID
    public var name: String
    public var quantity: Decimal?
    public var unit: String?
    public var amount: String?
    public var category: String
    public var estimatedPrice: Decimal?
    public var checked: Bool

    public init(_ item: ShoppingItem) {
        let full = ShoppingItemAnswer(item)
        (id, name, quantity, unit, amount) = (full.id, full.name, full.quantity, full.unit, full.amount)
        (category, estimatedPrice, checked) = (full.category, full.estimatedPrice, full.checked)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(name, forKey: .name); try c.encode(quantity, forKey: .quantity)
        try c.encode(unit, forKey: .unit); try c.encode(amount, forKey: .amount); try c.encode(category, forKey: .category)
        try c.encode(estimatedPrice, forKey: .estimatedPrice); try c.encode(checked, forKey: .checked)
    }

    public static let schemaName = "SharedShoppingItem"
    public static let writesNulls = true
    public static var fieldNotes: [String: FieldNote] {
        ["id": FieldNote("Checks the item off: PUT …/items/{id}"), "amount": FieldNote(example: "1.5 kg"),
         "estimatedPrice": FieldNote("In the list's currency; null when unknown")]
    }
}

/// A shared list: its name, its days and its items (unchecked first, then by aisle and name).
public struct SharedShoppingListAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var name: String
    public var from: CalendarDate
    public var to: CalendarDate
    public var items: [SharedShoppingItemAnswer]
    public var estimatedTotal: Decimal?
    public var currency: String

    public init(_ contents: ShoppingListContents, currency: String) {
        (name, from, to) = (contents.list.name, contents.list.from, contents.list.to)
        items = contents.items.map(SharedShoppingItemAnswer.init)
        estimatedTotal = ShoppingPlan.estimatedTotal(contents.items)?.rounded(2)
        self.currency = currency
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name); try c.encode(from, forKey: .from); try c.encode(to, forKey: .to)
        try c.encode(items, forKey: .items); try c.encode(estimatedTotal, forKey: .estimatedTotal); try c.encode(currency, forKey: .currency)
    }

    public static let schemaName = "SharedShoppingList"
    public static let writesNulls = true
    public static var fieldNotes: [String: FieldNote] {
        ["estimatedTotal": FieldNote("Sum of the items' known prices; null when none is known")]
    }
}

extension ShoppingLists {
    public enum Shared: APIOperation {
        public typealias Parameters = ShareTokenParameter
        public typealias Answer = SharedShoppingListAnswer
        public static let spec = OperationSpec(.get, "/api/v1/shared/shopping-lists/{token}", "getSharedShoppingList",
            tag: "shopping", summary: "The list a sharing link opens (no account needed)", success: Outcome(200, "The list"),
            failures: [Outcome(404, "No list is shared by this link (never, or revoked)"), .unavailable],
            parameterNotes: tokenNote, signedIn: false)
    }

    public enum SharedCheck: APIOperation {
        public typealias Parameters = SharedItemParameters
        public typealias Body = SharedCheckInput
        public typealias Answer = SharedShoppingItemAnswer
        public static let spec = OperationSpec(.put, "/api/v1/shared/shopping-lists/{token}/items/{itemId}",
            "checkSharedShoppingItem", tag: "shopping",
            summary: "Check an item of a shared list off (or back on); nothing else can be changed through the link",
            success: Outcome(200, "Changed"),
            failures: [Outcome.malformed, Outcome(404, "No list is shared by this link, or it has no such item"),
                .tooLarge, .notJSON, .invalid, .unavailable],
            parameterNotes: ["token": FieldNote("The sharing link's token", maxLength: 100), "itemId": FieldNote("The item's id")],
            signedIn: false)
    }
}
