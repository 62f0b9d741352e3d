import ForkcastApp
import ForkcastContract
import ForkcastCore
import Foundation
import Testing

/// The diary's use cases alone — logging (one item, a plate, a planned meal, a meal eaten again, a
/// captured photo), editing and deleting — on the in-memory fake for two people. The server's front
/// doors call the same types (LogEntryTests and the API, web and sync tests check them there).
@Suite("Diary use cases, alone on the in-memory diary")
struct DiaryUseCasesTests {
    let libraries = InMemoryLibraries()
    let ann = UUID(), bob = UUID()
    let noon = Date(timeIntervalSince1970: 1_795_392_000 + 12 * 3600) // 2026-11-23 12:00 UTC
    var monday: CalendarDate { CalendarDate(noon, in: .gmt) }

    func diary(_ owner: UUID) -> InMemoryDiary { libraries.diary(of: owner, zone: .gmt) }
    func log(_ owner: UUID, at now: Date? = nil) -> LogEntry { LogEntry(diary: diary(owner), now: now ?? noon, uuid: { UUID() }) }
    func edit(_ owner: UUID) -> EditEntry { EditEntry(diary: diary(owner), now: noon) }
    var entries: [DiaryEntry] { libraries.contents.entries.values.map(\.value) }

    /// Ann's rolled oats (372 kcal per 100 g).
    func annsOats() async throws -> UUID {
        let oats = FoodDraft(name: "Rolled oats", per100: Nutrients(energyKcal: 372, protein: 13, carbohydrates: 60, fat: 7))
        return try await SaveFood(library: libraries.library(of: ann), now: noon).add(oats, id: UUID()).id
    }

