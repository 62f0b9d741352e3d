@testable import ForkcastServer
import ForkcastCore
import Foundation
import Testing
import VaporTesting

/// The plan's meal slots, Today's plan, copying a meal, correcting entries, the plate's
/// usual portions and totals, long lists a page at a time, and food search inside words.
@Suite("Daily use")
struct DailyUseTests {
    static let evening = ISO8601DateFormatter().date(from: "2026-11-21T19:00:00Z")!

    @Test func assignmentsCarryAMealSlotAndADayShowsSlotsInOrder() async throws {
        try await withForkcast(clock: TestClock(Self.evening)) { app in
            let client = try await app.signUp()
            let soup = try await client.createMeal("Soup")
            let eggs = try await client.createMeal("Eggs")
            let cake = try await client.createMeal("Cake")
            let dinner = try await client.sendJSON(.POST, "/api/v1/plan/assignments", ["mealId": soup.id.uuidString, "date": "2026-11-21", "mealType": "dinner"])
            #expect(dinner.status == .created)
            #expect(try object(dinner)["mealType"] as? String == "dinner")
            _ = try await client.assign(cake.id, on: "2026-11-21")
            _ = try await client.sendJSON(.POST, "/api/v1/plan/assignments", ["mealId": eggs.id.uuidString, "date": "2026-11-21", "mealType": "breakfast"])

            // Refused with a clear problem, and nothing is planned.
            let bad = try await client.sendJSON(.POST, "/api/v1/plan/assignments", ["mealId": eggs.id.uuidString, "date": "2026-11-21", "mealType": "brunch"])
            #expect(bad.status == .unprocessableEntity)
            #expect(bad.problem?.message(for: "mealType")?.contains("breakfast") == true)

            let plan = try object(try await client.get("/api/v1/plan?start=2026-11-21&days=1"))
            let day = try #require((plan["days"] as? [[String: Any]])?.first)
            let assignments = try #require(day["assignments"] as? [[String: Any]])
            #expect(assignments.map { ($0["meal"] as? [String: Any])?["description"] as? String } == ["Eggs", "Soup", "Cake"],
                    "breakfast, dinner, then the meal without a slot")
            #expect(assignments.map { $0["mealType"] as? String } == ["breakfast", "dinner", nil])

            // The sync feed carries the slot too.
            let changes = try object(try await client.get("/api/v1/sync/changes"))
            let records = (changes["changes"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "assignment" }
            let slots = Set(records.compactMap { ($0["record"] as? [String: Any])?["mealType"] as? String })
            #expect(slots == ["breakfast", "dinner"])
        }
    }

    @Test func aSlottedDinnerLoggedAfterMidnightIsStillDinnerOnItsDay() async throws {
        let clock = TestClock(ISO8601DateFormatter().date(from: "2026-11-21T12:00:00Z")!)
        try await withForkcast(clock: clock) { app in
            let client = try await app.signUp()
            let soup = try await client.createMeal("Soup")
            let assignment = try object(try await client.sendJSON(.POST, "/api/v1/plan/assignments",
                                                                  ["mealId": soup.id.uuidString, "date": "2026-11-21", "mealType": "dinner"]))
            clock.set(ISO8601DateFormatter().date(from: "2026-11-22T00:30:00Z")!)
            let logged = try await client.sendJSON(.POST, "/api/v1/diary/log-planned", ["assignmentId": assignment["id"] as! String])
            #expect(logged.status == .created)
            let entry = try object(logged)
            #expect(entry["mealType"] as? String == "dinner", "the plan slot, not the clock's snack")
            #expect(entry["date"] as? String == "2026-11-21")

            // A sync push may plan with a slot as well.
            let push = try await client.sendJSON(.POST, "/api/v1/sync/push", ["deviceId": "phone", "mutations": [[
                "mutationId": "m1", "kind": "assignment", "id": UUID().uuidString, "op": "upsert", "updatedAt": "2026-11-22T00:30:00Z",
                "record": ["mealId": soup.id.uuidString, "date": "2026-11-23", "mealType": "lunch"]]]])
            #expect(push.status == .ok)
            let plan = try object(try await client.get("/api/v1/plan?start=2026-11-23&days=1"))
            let slot = ((plan["days"] as? [[String: Any]])?.first?["assignments"] as? [[String: Any]])?.first?["mealType"] as? String
            #expect(slot == "lunch")
        }
    }

