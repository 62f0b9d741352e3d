import Fluent
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting
import ZIPFoundation

@Suite("Diary, goals and body data API")
struct DiaryAPITests {
    @Test func logAFoodAMealAndAQuickAddAndReadTheDay() async throws {
        let clock = TestClock(ISO8601DateFormatter().date(from: "2026-11-21T08:30:00Z")!)
        try await withForkcast(clock: clock) { app in
            let client = try await app.signUp()
            let oats = try #require(try await client.createFood(FoodsAPITests.oats).json(TestFood.self).id)
            let meal = try await client.sendJSON(.POST, "/api/v1/meals", ["description": "Soup", "nutrition": ["energyKcal": 300, "protein": 12]]).json(TestMeal.self)

            let food = try await client.sendJSON(.POST, "/api/v1/diary/entries", ["foodId": oats.uuidString, "quantity": 80, "unit": "g", "mealType": "breakfast"])
            #expect(food.status == .created, "\(food.body.string)")
            let foodEntry = try object(food)
            #expect((foodEntry["nutrients"] as? [String: Any])?["energyKcal"] as? Double == 297.6)
            #expect(foodEntry["cost"] as? Double == 0.19)
            #expect(foodEntry["date"] as? String == "2026-11-21")
            let soup = try await client.sendJSON(.POST, "/api/v1/diary/entries", ["mealId": meal.id.uuidString, "servings": 2, "mealType": "lunch",
                                                                                    "loggedAt": "2026-11-21T12:15:00Z", "note": "big bowl"])
            #expect(soup.status == .created)
            let quick = try await client.sendJSON(.POST, "/api/v1/diary/entries", ["quickAdd": ["energyKcal": 1500, "fat": 80], "mealType": "dinner", "name": "Pizza"])
            #expect(quick.status == .created)

            let day = try object(try await client.get("/api/v1/diary?date=2026-11-21"))
            let groups = try #require(day["entries"] as? [[String: Any]])
            #expect(groups.map { $0["mealType"] as? String } == ["breakfast", "lunch", "dinner", "afternoon-snack", "snack", "workout-fuel", "protein-shake"])
            #expect((groups[1]["entries"] as? [[String: Any]])?.first?["name"] as? String == "Soup")
            let totals = try #require(day["totals"] as? [String: Any])
            #expect(totals["energyKcal"] as? Double == 2397.6)
            let remaining = try #require(day["remaining"] as? [String: Any])
            #expect(remaining["energyKcal"] as? Double == -397.6, "remaining may go negative")
            #expect((day["goals"] as? [String: Any])?["source"] as? String == "manual")
        }
    }