    func jpeg() throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/photos/photo.jpg"))
    }

    @Test func anEntryCopiesItsFoodsValuesAndNeverAnotherPersonsFood() async throws {
        let oats = try await annsOats()
        let entry = try await log(ann).single(EntryInput(mealType: "Breakfast", foodId: oats, quantity: 80, unit: "g"))
        #expect(entry.nutrients.energyKcal == Decimal(string: "297.6") && entry.name == "Rolled oats")
        #expect(entry.mealType == "breakfast", "stored by the type's key")
        #expect(entry.date == monday && entry.loggedAt == noon)
        #expect(libraries.contents.changes.last == .init(kind: .diaryEntry, id: entry.id, deleted: false, at: noon))

        let refused = await #expect(throws: Refusal.self) {
            try await log(bob).single(EntryInput(mealType: "breakfast", foodId: oats, quantity: 80, unit: "g"))
        }
        #expect(refused == .missingReference(field: "foodId", detail: "No food with id \(oats) exists in your account."))
        let untyped = try await log(ann).single(EntryInput(foodId: oats, quantity: 100))
        #expect(untyped.kind == .food(foodId: oats, quantity: 100, unit: .gram), "a quantity without a unit is in the food's basis")
        #expect(untyped.mealType == "lunch", "no meal type: the one of the hour")
        let quick = try await log(ann).single(EntryInput(mealType: "snack", quickAdd: .init(energyKcal: 90)))
        #expect(quick.name == DiaryEntry.quickAddName && quick.kind == .quickAdd)
        #expect(entries.count == 3)
    }

    @Test func aFoodWithoutAnAmountIsItsUsualPortionAndAMealWithoutServingsIsOne() async throws {
        let oats = try await annsOats()
        var yogurt = FoodDraft(name: "Greek yogurt", per100: Nutrients(energyKcal: 97, protein: 9, carbohydrates: 4, fat: 5))
        yogurt.serving = Serving(size: 170, unit: .gram, label: "1 pot")
        let pot = try await SaveFood(library: libraries.library(of: ann), now: noon).add(yogurt, id: UUID()).id
        let logged = try await log(ann).plate(LogEntry.Plate(mealType: "breakfast", items: [EntryInput(foodId: oats), EntryInput(foodId: pot)]))
        #expect(logged.map(\.kind) == [.food(foodId: oats, quantity: 100, unit: .gram), .food(foodId: pot, quantity: 1, unit: .serving)],
                "100 g of a food without a serving size; one serving of one with")
        let unitOnly = await #expect(throws: ValidationError.self) { try await log(ann).single(EntryInput(foodId: oats, unit: "g")) }
        #expect(unitOnly?.fields.map(\.field) == ["quantity"], "a unit without an amount is no amount")
        let porridge = try await SaveMeal(library: libraries.library(of: ann), now: noon)
            .add(MealDraft(description: "Porridge", servings: 2, ingredients: [Ingredient(foodId: oats, quantity: 160, unit: .gram)]), id: UUID())
        let meal = try await log(ann).single(EntryInput(mealId: porridge.id))
        #expect(meal.kind == .meal(mealId: porridge.id, servings: DiaryEntry.defaultServings))
    }

    @Test func aPlateIsAllOrNothingAndNamesEveryBadItem() async throws {
        let oats = try await annsOats()
        let bad = LogEntry.Plate(mealType: "lunch", items: [
            EntryInput(foodId: oats, quantity: 50, unit: "g"), EntryInput(foodId: oats, quantity: -5, unit: "g"),
            EntryInput(mealId: UUID(), servings: 0),
        ])
        let error = await #expect(throws: ValidationError.self) { try await log(ann).plate(bad) }
        #expect(error?.fields.map(\.field) == ["items[1].quantity", "items[2].servings"])
        let missing = await #expect(throws: Refusal.self) {
            try await log(ann).plate(LogEntry.Plate(mealType: "lunch", items: [EntryInput(foodId: oats, quantity: 50), EntryInput(mealId: UUID(), servings: 1)]))
        }
        guard case .missingReference(let field, _)? = missing else { Issue.record("\(String(describing: missing))"); return }
        #expect(field == "items[1].mealId")
        let tooMany = LogEntry.Plate(mealType: "lunch", items: Array(repeating: EntryInput(foodId: oats, quantity: 1), count: DiaryValidation.maximumPlateItems + 1))
        await #expect(throws: ValidationError.self) { try await log(ann).plate(tooMany) }
        #expect(entries.isEmpty, "nothing of a refused plate is stored")

        let preview = try await log(ann).preview(bad)
        #expect(preview.count == 1 && entries.isEmpty, "the running totals count what would be logged and store nothing")
        let logged = try await log(ann).plate(LogEntry.Plate(mealType: "Lunch", note: "desk", items: [
            EntryInput(mealType: "dinner", foodId: oats, quantity: 50), EntryInput(quickAdd: .init(energyKcal: 120), name: "Apple"),
        ]))
        #expect(logged.map(\.mealType) == ["lunch", "lunch"], "a plate's items go to its meal type")
        #expect(logged.allSatisfy { $0.note == "desk" } && entries.count == 2)
        #expect(libraries.contents.changes.filter { $0.kind == .diaryEntry }.count == 2)
    }

    @Test func aPersonsPlateAsksOnceAboutAnAmountBigEnoughToBeASlip() async throws {
        let oats = try await SaveFood(library: libraries.library(of: ann), now: noon)
            .add(FoodDraft(name: "Rolled oats", per100: Nutrients(energyKcal: 372), serving: Serving(size: 40, unit: .gram)), id: UUID()).id
        let plate = LogEntry.Plate(mealType: "breakfast", items: [EntryInput(foodId: oats, quantity: 150, unit: "serving"),
                                                              EntryInput(foodId: oats, quantity: 150)])
        var asked: [ValidationError.Field] = []
        do { _ = try await log(ann).plate(plate, confirming: []) } catch Refusal.largeAmounts(let questions) { asked = questions }
        #expect(asked == [.init(field: "items[0]", message: "150 servings of Rolled oats is 22\u{202F}320 kcal — did you mean 150 g?")])
        #expect(entries.isEmpty, "nothing is logged before the answer")
        let logged = try await log(ann).plate(plate, confirming: Set(asked.map(\.message)))
        #expect(logged.map(\.kind) == [.food(foodId: oats, quantity: 150, unit: .serving), .food(foodId: oats, quantity: 150, unit: .gram)],
                "said yes to: logged as typed; a number without a unit is grams")
        // A client's plate (the API) is what it sent, with its units: not asked.
        #expect(try await log(ann).plate(plate).count == 2)
    }

    @Test func aPlannedMealIsLoggedAsOneServingIntoItsSlotAndAMealIsEatenAgainAsItWasLogged() async throws {
        let oats = try await annsOats()
        let porridge = try await SaveMeal(library: libraries.library(of: ann), now: noon)
            .add(MealDraft(description: "Porridge", servings: 2, ingredients: [Ingredient(foodId: oats, quantity: 160, unit: .gram)]), id: UUID())
        let sunday = monday.adding(days: -1)
        let planned = try #require(try await PlanMeal(library: libraries.library(of: ann), now: noon)(porridge.id, on: sunday, mealType: "dinner", id: UUID()))
        let entry = try #require(try await log(ann).planned(planned.assignment.id))
        #expect(entry.mealType == "dinner" && entry.date == sunday, "its slot and its day, not the hour's")
        #expect(entry.kind == .meal(mealId: porridge.id, servings: 1) && entry.nutrients.energyKcal == Decimal(string: "297.6"))
        #expect(try await log(bob).planned(planned.assignment.id) == nil, "not Bob's plan")

        let copies = try await log(ann).copied(from: sunday, mealType: "dinner", to: monday, as: "breakfast")
        #expect(copies.count == 1 && copies[0].id != entry.id && copies[0].nutrients == entry.nutrients && copies[0].mealType == "breakfast")
        let nothing = await #expect(throws: ValidationError.self) { try await log(ann).copied(from: sunday, mealType: "lunch", to: monday, as: "lunch") }
        #expect(nothing?.fields.map(\.field) == ["from"])
        await #expect(throws: ValidationError.self) { try await log(ann).copied(from: sunday, mealType: "elevenses", to: monday, as: "lunch") }
    }

    @Test func anUploadedPhotoIsStoredAloneForAnEntryToShowLater() async throws {
        await #expect(throws: ImageFile.Problem.self) { try await UploadPhoto(diary: diary(ann), now: noon, uuid: { UUID() })(Data("<svg/>".utf8), thumbnail: nil, capturedAt: nil) }
        #expect(libraries.contents.photos.isEmpty, "what is not an image is not stored")
        let photo = try await UploadPhoto(diary: diary(ann), now: noon, uuid: { UUID() })(try jpeg(), thumbnail: nil, capturedAt: nil)
        #expect(photo.format == .jpeg && photo.capturedAt == noon && entries.isEmpty)
        #expect(libraries.contents.changes.last == .init(kind: .photo, id: photo.id, deleted: false, at: noon))
        let entry = try await log(ann).single(EntryInput(mealType: "snack", photoId: photo.id))
        #expect(entry.photoId == photo.id)
    }

    @Test func aCapturedPhotoIsStoredWithItsEntryShownByOneEntryAndDeletedWithIt() async throws {
        let refused = await #expect(throws: ValidationError.self) {
            try await log(ann).photo(try jpeg(), thumbnail: nil, capturedAt: nil, date: monday, mealType: "elevenses")
        }
        #expect(refused?.fields.map(\.field) == ["mealType"])
        #expect(libraries.contents.photos.isEmpty, "a refused entry leaves no photo behind")

        let (entry, photo) = try await log(ann).photo(try jpeg(), thumbnail: nil, capturedAt: nil, date: monday, mealType: "snack")
        #expect(entry.photoId == photo.id && entry.kind == .photo && entry.name == DiaryEntry.photoName && !entry.isCounted)
        let second = await #expect(throws: Refusal.self) { try await log(ann).single(EntryInput(mealType: "snack", photoId: photo.id)) }
        #expect(second == .conflict("That photo already belongs to another diary entry (\(entry.id))."))
        let bobs = await #expect(throws: Refusal.self) { try await log(bob).single(EntryInput(mealType: "snack", photoId: photo.id)) }
        guard case .missingReference(let field, _)? = bobs else { Issue.record("\(String(describing: bobs))"); return }
        #expect(field == "photoId")

        // Completing the photo keeps it; deleting the entry deletes the photo in the same write.
        let counted = try #require(try await edit(ann)(entry.id, with: EntryInput(quickAdd: .init(energyKcal: 450), name: "Ramen")))
        #expect(counted.photoId == photo.id && counted.kind == .quickAdd && counted.name == "Ramen")
        #expect(try await DeleteEntry(diary: diary(bob), now: noon)(entry.id) == nil, "not Bob's to delete")
        #expect(try await DeleteEntry(diary: diary(ann), now: noon)(entry.id)?.id == entry.id)
        #expect(libraries.contents.photos.isEmpty && entries.isEmpty)
        #expect(libraries.contents.changes.contains(.init(kind: .photo, id: photo.id, deleted: true, at: noon)))
    }

    @Test func anEditThatMovesTheEntryToAnotherOccasionIsConfirmedFirst() async throws {
        let oats = try await annsOats()
        let entry = try await log(ann).single(EntryInput(mealType: "snack", foodId: oats, quantity: 40))
        let earlier = noon.addingTimeInterval(-2 * 86_400)
        let refused = await #expect(throws: Refusal.self) { try await edit(ann)(entry.id, with: EntryInput(loggedAt: earlier)) }
        guard case .occasionChange(let from, let to)? = refused else { Issue.record("\(String(describing: refused))"); return }
        #expect(from.name == "Snack on \(monday.weekday.name) 23 November 2026" && to.date.iso == "2026-11-21")
        #expect(from.id == entry.occasionId(owner: ann) && from.id != to.id)
        #expect(try await diary(ann).entry(entry.id)?.loggedAt == noon, "a refused edit changes nothing")

        let moved = try #require(try await edit(ann)(entry.id, with: EntryInput(loggedAt: earlier), confirmMove: true))
        #expect(moved.date.iso == "2026-11-21" && moved.nutrients == entry.nutrients, "the values copied in stay")
        let amount = await #expect(throws: ValidationError.self) { try await edit(ann)(entry.id, with: EntryInput(quantity: 80)) }
        #expect(amount?.fields.map(\.field) == ["quantity"], "an amount changes only with its food")
        let recomputed = try #require(try await edit(ann)(entry.id, with: EntryInput(foodId: oats, quantity: 100, unit: "g")))
        #expect(recomputed.nutrients.energyKcal == 372 && recomputed.date.iso == "2026-11-21", "a new amount keeps the entry's time")
        #expect(try await edit(bob)(entry.id, with: EntryInput(note: "mine")) == nil, "not Bob's to edit")
    }

    @Test func twentyPlatesAtOnceAreEachStoredWhole() async throws {
        let oats = try await annsOats()
        let libraries = libraries, ann = ann, noon = noon
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    let items = [EntryInput(foodId: oats, quantity: 30), EntryInput(quickAdd: .init(energyKcal: 50))]
                    _ = try await LogEntry(diary: libraries.diary(of: ann, zone: .gmt), now: noon, uuid: { UUID() })
                        .plate(LogEntry.Plate(mealType: "snack", items: items))
                }
            }
            try await group.waitForAll()
        }
        #expect(entries.count == 40 && Set(entries.map(\.id)).count == 40)
    }
}