    @Test func yesterdaysBreakfastIsCopiedInOneStepAsItWasLogged() async throws {
        try await withForkcast(clock: TestClock(Self.evening)) { app in
            let client = try await app.signUp()
            let oats = try #require(try await client.createFood(FoodsAPITests.oats).json(TestFood.self).id)
            let plate = try await client.sendJSON(.POST, "/api/v1/diary/plate", ["loggedAt": "2026-11-20T07:30:00Z", "mealType": "breakfast", "items": [
                ["foodId": oats.uuidString, "quantity": 80, "unit": "g"], ["quickAdd": ["energyKcal": 90], "name": "Latte"]]])
            #expect(plate.status == .created)
            let copied = try await client.sendJSON(.POST, "/api/v1/diary/copy", ["from": "2026-11-20", "fromMealType": "breakfast"])
            #expect(copied.status == .created, "\(copied.body.string)")
            let entries = try array(copied)
            #expect(entries.map { $0["name"] as? String } == ["Rolled oats", "Latte"])
            #expect(entries.allSatisfy { $0["date"] as? String == "2026-11-21" && $0["mealType"] as? String == "breakfast" })
            #expect(((entries[0]["nutrients"] as? [String: Any])?["energyKcal"] as? Double) == 297.6)

            // Nothing to copy, or an unknown meal type: a clear problem, nothing logged.
            let empty = try await client.sendJSON(.POST, "/api/v1/diary/copy", ["from": "2026-11-19", "fromMealType": "lunch"])
            #expect(empty.status == .unprocessableEntity)
            let wrong = try await client.sendJSON(.POST, "/api/v1/diary/copy", ["from": "2026-11-20", "fromMealType": "elevenses"])
            #expect(wrong.status == .unprocessableEntity)
            let day = try object(try await client.get("/api/v1/diary?date=2026-11-21"))
            #expect((day["totals"] as? [String: Any])?["energyKcal"] as? Double == 387.6)
        }
    }

    @Test func anEntryForAnotherDayLandsAtNoonOfThatDay() async throws {
        try await withForkcast(clock: TestClock(Self.evening)) { app in
            let client = try await app.signUp(timeZone: "Pacific/Auckland")
            let other = try object(try await client.sendJSON(.POST, "/api/v1/diary/entries", ["date": "2026-11-20", "quickAdd": ["energyKcal": 50], "mealType": "snack"]))
            #expect(other["date"] as? String == "2026-11-20")
            #expect(other["loggedAt"] as? String == "2026-11-19T23:00:00Z", "noon in Auckland")
        }
    }

    @Test func todayShowsThePlanWithOneTapLogMarkedOnceLogged() async throws {
        try await withForkcast(clock: TestClock(Self.evening)) { app in
            let client = try await app.signUp()
            let soup = try await client.createMeal("Pumpkin soup")
            let stew = try await client.createMeal("Lentil stew")
            let slotted = try object(try await client.sendJSON(.POST, "/api/v1/plan/assignments", ["mealId": soup.id.uuidString, "date": "2026-11-21", "mealType": "dinner"]))
            _ = try await client.assign(stew.id, on: "2026-11-21")
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            let before = try await browser.send(.GET, "/diary").body.string
            #expect(before.contains("Pumpkin soup") && before.contains("Lentil stew"))
            #expect(before.contains("2 to log"))
            #expect(before.contains("name=\"mealType\" value=\"dinner\""), "the slotted meal logs to its slot")
            #expect(before.contains("id=\"log-type-"), "the unslotted one asks which meal")

            let token = try await browser.csrf(from: "/diary")
            let logged = try await browser.send(.POST, "/diary/log-planned", form: ["_csrf": token, "assignmentId": slotted["id"] as! String, "back": "/diary"])
            #expect(logged.status == .seeOther)
            let after = try await browser.send(.GET, "/diary").body.string
            #expect(after.contains("✓ Logged"))
            #expect(after.contains("1 to log"))
            let formsForSoup = after.components(separatedBy: "value=\"\(slotted["id"] as! String)\"").count - 1
            #expect(formsForSoup == 0, "a logged planned meal is not offered again that day")
            let day = try object(try await client.get("/api/v1/diary?date=2026-11-21"))
            let dinner = (day["entries"] as? [[String: Any]])?.first { $0["mealType"] as? String == "dinner" }
            #expect((dinner?["entries"] as? [[String: Any]])?.first?["name"] as? String == "Pumpkin soup")
        }
    }

