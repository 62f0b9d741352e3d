@testable import ForkcastServer
import ForkcastContract
import ForkcastCore
import Foundation
import Testing
import VaporTesting

/// Plans, portions and shopping through the API (and the pages a sharing link opens), on SQLite and on PostgreSQL:
/// portions per plan entry, shopping lists from the plan, sharing, the week against the goals and
/// "Fill my week".
@Suite("Shopping lists and the planned week")
struct ShoppingAPITests {
    struct Week {
        var rice: UUID, chicken: UUID, milk: UUID
        var chickenRice: UUID, pudding: UUID
        var tuesday: UUID
    }

    func id(_ response: TestingHTTPResponse) throws -> UUID {
        struct Only: Decodable { var id: UUID }
        #expect(response.status == .created || response.status == .ok, "\(response.body.string)")
        return try response.json(Only.self).id
    }

    /// The issue's week: chicken rice (rice 300 g, chicken 400 g, serves 4) Monday, rice pudding
    /// (rice 200 g, milk 250 ml, serves 2) Tuesday, chicken rice for 2 Wednesday.
    func plannedWeek(_ client: Client) async throws -> Week {
        let rice = try id(try await client.send(.POST, "/api/v1/foods", raw: #"{"name":"Rice","basis":"g","per100":{"energyKcal":130,"protein":2.7,"carbohydrates":28,"fat":0.3},"price":{"amount":2,"per":"package","packageSize":1000}}"#))
        let chicken = try id(try await client.send(.POST, "/api/v1/foods", raw: #"{"name":"Chicken breast","basis":"g","per100":{"energyKcal":165,"protein":31,"carbohydrates":0,"fat":3.6},"price":{"amount":12,"per":"package","packageSize":1000}}"#))
        let milk = try id(try await client.send(.POST, "/api/v1/foods", raw: #"{"name":"Milk","basis":"ml","per100":{"energyKcal":64,"protein":3.3,"carbohydrates":4.8,"fat":3.6}}"#))
        let chickenRice = try id(try await client.send(.POST, "/api/v1/meals", raw: """
            {"description":"Chicken rice","primaryProtein":"Chicken","primaryCarb":"Rice","servings":4,"ingredients":[{"foodId":"\(rice)","quantity":300,"unit":"g"},{"foodId":"\(chicken)","quantity":400,"unit":"g"}]}
            """))
        let pudding = try id(try await client.send(.POST, "/api/v1/meals", raw: """
            {"description":"Rice pudding","primaryCarb":"Rice","servings":2,"ingredients":[{"foodId":"\(rice)","quantity":200,"unit":"g"},{"foodId":"\(milk)","quantity":250,"unit":"ml"}]}
            """))
        _ = try id(try await client.send(.POST, "/api/v1/plan/assignments", json: AssignmentInput(mealId: chickenRice, date: CalendarDateLiteral.monday)))
        let tuesday = try id(try await client.send(.POST, "/api/v1/plan/assignments", json: AssignmentInput(mealId: pudding, date: CalendarDateLiteral.monday.adding(days: 1))))
        _ = try id(try await client.send(.POST, "/api/v1/plan/assignments", json: AssignmentInput(mealId: chickenRice, date: CalendarDateLiteral.monday.adding(days: 2), servings: 2)))
        return Week(rice: rice, chicken: chicken, milk: milk, chickenRice: chickenRice, pudding: pudding, tuesday: tuesday)
    }

    func list(_ response: TestingHTTPResponse) throws -> ShoppingListAnswer {
        #expect(response.status == .ok || response.status == .created, "\(response.body.string)")
        return try response.json(ShoppingListAnswer.self)
    }

    func amounts(_ list: ShoppingListAnswer) -> [String: String] {
        Dictionary(uniqueKeysWithValues: list.items.map { ($0.name, $0.amount ?? "") })
    }

    @Test func theIssuesWeekFromPlanToShop() async throws {
        try await withForkcast(allowSignup: true) { app in
            let ann = try await app.signUp()
            let week = try await plannedWeek(ann)

            // Portions: Wednesday makes 2 of 4, so half the cost; the day's totals stay one serving.
            let plan = try await ann.get("/api/v1/plan?start=2026-11-30").json(PlanAnswer.self)
            let wednesday = plan.days[2].assignments[0]
            #expect(wednesday.servings == 2 && wednesday.servingsSet)
            #expect(plan.days[0].assignments[0].servings == 4 && !plan.days[0].assignments[0].servingsSet)
            #expect(wednesday.cooked.price == Decimal(string: "2.7"), "rice 150 g at 2/kg and chicken 200 g at 12/kg")
            #expect(plan.days[0].cooked.price == Decimal(string: "5.4"))
            #expect(plan.days[2].totals.energyKcal == plan.days[0].totals.energyKcal, "one serving is one serving, whatever is cooked")

            let made = try list(try await ann.send(.POST, "/api/v1/shopping-lists", json: ShoppingListInput(from: CalendarDateLiteral.monday, to: CalendarDateLiteral.monday.adding(days: 6))))
            #expect(amounts(made) == ["Rice": "1 pack of 1 kg (650 g)", "Chicken breast": "1 pack of 1 kg (600 g)", "Milk": "250 ml"])
            #expect(made.items.first { $0.name == "Rice" }?.meals == ["Chicken rice", "Rice pudding"])
            #expect(made.estimatedTotal == Decimal(string: "8.5"), "rice 1.30 + chicken 7.20; milk has no price")
            #expect(made.name == "Shopping 30 November – 6 December")
            #expect(made.items.first { $0.name == "Chicken breast" }?.category == "Meat and fish")

            // In the shop: rice checked, soap added; then Tuesday's pudding moves out and the list is refreshed.
            let rice = try #require(made.items.first { $0.name == "Rice" })
            let checked = try await ann.send(.PUT, "/api/v1/shopping-lists/\(made.id)/items/\(rice.id)", json: ShoppingItemUpdate(checked: true))
            #expect(try checked.json(ShoppingItemAnswer.self).checked)
            let soap = try await ann.send(.POST, "/api/v1/shopping-lists/\(made.id)/items", json: ShoppingItemInput(name: "dish soap"))
            #expect(soap.status == .created)
            let moved = try await ann.send(.PUT, "/api/v1/plan/assignments/\(week.tuesday)",
                                           json: AssignmentInput(mealId: week.pudding, date: CalendarDateLiteral.monday.adding(days: 10)))
            #expect(moved.status == .ok, "\(moved.body.string)")
            let refreshed = try list(try await ann.send(.POST, "/api/v1/shopping-lists/\(made.id)/refresh"))
            #expect(amounts(refreshed) == ["Rice": "1 pack of 1 kg (450 g)", "Chicken breast": "1 pack of 1 kg (600 g)", "dish soap": ""])
            #expect(refreshed.items.first { $0.name == "Rice" }?.checked == true)
            #expect(refreshed.items.last?.name == "Rice", "checked items come last")
            let soapItem = refreshed.items.first { $0.name == "dish soap" }
            #expect(soapItem?.source == .known(.manual))
            #expect(try list(try await ann.get("/api/v1/shopping-lists/\(made.id)")) == refreshed, "as stored")

            let lists = try await ann.get("/api/v1/shopping-lists").json(Page<ShoppingListSummaryAnswer>.self)
            #expect(lists.items.map(\.id) == [made.id] && lists.items[0].itemCount == 3 && lists.items[0].checkedCount == 1)

            // Another account reaches none of it.
            let bob = try await app.signUp("bob@example.com")
            #expect(try await bob.get("/api/v1/shopping-lists/\(made.id)").status == .notFound)
            #expect(try await bob.send(.PUT, "/api/v1/shopping-lists/\(made.id)/items/\(rice.id)", json: ShoppingItemUpdate(checked: false)).status == .notFound)
            #expect(try await bob.send(.POST, "/api/v1/shopping-lists/\(made.id)/share").status == .notFound)
            #expect(try await bob.send(.DELETE, "/api/v1/shopping-lists/\(made.id)").status == .notFound)
            #expect(try await bob.get("/api/v1/shopping-lists").json(Page<ShoppingListSummaryAnswer>.self).items.isEmpty)

            #expect(try await ann.send(.DELETE, "/api/v1/shopping-lists/\(made.id)/items/\(rice.id)").status == .noContent)
            #expect(try await ann.send(.DELETE, "/api/v1/shopping-lists/\(made.id)").status == .noContent)
            #expect(try await ann.get("/api/v1/shopping-lists/\(made.id)").status == .notFound)
        }
    }

    @Test func aSharedLinkShowsOneListToAnyoneUntilRevoked() async throws {
        try await withForkcast { app in
            let ann = try await app.signUp()
            _ = try await plannedWeek(ann)
            let made = try list(try await ann.send(.POST, "/api/v1/shopping-lists", json: ShoppingListInput(from: CalendarDateLiteral.monday, to: CalendarDateLiteral.monday.adding(days: 2))))
            let other = try list(try await ann.send(.POST, "/api/v1/shopping-lists", json: ShoppingListInput(from: CalendarDateLiteral.monday, to: CalendarDateLiteral.monday, name: "Other")))
            let second = try await ann.get("/api/v1/shopping-lists?page=2&per=1").json(Page<ShoppingListSummaryAnswer>.self)
            #expect(second.items.map(\.id) == [made.id] && second.metadata.total == 2, "newest first, a page at a time")
            #expect(try await ann.get("/api/v1/shopping-lists?page=3&per=1").json(Page<ShoppingListSummaryAnswer>.self).items.isEmpty)
            let shared = try await ann.send(.POST, "/api/v1/shopping-lists/\(made.id)/share")
            #expect(shared.status == .created)
            let link = try shared.json(ShoppingShareAnswer.self)
            #expect(try await ann.send(.POST, "/api/v1/shopping-lists/\(made.id)/share").json(ShoppingShareAnswer.self) == link, "the same link again (200)")
            let token = String(link.apiPath.split(separator: "/").last!)
            #expect(token.count >= 43, "32 random bytes")
            #expect(link.url.hasSuffix("/s/\(token)"))

            // No cookies, no token: the link alone.
            let anonymous = app.anonymous
            let seen = try await anonymous.get(link.apiPath).json(SharedShoppingListAnswer.self)
            #expect(seen.name == made.name && Dictionary(uniqueKeysWithValues: seen.items.map { ($0.name, $0.amount ?? "") }) == amounts(made))
            #expect(seen.estimatedTotal == made.estimatedTotal && seen.currency == made.currency && seen.from == made.from && seen.to == made.to)
            #expect(seen.items.map(\.id) == made.items.map(\.id) && seen.items.map(\.checked) == made.items.map(\.checked), "the owner's order and ticks")
            let page = try await anonymous.get("/s/\(token)")
            #expect(page.status == .ok && page.body.string.contains("Chicken breast"))
            #expect(page.headers.first(name: "Referrer-Policy") == "no-referrer")
            #expect(!page.body.string.contains("Other") && !page.body.string.contains("/shopping/"), "nothing else of Ann's, no links into her account")
            let item = try #require(made.items.first)
            let check = try await anonymous.send(.PUT, "\(link.apiPath)/items/\(item.id)", json: SharedCheckInput(checked: true))
            #expect(try check.json(SharedShoppingItemAnswer.self).checked)
            // The link's answers say what its page says, and nothing that names Ann's other records.
            let sharedList = try await anonymous.get(link.apiPath)
            for response in [sharedList, check] {
                #expect(response.headers.first(name: .cacheControl) == "no-store")
                #expect(response.headers.first(name: "X-Robots-Tag") == "noindex, nofollow")
                #expect(response.headers.first(name: "Referrer-Policy") == "no-referrer")
            }
            let sharedJSON = try #require(try JSONSerialization.jsonObject(with: Data(sharedList.body.readableBytesView)) as? [String: Any])
            #expect(Set(sharedJSON.keys) == ["name", "from", "to", "items", "estimatedTotal", "currency"])
            let sharedItem = try #require((sharedJSON["items"] as? [[String: Any]])?.first)
            #expect(Set(sharedItem.keys) == ["id", "name", "quantity", "unit", "amount", "category", "estimatedPrice", "checked"])
            #expect(!sharedList.body.string.contains(made.id.uuidString), "no list id")
            #expect(try list(try await ann.get("/api/v1/shopping-lists/\(made.id)")).items.first { $0.id == item.id }?.checked == true)
            // The page's check says true or false; anything else is refused and changes nothing, on
            // the shared page as on the owner's.
            var visitor = Browser(app: app)
            let visitorToken = try await visitor.csrf(from: "/s/\(token)")
            var owner = Browser(app: app)
            #expect(try await owner.signIn().status == .seeOther)
            let ownerToken = try await owner.csrf(from: "/shopping/\(made.id)")
            for value in ["maybe", "", "TRUE"] {
                let shared = try await visitor.send(.POST, "/s/\(token)/items/\(item.id)/check", form: ["_csrf": visitorToken, "checked": value])
                #expect(shared.status == .unprocessableEntity && shared.body.string.contains("true or false"), "\(value): \(shared.status)")
                let own = try await owner.send(.POST, "/shopping/items/\(item.id)/check", form: ["_csrf": ownerToken, "checked": value])
                #expect(own.status == .unprocessableEntity, "\(value): \(own.status)")
            }
            #expect(try list(try await ann.get("/api/v1/shopping-lists/\(made.id)")).items.first { $0.id == item.id }?.checked == true)
            let unchecked = try await visitor.send(.POST, "/s/\(token)/items/\(item.id)/check", form: ["_csrf": visitorToken, "checked": "false"])
            #expect(unchecked.status == .seeOther, "\(unchecked.status)")
            #expect(try list(try await ann.get("/api/v1/shopping-lists/\(made.id)")).items.first { $0.id == item.id }?.checked == false)
            // The link reaches only its list: another list's item, a changed token, a short one.
            let otherItem = try #require(other.items.first)
            let elsewhere = try await anonymous.send(.PUT, "\(link.apiPath)/items/\(otherItem.id)", json: SharedCheckInput(checked: true))
            #expect(elsewhere.status == .notFound)
            #expect(elsewhere.problem?.detail.contains("No item with id") == true, "the link works; the item is not on its list: \(elsewhere.body.string)")
            #expect(try list(try await ann.get("/api/v1/shopping-lists/\(other.id)")).items.first { $0.id == otherItem.id }?.checked == false)
            var guessed = Array(token)
            guessed[5] = guessed[5] == "A" ? "B" : "A"
            #expect(try await anonymous.get("/api/v1/shared/shopping-lists/\(String(guessed))").status == .notFound)
            #expect(try await anonymous.get("/api/v1/shared/shopping-lists/x").status == .notFound)
            #expect(try await anonymous.get("/s/\(String(guessed))").status == .notFound)
            // Only checking: no name change through the link.
            let rename = try await anonymous.send(.PUT, "\(link.apiPath)/items/\(item.id)", raw: #"{"name":"gold"}"#)
            #expect(rename.status.code >= 400 && rename.status.code < 500)
            #expect(try list(try await ann.get("/api/v1/shopping-lists/\(made.id)")).items.first { $0.id == item.id }?.name == item.name)

            #expect(try await ann.send(.DELETE, "/api/v1/shopping-lists/\(made.id)/share").status == .noContent)
            #expect(try await anonymous.get(link.apiPath).status == .notFound)
            #expect(try await anonymous.get("/s/\(token)").status == .notFound)
            let revoked = try await anonymous.send(.PUT, "\(link.apiPath)/items/\(item.id)", json: SharedCheckInput(checked: false))
            #expect(revoked.status == .notFound && revoked.problem?.detail.contains("revoked") == true)
            let again = try await ann.send(.POST, "/api/v1/shopping-lists/\(made.id)/share").json(ShoppingShareAnswer.self)
            #expect(again.apiPath != link.apiPath, "sharing again makes a new link; the revoked one stays dead")
        }
    }

    @Test func aCheckWaitingOnAPhoneArrivesThroughTheSyncPush() async throws {
        let clock = TestClock()
        try await withForkcast(clock: clock) { app in
            let ann = try await app.signUp()
            _ = try await plannedWeek(ann)
            let made = try list(try await ann.send(.POST, "/api/v1/shopping-lists", json: ShoppingListInput(from: CalendarDateLiteral.monday, to: CalendarDateLiteral.monday)))
            let item = try #require(made.items.first)
            // Checked in the shop a minute later, without a connection; sent when it was back.
            clock.advance(by: 60)
            let at = ISO8601DateFormatter().string(from: clock.now)
            let body = try JSONSerialization.data(withJSONObject: ["deviceId": "phone", "sentAt": at, "mutations": [
                ["mutationId": "m1", "kind": "shoppingItem", "id": item.id.uuidString, "op": "upsert", "updatedAt": at,
                 "record": ["listId": made.id.uuidString, "checked": true]],
                ["mutationId": "m2", "kind": "shoppingItem", "id": UUID().uuidString, "op": "upsert", "updatedAt": at,
                 "record": ["listId": made.id.uuidString, "name": "bin bags", "quantity": 1, "unit": "roll"]],
            ]])
            let pushed = try await ann.send(.POST, "/api/v1/sync/push", raw: String(decoding: body, as: UTF8.self))
            #expect(pushed.status == .ok, "\(pushed.body.string)")
            #expect(!pushed.body.string.contains("rejected") && !pushed.body.string.contains("superseded"), "\(pushed.body.string)")
            let now = try list(try await ann.get("/api/v1/shopping-lists/\(made.id)"))
            #expect(now.items.first { $0.id == item.id }?.checked == true)
            #expect(now.items.contains { $0.name == "bin bags" && $0.amount == "1 roll" })
            let feed = try await ann.get("/api/v1/sync/changes").body.string
            #expect(feed.contains("\"shoppingList\"") && feed.contains("\"shoppingItem\""), "both kinds are in the change feed")
        }
    }

    @Test func theWeekAgainstTheGoalsAndFillMyWeek() async throws {
        try await withForkcast { app in
            let ann = try await app.signUp()
            let week = try await plannedWeek(ann)
            _ = try await ann.send(.PUT, "/api/v1/goals", raw: #"{"source":"manual","energyKcal":2000,"protein":120,"carbohydrates":250,"fat":70}"#)
            let plan = try await ann.get("/api/v1/plan?start=2026-11-30").json(PlanAnswer.self)
            let monday = plan.days[0]
            #expect(monday.goals.energyKcal.goal == 2000)
            #expect(monday.goals.energyKcal.amount == monday.totals.energyKcal)
            #expect(monday.goals.energyKcal.difference == monday.totals.energyKcal! - 2000)
            #expect(monday.goals.band == .under)
            #expect(plan.goals.energyKcal.amount > 0, "the average of the planned days")

            // Fill the next week with only rice meals: every suggestion has rice as its carb.
            let salad = try id(try await ann.send(.POST, "/api/v1/meals", raw: #"{"description":"Salad","primaryCarb":"None","nutrition":{"energyKcal":300,"protein":10,"carbohydrates":20,"fat":15}}"#))
            let input = SuggestionsInput(start: CalendarDateLiteral.monday.adding(days: 14), carb: "rice")
            let suggested = try await ann.send(.POST, "/api/v1/plan/suggestions", json: input)
            #expect(suggested.status == .ok, "\(suggested.body.string)")
            let answer = try suggested.json(SuggestionsAnswer.self)
            #expect(!answer.items.isEmpty)
            #expect(answer.items.allSatisfy { $0.mealId == week.chickenRice || $0.mealId == week.pudding }, "never the salad: its carb is not rice")
            #expect(!answer.items.contains { $0.mealId == salad })
            #expect(try await ann.get("/api/v1/plan?start=\(input.start.iso)").json(PlanAnswer.self).days.allSatisfy { $0.assignments.isEmpty },
                    "nothing is planned until accepted")
            // Accept them all in one batch.
            let accepted = try await ann.send(.POST, "/api/v1/plan/assignments/batch", json: AssignmentsInput(assignments: answer.items.map(\.assignment)))
            #expect(accepted.status == .created, "\(accepted.body.string)")
            let planned = try await ann.get("/api/v1/plan?start=\(input.start.iso)").json(PlanAnswer.self)
            #expect(planned.days.flatMap(\.assignments).count == answer.items.count)
            let again = try await ann.send(.POST, "/api/v1/plan/suggestions", json: input).json(SuggestionsAnswer.self)
            #expect(!again.items.contains { s in answer.items.contains { $0.date == s.date && $0.mealType == s.mealType } }, "filled slots are left alone")
        }
    }

    @Test func hostileInputIsAClearClientErrorAndChangesNothing() async throws {
        try await withForkcast { app in
            let ann = try await app.signUp()
            let week = try await plannedWeek(ann)
            let made = try list(try await ann.send(.POST, "/api/v1/shopping-lists", json: ShoppingListInput(from: CalendarDateLiteral.monday, to: CalendarDateLiteral.monday)))
            let item = try #require(made.items.first)
            let bad: [(HTTPMethod, String, String)] = [
                (.POST, "/api/v1/plan/assignments", #"{"mealId":"\#(week.chickenRice)","date":"2026-11-30","servings":0}"#),
                (.POST, "/api/v1/plan/assignments", #"{"mealId":"\#(week.chickenRice)","date":"2026-11-30","servings":1e308}"#),
                (.POST, "/api/v1/plan/assignments", #"{"mealId":"\#(week.chickenRice)","date":"2026-11-30","servings":-5}"#),
                (.POST, "/api/v1/plan/assignments", #"{"mealId":"\#(week.chickenRice)","date":"2026-11-30","servings":9223372036854775807}"#),
                (.POST, "/api/v1/plan/assignments/batch", #"{"assignments":[]}"#),
                (.POST, "/api/v1/plan/assignments/batch", #"{"assignments":[{"mealId":"\#(week.chickenRice)","date":"2026-11-30"},{"mealId":"\#(UUID())","date":"2026-11-30"}]}"#),
                (.POST, "/api/v1/plan/suggestions", #"{"start":"2026-11-30","days":0}"#),
                (.POST, "/api/v1/plan/suggestions", #"{"start":"2026-11-30","mealTypes":["elevenses"]}"#),
                (.POST, "/api/v1/plan/suggestions", #"{"start":"2026-11-30","days":62,"mealTypes":["breakfast","lunch","dinner","snack"]}"#),
                (.POST, "/api/v1/shopping-lists", #"{"from":"2026-11-30","to":"2026-11-29"}"#),
                (.POST, "/api/v1/shopping-lists", #"{"from":"2026-11-30","to":"2027-11-29"}"#),
                (.POST, "/api/v1/shopping-lists", #"{"from":"2026-02-30","to":"2026-03-01"}"#),
                (.POST, "/api/v1/shopping-lists/\(made.id)/items", #"{"name":"   "}"#),
                (.POST, "/api/v1/shopping-lists/\(made.id)/items", #"{"name":"\#(String(repeating: "<b>é\u{0301}", count: 100))"}"#),
                (.POST, "/api/v1/shopping-lists/\(made.id)/items", #"{"name":"soap","quantity":1e308}"#),
                (.PUT, "/api/v1/shopping-lists/\(made.id)/items/\(item.id)", #"{"quantity":-1}"#),
                (.PUT, "/api/v1/shopping-lists/\(made.id)/items/\(item.id)", #"{"checked":"yes"}"#),
                (.GET, "/api/v1/shopping-lists?page=9223372036854775807", ""),
            ]
            let before = try list(try await ann.get("/api/v1/shopping-lists/\(made.id)"))
            let planBefore = try await ann.get("/api/v1/plan?start=2026-11-30").body.string
            for (method, path, body) in bad {
                let response = method == .GET ? try await ann.get(path) : try await ann.send(method, path, raw: body)
                #expect((400...499).contains(response.status.code), "\(method) \(path) \(body.prefix(80)): \(response.status) \(response.body.string)")
                #expect(response.headers.contentType?.description.contains("problem+json") == true, "\(path): a problem")
            }
            #expect(try list(try await ann.get("/api/v1/shopping-lists/\(made.id)")) == before, "the list is as it was")
            #expect(try await ann.get("/api/v1/plan?start=2026-11-30").body.string == planBefore, "the plan is as it was")
            // Quotes, angle brackets and RTL text are kept as typed and shown as text.
            let odd = "<script>alert(\"x\")</script> صابون ‏"
            let added = try await ann.send(.POST, "/api/v1/shopping-lists/\(made.id)/items", json: ShoppingItemInput(name: odd))
            #expect(try added.json(ShoppingItemAnswer.self).name == odd.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}

/// The dates the shopping tests plan on.
enum CalendarDateLiteral {
    static let monday = CalendarDate(iso: "2026-11-30")!
}
