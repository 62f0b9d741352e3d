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
        public static let spec = OperationSpec(.get, "/api/v1/shopping-lists", "listShoppingLists", tag: "shopping",
            summary: "Your shopping lists, newest first", success: Outcome(200, "A page of lists"),
            failures: [Outcome(400, "Bad page or per")] + Outcome.read, parameterNotes: PageQuery.notes)
    }

    public enum Create: APIOperation {
        public typealias Body = ShoppingListInput
        public typealias Answer = ShoppingListAnswer
        public static let spec = OperationSpec(.post, "/api/v1/shopping-lists", "createShoppingList", tag: "shopping",
            summary: "Make a shopping list from the plan of from … to: every ingredient, scaled by the portions planned, summed per food",
            success: Outcome(201, "Made"), failures: Outcome.writeJSON, headerParameters: [.idempotencyKey],
            answerHeaders: ["Location": "The new list"])
    }

    public enum Get: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = ShoppingListAnswer
        public static let spec = OperationSpec(.get, "/api/v1/shopping-lists/{id}", "getShoppingList", tag: "shopping",
            summary: "One list with its items", success: Outcome(200, "The list"),
            failures: [Outcome(404, "No such list")] + Outcome.read, parameterNotes: idNote)
    }

    public enum Delete: APIOperation {
        public typealias Parameters = IDParameter
        public static let spec = OperationSpec(.delete, "/api/v1/shopping-lists/{id}", "deleteShoppingList", tag: "shopping",
            summary: "Delete a list (its sharing link stops working)", success: Outcome.deleted,
            failures: [Outcome(404, "No such list")] + Outcome.write, parameterNotes: idNote)
    }

    public enum Refresh: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = ShoppingListAnswer
        public static let spec = OperationSpec(.post, "/api/v1/shopping-lists/{id}/refresh", "refreshShoppingList",
            tag: "shopping",
            summary: "Read the plan again: quantities follow it, items no longer needed go, checked marks and your own items stay",
            success: Outcome(200, "The list as the plan has it now"), failures: [Outcome(404, "No such list")] + Outcome.write,
            parameterNotes: idNote)
    }

    public enum AddItem: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Body = ShoppingItemInput
        public typealias Answer = ShoppingItemAnswer
        public static let spec = OperationSpec(.post, "/api/v1/shopping-lists/{id}/items", "addShoppingItem", tag: "shopping",
            summary: "Add something that is in no meal (\"dish soap\")", success: Outcome(201, "Added"),
            failures: [Outcome(404, "No such list")] + Outcome.writeJSON, parameterNotes: idNote,
            headerParameters: [.idempotencyKey])
    }

    public enum UpdateItem: APIOperation {
        public typealias Parameters = ShoppingItemParameters
        public typealias Body = ShoppingItemUpdate
        public typealias Answer = ShoppingItemAnswer
        public static let spec = OperationSpec(.put, "/api/v1/shopping-lists/{id}/items/{itemId}", "updateShoppingItem",
            tag: "shopping", summary: "Check an item off, or change its name, amount or aisle", success: Outcome(200, "Changed"),
            failures: [Outcome(404, "No such list or item")] + Outcome.writeJSON, parameterNotes: itemNotes)
    }

    public enum DeleteItem: APIOperation {
        public typealias Parameters = ShoppingItemParameters
        public static let spec = OperationSpec(.delete, "/api/v1/shopping-lists/{id}/items/{itemId}", "deleteShoppingItem",
            tag: "shopping", summary: "Take an item off the list (a plan item comes back on refresh while the plan needs it)",
            success: Outcome.deleted, failures: [Outcome(404, "No such list or item")] + Outcome.write, parameterNotes: itemNotes)
    }

    public enum Share: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = ShoppingShareAnswer
        public static let spec = OperationSpec(.post, "/api/v1/shopping-lists/{id}/share", "shareShoppingList", tag: "shopping",
            summary: "A link that opens this list (read and check off, nothing else) on any phone without an account, until revoked",
            success: Outcome(201, "Shared"), failures: [Outcome(404, "No such list")] + Outcome.write, parameterNotes: idNote,
            otherAnswers: [Outcome(200, "Already shared: the same link")])
    }

    public enum Unshare: APIOperation {
        public typealias Parameters = IDParameter
        public static let spec = OperationSpec(.delete, "/api/v1/shopping-lists/{id}/share", "unshareShoppingList",
            tag: "shopping", summary: "Revoke the sharing link (it then answers 404)", success: Outcome(204, "Revoked"),
            failures: [Outcome(404, "No such list")] + Outcome.write, parameterNotes: idNote)
    }
}