    @Test func entriesAreCorrectedOnTheirPage() async throws {
        try await withForkcast(clock: TestClock(Self.evening)) { app in
            let client = try await app.signUp()
            let oats = try #require(try await client.createFood(FoodsAPITests.oats).json(TestFood.self).id)
            let food = try object(try await client.sendJSON(.POST, "/api/v1/diary/entries", ["foodId": oats.uuidString, "quantity": 80, "unit": "g", "mealType": "breakfast"]))
            let quick = try object(try await client.sendJSON(.POST, "/api/v1/diary/entries", ["quickAdd": ["energyKcal": 300], "name": "Cake", "mealType": "snack"]))
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            let foodID = food["id"] as! String, quickID = quick["id"] as! String

            // Amount and unit: recomputed from the food; meal type, day and time move it.
            var token = try await browser.csrf(from: "/diary/entries/\(foodID)/edit")
            let asked = try await browser.send(.POST, "/diary/entries/\(foodID)", form: ["_csrf": token, "quantity": "1", "unit": "serving", "mealType": "lunch",
                                                                                       "date": "2026-11-20", "time": "13:15", "note": ""])
            #expect(asked.status == .conflict, "another day is another meal: the page asks first")
            #expect(asked.body.string.contains("id=\"confirm-move\"") && asked.body.string.contains("name=\"confirmMove\" value=\"1\""))
            #expect(asked.body.string.contains("Move it"))
            #expect(try object(try await client.get("/api/v1/diary/entries/\(foodID)"))["mealType"] as? String == "breakfast", "not moved before confirming")
            token = try await browser.csrf(from: "/diary/entries/\(foodID)/edit")
            let moved = try await browser.send(.POST, "/diary/entries/\(foodID)", form: ["_csrf": token, "quantity": "1", "unit": "serving", "mealType": "lunch",
                                                                                       "date": "2026-11-20", "time": "13:15", "note": "", "confirmMove": "1"])
            #expect(moved.status == .seeOther)
            let corrected = try object(try await client.get("/api/v1/diary/entries/\(foodID)"))
            #expect(corrected["quantity"] as? Double == 1 && corrected["unit"] as? String == "serving")
            #expect((corrected["nutrients"] as? [String: Any])?["energyKcal"] as? Double == 148.8, "one 40 g bowl")
            #expect(corrected["mealType"] as? String == "lunch" && corrected["date"] as? String == "2026-11-20")
            #expect(corrected["loggedAt"] as? String == "2026-11-20T13:15:00Z")

            // A quick add's name and values.
            token = try await browser.csrf(from: "/diary/entries/\(quickID)/edit")
            let renamed = try await browser.send(.POST, "/diary/entries/\(quickID)", form: ["_csrf": token, "quick.name": "Carrot cake", "quick.energyKcal": "350",
                                                                                         "quick.protein": "4", "quick.carbohydrates": "", "quick.fat": "",
                                                                                         "mealType": "snack", "date": "2026-11-21", "time": "19:00"])
            #expect(renamed.status == .seeOther)
            let cake = try object(try await client.get("/api/v1/diary/entries/\(quickID)"))
            #expect(cake["name"] as? String == "Carrot cake")
            #expect((cake["nutrients"] as? [String: Any])?["energyKcal"] as? Double == 350)
            #expect((cake["nutrients"] as? [String: Any])?["protein"] as? Double == 4)

            // Bad input is shown on the page, as typed, and changes nothing.
            token = try await browser.csrf(from: "/diary/entries/\(quickID)/edit")
            let refused = try await browser.send(.POST, "/diary/entries/\(quickID)", form: ["_csrf": token, "quick.name": "Cake", "quick.energyKcal": "1e308",
                                                                                         "mealType": "snack", "date": "2026-11-21", "time": "19:00"])
            #expect(refused.status == .unprocessableEntity)
            #expect(refused.body.string.contains("1e308"))
            let unchanged = try object(try await client.get("/api/v1/diary/entries/\(quickID)"))
            #expect(unchanged["name"] as? String == "Carrot cake")

            // Deleting offers Undo (the form says what it deletes).
            let today = try await browser.send(.GET, "/diary").body.string
            #expect(today.contains("data-undo=\"Deleted “Carrot cake” from Snack.\""))
        }
    }

