import ForkcastCore
import Foundation

/// `/api/v1/pantry`: what the household has, lot by lot.
public enum Pantry {
    static let idNote: [String: FieldNote] = ["id": FieldNote("The lot's id")]

    public enum List: APIOperation {
        public typealias Answer = PantryAnswer
        public static let spec = OperationSpec(.get, "/api/v1/pantry", "listPantry", tag: "pantry",
            summary: "Every lot in the household's pantry, the one that goes off first first, with this month's waste",
            success: Outcome(200, "The pantry"), failures: Outcome.read)
    }

    public enum Add: APIOperation {
        public typealias Body = PantryItemInput
        public typealias Answer = PantryItemAnswer
        public static let spec = OperationSpec(.post, "/api/v1/pantry", "addPantryItem", tag: "pantry",
            summary: "Put a lot of one of the household's foods in the pantry (its amount is kept in the food's g or ml)",
            success: Outcome(201, "Stocked"), failures: [Outcome(404, "No such food in your household")] + Outcome.writeJSON,
            headerParameters: [.idempotencyKey])
    }

    public enum AddByBarcode: APIOperation {
        public typealias Body = PantryBarcodeInput
        public typealias Answer = PantryItemAnswer
        public static let spec = OperationSpec(.post, "/api/v1/pantry/barcode", "addPantryItemByBarcode", tag: "pantry",
            summary: "Put a scanned pack in the pantry: the household's food with that barcode, or the Open Food Facts product made one; the amount defaults to the pack size on its label",
            success: Outcome(201, "Stocked"),
            failures: [Outcome(404, "No product with that barcode"), Foods.upstream, .malformed, .notSignedIn, .csrf, .tooLarge, .notJSON,
                       Outcome(422, "Not a barcode, a bad place or date, or no amount given for a product whose label gives no pack size")])
    }

    public enum Update: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Body = PantryItemInput
        public typealias Answer = PantryItemAnswer
        public static let spec = OperationSpec(.put, "/api/v1/pantry/{id}", "updatePantryItem", tag: "pantry",
            summary: "Replace a lot's food, amount, place, best-before and opened mark", success: Outcome(200, "Changed"),
            failures: [Outcome(404, "No such lot, or no such food")] + Outcome.writeJSON, parameterNotes: idNote)
    }

    public enum Delete: APIOperation {
        public typealias Parameters = IDParameter
        public static let spec = OperationSpec(.delete, "/api/v1/pantry/{id}", "deletePantryItem", tag: "pantry",
            summary: "Remove a lot (entered by mistake: nothing is counted as used or wasted)", success: Outcome.deleted,
            failures: [Outcome(404, "No such lot")] + Outcome.write, parameterNotes: idNote)
    }

    public enum Use: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Body = PantryUseInput
        public typealias Answer = PantryItemAnswer
        public static let spec = OperationSpec(.post, "/api/v1/pantry/{id}/use", "usePantryItem", tag: "pantry",
            summary: "Take some of a lot out, eaten or discarded (discarded counts as waste); more than the lot holds is refused",
            success: Outcome(200, "What is left (amount 0: used up, the lot is gone)"),
            failures: [Outcome(404, "No such lot")] + Outcome.writeJSON, parameterNotes: idNote)
    }
}
