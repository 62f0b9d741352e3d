@testable import ForkcastServer
import ForkcastCore
import Foundation
import Testing
import VaporTesting

/// What an amount on the plate means (the web form, through the same use case as the API): a
/// number alone is grams, servings are chosen, and an amount big enough to be a slip is asked
/// about once, on its row, before anything is logged.
@Suite("Plate amounts")
struct PlateAmountTests {
    static let evening = ISO8601DateFormatter().date(from: "2026-11-21T19:00:00Z")!

    @Test func aNumberAloneIsGramsAndALargeAmountIsAskedAboutOnItsRowFirst() async throws {
        try await withForkcast(clock: TestClock(Self.evening)) { app in
            let client = try await app.signUp()
            let oats = try #require(try await client.createFood(FoodsAPITests.oats).json(TestFood.self).id)
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            func day() async throws -> [[String: Any]] {
                let body = try #require(try JSONSerialization.jsonObject(with: Data(buffer: try await client.get("/api/v1/diary?date=2026-11-21").body)) as? [String: Any])
                return (body["entries"] as? [[String: Any]] ?? []).flatMap { $0["entries"] as? [[String: Any]] ?? [] }
            }
            func plate(_ quantity: String, _ unit: String, confirmed: [String] = []) async throws -> TestingHTTPResponse {
                let token = try await browser.csrf(from: "/diary/add")
                var fields = [("_csrf", token), ("date", "2026-11-21"), ("mealType", "lunch"), ("ingredientFood", "Rolled oats"),
                              ("ingredientFoodId", oats.uuidString), ("ingredientQuantity", quantity), ("ingredientUnit", unit)]
                fields += confirmed.map { ("confirmedAmount", $0) }
                return try await browser.send(.POST, "/diary/add", pairs: fields)
            }

            // "150" with the unit left as the page gave it: 150 g, not 150 servings.
            #expect(try await plate("150", "").status == .seeOther)
            let first = try await day().first
            #expect(first?["quantity"] as? Double == 150 && first?["unit"] as? String == "g")

            // 150 servings chosen: asked on the row, nothing logged, the answer kept in the form.
            let asked = try await plate("150", "serving")
            #expect(asked.status == .unprocessableEntity)
            let question = "150 servings of Rolled oats is 22\u{202F}320 kcal — did you mean 150 g?"
            let page = asked.body.string
            #expect(page.contains("id=\"ingredient-qty-1-error\">\(question)</p>"), "the question is on the row")
            #expect(page.contains("name=\"confirmedAmount\" value=\"\(question)\""))
            #expect(page.contains(">Log it as it is</button>"))
            #expect(try await day().count == 1, "nothing more was logged")
            // Changed to another large amount: asked again; said yes to: logged as typed.
            #expect(try await plate("200", "serving", confirmed: [question]).status == .unprocessableEntity)
            #expect(try await plate("150", "serving", confirmed: [question]).status == .seeOther)
            #expect(try await day().count == 2)
            // A client's plate says its units and is not asked (the API's contract is unchanged).
            let api = try await client.sendJSON(.POST, "/api/v1/diary/plate", ["mealType": "dinner", "date": "2026-11-21",
                                                                              "items": [["foodId": oats.uuidString, "quantity": 150, "unit": "serving"]]])
            #expect(api.status == .created)
        }
    }

    @Test func aPlateItemWhoseMacrosAreUnknownSaysSoNotZero() async throws {
        try await withForkcast(clock: TestClock(Self.evening)) { app in
            let client = try await app.signUp()
            let tea = try #require(try await client.createFood(["name": "Chai", "basis": "ml", "per100": ["energyKcal": 40]]).json(TestFood.self).id)
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            let token = try await browser.csrf(from: "/diary/add")
            browser.headers.replaceOrAdd(name: "X-Fragment", value: "plate-totals")
            let totals = try await browser.send(.POST, "/diary/add", pairs: [("_csrf", token), ("date", "2026-11-21"), ("mealType", "snack"),
                                                                            ("ingredientFood", "Chai"), ("ingredientFoodId", tea.uuidString),
                                                                            ("ingredientQuantity", "250"), ("ingredientUnit", "ml")]).body.string
            #expect(totals.contains("100 kcal") && totals.contains("macros not known"), "\(totals)")
            #expect(!totals.contains("P</abbr> 0 g"), "no macro shown as 0 g")
        }
    }
}