    @Test func theFoodFormRefusesAChoiceItDoesNotOfferAsTheAPIDoes() async throws {
        try await withForkcast(clock: TestClock(Self.evening)) { app in
            let client = try await app.signUp()
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            func save(_ changes: [String: String]) async throws -> TestingHTTPResponse {
                let token = try await browser.csrf(from: "/foods/new")
                let form = ["_csrf": token, "name": "Oat milk", "basis": "ml", "energy": "46", "energyUnit": "kcal", "icon": "generic", "source": "custom"]
                return try await browser.send(.POST, "/foods", form: form.merging(changes) { $1 })
            }
            // A tampered form: each choice it does not offer is named, and nothing is saved (it
            // used to become grams, the generic icon, a custom food, a package price).
            for (field, value, words) in [("basis", "kg", "basis must be"), ("icon", "<script>", "icon must be one of"),
                                          ("source", "usda-branded-x", "source must be one of"), ("pricePer", "crate", "price.per must be")] {
                let refused = try await save([field: value, "priceAmount": "1.2"])
                #expect(refused.status == .unprocessableEntity, "\(field)=\(value)")
                #expect(refused.body.string.contains(words), "\(field): \(refused.body.string.prefix(200))")
            }
            #expect((try object(try await client.get("/api/v1/foods"))["items"] as? [Any])?.isEmpty == true, "nothing was saved")
            // The form's own choices are saved as chosen.
            #expect(try await save(["pricePer": "serving", "priceAmount": "0.4", "servingSize": "250"]).status == .seeOther)
            let saved = try #require((try object(try await client.get("/api/v1/foods"))["items"] as? [[String: Any]])?.first)
            #expect(saved["basis"] as? String == "ml" && (saved["price"] as? [String: Any])?["per"] as? String == "serving")
        }
    }

