import FluentKit
@testable import ForkcastServer
import ForkcastCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// Defects found where features meet: each change has one home, so the API, the pages
/// and sync answer alike. Each test failed before its fix.
@Suite("Seams between features")
struct SeamTests {
    let sync = SyncAPITests()

    // MARK: Weights: one use case

    @Test func aSecondWeightAtTheSameInstantIsA409FromEveryFrontDoor() async throws {
        let clock = TestClock()
        try await withForkcast(clock: clock) { app in
            let client = try await app.signUp()
            let at = sync.iso(clock.now.addingTimeInterval(-3600))
            #expect(try await client.send(.POST, "/api/v1/weights", json: NewWeight(weightKg: 80, measuredAt: at)).status == .created)
            let again = try await client.send(.POST, "/api/v1/weights", json: NewWeight(weightKg: 81, measuredAt: at))
            #expect(again.status == .conflict)
            // A synced device adding another weight at that instant gets the same 409, not "No weight with id … exists".
            let pushed = try await sync.push(client, [["mutationId": "w1", "kind": "weight", "id": UUID().uuidString, "op": "upsert",
                                                       "updatedAt": sync.iso(clock.now), "record": ["weightKg": 82, "measuredAt": at]]])
            #expect(pushed.results.first?.status == "rejected")
            #expect(pushed.results.first?.problem?.status == 409, "\(pushed.results.first?.problem?.detail ?? "")")
            #expect(pushed.results.first?.problem?.detail.contains("already recorded") == true)
            // Editing a weight in place (same id, new value) is fine.
            let list = try await client.get("/api/v1/weights").json(WeightPage.self)
            let id = try #require(list.items.first?.id)
            clock.advance(by: 1)  // a later edit than the API's (the feed keeps the request's time)
            let edit = try await sync.push(client, [["mutationId": "w2", "kind": "weight", "id": id.uuidString, "op": "upsert",
                                                     "updatedAt": sync.iso(clock.now), "record": ["weightKg": 79.5, "measuredAt": at]]])
            #expect(edit.results.first?.status == "applied")
            #expect(try await client.get("/api/v1/weights").json(WeightPage.self).items.map(\.weightKg) == [Decimal(string: "79.5")!])
        }
    }

    @Test func weightsEnterTheChangeFeedAtTheRequestsTime() async throws {
        // The clock is days behind the wall clock: a change stamped with Date() would show it.
        let clock = TestClock(ISO8601DateFormatter().date(from: "2026-01-10T08:00:00Z")!)
        try await withForkcast(clock: clock) { app in
            let client = try await app.signUp()
            #expect(try await client.send(.POST, "/api/v1/weights", json: NewWeight(weightKg: 80)).status == .created)
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            clock.advance(by: 60)
            let token = try await browser.csrf(from: "/goals")
            #expect(try await browser.send(.POST, "/goals/weights", form: ["_csrf": token, "weight": "81", "weightUnit": "kg"]).status == .seeOther)
            let changes = try await sync.feed(client).changes.filter { $0.kind == "weight" }
            #expect(changes.count == 2)
            #expect(changes.map(\.updatedAt) == [clock.now.addingTimeInterval(-60), clock.now])
        }
    }

