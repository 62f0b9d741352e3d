import ForkcastCore
import Foundation
import PropertyBased
import Testing

@Suite("The export archive")
struct AccountArchiveTests {
    static let owner = UUID(uuidString: "6F1B2C3D-0000-4000-8000-000000000001")!
    static let day = CalendarDate(year: 2026, month: 11, day: 21)!

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var c = encoder.singleValueContainer()
            try c.encode(Instant.format(date))
        }
        return encoder
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let c = try decoder.singleValueContainer()
            return Instant.parse(try c.decode(String.self))!
        }
        return decoder
    }

    static func archive(meals: [Meal], withGoals: Bool) -> AccountArchive {
        let food = Food(id: UUID(), name: "Oats \"<b>\"", brand: nil, barcode: nil, basis: .gram,
                        per100: Nutrients(energyKcal: 372, protein: 13), serving: nil, portion: nil, price: nil, icon: .grain, source: .custom,
                        createdAt: Date(timeIntervalSince1970: 1_763_000_000.123456), updatedAt: Date(timeIntervalSince1970: 1_763_000_001))
        let entry = DiaryEntry(loggedAt: Date(timeIntervalSince1970: 1_763_712_000.25), date: day, mealType: "breakfast",
                               kind: .food(foodId: food.id, quantity: 55.5, unit: .gram), name: food.name, nutrients: Nutrients(energyKcal: Decimal(string: "206.46")))
        return AccountArchive(exportedAt: Date(timeIntervalSince1970: 1_763_800_000), account: .init(email: "a@example.com", displayName: nil, timeZone: "UTC", currency: "EUR", createdAt: nil),
                              mealTypes: MealTypeCatalog.defaults(owner: owner, now: Date(timeIntervalSince1970: 1_763_000_000)).all, foods: [food], meals: meals,
                              plan: meals.prefix(1).map { Assignment(mealId: $0.id, date: day, createdAt: Date(timeIntervalSince1970: 1_763_000_000)) },
                              diary: [entry], photos: [], weights: [], goals: withGoals ? Goals.defaults : nil, bodyProfile: nil, owner: owner)
    }

    @Test func writtenARecordAtATimeItIsTheSameJSONAsEncodedWhole() async {
        await propertyCheck(count: 100, input: Gens.meals, Gen.bool) { meals, withGoals in
            let archive = Self.archive(meals: meals, withGoals: withGoals)
            var streamed = Data()
            try archive.writeJSON(encoder: Self.encoder) { streamed.append($0) }
            let whole = try Self.encoder.encode(archive)
            let a = try JSONSerialization.jsonObject(with: streamed) as! NSDictionary
            let b = try JSONSerialization.jsonObject(with: whole) as! NSDictionary
            #expect(a == b)
            #expect(try Self.decoder.decode(AccountArchive.self, from: streamed) == (try Self.decoder.decode(AccountArchive.self, from: whole)))
            #expect(try Self.decoder.decode(AccountArchive.self, from: streamed).meals.map(\.content) == archive.meals.map(\.content))
        }
    }

    @Test func givenNewIdsAMealKeepsItsRecipeAndTheCooksUnits() throws {
        var archive = Self.archive(meals: [], withGoals: false)
        let oats = archive.foods[0].id
        let recipe = Recipe(steps: [RecipeStep(text: "Simmer.", timerSeconds: 300)], prepMinutes: 2, source: "Notebook")
        let meal = Meal(description: "Porridge", servings: 2,
                        ingredients: [Ingredient(foodId: oats, quantity: 80, unit: .gram, written: WrittenUnit(unit: .cup, size: 80))], recipe: recipe)
        archive.meals = [meal]
        archive.recipePhotos = [.init(mealId: meal.id, format: .webp, width: 4, height: 3)]
        // The export imported twice: its ids are held, so they are given anew.
        let renamed = archive.renaming([meal.id: UUID(), oats: UUID()])
        let copy = try #require(renamed.meals.first)
        #expect(renamed.recipePhotos.map(\.mealId) == [copy.id] && renamed.recipePhotos[0].file == archive.recipePhotos[0].file,
                "the photo follows its meal and is read from where the zip holds it")
        #expect(copy.id != meal.id && copy.ingredients.first?.foodId == renamed.foods.first?.id && copy.ingredients.first?.foodId != oats)
        #expect(copy.recipe == recipe && copy.ingredients.first?.written == WrittenUnit(unit: .cup, size: 80))
    }

    @Test func instantsKeepTheirMicroseconds() {
        for seconds in [0, 1_763_712_000.25, 1_763_712_000.123456, -86_400.5, 4_102_444_799.999999] {
            let date = Date(timeIntervalSince1970: seconds)
            let text = Instant.format(date)
            #expect(text.hasSuffix("Z") && text.count == 27, "\(text)")
            #expect(abs(Instant.parse(text)!.timeIntervalSince(date)) < 0.000_001, "\(text)")
        }
        #expect(Instant.format(Date(timeIntervalSince1970: 1_763_712_000.25)) == "2025-11-21T08:00:00.250000Z")
    }

    @Test func problemsNameWhatIsWrong() {
        var archive = Self.archive(meals: [], withGoals: false)
        #expect(archive.problems().isEmpty)
        archive.foods.append(archive.foods[0])
        archive.plan.append(Assignment(mealId: UUID(), date: Self.day))
        archive.diary[0].photoId = UUID()
        archive.recipePhotos = [.init(mealId: UUID(), format: .png, width: 1, height: 1), .init(mealId: UUID(), format: .png, width: 1, height: 1)]
        archive.recipePhotos[1].file = archive.recipePhotos[0].file  // one file of the zip stored twice
        let fields = archive.problems().map(\.field)
        #expect(fields.contains("foods") && fields.contains("plan[0].mealId") && fields.contains("diary[0].photoId"), "\(fields)")
        #expect(fields.contains("recipePhotos[0].mealId") && fields.contains("photos"), "\(fields)")
        archive.version = 2
        #expect(archive.problems().map(\.field) == ["version"])
        archive.format = "something else"
        #expect(archive.problems().map(\.field) == ["format"])
    }
}