    @Test func aQuickAddTypedWithoutItsCaloriesIsRefusedOnThePlateNotDropped() async throws {
        try await withForkcast(clock: TestClock(Self.evening)) { app in
            let client = try await app.signUp()
            let oats = try #require(try await client.createFood(FoodsAPITests.oats).json(TestFood.self).id)
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            // A food row and a quick add with its protein but no calories: the plate is one change,
            // so nothing is logged, and the quick add says what it needs where it was typed.
            let token = try await browser.csrf(from: "/diary/add")
            let refused = try await browser.send(.POST, "/diary/add", form: [
                "_csrf": token, "date": "2026-11-21", "mealType": "lunch", "ingredientFood": "Rolled oats", "ingredientFoodId": oats.uuidString,
                "ingredientQuantity": "", "ingredientUnit": "", "quick.name": "Shake <“whey”>", "quick.protein": "25"])
            #expect(refused.status == .unprocessableEntity)
            #expect(refused.body.string.contains("A quick add needs its calories."))
            #expect(refused.body.string.contains("value=\"25\""), "what was typed stays")
            let day = try object(try await client.get("/api/v1/diary?date=2026-11-21"))
            #expect((day["totals"] as? [String: Any])?["energyKcal"] as? Double == 0, "nothing is logged: \(day)")

            // A catalogue food typed by name is adopted in the plate's own write: refused, none is left behind.
            #expect(try await client.get("/api/v1/foods/catalog?q=carrot").status == .ok)
            func carrots(_ quick: [(String, String)]) async throws -> TestingHTTPResponse {
                let token = try await browser.csrf(from: "/diary/add")
                return try await browser.send(.POST, "/diary/add", pairs: [
                    ("_csrf", token), ("date", "2026-11-21"), ("mealType", "lunch"), ("ingredientFood", "Carrots, raw"), ("ingredientFoodId", ""),
                    ("ingredientQuantity", "80"), ("ingredientUnit", "")] + quick)
            }
            #expect(try await carrots([("quick.protein", "25")]).status == .unprocessableEntity)
            let foodNames = { (try object(try await client.get("/api/v1/foods"))["items"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? [] }
            #expect(try await foodNames() == ["Rolled oats"], "no food adopted by a refused plate")
            #expect(try await carrots([]).status == .seeOther)
            #expect(try await foodNames().sorted() == ["Carrots, raw", "Rolled oats"], "adopted with the plate that logged it")
            // So does a meal's form: a meal refused (no name) adopts nothing.
            let mealToken = try await browser.csrf(from: "/meals/new")
            let meal = try await browser.send(.POST, "/meals", pairs: [
                ("_csrf", mealToken), ("description", ""), ("ingredientFood", "Bananas, raw"), ("ingredientFoodId", ""),
                ("ingredientQuantity", "120"), ("ingredientUnit", "")])
            #expect(meal.status == .unprocessableEntity)
            #expect(try await foodNames().sorted() == ["Carrots, raw", "Rolled oats"], "no food adopted by a refused meal")

            // A number that is not one is named at its field.
            let token2 = try await browser.csrf(from: "/diary/add")
            let unreadable = try await browser.send(.POST, "/diary/add", form: [
                "_csrf": token2, "date": "2026-11-21", "mealType": "lunch", "quick.energyKcal": "lots"])
            #expect(unreadable.status == .unprocessableEntity)
            #expect(unreadable.body.string.contains("Enter a number, e.g. 150."))
            // Adding up while the quick add is still being typed leaves it out, not the whole plate.
            browser.headers.replaceOrAdd(name: "X-Fragment", value: "plate-totals")
            let adding = try await browser.send(.POST, "/diary/add", form: [
                "_csrf": token2, "date": "2026-11-21", "mealType": "lunch", "ingredientFood": "Rolled oats", "ingredientFoodId": oats.uuidString,
                "ingredientQuantity": "", "ingredientUnit": "", "quick.energyKcal": "1a"])
            browser.headers.remove(name: "X-Fragment")
            #expect(adding.status == .ok && adding.body.string.contains("149 kcal"), "\(adding.body.string)")

            // A plate sent without its meal type goes where the time suggests (19:00 today: dinner),
            // as through the API, not to Snack.
            let token3 = try await browser.csrf(from: "/diary/add")
            #expect(try await browser.send(.POST, "/diary/add", form: ["_csrf": token3, "quick.name": "Soup", "quick.energyKcal": "180"]).status == .seeOther)
            let today = try object(try await client.get("/api/v1/diary?date=2026-11-21"))
            let groups = try #require(today["entries"] as? [[String: Any]])
            let soup = groups.first { ($0["entries"] as? [[String: Any]])?.contains { $0["name"] as? String == "Soup" } == true }
            #expect(soup?["mealType"] as? String == "dinner", "\(groups.map { $0["mealType"] ?? "" })")
        }
    }
}