    /// The goals page lists weighings by day and time and deletes one typed wrong, through the
    /// same DeleteWeight as the API: gone from the API and the feed; another person's is not found.
    @Test func aWeightIsShownByItsDayAndDeletedOnTheWeb() async throws {
        let clock = TestClock(ISO8601DateFormatter().date(from: "2026-03-14T06:45:00Z")!)
        try await withForkcast(allowSignup: true, clock: clock) { app in
            let client = try await app.signUp(timeZone: "Pacific/Auckland")
            let other = try await app.signUp("bob@example.com")
            #expect(try await client.send(.POST, "/api/v1/weights", json: NewWeight(weightKg: 80.4)).status == .created)
            #expect(try await other.send(.POST, "/api/v1/weights", json: NewWeight(weightKg: 90)).status == .created)
            let mine = try #require(try await client.get("/api/v1/weights").json(WeightPage.self).items.first)
            let bobs = try #require(try await other.get("/api/v1/weights").json(WeightPage.self).items.first)
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            let page = try await browser.send(.GET, "/goals").body.string
            // 06:45 UTC is 19:45 in Auckland (summer time), on the 14th.
            #expect(page.contains("14 March 2026, 19:45 · typed in"), "\(page)")
            #expect(page.contains("action=\"/goals/weights/\(mine.id.uuidString)/delete\""))
            let token = try await browser.csrf(from: "/goals")
            // No token, or another person's weight: refused, nothing deleted.
            #expect(try await browser.send(.POST, "/goals/weights/\(mine.id.uuidString)/delete", form: [:]).status == .forbidden)
            #expect(try await browser.send(.POST, "/goals/weights/\(bobs.id.uuidString)/delete", form: ["_csrf": token]).status == .notFound)
            #expect(try await other.get("/api/v1/weights").json(WeightPage.self).items.count == 1)
            let deleted = try await browser.send(.POST, "/goals/weights/\(mine.id.uuidString)/delete", form: ["_csrf": token])
            #expect(deleted.status == .seeOther && deleted.headers.first(name: .location) == "/goals#weights-title")
            #expect(try await client.get("/api/v1/weights").json(WeightPage.self).items.isEmpty)
            let changes = try await sync.feed(client).changes.filter { $0.kind == "weight" }
            #expect(changes.last?.op == "delete", "a synced device hears of it: \(changes.map(\.op))")
            let after = try await browser.send(.GET, "/goals").body.string
            #expect(after.contains("Deleted 80.4 kg from 14 March 2026, 19:45.") && after.contains("No weights yet."))
            #expect(after.contains("Put it back"))
            #expect(!(try await browser.send(.GET, "/goals").body.string.contains("Put it back")), "offered once")
            #expect(try await browser.send(.POST, "/goals/weights/\(mine.id.uuidString)/delete", form: ["_csrf": token]).status == .notFound)
            // Put back: the same weight, instant and source, through the form that adds one.
            let hidden = { (name: String) -> String in
                let marker = "name=\"\(name)\" value=\""
                guard let start = after.range(of: marker)?.upperBound else { return "" }
                return String(after[start...].prefix { $0 != "\"" })
            }
            let back = try await browser.send(.POST, "/goals/weights", form: ["_csrf": token, "weight": hidden("weight"), "weightUnit": hidden("weightUnit"),
                                                                              "measuredAt": hidden("measuredAt"), "source": hidden("source")])
            #expect(back.status == .seeOther)
            struct Weighed: Decodable { var weightKg: Decimal; var measuredAt: Date; var source: String }
            let restored = try await client.get("/api/v1/weights").json(Page<Weighed>.self).items
            #expect(restored.map(\.weightKg) == [Decimal(string: "80.4")!] && restored.first?.source == "manual")
            #expect(restored.first?.measuredAt == ISO8601DateFormatter().date(from: "2026-03-14T06:45:00Z"))
            #expect(try await browser.send(.GET, "/goals").body.string.contains("Put back 80.4 kg."))
            // A time that is not an instant, or one in the future, is refused as the API refuses it.
            for when in ["yesterday", "2030-01-01T00:00:00Z"] {
                let bad = try await browser.send(.POST, "/goals/weights", form: ["_csrf": token, "weight": "70", "weightUnit": "kg", "measuredAt": when])
                #expect(bad.status == .unprocessableEntity, "\(when): \(bad.status)")
            }
            #expect(try await client.get("/api/v1/weights").json(WeightPage.self).items.count == 1)
            // The offer belongs to the sign-in: the next account in the same browser never sees it.
            let again = try #require(try await client.get("/api/v1/weights").json(WeightPage.self).items.first)
            _ = try await browser.send(.POST, "/goals/weights/\(again.id.uuidString)/delete", form: ["_csrf": try await browser.csrf(from: "/goals")])
            _ = try await browser.send(.POST, "/logout", form: ["_csrf": try await browser.csrf(from: "/goals")])
            _ = try await browser.signIn("bob@example.com")
            let bobsPage = try await browser.send(.GET, "/goals").body.string
            #expect(bobsPage.contains("90 kg") && !bobsPage.contains("Put it back") && !bobsPage.contains("80.4"))
        }
    }

    struct NewWeight: Encodable { var weightKg: Decimal; var measuredAt: String? }
    struct Page<Item: Decodable>: Decodable { var items: [Item] }
    struct WeightPage: Decodable { var items: [Item]; struct Item: Decodable { var id: UUID; var weightKg: Decimal } }

    // MARK: Body profile and goals