    /// New rows get ids that begin with the time they were made (UUID.timeOrdered), so they append to
    /// their tables' id-ordered indexes: a food and entries logged one by one, a few milliseconds apart.
    @Test func newRecordsGetIdsInTheOrderTheyWereMade() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let food = try #require(try await client.createFood(FoodsAPITests.oats).json(TestFood.self).id)
            var ids = [food]
            for _ in 0..<3 {
                try await Task.sleep(for: .milliseconds(3))
                let entry = try await client.sendJSON(.POST, "/api/v1/diary/entries", ["foodId": food.uuidString, "quantity": 40, "unit": "g", "mealType": "snack"])
                #expect(entry.status == .created, "\(entry.body.string)")
                let id = try object(entry)["id"] as? String
                ids.append(try #require(id.flatMap(UUID.init(uuidString:))))
            }
            #expect(ids.allSatisfy { $0.uuidString.dropFirst(14).first == "7" }, "version 7: \(ids)")
            #expect(ids.map(\.uuidString) == ids.map(\.uuidString).sorted(), "\(ids)")
            let made = try #require(UInt64(food.uuidString.prefix(8) + food.uuidString.dropFirst(9).prefix(4), radix: 16))
            #expect(abs(Double(made) / 1000 - Date().timeIntervalSince1970) < 60, "the id's first 48 bits are the Unix time in ms")
        }
    }

    @Test func historyKeepsTheValuesItWasLoggedWith() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let oats = try #require(try await client.createFood(FoodsAPITests.oats).json(TestFood.self).id)
            let entry = try object(try await client.sendJSON(.POST, "/api/v1/diary/entries", ["foodId": oats.uuidString, "quantity": 100, "unit": "g", "mealType": "breakfast"]))
            var edit = FoodsAPITests.oats
            edit["per100"] = ["energyKcal": 1, "protein": 0, "carbohydrates": 0, "fat": 0]
            #expect(try await client.sendJSON(.PUT, "/api/v1/foods/\(oats)", edit).status == .ok)
            let after = try object(try await client.get("/api/v1/diary/entries/\(entry["id"] as! String)"))
            #expect((after["nutrients"] as? [String: Any])?["energyKcal"] as? Double == 372)
            #expect(try await client.send(.DELETE, "/api/v1/foods/\(oats)").status == .noContent, "diary entries do not pin foods")
            #expect(try await client.get("/api/v1/diary/entries/\(entry["id"] as! String)").status == .ok)
        }
    }

    /// An edit to a food without an amount is the food's usual portion, as when logging (and as
    /// openapi.json's DiaryEntryUpdate says; schemathesis found the document still required quantity).
    @Test func anEditToAFoodWithoutAnAmountIsItsUsualPortion() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            var muesli = FoodsAPITests.oats
            muesli["name"] = "Alpine muesli"
            muesli["serving"] = ["size": 50, "label": "1 bowl"]
            let food = try #require(try await client.createFood(muesli).json(TestFood.self).id)
            let entry = try object(try await client.sendJSON(.POST, "/api/v1/diary/entries", ["quickAdd": ["energyKcal": 200], "mealType": "snack"]))
            let edited = try await client.sendJSON(.PUT, "/api/v1/diary/entries/\(entry["id"] as! String)", ["foodId": food.uuidString])
            #expect(edited.status == .ok)
            let after = try object(edited)
            #expect(after["quantity"] as? Double == 1 && after["unit"] as? String == "serving" && after["kind"] as? String == "food")
            let document = try object(try await app.anonymous.get("/api/v1/openapi.json"))
            let update = ((document["components"] as? [String: Any])?["schemas"] as? [String: Any])?["DiaryEntryUpdate"] as? [String: Any]
            let foodBranch = (update?["oneOf"] as? [[String: Any]])?.first
            #expect(foodBranch?["required"] as? [String] == ["foodId"], "the document allows what the server accepts")
        }
    }

    @Test func moveEditAndDeleteEntries() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let entry = try object(try await client.sendJSON(.POST, "/api/v1/diary/entries", ["quickAdd": ["energyKcal": 200], "mealType": "snack"]))
            let id = entry["id"] as! String
            // Another day is another occasion: asked first (seed 004 §7), moved once confirmed.
            let asked = try await client.sendJSON(.PUT, "/api/v1/diary/entries/\(id)", ["mealType": "lunch", "loggedAt": "2026-11-19T12:00:00Z", "note": "moved"])
            #expect(asked.status == .conflict)
            let problem = try object(asked)
            #expect((problem["type"] as? String)?.hasSuffix("occasion-change") == true)
            #expect((problem["from"] as? [String: Any])?["mealType"] as? String == "snack")
            #expect((problem["to"] as? [String: Any])?["date"] as? String == "2026-11-19" && (problem["to"] as? [String: Any])?["mealType"] as? String == "lunch")
            #expect(try object(try await client.get("/api/v1/diary/entries/\(id)"))["mealType"] as? String == "snack", "nothing changed")
            let moved = try await client.sendJSON(.PUT, "/api/v1/diary/entries/\(id)", ["mealType": "lunch", "loggedAt": "2026-11-19T12:00:00Z", "note": "moved",
                                                                                      "confirmMove": true])
            #expect(moved.status == .ok)
            let m = try object(moved)
            #expect(m["mealType"] as? String == "lunch" && m["date"] as? String == "2026-11-19" && m["note"] as? String == "moved")
            #expect((m["nutrients"] as? [String: Any])?["energyKcal"] as? Double == 200)
            #expect(try await client.sendJSON(.PUT, "/api/v1/diary/entries/\(id)", ["mealType": "elevenses"]).status == .unprocessableEntity)
            // A unit is refused, not ignored: unknown, or without the food it measures.
            let before = try await client.get("/api/v1/diary/entries/\(id)").body.string
            for body: [String: Any] in [["unit": "AAA"], ["unit": "g"], ["unit": "AAA", "note": "x"], ["quickAdd": ["energyKcal": 10], "unit": "ml"]] {
                let refused = try await client.sendJSON(.PUT, "/api/v1/diary/entries/\(id)", body)
                #expect(refused.status == .unprocessableEntity, "\(body)")
                #expect(refused.problem?.message(for: "unit") != nil, "\(body): \(refused.body.string)")
            }
            #expect(try await client.get("/api/v1/diary/entries/\(id)").body.string == before, "nothing changed")
            let oats = try #require(try await client.createFood(FoodsAPITests.oats).json(TestFood.self).id)
            let badUnit = try await client.sendJSON(.POST, "/api/v1/diary/entries", ["foodId": oats.uuidString, "quantity": 10, "unit": "AAA", "mealType": "lunch"])
            #expect(badUnit.problem?.message(for: "unit") != nil)
            let soup = try await client.createMeal("Soup")
            // A meal entry read back says unit "serving"; sending it back as it is stays accepted.
            #expect(try await client.sendJSON(.POST, "/api/v1/diary/entries", ["mealId": soup.id.uuidString, "servings": 1, "unit": "serving", "mealType": "lunch"]).status == .created)
            #expect(try await client.sendJSON(.POST, "/api/v1/diary/entries", ["mealId": soup.id.uuidString, "servings": 1, "unit": "g", "mealType": "lunch"]).status == .unprocessableEntity)
            #expect(try await client.send(.DELETE, "/api/v1/diary/entries/\(id)").status == .noContent)
            #expect(try await client.send(.DELETE, "/api/v1/diary/entries/\(id)").status == .notFound)
        }
    }

    @Test func badEntriesAreRejectedAndNothingIsSaved() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let none = try await client.sendJSON(.POST, "/api/v1/diary/entries", ["mealType": "lunch"])
            #expect(none.status == .unprocessableEntity)
            let both = try await client.sendJSON(.POST, "/api/v1/diary/entries", ["mealType": "lunch", "mealId": UUID().uuidString, "quickAdd": ["energyKcal": 1]])
            #expect(both.status == .unprocessableEntity)
            let unknownFood = try await client.sendJSON(.POST, "/api/v1/diary/entries", ["foodId": UUID().uuidString, "quantity": 10, "unit": "g", "mealType": "lunch"])
            #expect(unknownFood.problem?.message(for: "foodId") != nil)
            let noCalories = try await client.sendJSON(.POST, "/api/v1/diary/entries", ["quickAdd": ["protein": 10], "mealType": "lunch"])
            #expect(noCalories.problem?.message(for: "quickAdd.energyKcal") != nil)
            let badDate = try await client.get("/api/v1/diary?date=2026-02-30")
            #expect(badDate.status == .badRequest)
            let plate = try await client.sendJSON(.POST, "/api/v1/diary/plate", ["mealType": "dinner", "items": [["quickAdd": ["energyKcal": 100]], ["foodId": UUID().uuidString, "quantity": 5, "unit": "g"]]])
            #expect(plate.status == .notFound, "a food you do not have is a missing reference")
            #expect(plate.problem?.message(for: "items[1].foodId") != nil)
            #expect(try await DiaryEntryModel.query(on: app.db).count() == 0, "the plate is all or nothing")
        }
    }

    @Test func aPlateLogsEverythingAtOnceAndAPlannedMealInOneTap() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let oats = try #require(try await client.createFood(FoodsAPITests.oats).json(TestFood.self).id)
            let meal = try await client.sendJSON(.POST, "/api/v1/meals", ["description": "Stew", "nutrition": ["energyKcal": 450]]).json(TestMeal.self)
            let plate = try await client.sendJSON(.POST, "/api/v1/diary/plate", ["mealType": "lunch", "loggedAt": "2026-11-21T12:00:00Z",
                "items": [["foodId": oats.uuidString, "quantity": 1, "unit": "serving"], ["mealId": meal.id.uuidString, "servings": 0.5], ["quickAdd": ["energyKcal": 50]]]])
            #expect(plate.status == .created, "\(plate.body.string)")
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(buffer: plate.body)) as? [[String: Any]])
            #expect(entries.count == 3 && entries.allSatisfy { $0["mealType"] as? String == "lunch" })
            #expect((entries[0]["nutrients"] as? [String: Any])?["energyKcal"] as? Double == 148.8, "one 40 g serving")
            #expect((entries[1]["nutrients"] as? [String: Any])?["energyKcal"] as? Double == 225)

            let assignment = try await client.assign(meal.id, on: "2026-11-21").json(TestAssignment.self)
            let logged = try await client.sendJSON(.POST, "/api/v1/diary/log-planned", ["assignmentId": assignment.id.uuidString, "mealType": "dinner"])
            #expect(logged.status == .created)
            #expect(try object(logged)["name"] as? String == "Stew")
        }
    }

    @Test func goalsComeFromTheBodyProfileAndFollowTheLatestWeight() async throws {
        let clock = TestClock(ISO8601DateFormatter().date(from: "2026-11-21T08:00:00Z")!)
        try await withForkcast(clock: clock) { app in
            let client = try await app.signUp()
            let defaults = try object(try await client.get("/api/v1/goals"))
            #expect(defaults["energyKcal"] as? Double == 2000 && defaults["protein"] as? Double == 150)
            #expect(try await client.sendJSON(.PUT, "/api/v1/goals", ["source": "computed"]).status == .unprocessableEntity, "needs a profile first")
            let profile = try await client.sendJSON(.PUT, "/api/v1/body-profile", ["sex": "male", "birthDate": "1996-01-01", "heightCm": 180, "weightKg": 80,
                                                                                    "activityLevel": "sedentary", "aim": "maintain"])
            #expect(profile.status == .ok, "\(profile.body.string)")
            let goals = try object(try await client.sendJSON(.PUT, "/api/v1/goals", ["source": "computed"]))
            #expect(goals["bmr"] as? Double == 1780 && goals["tdee"] as? Double == 2136 && goals["source"] as? String == "computed")
            #expect((goals["steps"] as? [String])?.count == 6)

            clock.advance(by: 3600)
            #expect(try await client.sendJSON(.POST, "/api/v1/weights", ["weightKg": 90]).status == .created)
            let heavier = try object(try await client.get("/api/v1/goals"))
            #expect(heavier["bmr"] as? Double == 1880, "10 kcal per extra kg")

            let imperial = try await client.sendJSON(.PUT, "/api/v1/body-profile", ["sex": "female", "birthDate": "1990-05-05", "heightFt": 5, "heightIn": 6,
                                                                                     "weightLb": 150, "activityLevel": "light", "aim": "cut"])
            #expect(imperial.status == .ok)
            let p = try object(imperial)
            #expect(p["heightCm"] as? Double == 167.6 && p["weightKg"] as? Double == 68.04)
            // Each part of a height in feet and inches is a length: 5 ft and -1 in was stored as 149.9 cm.
            for (feet, inches, field) in [(5, -1, "heightIn"), (-1, 70, "heightFt"), (40, 0, "heightFt")] {
                let refused = try await client.sendJSON(.PUT, "/api/v1/body-profile", ["sex": "female", "birthDate": "1990-05-05", "heightFt": feet, "heightIn": inches,
                                                                                        "weightLb": 150, "activityLevel": "light", "aim": "cut"])
                #expect(refused.status == .unprocessableEntity, "\(feet) ft \(inches) in")
                #expect(refused.body.string.contains(field), "\(refused.body.string)")
            }
            let allInches = try await client.sendJSON(.PUT, "/api/v1/body-profile", ["sex": "female", "birthDate": "1990-05-05", "heightIn": 66,
                                                                                      "weightLb": 150, "activityLevel": "light", "aim": "cut"])
            #expect(try object(allInches)["heightCm"] as? Double == 167.6, "a height typed all in inches is read")

            let manual = try await client.sendJSON(.PUT, "/api/v1/goals", ["source": "manual", "energyKcal": 1800, "protein": 120, "carbohydrates": 180, "fat": 60])
            #expect(try object(manual)["source"] as? String == "manual")
            #expect(try await client.sendJSON(.PUT, "/api/v1/goals", ["energyKcal": 100, "protein": 1, "carbohydrates": 1, "fat": 1]).status == .unprocessableEntity)
            #expect(try await client.sendJSON(.PUT, "/api/v1/body-profile", ["sex": "x", "birthDate": "2030-01-01", "heightCm": 10, "weightKg": 80,
                                                                             "activityLevel": "lazy", "aim": "cut"]).status == .unprocessableEntity)
            // Plausible values that together give no plausible goals are refused, saying why.
            let before = try await client.get("/api/v1/body-profile").body.string
            let huge = try await client.sendJSON(.PUT, "/api/v1/body-profile", ["sex": "male", "birthDate": "2013-01-01", "heightCm": 272, "weightKg": 635,
                                                                                 "activityLevel": "veryActive", "aim": "bulk"])
            #expect(huge.status == .unprocessableEntity, "\(huge.body.string)")
            #expect(huge.problem?.message(for: "activityLevel")?.contains("kcal a day") == true, "\(huge.body.string)")
            let tiny = try await client.sendJSON(.PUT, "/api/v1/body-profile", ["sex": "female", "birthDate": "1907-06-01", "heightCm": 50, "weightKg": 20,
                                                                                 "activityLevel": "sedentary", "aim": "maintain"])
            #expect(tiny.status == .unprocessableEntity)
            #expect(tiny.problem?.message(for: "heightCm")?.contains("resting energy") == true, "\(tiny.body.string)")
            #expect(try await client.get("/api/v1/body-profile").body.string == before, "nothing changed")
        }
    }

    @Test func summariesAndExports() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            for (day, kcal) in [("2026-11-18", 1800), ("2026-11-20", 2200), ("2026-11-20", 300)] {
                _ = try await client.sendJSON(.POST, "/api/v1/diary/entries", ["quickAdd": ["energyKcal": kcal], "mealType": "lunch",
                                                                                "loggedAt": "\(day)T12:00:00Z", "name": "Lunch, \"big\""])
            }
            for at in ["2026-11-21T23:59:00Z", "2026-11-22T00:00:00Z"] {
                _ = try await client.sendJSON(.POST, "/api/v1/weights", ["weightKg": 70, "measuredAt": at])
            }
            let summary = try object(try await client.get("/api/v1/diary/summary?from=2026-11-17&to=2026-11-21"))
            let days = try #require(summary["days"] as? [[String: Any]])
            #expect(days.map { $0["energyKcal"] as? Double } == [0, 1800, 0, 2500, 0])
            #expect((summary["weights"] as? [[String: Any]])?.compactMap { $0["measuredAt"] as? String } == ["2026-11-21T23:59:00Z"],
                    "the midnight after the last day is the next day's")
            #expect(try await client.get("/api/v1/diary/summary?from=2026-11-21&to=2026-11-17").status == .badRequest)
            // A span worked out from one end stays within the years a day may be kept on.
            let first = try object(try await client.get("/api/v1/diary/summary?to=1900-01-01"))
            #expect((first["days"] as? [[String: Any]])?.map { $0["date"] as? String } == ["1900-01-01"])
            #expect(first["from"] as? String == "1900-01-01")
            let last = try object(try await client.get("/api/v1/diary/summary?from=2200-12-30"))
            #expect((last["days"] as? [[String: Any]])?.compactMap { $0["date"] as? String } == ["2200-12-30", "2200-12-31"])
            #expect(try await client.get("/api/v1/diary/export?to=1900-01-03&format=json").status == .ok)

            let csv = try await client.get("/api/v1/diary/export?from=2026-11-01&to=2026-11-30&format=csv")
            #expect(csv.headers.contentType?.subType == "csv")
            let lines = csv.body.string.split(separator: "\r\n")
            #expect(lines.count == 4)
            #expect(lines[0].hasPrefix("date,loggedAt,mealType,name"))
            #expect(lines[0].hasSuffix(",localTime,timeZone,mealTypeName"), "local time beside UTC")
            #expect(lines[1].contains("\"Lunch, \"\"big\"\"\""), "quotes and commas are escaped")
            let exported = try object(try await client.get("/api/v1/diary/export?from=2026-11-01&to=2026-11-30&format=json"))
            #expect((exported["entries"] as? [Any])?.count == 3)
            #expect(try await client.get("/api/v1/diary/export?format=xml").status == .badRequest)
        }
    }

    @Test func diaryAndBodyDataAreIsolatedPerUser() async throws {
        try await withForkcast(allowSignup: true) { app in
            let alice = try await app.signUp("alice@example.com")
            let bob = try await app.signUp("bob@example.com")
            let entry = try object(try await alice.sendJSON(.POST, "/api/v1/diary/entries", ["quickAdd": ["energyKcal": 500], "mealType": "lunch"]))
            let id = entry["id"] as! String
            #expect(try await bob.get("/api/v1/diary/entries/\(id)").status == .notFound)
            #expect(try await bob.sendJSON(.PUT, "/api/v1/diary/entries/\(id)", ["mealType": "dinner"]).status == .notFound)
            #expect(try await bob.send(.DELETE, "/api/v1/diary/entries/\(id)").status == .notFound)
            let bobsDay = try object(try await bob.get("/api/v1/diary"))
            #expect((bobsDay["totals"] as? [String: Any])?["energyKcal"] as? Double == 0)
            _ = try await alice.sendJSON(.POST, "/api/v1/weights", ["weightKg": 70])
            #expect(try await bob.get("/api/v1/weights").json(WeightPage.self).items.isEmpty)
            #expect(try await bob.get("/api/v1/body-profile").status == .notFound)
        }
    }
}
