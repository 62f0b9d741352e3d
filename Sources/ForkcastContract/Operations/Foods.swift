import ForkcastCore
import Foundation

/// `/api/v1/foods`: the food library, barcode lookup, and Open Food Facts search and import.
public enum Foods {
    static let upstream = Outcome(503, "Open Food Facts unreachable or throttled (see Retry-After), or the database unavailable", headers: Outcome.retryAfter)
    static let idNote: [String: FieldNote] = ["id": FieldNote("The food's id")]

    public enum List: APIOperation {
        public typealias Parameters = FoodQuery
        public typealias Answer = Page<FoodAnswer>
        public static let spec = OperationSpec(.get, "/api/v1/foods", "listFoods", tag: "foods",
            summary: "Your foods; search as you type with q (local only, never Open Food Facts)",
            success: Outcome(200, "A page of foods"), failures: [Outcome(400, "Bad query parameter")] + Outcome.read,
            parameterNotes: PageQuery.notes.merging(["q": FieldNote("Text in the name or brand")]) { $1 })
    }

    public enum Create: APIOperation {
        public typealias Body = FoodInput
        public typealias Answer = FoodAnswer
        public static let spec = OperationSpec(.post, "/api/v1/foods", "createFood", tag: "foods", summary: "Add a food",
            success: Outcome(201, "Created"),
            failures: [Outcome(409, "Barcode already used by another of your foods")] + Outcome.writeJSON,
            headerParameters: [.idempotencyKey], answerHeaders: ["Location": "The new food"])
    }

    public enum Get: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = FoodAnswer
        public static let spec = OperationSpec(.get, "/api/v1/foods/{id}", "getFood", tag: "foods", summary: "One food",
            success: Outcome(200, "The food"), failures: [Outcome(404, "No such food")] + Outcome.read, parameterNotes: idNote)
    }

    public enum Update: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Body = FoodInput
        public typealias Answer = FoodAnswer
        public static let spec = OperationSpec(.put, "/api/v1/foods/{id}", "updateFood", tag: "foods",
            summary: "Replace a food's fields", success: Outcome(200, "Updated"),
            failures: [Outcome(404, "No such food"), Outcome(409, "Barcode already used")] + Outcome.writeJSON,
            parameterNotes: idNote)
    }

    public enum Delete: APIOperation {
        public typealias Parameters = IDParameter
        public static let spec = OperationSpec(.delete, "/api/v1/foods/{id}", "deleteFood", tag: "foods",
            summary: "Delete a food no meal uses", success: Outcome.deleted,
            failures: [Outcome(404, "No such food"), Outcome(409, "A meal uses this food")] + Outcome.write,
            parameterNotes: idNote)
    }

    public enum LookUpBarcode: APIOperation {
        public typealias Parameters = BarcodeParameter
        public typealias Answer = BarcodeLookup
        public static let spec = OperationSpec(.get, "/api/v1/foods/barcode/{code}", "lookupBarcode", tag: "foods",
            summary: "Find a food by barcode: your foods first, then the cache, then Open Food Facts",
            success: Outcome(200, "Found (food.id is null for an Open Food Facts product not imported yet)"),
            failures: [Outcome(400, "Not a barcode"), .notSignedIn, Outcome(404, "Not found anywhere"), upstream],
            parameterNotes: ["code": FieldNote("EAN-13, UPC-A or EAN-8 digits (8 to 13, or 14 starting with 0)", pattern: Barcode.pattern, example: "3017620422003")])
    }

    public enum SearchOpenFoodFacts: APIOperation {
        public typealias Parameters = TextQuery
        public typealias Answer = OpenFoodFactsSearch
        public static let spec = OperationSpec(.get, "/api/v1/foods/search/openfoodfacts", "searchOpenFoodFacts", tag: "foods",
            summary: "Search Open Food Facts by name (an explicit action, rate limited)",
            success: Outcome(200, "Products (not yet imported)"),
            failures: [Outcome(400, "q missing or too short"), .notSignedIn, upstream],
            parameterNotes: ["q": FieldNote("Product name: at least 2 characters besides surrounding spaces", minLength: 2, pattern: FieldNote.twoNotBlank, example: "hummus")],
            requiredParameters: ["q"])
    }

    public enum Import: APIOperation {
        public typealias Body = FoodImportInput
        public typealias Answer = FoodAnswer
        public static let spec = OperationSpec(.post, "/api/v1/foods/import", "importFood", tag: "foods",
            summary: "Make an Open Food Facts product (barcode) or a catalogue food (catalogId) one of your foods",
            success: Outcome(201, "Imported"),
            failures: [Outcome.malformed, .notSignedIn, .csrf, Outcome(404, "No such product or catalogue food"), .tooLarge, .notJSON,
                Outcome(422, "Not a barcode or catalogue id, or both given"), upstream], answerHeaders: ["Location": "The food"],
            otherAnswers: [Outcome(200, "You already have a food with this barcode or from this catalogue food")])
    }

    public enum Catalog: APIOperation {
        public typealias Parameters = CatalogQuery
        public typealias Answer = Page<CatalogFoodAnswer>
        public static let spec = OperationSpec(.get, "/api/v1/foods/catalog", "searchFoodCatalog", tag: "foods",
            summary: "Search the food catalogue (USDA FoodData Central, offline): words in any order, one typo forgiven",
            success: Outcome(200, "A page of catalogue foods, best match first"),
            failures: [Outcome(400, "q missing or shorter than 2 characters, or a bad page")] + Outcome.read,
            parameterNotes: PageQuery.notes.merging(["q": FieldNote("What to look for (2 characters or more)", minLength: 2, pattern: FieldNote.twoNotBlank, example: "carrot")]) { $1 },
            requiredParameters: ["q"])
    }

    public enum CatalogEntry: APIOperation {
        public typealias Parameters = CatalogIDParameter
        public typealias Answer = CatalogFoodAnswer
        public static let spec = OperationSpec(.get, "/api/v1/foods/catalog/{catalogId}", "getCatalogFood", tag: "foods",
            summary: "One catalogue food, with all its named portions (a plate row offers them)",
            success: Outcome(200, "The catalogue food"), failures: [Outcome(404, "No such catalogue food")] + Outcome.read,
            parameterNotes: ["catalogId": FieldNote("A catalogue id, as the catalogue search gives it", maxLength: CatalogFood.maximumIdLength, example: "sr-0123456789abcdef")])
    }
}

/// `{catalogId}` in a path.
public struct CatalogIDParameter: Codable, Sendable, Hashable {
    public var catalogId: String
    public init(_ catalogId: String) { self.catalogId = catalogId }
}

/// `/api/v1/nutrients`: what Forkcast tracks.
public enum NutrientDefinitions {
    public enum List: APIOperation {
        public typealias Answer = NutrientList
        public static let spec = OperationSpec(.get, "/api/v1/nutrients", "listNutrients", tag: "foods",
            summary: "The nutrients Forkcast tracks: key, name, unit, FDA daily value",
            success: Outcome(200, "Every nutrient, in display order"), failures: [], signedIn: false)
    }
}
