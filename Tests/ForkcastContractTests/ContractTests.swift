import ForkcastContract
import ForkcastCore
import Foundation
import Testing

/// The document comes from the Swift types: what a type has is what the document says.
@Suite("API contract: schemas, parameters and the document from the operations")
struct ContractTests {
    struct Reading: Codable, Sendable, SchemaDocumented {
        var id: UUID
        var takenAt: Date
        var value: Decimal
        var note: String?
        var tags: [String]
        static let schemaName = "Reading"
        static var fieldNotes: [String: FieldNote] { ["value": FieldNote("A value", minimum: 0, maximum: 10)] }
    }

    /// The same type with one more field: the document has it without another edit.
    struct ReadingWithUnit: Codable, Sendable, SchemaDocumented {
        var id: UUID
        var takenAt: Date
        var value: Decimal
        var note: String?
        var tags: [String]
        var unit: String
        static let schemaName = "ReadingWithUnit"
    }

    /// An enumeration a newer server adds is kept as text, so an older app still reads the answer;
    /// a known one compares with the enumeration's cases.
    @Test func anAnswersEnumerationToleratesAValueItDoesNotKnow() throws {
        let decoder = JSONDecoder()
        let unknown = try decoder.decode(Tolerant<FoodSource>.self, from: Data(#""nutritionix""#.utf8))
        #expect(unknown == .unknown("nutritionix") && unknown.value == nil && unknown.rawValue == "nutritionix")
        #expect(String(decoding: try JSONEncoder().encode(unknown), as: UTF8.self) == #""nutritionix""#)
        let known = try decoder.decode(Tolerant<FoodSource>.self, from: Data(#""openfoodfacts""#.utf8))
        #expect(known == FoodSource.openFoodFacts && known != FoodSource.custom)
        #expect(Tolerant<FoodSource>.leafSchema == ["type": "string", "enum": ["custom", "openfoodfacts", "usda"]])
    }

    @Test func anAnswerSchemaListsEveryFieldOfItsTypeAndNoOther() throws {
        let book = SchemaBook()
        #expect(try book.answer(Reading.self) == ["$ref": "#/components/schemas/Reading"])
        let schema = try #require(book.components["Reading"])
        #expect(schema["required"] == ["id", "takenAt", "value", "tags"])
        #expect(schema["additionalProperties"] == false)
        #expect(schema["properties"]?["id"] == ["type": "string", "format": "uuid"])
        #expect(schema["properties"]?["takenAt"]?["format"] == "date-time")
        #expect(schema["properties"]?["value"] == ["type": "number", "description": "A value", "minimum": 0, "maximum": 10])
        #expect(schema["properties"]?["note"] == ["type": ["string", "null"]])
        #expect(schema["properties"]?["tags"] == ["type": "array", "items": ["type": "string"]])

        let grown = SchemaBook()
        _ = try grown.answer(ReadingWithUnit.self)
        #expect(grown.components["ReadingWithUnit"]?["properties"]?["unit"] == ["type": "string"])
        #expect(grown.components["ReadingWithUnit"]?["required"] == ["id", "takenAt", "value", "tags", "unit"])
    }

    @Test func anInputSchemaIsOpenAndTakesItsBoundsFromCore() throws {
        let book = SchemaBook()
        _ = try book.input(WeightInput.self)
        let schema = try #require(book.components["WeightInput"])
        #expect(schema["additionalProperties"] == nil, "unknown fields of a request are ignored")
        #expect(schema["required"] == nil)
        let kg = try #require(schema["properties"]?["weightKg"])
        #expect(kg["minimum"] == .number(NSDecimalNumber(decimal: Plausible.bodyWeightKg.lower).doubleValue))
        #expect(kg["maximum"] == .number(NSDecimalNumber(decimal: Plausible.bodyWeightKg.upper).doubleValue))
        #expect(kg["type"] == ["number", "null"])
        #expect(schema["anyOf"] != nil)
    }

    /// Bounds on a list are its count of items: a plate of no food, or too many, is refused by the
    /// document as by the server.
    @Test func aListsBoundsAreItsItems() throws {
        let book = SchemaBook()
        _ = try book.input(PlateInput.self)
        _ = try book.input(AssignmentsInput.self)
        let items = try #require(book.components["PlateInput"]?["properties"]?["items"])
        #expect(items["minItems"] == 1 && items["maxItems"] == .number(Double(DiaryValidation.maximumPlateItems)) && items["minLength"] == nil)
        let assignments = try #require(book.components["AssignmentsInput"]?["properties"]?["assignments"])
        #expect(assignments["minItems"] == 1 && assignments["maxItems"] == .number(Double(AssignmentsInput.maximum)))
    }

    /// A type both sent and answered (a meal type's window) stays open: requests may carry fields
    /// the server ignores.
    @Test func aComponentInARequestAndAnAnswerStaysOpen() throws {
        let book = SchemaBook()
        _ = try book.answer(MealTypeAnswer.self)
        #expect(book.components["MealTypeWindow"]?["additionalProperties"] == false)
        _ = try book.input(MealTypeInput.self)
        #expect(book.components["MealTypeWindow"]?["additionalProperties"] == nil)
        #expect(book.components["MealType"]?["additionalProperties"] == false)
        // A key read only after asking whether it is there may be left out.
        #expect(book.components["MealTypeInput"]?["required"] == nil)
        if case .array(let required)? = book.components["MealType"]?["required"] {
            #expect(required.contains("key") && required.contains("window"), "written as null, so always present")
        } else {
            Issue.record("MealType lists no required fields")
        }
    }

    struct Misnoted: Codable, SchemaDocumented {
        var name: String
        static let schemaName = "Misnoted"
        static var fieldNotes: [String: FieldNote] { ["nmae": FieldNote("typo")] }
    }

    struct Unreadable: Codable {
        var date: Strict
        struct Strict: Codable {
            init(from decoder: any Decoder) throws {
                let text = try decoder.singleValueContainer().decode(String.self)
                guard text == "yes" else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no")) }
            }
        }
    }

    @Test func aNoteOnAFieldThatDoesNotExistOrATypeThatCannotBeReadFailsLoudly() {
        #expect(throws: SchemaError.self) { try SchemaBook().answer(Misnoted.self) }
        #expect(throws: SchemaError.self) { try SchemaBook().answer(Unreadable.self) }
    }

    @Test func parametersRoundTripAndBadOnesAreNamed() throws {
        let pairs = try ParameterEncoder.encode(PageQuery(page: 3, per: 20))
        #expect(pairs.map(\.name) == ["page", "per"] && pairs.map(\.value) == ["3", "20"])
        #expect(try ParameterEncoder.encode(PageQuery()).isEmpty)
        let read = try ParameterDecoder.decode(PageQuery.self, from: ["page": ["3"], "per": ["20"]])
        #expect(read == PageQuery(page: 3, per: 20))
        #expect(try ParameterDecoder.decode(PageQuery.self, from: [:]) == PageQuery())
        do {
            _ = try ParameterDecoder.decode(PageQuery.self, from: ["page": ["9223372036854775808"]])
            Issue.record("an Int overflow was read")
        } catch let error as ParameterError {
            #expect(error.name == "page" && error.message.contains("whole number"))
        }
        let id = UUID()
        #expect(try ParameterDecoder.decode(IDParameter.self, from: ["id": [id.uuidString]]).id == id)
        #expect(throws: ParameterError.self) { try ParameterDecoder.decode(IDParameter.self, from: ["id": ["nope"]]) }
        #expect(try ParameterEncoder.encode(IDParameter(id)).first?.value == id.uuidString.lowercased())
    }

    @Test func pathsAreFilledFromTheirTemplates() {
        let path: PathTemplate = "/api/v1/weights/{id}"
        #expect(path.parameterNames == ["id"])
        #expect(path.description == "/api/v1/weights/{id}")
        #expect(path.filled(["id": "a b/c"]) == "/api/v1/weights/a%20b%2Fc")
    }

    /// Every operation has a unique id and method+path, a parameter for each `{name}` in its path,
    /// and the shared problem answers are components the operations refer to, written once.
    @Test func theDocumentDescribesEveryOperationOnce() throws {
        let document = try APIDocument.build(APIv1.operations)
        #expect(document["openapi"] == "3.1.0")
        var seen = Set<String>()
        for operation in APIv1.operations {
            #expect(seen.insert(operation.id).inserted, "operationId \(operation.id) twice")
            let described = try #require(document["paths"]?[operation.path.description]?[operation.method.rawValue.lowercased()])
            #expect(described["operationId"] == .string(operation.id))
            #expect(described["responses"]?[String(operation.success.status)] != nil)
            for failure in operation.failures { #expect(described["responses"]?[String(failure.status)] != nil) }
            var inPath: [String] = []
            if case .array(let parameters)? = described["parameters"] {
                for parameter in parameters where parameter["in"]?.string == "path" {
                    if let name = parameter["name"]?.string { inPath.append(name) }
                }
            }
            #expect(Set(inPath) == Set(operation.path.parameterNames))
        }
        #expect(Set(APIv1.operations.map { "\($0.method.rawValue) \($0.path)" }).count == APIv1.operations.count)
        let text = String(decoding: try document.encodedDocument(), as: UTF8.self)
        #expect(text.components(separatedBy: "may or may not be saved (type outcome-unknown").count == 2, "the 503 is written once")
        #expect(document["components"]?["responses"]?["Unavailable"] != nil)
        // Every reference resolves.
        for ref in text.matches(of: /"#\/components\/(schemas|responses)\/([A-Za-z0-9]+)"/) {
            #expect(document["components"]?[String(ref.1)]?[String(ref.2)] != nil, "missing \(ref.0)")
        }
    }
}
