@testable import ForkcastServer
import ForkcastCore
import Foundation
import Testing
import VaporTesting

extension DailyUseTests {
    /// Today's nutrients say "every target met" only of targets whose amount is known: a day of
    /// quick adds (no micronutrients) said "Every target met so far today" beside "not known" rows.
    @Test func nutrientsMetOnlyOfWhatIsKnown() async throws {
        try await withForkcast(clock: TestClock(Self.evening)) { app in
            let client = try await app.signUp()
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            #expect(try await browser.send(.GET, "/diary").body.string.contains("Nothing logged yet"))
            #expect(try await client.send(.POST, "/api/v1/diary/entries", raw: #"{"quickAdd": {"energyKcal": 300}, "mealType": "snack"}"#).status == .created)
            let page = try await browser.send(.GET, "/diary").body.string
            let summary = try #require(page.range(of: "id=\"nutrients-summary\">")).upperBound
            let text = String(page[summary...].prefix { $0 != "<" })
            #expect(!text.contains("Every target met"), "\(text)")
            #expect(text.contains("Not known yet") || text.contains("under target"), "\(text)")
        }
    }

    /// A day the diary and planner forms send is a day that exists, in the years every client's
    /// dates are read in: 9999-12-31 was stored (and the account's export then refused to import),
    /// 2026-02-30 was logged as today.
    @Test func aDayOutOfRangeOrThatDoesNotExistIsRefusedOnEveryFormNotStoredOrMadeToday() async throws {
        try await withForkcast(allowSignup: true, clock: TestClock(Self.evening)) { app in
            let client = try await app.signUp()
            let soup = try await client.createMeal("Lentil soup")
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            for (date, words) in [("9999-12-31", "in the years 1900–2200"), ("0001-01-01", "in the years 1900–2200"),
                                  ("2201-01-01", "in the years 1900–2200"), ("2026-02-30", "a day that exists"), ("2026-1-1", "a day that exists")] {
                let token = try await browser.csrf(from: "/diary/add")
                let plate = try await browser.send(.POST, "/diary/add", form: ["_csrf": token, "date": date, "mealType": "lunch", "quick.energyKcal": "100"])
                #expect(plate.status == .unprocessableEntity, "plate on \(date)")
                #expect(plate.body.string.contains(words), "plate on \(date): \(plate.body.string.prefix(300))")
                let copy = try await browser.send(.POST, "/diary/copy", form: ["_csrf": token, "from": "2026-11-20|lunch", "date": date])
                #expect(copy.status == .unprocessableEntity, "copy to \(date)")
                let planned = try await browser.send(.POST, "/plan/assignments", form: ["_csrf": token, "mealId": soup.id.uuidString, "date": date])
                #expect((400..<500).contains(planned.status.code), "plan on \(date): \(planned.status)")
            }
            let today = try object(try await client.get("/api/v1/diary?date=2026-11-21"))
            #expect((today["totals"] as? [String: Any])?["energyKcal"] as? Double == 0, "nothing was logged as today: \(today)")
            // The days that are days are logged and planned (the last of the range too), and the
            // account's export imports again: nothing out of range was stored.
            let token = try await browser.csrf(from: "/diary/add")
            #expect(try await browser.send(.POST, "/diary/add", form: ["_csrf": token, "date": "2200-12-31", "mealType": "lunch", "quick.energyKcal": "100"]).status == .seeOther)
            #expect(try await browser.send(.POST, "/plan/assignments", form: ["_csrf": token, "mealId": soup.id.uuidString, "date": "1900-01-01"]).status.code < 400)
            let exported = try await client.get("/api/v1/export")
            let other = try await app.signUp("other@example.com")
            let dry = try await other.importArchive(Data(buffer: exported.body), dryRun: true)
            #expect(dry.status == .ok, "\(dry.body.string)")
            let created = try object(dry)["created"] as? [String: Int]
            #expect(created?["diary"] == 1 && created?["plan"] == 1, "only the two days in range were stored: \(created ?? [:])")
        }
    }