    @Test func savingTheBodyProfileKeepsManualGoalsOnTheWebAsInTheAPI() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let manual = ["energyKcal": 1800, "protein": 120, "carbohydrates": 200, "fat": 60]
            #expect(try await client.send(.PUT, "/api/v1/goals", json: manual).status == .ok)
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            let page = try await browser.send(.GET, "/goals").body.string
            #expect(!page.contains("name=\"useComputedGoals\" id=\"field-useComputedGoals\" checked"), "unticked while goals are manual")
            let token = try await browser.csrf(from: "/goals")
            let profile = ["_csrf": token, "sex": "female", "birthDate": "1990-04-02", "heightCm": "168", "weightKg": "64",
                           "activityLevel": "moderate", "aim": "maintain"]
            #expect(try await browser.send(.POST, "/goals/profile", form: profile).status == .seeOther)
            let goals = try await client.get("/api/v1/goals").json(GoalsAnswer.self)
            #expect(goals.source == "manual" && goals.energyKcal == 1800, "the profile alone changes no goals")
            // Asking for computed goals is explicit, and part of the same change.
            var computed = profile
            computed["useComputedGoals"] = "on"
            #expect(try await browser.send(.POST, "/goals/profile", form: computed).status == .seeOther)
            #expect(try await client.get("/api/v1/goals").json(GoalsAnswer.self).source == "computed")
        }
    }

    /// Goals typed by hand that happen to be the defaults are still the person's own: the page
    /// says so and leaves "use computed goals" unticked (it was ticked, and saving the profile
    /// then replaced them). A person who never set goals sees the defaults named, the box ticked.
    @Test func goalsSetByHandAsTheDefaultsAreStillSetByHand() async throws {
        try await withForkcast(allowSignup: true) { app in
            let ticked = "name=\"useComputedGoals\" id=\"field-useComputedGoals\" checked"
            _ = try await app.signUp()
            var fresh = Browser(app: app)
            _ = try await fresh.signIn()
            let untouched = try await fresh.send(.GET, "/goals").body.string
            #expect(untouched.contains(ticked) && untouched.contains("until you set your own"), "nothing set: the defaults, computed offered")

            let client = try await app.signUp("second@example.com")
            let defaults = ["energyKcal": 2000, "protein": 150, "carbohydrates": 250, "fat": 65]
            #expect(try await client.send(.PUT, "/api/v1/goals", json: defaults).status == .ok)
            var browser = Browser(app: app)
            _ = try await browser.signIn("second@example.com")
            let page = try await browser.send(.GET, "/goals").body.string
            #expect(!page.contains(ticked), "unticked: these goals were typed by hand")
            #expect(page.contains("Set by hand.") && !page.contains("until you set your own"))
            let token = try await browser.csrf(from: "/goals")
            let profile = ["_csrf": token, "sex": "male", "birthDate": "1985-09-12", "heightCm": "181", "weightKg": "90",
                           "activityLevel": "active", "aim": "cut"]
            #expect(try await browser.send(.POST, "/goals/profile", form: profile).status == .seeOther)
            let goals = try await client.get("/api/v1/goals").json(GoalsAnswer.self)
            #expect(goals.source == "manual" && goals.energyKcal == 2000, "the profile changed no goals")
        }
    }

    @Test func theGoalsPageNamesWhatIsNotANumberAndChangesNothing() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            let token = try await browser.csrf(from: "/goals")
            let goalsBefore = try await client.get("/api/v1/goals").body.string
            // Imperial typed wrong: refused next to its field (it was read as not given: "Give the height in cm").
            let profile = ["_csrf": token, "sex": "female", "birthDate": "1990-04-02", "heightCm": "168", "weightKg": "64",
                           "heightFt": "5'6", "activityLevel": "moderate", "aim": "maintain", "useComputedGoals": "on"]
            let refused = try await browser.send(.POST, "/goals/profile", form: profile)
            #expect(refused.status == .unprocessableEntity)
            #expect(refused.body.string.contains("<details class=\"imperial\" open>"), "the imperial fields are shown, with the problem")
            #expect(refused.body.string.contains("Enter a number."))
            #expect(try await client.get("/api/v1/goals").body.string == goalsBefore, "nothing was saved")
            #expect(try await client.send(.GET, "/api/v1/body-profile").status == .notFound, "no profile either")
            // Goals by hand: "1,800 kcal" is not a number; the rest typed right is not saved alone.
            let manual = ["_csrf": token, "manual.energyKcal": "1800 kcal", "manual.protein": "120", "manual.carbohydrates": "200", "manual.fat": "60"]
            let wrong = try await browser.send(.POST, "/goals/manual", form: manual)
            #expect(wrong.status == .unprocessableEntity && wrong.body.string.contains("Enter a number."))
            #expect(try await client.get("/api/v1/goals").body.string == goalsBefore)
            // A weight of 0 gets ForkcastCore's range, as from the API.
            let zero = try await browser.send(.POST, "/goals/weights", form: ["_csrf": token, "weight": "0", "weightUnit": "kg"])
            #expect(zero.status == .unprocessableEntity)
            let api = try await client.send(.POST, "/api/v1/weights", json: NewWeight(weightKg: 0))
            #expect(api.status == .unprocessableEntity)
            let range = Plausible.bodyWeightKg.message("Weight")
            #expect(zero.body.string.contains(range) && api.body.string.contains(range), "the same range on both: \(range)")
            // A unit the form does not offer is refused, not read as kilograms.
            let stone = try await browser.send(.POST, "/goals/weights", form: ["_csrf": token, "weight": "12", "weightUnit": "<st>"])
            #expect(stone.status == .unprocessableEntity && stone.body.string.contains("Choose kg or lb"))
            #expect(try await client.get("/api/v1/weights").json(WeightPage.self).items.isEmpty)
        }
    }

    struct GoalsAnswer: Decodable { var source: String; var energyKcal: Decimal }

}
