import ForkcastClient
import ForkcastContract
import ForkcastCore
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

/// The household's pantry through the API, the Swift client and its page, on SQLite and on
/// PostgreSQL: lots in the food's unit, hostile amounts refused, the shop booking in, cooking
/// taking out once, the list buying only the shortfall, and two phones taking the last of a lot.
@Suite("Pantry")
struct PantryAPITests {
    @Test func aHouseholdStocksShopsAndCooksFromOnePantry() async throws {
        try await withServer(allowSignup: true) { app, url in
            let ana = try await HouseholdSharingTests.person(url, "Ana"), ben = try await HouseholdSharingTests.person(url, "Ben")
            _ = try await ben.api.joinHousehold(token: try await ana.api.inviteToHousehold().token!)
            let rice = try #require(try await ana.api.createFood(FoodInput(name: "Rice", basis: "g", per100: .init(Nutrients(energyKcal: 130)))).id)
            let eggs = try #require(try await ana.api.createFood(FoodInput(name: "Eggs", basis: "g", per100: .init(Nutrients(energyKcal: 143)),
                                                                             serving: .init(size: 50, unit: "g", label: "1 large"))).id)
            let bowl = try await ana.api.createMeal(MealInput(description: "Egg fried rice", servings: 2,
                                                              ingredients: [.init(foodId: rice, quantity: 300, unit: "g"), .init(foodId: eggs, quantity: 100, unit: "g")]))
            let today = try await ana.api.plan().today
            let dinner = try await ana.api.assign(mealId: bowl.id, date: today, mealType: "dinner", servings: 4)

            // Stock: eggs by the piece (kept in grams), two lots of rice with different dates.
            let sixEggs = try await ben.api.addToPantry(PantryItemInput(foodId: eggs, amount: 6, unit: "piece", location: "fridge"))
            #expect(sixEggs.amount == 300 && sixEggs.unit == .gram && sixEggs.location == "Fridge" && sixEggs.food == "Eggs")
            let soon = try await ana.api.addToPantry(PantryItemInput(foodId: rice, amount: 200, bestBefore: today.adding(days: 1)))
            let later = try await ana.api.addToPantry(PantryItemInput(foodId: rice, amount: 500, bestBefore: today.adding(days: 90), opened: true))
            #expect(try await ben.api.pantry().items.map(\.id) == [soon.id, later.id, sixEggs.id], "one pantry, the first to go off first")
            #expect(try await ben.api.cookableMeals().items.map { [$0.meal, $0.missing ?? "-"] } == [["Egg fried rice", "-"]])

            // The list buys only the shortfall: 600 g of rice needed, 700 g held; 200 g of eggs, 300 g held.
            let list = try await ana.api.makeShoppingList(from: today, to: today)
            let riceItem = try #require(list.items.first { $0.foodId == rice })
            #expect(riceItem.needed == 600 && riceItem.inPantry == 700 && riceItem.toBuy == 0 && riceItem.amount == "covered by the pantry (600 g)")
            _ = try await ana.api.updatePantryItem(later.id, PantryItemInput(foodId: rice, amount: 100, bestBefore: today.adding(days: 90)))
            let refreshed = try await ana.api.refreshShoppingList(list.id)
            let short = try #require(refreshed.items.first { $0.foodId == rice })
            #expect(short.inPantry == 300 && short.toBuy == 300 && short.amount == "300 g of 600 g", "a refresh reads the pantry again")

            // Ben ticks it in the shop: 300 g booked in once; Ana's devices hear of it.
            let anasCursor = try await ana.api.changes(since: nil).cursor
            _ = try await ben.api.updateShoppingItem(short.id, on: list.id, ShoppingItemUpdate(checked: true))
            _ = try await ben.api.updateShoppingItem(short.id, on: list.id, ShoppingItemUpdate(checked: true))
            #expect(try await ana.api.pantry().items.filter { $0.foodId == rice }.map(\.amount).reduce(0, +) == 600)
            #expect(try await ana.api.changes(since: anasCursor).changes.contains { $0.kind == "pantryItem" && $0.id == short.id })

            // Cooked for 4: 600 g of rice from the lot that goes off first on, 200 g of eggs; once.
            let cooked = try await ana.api.cooked(dinner.id)
            #expect(!cooked.alreadyCooked && cooked.lines.first { $0.foodId == rice }.map { ($0.taken, $0.short) } ?? (0, 1) == (600, 0))
            #expect(try await ben.api.logEaten(dinner.id).pantry.isEmpty, "We ate this after Cooked takes nothing again")
            #expect(try await ben.api.cooked(dinner.id).alreadyCooked)
            let left = try await ben.api.pantry().items
            #expect(left.map(\.foodId) == [eggs] && left.first?.amount == 100, "rice used up to the gram; 300 − 200 g of eggs")
            #expect(try await ana.api.cookableMeals().items.map { [$0.meal, $0.missing ?? "-"] } == [["Egg fried rice", "Rice"]], "all but the rice")

            // The page shows the lot, and a phone can use it.
            var browser = Browser(app: app)
            _ = try await browser.signIn("ben@example.com")
            let page = try await browser.send(.GET, "/pantry").body.string
            #expect(page.contains("Eggs") && page.contains("100 g") && page.contains("Fridge") && page.contains("data-live"))
            let token = try await browser.csrf(from: "/pantry")
            let egg = try #require(left.first)
            let thrown = try await browser.send(.POST, "/pantry/items/\(egg.id.uuidString)/use", form: ["_csrf": token, "amount": "50", "unit": "g", "reason": "discarded"])
            #expect(thrown.status == .seeOther)
            let pantry = try await ana.api.pantry()
            #expect(pantry.items.first?.amount == 50 && pantry.waste.grams == 50, "what was thrown away is counted")
            let tooMuch = try await browser.send(.POST, "/pantry/items/\(egg.id.uuidString)/use", form: ["_csrf": token, "amount": "1,5e9", "reason": "eaten"])
            #expect(tooMuch.status == .unprocessableEntity && tooMuch.body.string.contains("role=\"alert\""))
        }
    }

    @Test func fillMyWeekUsesWhatGoesOffFirstAndSaysSo() async throws {
        try await withServer(allowSignup: true) { app, url in
            let ana = try await HouseholdSharingTests.person(url, "Ana")
            let spinach = try #require(try await ana.api.createFood(FoodInput(name: "Spinach", basis: "g", per100: .init(Nutrients(energyKcal: 23)))).id)
            let oats = try #require(try await ana.api.createFood(FoodInput(name: "Oats", basis: "g", per100: .init(Nutrients(energyKcal: 380)))).id)
            _ = try await ana.api.createMeal(MealInput(description: "A porridge", ingredients: [.init(foodId: oats, quantity: 80, unit: "g")]))
            _ = try await ana.api.createMeal(MealInput(description: "Spinach dal", ingredients: [.init(foodId: spinach, quantity: 400, unit: "g")]))
            let today = try await ana.api.plan().today
            _ = try await ana.api.addToPantry(PantryItemInput(foodId: spinach, amount: 300, bestBefore: today.adding(days: 1)))
            _ = try await ana.api.addToPantry(PantryItemInput(foodId: oats, amount: 500, bestBefore: today.adding(days: 300)))
            let answer = try await ana.api.suggestions(SuggestionsInput(start: today, days: 3, mealTypes: ["breakfast"]))
            let first = try #require(answer.items.first)
            #expect(first.description == "Spinach dal" && first.date == today, "before the porridge, which sorts first: \(answer.items.map(\.description))")
            #expect(first.usesSoon.map { [$0.food, $0.bestBefore.iso] } == [["Spinach", today.adding(days: 1).iso]])
            #expect(answer.items.dropFirst().allSatisfy { $0.usesSoon.isEmpty })
            var browser = Browser(app: app)
            _ = try await browser.signIn("ana@example.com")
            let page = try await browser.send(.GET, "/plan/suggestions?start=\(today.iso)").body.string
            #expect(page.contains("Uses Spinach from the pantry before it goes off"))
        }
    }

    @Test func thePantryTravelsInTheExportAndComesBackAsItWas() async throws {
        try await withForkcast(allowSignup: true) { app in
            let ana = try await app.signUp("ana@example.com")
            let milk = try #require(try object(try await ana.sendJSON(.POST, "/api/v1/foods", ["name": "Milk", "basis": "ml", "per100": ["energyKcal": 64]]))["id"] as? String)
            #expect(try await ana.sendJSON(.POST, "/api/v1/pantry", ["foodId": milk, "amount": 750, "location": "Door <b>shelf</b>",
                                                                     "bestBefore": "2030-01-02", "opened": true]).status == .created)
            #expect(try await ana.sendJSON(.POST, "/api/v1/pantry", ["foodId": milk, "amount": 1000]).status == .created)
            let exported = Data(buffer: try await ana.get("/api/v1/export").body)
            let original = try AccountDataTests.document(try unzip(exported))
            #expect(original.counts["pantry"] == 2 && original.pantry.first?.location == "Door <b>shelf</b>", "\(original.pantry)")
            func shape(_ lots: [PantryItem]) -> [String] {
                lots.map { "\($0.id) \($0.foodId) \($0.amount) \($0.unit) \($0.location) \($0.bestBefore?.iso ?? "-") \($0.opened)" }
            }
            // Moving servers (simulated by deleting the account first): the same lots, ids and all.
            #expect(try await ana.deleteAccount(password: "correct horse").status == .noContent)
            let again = try await app.signUp("ana.new@example.com", password: "another horse")
            let imported = try await again.importArchive(exported)
            #expect(imported.status == .created, "\(imported.body.string)")
            #expect((try object(imported)["created"] as? [String: Int])?["pantry"] == 2)
            let restored = try AccountDataTests.document(try unzip(Data(buffer: try await again.get("/api/v1/export").body)))
            #expect(shape(restored.pantry) == shape(original.pantry))
            // Into a second account while the first holds those ids: new ids, its own foods.
            let cleo = try await app.signUp("cleo@example.com")
            #expect(try await cleo.importArchive(exported).status == .created)
            let cleos = try AccountDataTests.document(try unzip(Data(buffer: try await cleo.get("/api/v1/export").body)))
            #expect(cleos.pantry.count == 2 && Set(cleos.pantry.map(\.id)).isDisjoint(with: original.pantry.map(\.id)))
            #expect(Set(cleos.pantry.map(\.foodId)) == Set(cleos.foods.map(\.id)))
            // A lot of a food the export does not hold refuses the whole file.
            var broken = original
            broken.pantry[0].foodId = UUID()
            let dora = try await app.signUp("dora@example.com")
            let refused = try await dora.importArchive(try zip([AccountArchive.documentPath: try AccountArchive.encoder.encode(broken)]))
            #expect(refused.status == .unprocessableEntity && refused.body.string.contains("pantry[0].foodId"), "\(refused.body.string)")
            #expect(try object(try await dora.get("/api/v1/foods"))["metadata"].flatMap { ($0 as? [String: Any])?["total"] as? Int } == 0)
        }
    }

    @Test func hostileAmountsAreRefusedAndTheLastGramGoesToOnePhone() async throws {
        try await withForkcast(allowSignup: true) { app in
            let ann = try await app.signUp()
            let food = try await ann.send(.POST, "/api/v1/foods", raw: #"{"name":"Flour","basis":"g","per100":{"energyKcal":364}}"#)
            struct Only: Decodable { var id: UUID }
            let flour = try food.json(Only.self).id
            for body in [#"{"foodId":"\#(flour)","amount":-1}"#, #"{"foodId":"\#(flour)","amount":0}"#, #"{"foodId":"\#(flour)","amount":1e308}"#,
                         #"{"foodId":"\#(flour)","amount":"NaN"}"#, #"{"foodId":"\#(flour)","amount":5,"unit":"ml"}"#,
                         #"{"foodId":"\#(flour)","amount":5,"bestBefore":"9999-12-31"}"#, #"{"foodId":"\#(UUID())","amount":5}"#,
                         #"{"foodId":"\#(flour)","amount":5,"location":"<script>alert(1)</script>\#(String(repeating: "x", count: 40))"}"#] {
                let response = try await ann.send(.POST, "/api/v1/pantry", raw: body)
                #expect([400, 404, 422].contains(response.status.code), "\(body): \(response.status) \(response.body.string)")
            }
            #expect(try await ann.get("/api/v1/pantry").json(PantryAnswer.self).items.isEmpty, "nothing refused was stored")

            let lot = try await ann.send(.POST, "/api/v1/pantry", raw: #"{"foodId":"\#(flour)","amount":100}"#)
            #expect(lot.status == .created)
            let id = try lot.json(PantryItemAnswer.self).id
            // Two phones take the last 100 g at once: one gets it, the other a clear refusal.
            async let first = ann.send(.POST, "/api/v1/pantry/\(id)/use", raw: #"{"amount":100,"reason":"eaten"}"#)
            async let second = ann.send(.POST, "/api/v1/pantry/\(id)/use", raw: #"{"amount":100,"reason":"eaten"}"#)
            let codes = try await [first.status.code, second.status.code].sorted()
            #expect(codes == [200, 404], "\(codes)")
            #expect(try await ann.get("/api/v1/pantry").json(PantryAnswer.self).items.isEmpty)
            #expect(try await ann.send(.DELETE, "/api/v1/pantry/\(id)").status == .notFound)
            #expect(try await ann.send(.POST, "/api/v1/plan/assignments/\(UUID())/cooked").status == .notFound)
        }
    }
}
