import ForkcastCore
import Foundation

/// `/api/v1/foods`: the food library, barcode lookup, and Open Food Facts search and import.
public enum Foods {
    static let upstream = Outcome(503, "Open Food Facts unreachable or throttled (see Retry-After), or the database unavailable", headers: Outcome.retryAfter)
    static let idNote: [String: FieldNote] = ["id": FieldNote("The food's id")]

    public enum List: APIOperation {
        public typealias Parameters = FoodQuery
        public typealias Answer = Page<FoodAnswer>
        public static let id = "listFoods"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/foods"
        public static let summary = "Your foods; search as you type with q (local only, never Open Food Facts)"
        public static let tag = "foods"
        public static let success = Outcome(200, "A page of foods")
        public static let failures = [Outcome(400, "Bad query parameter")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { PageQuery.notes.merging(["q": FieldNote("Text in the name or brand")]) { $1 } }
    }

    public enum Create: APIOperation {
        public typealias Body = FoodInput
        public typealias Answer = FoodAnswer
        public static let id = "createFood"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/foods"
        public static let summary = "Add a food"
        public static let tag = "foods"
        public static let success = Outcome(201, "Created")
        public static var headerParameters: [HeaderParameter] { [.idempotencyKey] }
        public static let answerHeaders = ["Location": "The new food"]
        public static let failures = [Outcome(409, "Barcode already used by another of your foods")] + Outcome.writeJSON
    }

    public enum Get: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = FoodAnswer
        public static let id = "getFood"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/foods/{id}"
        public static let summary = "One food"
        public static let tag = "foods"
        public static let success = Outcome(200, "The food")
        public static let failures = [Outcome(404, "No such food")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum Update: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Body = FoodInput
        public typealias Answer = FoodAnswer
        public static let id = "updateFood"
        public static let method = HTTPVerb.put
        public static let path: PathTemplate = "/api/v1/foods/{id}"
        public static let summary = "Replace a food's fields"
        public static let tag = "foods"
        public static let success = Outcome(200, "Updated")
        public static let failures = [Outcome(404, "No such food"), Outcome(409, "Barcode already used")] + Outcome.writeJSON
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum Delete: APIOperation {
        public typealias Parameters = IDParameter
        public static let id = "deleteFood"
        public static let method = HTTPVerb.delete
        public static let path: PathTemplate = "/api/v1/foods/{id}"
        public static let summary = "Delete a food no meal uses"
        public static let tag = "foods"
        public static let success = Outcome.deleted
        public static let failures = [Outcome(404, "No such food"), Outcome(409, "A meal uses this food")] + Outcome.write
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum LookUpBarcode: APIOperation {
        public typealias Parameters = BarcodeParameter
        public typealias Answer = BarcodeLookup
        public static let id = "lookupBarcode"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/foods/barcode/{code}"
        public static let summary = "Find a food by barcode: your foods first, then the cache, then Open Food Facts"
        public static let tag = "foods"
        public static let success = Outcome(200, "Found (food.id is null for an Open Food Facts product not imported yet)")
        public static let failures = [Outcome(400, "Not a barcode"), .notSignedIn, Outcome(404, "Not found anywhere"), upstream]
        public static var parameterNotes: [String: FieldNote] {
            ["code": FieldNote("EAN-13, UPC-A or EAN-8 digits (8 to 13, or 14 starting with 0)", pattern: Barcode.pattern, example: "3017620422003")]
        }
    }

    public enum SearchOpenFoodFacts: APIOperation {
        public typealias Parameters = TextQuery
        public typealias Answer = OpenFoodFactsSearch
        public static let id = "searchOpenFoodFacts"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/foods/search/openfoodfacts"
        public static let summary = "Search Open Food Facts by name (an explicit action, rate limited)"
        public static let tag = "foods"
        public static let success = Outcome(200, "Products (not yet imported)")
        public static let failures = [Outcome(400, "q missing or too short"), .notSignedIn, upstream]
        public static var requiredParameters: Set<String> { ["q"] }
        public static var parameterNotes: [String: FieldNote] {
            ["q": FieldNote("Product name: at least 2 characters besides surrounding spaces", minLength: 2, pattern: FieldNote.twoNotBlank, example: "hummus")]
        }
    }

    public enum Import: APIOperation {
        public typealias Body = FoodImportInput
        public typealias Answer = FoodAnswer
        public static let id = "importFood"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/foods/import"
        public static let summary = "Make an Open Food Facts product (barcode) or a catalogue food (catalogId) one of your foods"
        public static let tag = "foods"
        public static let success = Outcome(201, "Imported")
        public static let otherAnswers = [Outcome(200, "You already have a food with this barcode or from this catalogue food")]
        public static let answerHeaders = ["Location": "The food"]
        public static let failures = [Outcome.malformed, .notSignedIn, .csrf, Outcome(404, "No such product or catalogue food"), .tooLarge, .notJSON,
                                      Outcome(422, "Not a barcode or catalogue id, or both given"), upstream]
    }

    public enum Catalog: APIOperation {
        public typealias Parameters = CatalogQuery
        public typealias Answer = Page<CatalogFoodAnswer>
        public static let id = "searchFoodCatalog"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/foods/catalog"
        public static let summary = "Search the food catalogue (USDA FoodData Central, offline): words in any order, one typo forgiven"
        public static let tag = "foods"
        public static let success = Outcome(200, "A page of catalogue foods, best match first")
        public static let failures = [Outcome(400, "q missing or shorter than 2 characters, or a bad page")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] {
            PageQuery.notes.merging(["q": FieldNote("What to look for (2 characters or more)", minLength: 2, pattern: FieldNote.twoNotBlank, example: "carrot")]) { $1 }
        }
        public static var requiredParameters: Set<String> { ["q"] }
    }

    public enum CatalogEntry: APIOperation {
        public typealias Parameters = CatalogIDParameter
        public typealias Answer = CatalogFoodAnswer
        public static let id = "getCatalogFood"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/foods/catalog/{catalogId}"
        public static let summary = "One catalogue food, with all its named portions (a plate row offers them)"
        public static let tag = "foods"
        public static let success = Outcome(200, "The catalogue food")
        public static let failures = [Outcome(404, "No such catalogue food")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] {
            ["catalogId": FieldNote("A catalogue id, as the catalogue search gives it", maxLength: CatalogFood.maximumIdLength, example: "sr-0123456789abcdef")]
        }
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
        public static let id = "listNutrients"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/nutrients"
        public static let summary = "The nutrients Forkcast tracks: key, name, unit, FDA daily value"
        public static let tag = "foods"
        public static let signedIn = false
        public static let success = Outcome(200, "Every nutrient, in display order")
        public static let failures: [Outcome] = []
    }
}
