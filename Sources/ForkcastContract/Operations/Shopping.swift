import ForkcastCore
import Foundation

/// `/api/v1/shopping-lists`: shopping lists from the plan.
public enum ShoppingLists {
    static let idNote: [String: FieldNote] = ["id": FieldNote("The list's id")]
    static let itemNotes: [String: FieldNote] = ["id": FieldNote("The list's id"), "itemId": FieldNote("The item's id")]
    static let tokenNote: [String: FieldNote] = ["token": FieldNote("The sharing link's token", maxLength: 100)]

    public enum List: APIOperation {
        public typealias Parameters = PageQuery
        public typealias Answer = Page<ShoppingListSummaryAnswer>
        public static let id = "listShoppingLists"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/shopping-lists"
        public static let summary = "Your shopping lists, newest first"
        public static let tag = "shopping"
        public static let success = Outcome(200, "A page of lists")
        public static let failures = [Outcome(400, "Bad page or per")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { PageQuery.notes }
    }

    public enum Create: APIOperation {
        public typealias Body = ShoppingListInput
        public typealias Answer = ShoppingListAnswer
        public static let id = "createShoppingList"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/shopping-lists"
        public static let summary = "Make a shopping list from the plan of from … to: every ingredient, scaled by the portions planned, summed per food"
        public static let tag = "shopping"
        public static let success = Outcome(201, "Made")
        public static var headerParameters: [HeaderParameter] { [.idempotencyKey] }
        public static let answerHeaders = ["Location": "The new list"]
        public static let failures = Outcome.writeJSON
    }

    public enum Get: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = ShoppingListAnswer
        public static let id = "getShoppingList"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/shopping-lists/{id}"
        public static let summary = "One list with its items"
        public static let tag = "shopping"
        public static let success = Outcome(200, "The list")
        public static let failures = [Outcome(404, "No such list")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum Delete: APIOperation {
        public typealias Parameters = IDParameter
        public static let id = "deleteShoppingList"
        public static let method = HTTPVerb.delete
        public static let path: PathTemplate = "/api/v1/shopping-lists/{id}"
        public static let summary = "Delete a list (its sharing link stops working)"
        public static let tag = "shopping"
        public static let success = Outcome.deleted
        public static let failures = [Outcome(404, "No such list")] + Outcome.write
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum Refresh: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = ShoppingListAnswer
        public static let id = "refreshShoppingList"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/shopping-lists/{id}/refresh"
        public static let summary = "Read the plan again: quantities follow it, items no longer needed go, checked marks and your own items stay"
        public static let tag = "shopping"
        public static let success = Outcome(200, "The list as the plan has it now")
        public static let failures = [Outcome(404, "No such list")] + Outcome.write
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum AddItem: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Body = ShoppingItemInput
        public typealias Answer = ShoppingItemAnswer
        public static let id = "addShoppingItem"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/shopping-lists/{id}/items"
        public static let summary = "Add something that is in no meal (\"dish soap\")"
        public static let tag = "shopping"
        public static let success = Outcome(201, "Added")
        public static var headerParameters: [HeaderParameter] { [.idempotencyKey] }
        public static let failures = [Outcome(404, "No such list")] + Outcome.writeJSON
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum UpdateItem: APIOperation {
        public typealias Parameters = ShoppingItemParameters
        public typealias Body = ShoppingItemUpdate
        public typealias Answer = ShoppingItemAnswer
        public static let id = "updateShoppingItem"
        public static let method = HTTPVerb.put
        public static let path: PathTemplate = "/api/v1/shopping-lists/{id}/items/{itemId}"
        public static let summary = "Check an item off, or change its name, amount or aisle"
        public static let tag = "shopping"
        public static let success = Outcome(200, "Changed")
        public static let failures = [Outcome(404, "No such list or item")] + Outcome.writeJSON
        public static var parameterNotes: [String: FieldNote] { itemNotes }
    }

    public enum DeleteItem: APIOperation {
        public typealias Parameters = ShoppingItemParameters
        public static let id = "deleteShoppingItem"
        public static let method = HTTPVerb.delete
        public static let path: PathTemplate = "/api/v1/shopping-lists/{id}/items/{itemId}"
        public static let summary = "Take an item off the list (a plan item comes back on refresh while the plan needs it)"
        public static let tag = "shopping"
        public static let success = Outcome.deleted
        public static let failures = [Outcome(404, "No such list or item")] + Outcome.write
        public static var parameterNotes: [String: FieldNote] { itemNotes }
    }

    public enum Share: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = ShoppingShareAnswer
        public static let id = "shareShoppingList"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/shopping-lists/{id}/share"
        public static let summary = "A link that opens this list (read and check off, nothing else) on any phone without an account, until revoked"
        public static let tag = "shopping"
        public static let success = Outcome(201, "Shared")
        public static let otherAnswers = [Outcome(200, "Already shared: the same link")]
        public static let failures = [Outcome(404, "No such list")] + Outcome.write
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum Unshare: APIOperation {
        public typealias Parameters = IDParameter
        public static let id = "unshareShoppingList"
        public static let method = HTTPVerb.delete
        public static let path: PathTemplate = "/api/v1/shopping-lists/{id}/share"
        public static let summary = "Revoke the sharing link (it then answers 404)"
        public static let tag = "shopping"
        public static let success = Outcome(204, "Revoked")
        public static let failures = [Outcome(404, "No such list")] + Outcome.write
        public static var parameterNotes: [String: FieldNote] { idNote }
    }
}
