import ForkcastClient
import ForkcastCore
@testable import ForkcastServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import VaporTesting

/// Two devices with the Swift client against a real server (SQLite here, PostgreSQL in CI).
@Suite("Swift client and sync engine", .serialized)
struct SyncClientTests {
    /// A line that can be cut: while `down`, requests fail without reaching the server; with
    /// `dropNextAnswer`, the next request reaches the server but its answer is lost.
    final class FlakyTransport: ForkcastTransport, @unchecked Sendable {
        let inner = PatientTransport()
        let lock = NSLock()
        var _down = false, _dropNextAnswer = false
        var down: Bool { get { lock.withLock { _down } } set { lock.withLock { _down = newValue } } }
        var dropNextAnswer: Bool { get { lock.withLock { _dropNextAnswer } } set { lock.withLock { _dropNextAnswer = newValue } } }

        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            if down { throw ForkcastError.transport("offline") }
            let answer = try await inner.send(request)
            if lock.withLock({ let drop = _dropNextAnswer; _dropNextAnswer = false; return drop }) { throw ForkcastError.transport("connection reset") }
            return answer
        }
    }

    func meal(_ description: String) -> JSON { .object(["description": .string(description)]) }

    @Test func theClientExportsDeletesAndRestoresAnAccount() async throws {
        try await withServer { _, url in
            let session = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "owner@example.com", password: "correct horse")
            let api = ForkcastAPI(baseURL: url, token: session.token, transport: .patient)
            let meal = try await api.createMeal(.init(description: "Dal <i>\"tadka\"</i>"))
            let archive = try await api.exportAccount()
            #expect(archive.starts(with: [0x50, 0x4B, 0x03, 0x04]), "a zip")
            do {
                try await api.deleteAccount(password: "wrong horse")
                Issue.record("a wrong password must not delete")
            } catch ForkcastError.problem(let status, _, _, _) {
                #expect(status == 403)
            }
            try await api.deleteAccount(password: "correct horse")
            await #expect(throws: ForkcastError.self) { try await api.me() }

            let again = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "owner@example.com", password: "correct horse")
            let restored = ForkcastAPI(baseURL: url, token: again.token, transport: .patient)
            let dry = try await restored.importAccount(archive, dryRun: true)
            #expect(dry.dryRun && dry.created["meals"] == 1)
            #expect(try await restored.meals().items.isEmpty)
            let report = try await restored.importAccount(archive)
            #expect(!report.dryRun && report.created["meals"] == 1)
            #expect(try await restored.meals().items.map(\.id) == [meal.id])
        }
    }

    /// The weighings' operations, as ForkcastContract defines them, from the client to the server
    /// and back: exact decimals, the paging envelope, and the problems each documented status names.
    /// What docs/sync.md shows: sign in, add a food, log it, a plate and a quick add with exact
    /// decimals, read the day, move an entry, sign out; and a bad entry is a 422 naming its field.
    @Test func theClientFindsACatalogueFoodAndTheDayCarriesItsMicronutrients() async throws {
        try await withServer { _, url in
            let session = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "micro@example.com", password: "correct horse", timeZone: "UTC")
            let api = ForkcastAPI(baseURL: url, token: session.token, transport: .patient)
            let nutrients = try await api.nutrients()
            #expect(nutrients.first { $0.key == "folate" }?.unit == .known(.µg))
            let found = try await api.catalog(matching: "raw carrots")
            let carrots = try #require(found.items.first)
            #expect(carrots.name == "Carrots, raw" && carrots.foodId == nil)
            let food = try await api.adopt(catalogId: carrots.catalogId)
            #expect(food.catalogId == carrots.catalogId && food.source == FoodSource.usda && food.per100[.vitaminA] == 835)
            #expect(try await api.adopt(catalogId: carrots.catalogId).id == food.id)
            let catalogued = try await api.catalogFood(carrots.catalogId)
            #expect(catalogued.foodId == food.id && catalogued.portions.map(\.grams).contains(61), "one catalogue food, its named portions and your food of it")
            await #expect(throws: (any Error).self) { try await api.catalogFood("sr-ffffffffffffffff") }
            let entry = try await api.log(DiaryEntryInput(mealType: "lunch", foodId: food.id!, quantity: 150, unit: "g"))
            #expect(entry.nutrients[.vitaminA] == Decimal(string: "1252.5")! && entry.nutrients[.sodium] == Decimal(string: "103.5")!)
            let day = try await api.diaryDay(entry.date)
            #expect(day.totals.energyKcal == Decimal(string: "61.5")! && day.totals[.fiber] == Decimal(string: "4.2")! && day.missing[.fiber] == 0)
            // Another device learns the food, its catalogue link and its micronutrients from the change feed.
            let changes = try await api.changes(since: nil)
            let synced = try #require(changes.changes.first { $0.kind == "food" && $0.id == food.id }?.record)
            guard case .object(let record) = synced, case .object(let per100)? = record["per100"] else { Issue.record("no food record: \(synced)"); return }
            #expect(record["catalogId"] == .string(carrots.catalogId) && per100["sodium"] == .number(69))
        }
    }

    @Test func theClientPlansPortionsShopsFromThePlanAndAnotherDeviceSeesTheChecks() async throws {
        try await withServer { _, url in
            let session = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "shop@example.com", password: "correct horse", timeZone: "UTC")
            let api = ForkcastAPI(baseURL: url, token: session.token, transport: .patient)
            let rice = try await api.createFood(FoodInput(name: "Rice", per100: .init(Nutrients(energyKcal: 130, protein: 3, carbohydrates: 28, fat: 0))))
            let milk = try await api.createFood(FoodInput(name: "Milk", basis: "ml", per100: .init(Nutrients(energyKcal: 64, protein: 3, carbohydrates: 5, fat: 4))))
            let pudding = try await api.createMeal(MealInput(description: "Rice pudding", servings: 2, ingredients: [
                .init(foodId: rice.id!, quantity: 200, unit: "g"), .init(foodId: milk.id!, quantity: 250, unit: "ml")]))
            let monday = CalendarDate(iso: "2026-11-30")!
            let planned = try await api.assign(mealId: pudding.id, date: monday, mealType: "dinner", servings: 6)
            #expect(planned.servings == 6 && planned.servingsSet)
            let list = try await api.makeShoppingList(from: monday, to: monday)
            #expect(Set(list.items.compactMap(\.amount)) == ["600 g", "750 ml"], "6 portions of a meal for 2: three times its ingredients")
            let halved = try await api.updateAssignment(planned.id, AssignmentInput(mealId: pudding.id, date: monday, mealType: "dinner", servings: 3))
            #expect(halved.servings == 3)
            let milkItem = try #require(list.items.first { $0.foodId == milk.id })
            _ = try await api.updateShoppingItem(milkItem.id, on: list.id, ShoppingItemUpdate(checked: true))
            _ = try await api.addShoppingItem(to: list.id, ShoppingItemInput(name: "dish soap"))
            let refreshed = try await api.refreshShoppingList(list.id)
            #expect(Set(refreshed.items.compactMap(\.amount)) == ["300 g", "375 ml"], "half the portions, half the rice and milk")
            #expect(refreshed.items.first { $0.id == milkItem.id }?.checked == true && refreshed.items.contains { $0.name == "dish soap" })
            let link = try await api.shareShoppingList(list.id)
            #expect(link.url.contains("/s/"))
            // Another device learns the lists and items from the change feed.
            let feed = try await api.changes(since: nil)
            #expect(feed.changes.contains { $0.kind == "shoppingList" && $0.id == list.id })
            let checkedRecord = try #require(feed.changes.last { $0.kind == "shoppingItem" && $0.id == milkItem.id }?.record)
            guard case .object(let record) = checkedRecord else { Issue.record("no item record"); return }
            #expect(record["checked"] == .bool(true) && record["listId"] == .string(list.id.uuidString))
            // The pudding has been a dinner: it is suggested for dinners, not for lunches.
            #expect(try await api.suggestions(SuggestionsInput(start: monday.adding(days: 7), days: 2, mealTypes: ["lunch"])).items.isEmpty)
            let suggestions = try await api.suggestions(SuggestionsInput(start: monday.adding(days: 7), days: 2, mealTypes: ["dinner"]))
            #expect(!suggestions.items.isEmpty && suggestions.items.allSatisfy { $0.mealType == "dinner" && $0.mealId == pudding.id })
            let accepted = try await api.assign(suggestions.items.map(\.assignment))
            #expect(accepted.count == suggestions.items.count)
            try await api.unshareShoppingList(list.id)
            try await api.deleteShoppingList(list.id)
            #expect(try await api.shoppingLists().items.isEmpty)
        }
    }

    @Test func theClientLogsTheDayWithTheContractsTypes() async throws {
        try await withServer { _, url in
            _ = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "logger@example.com", password: "correct horse", timeZone: "UTC")
            let session = try await ForkcastAPI(baseURL: url, transport: .patient).login(email: "logger@example.com", password: "correct horse")
            let api = ForkcastAPI(baseURL: url, token: session.token, transport: .patient)
            #expect(try await api.me().email == "logger@example.com")
            let oats = try await api.createFood(FoodInput(name: "Rolled oats", per100: .init(Nutrients(energyKcal: 372, protein: Decimal(string: "13.5")!))))
            #expect(try await api.foods(matching: "oats").items.map(\.id) == [oats.id])
            let granola = try await api.createFood(FoodInput(name: "C++ granola"))
            #expect(try await api.foods(matching: "c++").items.map(\.id) == [granola.id], "a + in a query is not a space")
            let entry = try await api.log(DiaryEntryInput(mealType: "breakfast", foodId: oats.id!, quantity: 60, unit: "g"))
            #expect(entry.kind == .food && entry.unit?.value == .gram && entry.nutrients.protein == Decimal(string: "8.1")!)
            let plate = try await api.logPlate(PlateInput(mealType: "lunch", items: [
                DiaryEntryInput(quickAdd: .init(energyKcal: 420, protein: Decimal(string: "31.55")!)),
                DiaryEntryInput(foodId: oats.id!, quantity: 30, unit: "g"),
            ]))
            #expect(plate.count == 2 && plate[0].nutrients.protein == Decimal(string: "31.55")!, "no Double on the way")
            let day = try await api.diaryDay(entry.date)
            #expect(day.entries.flatMap(\.entries).count == 3 && day.totals.energyKcal == Decimal(string: "754.8")!)
            do {
                _ = try await api.log(DiaryEntryInput(mealType: "breakfast", foodId: oats.id!, quantity: -1, unit: "g"))
                Issue.record("a negative amount was logged")
            } catch ForkcastError.problem(let status, _, _, let fields) {
                #expect(status == 422 && fields.map(\.field) == ["quantity"])
            }
            try await api.deleteEntry(plate[1].id)
            #expect(try await api.diaryDay(entry.date).entries.flatMap(\.entries).count == 2)
            try await api.logout()
            await #expect(throws: ForkcastError.self) { _ = try await api.me() }
        }
    }

    @Test func theClientCallsTheContractsOperations() async throws {
        try await withServer { _, url in
            let session = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "weigher@example.com", password: "correct horse")
            let api = ForkcastAPI(baseURL: url, token: session.token, transport: .patient)
            let at = try #require(Instant.parse("2026-11-20T07:00:00Z"))
            let saved = try await api.recordWeight(WeightInput(measuredAt: at, weightKg: Decimal(string: "72.43")!))
            #expect(saved.weightKg == Decimal(string: "72.43")!, "no Double on the way")
            #expect(saved.measuredAt == at && saved.source == "manual")
            let pounds = try await api.recordWeight(WeightInput(measuredAt: at.addingTimeInterval(86_400), weightLb: 160))
            #expect(pounds.weightKg == Decimal(string: "72.57")!)
            do {
                _ = try await api.recordWeight(WeightInput(measuredAt: at, weightKg: 70))
                Issue.record("a second weight at the same instant was recorded")
            } catch ForkcastError.problem(let status, _, _, _) {
                #expect(status == 409)
            }
            do {
                _ = try await api.recordWeight(WeightInput(weightKg: 1_000))
                Issue.record("1,000 kg was recorded")
            } catch ForkcastError.problem(let status, _, _, let fields) {
                #expect(status == 422 && fields.map(\.field) == ["weightKg"])
            }
            let page = try await api.weights(per: 1)
            #expect(page.items.map(\.id) == [pounds.id], "newest first")
            #expect(page.metadata == PageMetadata(page: 1, per: 1, total: 2))
            do {
                _ = try await api.weights(page: 0)
                Issue.record("page 0 was answered")
            } catch ForkcastError.problem(let status, _, let detail, _) {
                #expect(status == 400 && detail.contains("page"))
            }
            try await api.deleteWeight(saved.id)
            #expect(try await api.weights().items.map(\.id) == [pounds.id])
            do {
                try await api.deleteWeight(saved.id)
                Issue.record("a deleted weight was deleted again")
            } catch ForkcastError.problem(let status, _, _, _) {
                #expect(status == 404)
            }
        }
    }

}