    @Test func thePlateUsesUsualPortionsAndAddsUpWithoutSaving() async throws {
        try await withForkcast(clock: TestClock(Self.evening)) { app in
            let client = try await app.signUp()
            let oats = try #require(try await client.createFood(FoodsAPITests.oats).json(TestFood.self).id)
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            var token = try await browser.csrf(from: "/diary/add")
            let form = ["_csrf": token, "date": "2026-11-21", "mealType": "breakfast", "ingredientFood": "Rolled oats", "ingredientFoodId": oats.uuidString,
                        "ingredientQuantity": "", "ingredientUnit": "", "quick.name": "Juice", "quick.energyKcal": "110"]
            browser.headers.replaceOrAdd(name: "X-Fragment", value: "plate-totals")
            let totals = try await browser.send(.POST, "/diary/add", form: form)
            #expect(totals.status == .ok)
            #expect(totals.body.string.contains("259 kcal"), "one 40 g bowl (149 kcal) and the quick add (110): \(totals.body.string)")
            browser.headers.remove(name: "X-Fragment")
            let empty = try object(try await client.get("/api/v1/diary?date=2026-11-21"))
            #expect((empty["totals"] as? [String: Any])?["energyKcal"] as? Double == 0, "adding up saves nothing")

            token = try await browser.csrf(from: "/diary/add")
            var save = form
            save["_csrf"] = token
            #expect(try await browser.send(.POST, "/diary/add", form: save).status == .seeOther)
            let day = try object(try await client.get("/api/v1/diary?date=2026-11-21"))
            #expect((day["totals"] as? [String: Any])?["energyKcal"] as? Double == 258.8)

            // The food is now a usual food, offered first on the next plate.
            let page = try await browser.send(.GET, "/diary/add").body.string
            #expect(page.contains("data-food-id=\"\(oats.uuidString)\""))
            #expect(page.contains("data-quantity=\"1\" data-unit=\"serving\""), "the chip puts the amount last eaten")
            // Another meal type chosen on the plate asks for its chips alone (plate.js).
            browser.headers.replaceOrAdd(name: "X-Fragment", value: "usual-foods")
            let chips = try await browser.send(.GET, "/diary/add?date=2026-11-21&mealType=dinner")
            browser.headers.remove(name: "X-Fragment")
            #expect(chips.status == .ok)
            #expect(chips.body.string.hasPrefix("<ul class=\"chips\""), "the chips alone: \(chips.body.string.prefix(80))")
            #expect(chips.body.string.contains("data-food-id=\"\(oats.uuidString)\""), "every meal type's foods follow its own")
            #expect(!chips.body.string.contains("<html"))
        }
    }

    @Test func pricesShowInTheCurrencyChosenInSettings() async throws {
        try await withForkcast(clock: TestClock(Self.evening)) { app in
            let client = try await app.signUp()
            #expect(try await client.createFood(FoodsAPITests.oats).status == .created)
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            #expect(try await browser.send(.GET, "/foods").body.string.contains("€"))
            let token = try await browser.csrf(from: "/settings")
            let saved = try await browser.send(.POST, "/settings", form: ["_csrf": token, "displayName": "", "timeZone": "UTC", "currency": "USD"])
            #expect(saved.status == .seeOther)
            let settings = try await browser.send(.GET, "/settings").body.string
            #expect(settings.contains("<option value=\"USD\" selected>"))
            let foods = try await browser.send(.GET, "/foods").body.string
            #expect(foods.contains("$0.24") && !foods.contains("€"), "2.40 per 1000 g is $0.24 per 100 g")
        }
    }

    @Test func foodSearchMatchesInsideWords() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            for name in ["Yogurt, Greek, plain", "Oat drink", "Gurtel beans"] {
                #expect(try await client.createFood(["name": name, "per100": ["energyKcal": 60]]).status == .created)
            }
            let found = try await client.get("/api/v1/foods?q=gurt").json(TestFoodPage.self)
            #expect(found.items.map(\.name) == ["Gurtel beans", "Yogurt, Greek, plain"])
            let both = try await client.get("/api/v1/foods?q=gurt%20greek").json(TestFoodPage.self)
            #expect(both.items.map(\.name) == ["Yogurt, Greek, plain"])
            #expect(FoodTermModel.indexTerms(of: "Yogurt").contains("gurt"))
            #expect(!FoodTermModel.indexTerms(of: "Yogurt").contains("rt"), "endings shorter than three letters are not indexed")
        }
    }

    @Test func longListsComeAPageAtATimeWithAnHonestCount() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            for i in 1...55 { _ = try await client.createMeal(String(format: "Meal %03d", i)) }
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            let first = try await browser.send(.GET, "/meals").body.string
            #expect(first.contains("Showing 1–50 of 55 meals"))
            #expect(first.contains("href=\"/meals?page=2\""))
            let second = try await browser.send(.GET, "/meals?page=2").body.string
            #expect(second.contains("Showing 51–55 of 55 meals"))
            let cards = second.components(separatedBy: "class=\"meal-title").count - 1
            #expect(cards == 5, "the last page holds the 5 meals after the first 50")
            let negative = try await browser.send(.GET, "/meals?page=-1").status
            #expect([HTTPStatus.badRequest, .unprocessableEntity].contains(negative))
            let picker = try await browser.send(.GET, "/plan/add?date=2026-11-21&q=Meal%2005").body.string
            #expect(picker.contains("Meal 055"), "the picker searches the whole library")
        }
    }
}
