import FluentKit
@testable import ForkcastServer
import ForkcastCore
import Foundation
import SQLKit
import Testing
import VaporTesting
import ZIPFoundation

/// "Your data": export everything (docs/export-format.md), import it back, delete the account.
@Suite("Export, import and deletion of an account")
struct AccountDataTests {
    static let noon = ISO8601DateFormatter().date(from: "2026-11-21T12:00:00Z")!
    static let hostile = "Crème <b>\"brûlée\"</b> 'x' ü\u{0301} \u{202E}دجاج"

    /// An account with one of everything, hostile text included; returns the food edited after it was logged.
    static func fill(_ client: Client) async throws -> UUID {
        let types = try JSONSerialization.jsonObject(with: Data(buffer: try await client.get("/api/v1/meal-types").body)) as! [[String: Any]]
        let lunch = try #require(types.first { $0["key"] as? String == "lunch" }?["id"] as? String)
        #expect(try await client.sendJSON(.PUT, "/api/v1/meal-types/\(lunch)", ["displayName": "Midday \(hostile)", "window": ["start": "11:30", "end": "14:00"]]).status == .ok)
        let late = try object(try await client.sendJSON(.POST, "/api/v1/meal-types", ["displayName": "Late bite", "window": ["start": "22:00", "end": "01:59"], "position": 0]))
        let lateID = try #require(late["id"] as? String)
        let shake = try #require(types.first { $0["key"] as? String == "protein-shake" }?["id"] as? String)
        #expect(try await client.sendJSON(.PUT, "/api/v1/meal-types/\(shake)", ["hidden": true]).status == .ok)

        let oats = try object(try await client.sendJSON(.POST, "/api/v1/foods", FoodsAPITests.oats))
        let oatsID = try #require(oats["id"] as? String)
        let milk = try object(try await client.sendJSON(.POST, "/api/v1/foods", ["name": "Milk \(hostile)", "basis": "ml",
                                                                                   "per100": ["energyKcal": 64, "protein": 3.4, "carbohydrates": 4.8, "fat": 3.6, "salt": 0.1]]))
        let milkID = try #require(milk["id"] as? String)
        let meal = try object(try await client.sendJSON(.POST, "/api/v1/meals", ["description": "Porridge \(hostile)", "primaryCarb": "Oats", "servings": 2,
                                                                                  "otherComponents": ["Cinnamon", "Honey"],
                                                                                  "ingredients": [["foodId": oatsID, "quantity": 80, "unit": "g"], ["text": "a pinch of salt \(hostile)"],
                                                                                                  ["foodId": milkID, "quantity": 300, "unit": "ml"]],
                                                                                  // A recipe travels with its meal (the restored meals' content is compared whole).
                                                                                  "steps": [["text": "Simmer \(hostile)", "timerSeconds": 300]], "cookMinutes": 8,
                                                                                  "source": "Grandma", "notes": "Stir \(hostile)"]))
        let mealID = try #require(meal["id"] as? String)
        #expect(try await client.upload("/api/v1/meals/\(mealID)/photo", data: try fixturePhoto("photo.png"), contentType: "image/png", method: .PUT).status == .ok)
        #expect(try await client.sendJSON(.POST, "/api/v1/plan/assignments", ["mealId": mealID, "date": "2026-11-23", "mealType": "breakfast"]).status == .created)
        #expect(try await client.sendJSON(.POST, "/api/v1/plan/assignments", ["mealId": mealID, "date": "2026-11-24", "servings": 5]).status == .created)
        // A shopping list for those days: one item checked, one of the person's own, shared.
        let list = try object(try await client.sendJSON(.POST, "/api/v1/shopping-lists", ["from": "2026-11-23", "to": "2026-11-24", "name": "Week \(hostile)"]))
        let listID = try #require(list["id"] as? String)
        let firstItem = try #require((list["items"] as? [[String: Any]])?.first?["id"] as? String)
        #expect(try await client.sendJSON(.PUT, "/api/v1/shopping-lists/\(listID)/items/\(firstItem)", ["checked": true, "category": "Aisle \(hostile)"]).status == .ok)
        #expect(try await client.sendJSON(.POST, "/api/v1/shopping-lists/\(listID)/items", ["name": "Soap \(hostile)", "quantity": 2, "unit": "bottles"]).status == .created)
        #expect(try await client.send(.POST, "/api/v1/shopping-lists/\(listID)/share").status == .created)

        #expect(try await client.sendJSON(.POST, "/api/v1/diary/entries", ["foodId": oatsID, "quantity": 55.5, "unit": "g", "mealType": "breakfast",
                                                                          "note": "with \(hostile)", "loggedAt": "2026-11-21T07:15:30.250Z"]).status == .created)
        #expect(try await client.sendJSON(.POST, "/api/v1/diary/entries", ["mealId": mealID, "servings": 1.5, "mealType": lateID,
                                                                          "loggedAt": "2026-11-20T23:10:00+01:00"]).status == .created)
        #expect(try await client.sendJSON(.POST, "/api/v1/diary/entries", ["quickAdd": ["energyKcal": 250, "protein": 10, "carbohydrates": 30, "fat": 9],
                                                                          "name": "Street food \(hostile)", "mealType": "lunch", "date": "2026-11-19"]).status == .created)
        let uploaded = try object(try await client.upload("/api/v1/photos?capturedAt=2026-11-21T11:58:00Z", data: try fixturePhoto("photo.jpg"), contentType: "image/jpeg"))
        let photoID = try #require(uploaded["id"] as? String)
        #expect(try await client.sendJSON(.POST, "/api/v1/diary/entries", ["photoId": photoID, "mealType": "lunch"]).status == .created)
        // The oats change after they were logged: the entry keeps the values it was logged with.
        var edited = FoodsAPITests.oats
        edited["per100"] = ["energyKcal": 389, "protein": 16.9, "carbohydrates": 66.3, "fat": 6.9]
        #expect(try await client.sendJSON(.PUT, "/api/v1/foods/\(oatsID)", edited).status == .ok)

        #expect(try await client.sendJSON(.PUT, "/api/v1/body-profile", ["sex": "female", "birthDate": "1990-05-17", "heightCm": 168.5, "weightKg": 64.2,
                                                                        "activityLevel": "moderate", "aim": "cut"]).status == .ok)
        #expect(try await client.sendJSON(.POST, "/api/v1/weights", ["weightKg": 63.9, "measuredAt": "2026-11-20T06:30:00Z"]).status == .created)
        #expect(try await client.sendJSON(.PUT, "/api/v1/goals", ["energyKcal": 1850, "protein": 120, "carbohydrates": 200, "fat": 60]).status == .ok)
        #expect(try await client.sendJSON(.PUT, "/api/v1/me", ["displayName": "Ana \(hostile)", "timeZone": "Europe/Lisbon", "currency": "CHF"]).status == .ok)
        return try #require(UUID(uuidString: oatsID))
    }

    static func document(_ files: [String: Data]) throws -> AccountArchive {
        try AccountArchive.decoder.decode(AccountArchive.self, from: try #require(files[AccountArchive.documentPath], "\(files.keys)"))
    }

    @Test func anExportHoldsEveryRecordAsStoredAndImportsBackIntoANewAccountUnchanged() async throws {
        try await withForkcast(allowSignup: true, clock: TestClock(Self.noon)) { app in
            let ana = try await app.signUp("ana@example.com")
            let oatsID = try await Self.fill(ana)

            let exported = try await ana.get("/api/v1/export")
            #expect(exported.status == .ok)
            #expect(exported.headers.contentType?.description.hasPrefix("application/zip") == true)
            #expect(exported.headers.first(name: .contentDisposition)?.contains("forkcast-export-2026-11-21.zip") == true)
            let files = try unzip(Data(buffer: exported.body))
            let original = try Self.document(files)
            #expect(original.format == "forkcast-export" && original.version == 1)
            #expect(original.account.email == "ana@example.com" && original.account.timeZone == "Europe/Lisbon" && original.account.currency == "CHF")
            #expect(original.account.displayName == "Ana \(Self.hostile)")
            #expect(original.counts == ["mealTypes": 8, "foods": 2, "meals": 1, "plan": 2, "diary": 4, "photos": 1, "weights": 2, "goals": 1, "bodyProfile": 1,
                                        "shoppingLists": 1, "pantry": 1, "recipePhotos": 1])  // the ticked item, booked into the pantry
            #expect(original.plan.map(\.servings).contains(5))
            let shopping = try #require(original.shoppingLists.first)
            #expect(shopping.list.shareToken == nil, "a sharing link stays with its server")
            #expect(shopping.items.count == 3 && shopping.items.filter(\.checked).count == 1 && shopping.items.contains { $0.source == .manual })
            // The entry keeps the oats' values from when it was logged (372 kcal per 100 g).
            let oatsEntry = try #require(original.diary.first { if case .food(oatsID, _, _) = $0.kind { true } else { false } })
            #expect(oatsEntry.nutrients.energyKcal == Decimal(string: "206.46"))
            #expect(oatsEntry.loggedAt == Instant.parse("2026-11-21T07:15:30.250Z"))
            #expect(original.foods.first { $0.id == oatsID }?.per100.energyKcal == 389)
            #expect(original.occasions.count == 4)
            let photo = try #require(original.photos.first)
            #expect(files[photo.file] != nil && photo.file.hasSuffix(".jpg"))
            let recipePhoto = try #require(original.recipePhotos.first)
            #expect(files[recipePhoto.file] != nil && recipePhoto.file == "recipe-photos/\(recipePhoto.mealId.uuidString.lowercased()).png")
            let diaryCSV = String(decoding: try #require(files["diary.csv"]), as: UTF8.self)
            #expect(diaryCSV.contains("Street food"))
            // The zip's spreadsheet has the export's columns: the local time in the account's zone.
            #expect(diaryCSV.components(separatedBy: "\r\n")[0].hasSuffix(",localTime,timeZone,mealTypeName"))
            #expect(diaryCSV.contains(",2026-11-21 07:15,Europe/Lisbon,"), "07:15:30Z in Lisbon (UTC+0 in November)")
            #expect(files["README.txt"] != nil)
            // The JSON is plain text for other programs: the hostile text is there as it was typed.
            #expect(String(decoding: try #require(files["forkcast.json"]), as: UTF8.self).contains("<b>\\\"brûlée\\\"</b>"))

            // Restoring on another server, simulated by deleting the account here first (ids are kept).
            #expect(try await ana.deleteAccount(password: "correct horse").status == .noContent)
            let again = try await app.signUp("ana.new@example.com", password: "another horse")
            let dry = try await again.importArchive(Data(buffer: exported.body), dryRun: true)
            #expect(dry.status == .ok, "\(dry.body.string)")
            #expect(try object(dry)["dryRun"] as? Bool == true)
            #expect((try object(dry)["created"] as? [String: Int])?["diary"] == 4)
            #expect(try object(try await again.get("/api/v1/foods"))["metadata"].flatMap { ($0 as? [String: Any])?["total"] as? Int } == 0, "a dry run changes nothing")
            let photosLeft = ((try? FileManager.default.subpathsOfDirectory(atPath: app.forkcastConfig.dataDirectory + "/photos")) ?? []).filter { $0.hasSuffix(".full") }
            #expect(photosLeft.isEmpty, "a dry run leaves no photo files: \(photosLeft)")

            let imported = try await again.importArchive(Data(buffer: exported.body))
            #expect(imported.status == .created, "\(imported.body.string)")
            let restored = try Self.document(try unzip(Data(buffer: try await again.get("/api/v1/export").body)))
            #expect(restored.foods == original.foods)
            #expect(restored.diary == original.diary)
            #expect(restored.plan == original.plan)
            #expect(restored.shoppingLists == original.shoppingLists, "lists come back with their checks, aisles and own items")
            #expect(restored.weights == original.weights)
            #expect(restored.goals == original.goals)
            #expect(restored.bodyProfile == original.bodyProfile)
            #expect(restored.meals.map(\.content) == original.meals.map(\.content) && restored.meals.map(\.id) == original.meals.map(\.id))
            #expect(original.meals.first?.recipe.steps.first?.timerSeconds == 300 && original.meals.first?.recipe.textIngredients.count == 1)
            func shape(_ types: [MealType]) -> [String] { types.map { "\($0.key ?? $0.id.uuidString) \($0.name) \($0.window.map { "\($0.startText)-\($0.endText)" } ?? "-") \($0.position) \($0.hidden)" } }
            #expect(shape(restored.mealTypes) == shape(original.mealTypes))
            #expect(restored.photos.map(\.id) == original.photos.map(\.id) && restored.photos.map(\.capturedAt) == original.photos.map(\.capturedAt))
            #expect(restored.account.timeZone == "Europe/Lisbon" && restored.account.currency == "CHF" && restored.account.email == "ana.new@example.com")
            let image = try await again.get("/api/v1/photos/\(photo.id)/image")
            #expect(image.status == .ok && Data(buffer: image.body) == files[photo.file])
            // The recipe's photo heads the restored meal again, the same bytes.
            #expect(restored.recipePhotos == original.recipePhotos)
            let recipeImage = try await again.get("/api/v1/meals/\(recipePhoto.mealId)/photo")
            #expect(recipeImage.status == .ok && Data(buffer: recipeImage.body) == files[recipePhoto.file])
            // What the API shows of the restored day is what it showed before.
            let day = try object(try await again.get("/api/v1/diary?date=2026-11-21"))
            #expect((day["totals"] as? [String: Any])?["energyKcal"] as? Double != nil)

            // The same export imported a second time, while the first copy exists: the records get
            // new ids, nothing points into the other account, and the answer does not tell that
            // another account holds the ids.
            let third = try await app.signUp("third@example.com")
            let twice = try await third.importArchive(Data(buffer: exported.body))
            #expect(twice.status == .created, "\(twice.body.string)")
            let copy = try Self.document(try unzip(Data(buffer: try await third.get("/api/v1/export").body)))
            let firstIDs = restored.recordIDs
            #expect(copy.recordIDs.isDisjoint(with: firstIDs))
            #expect(copy.foods.map(\.name).sorted() == original.foods.map(\.name).sorted() && copy.diary.count == original.diary.count)
            let copyFoods = Set(copy.foods.map(\.id)), copyMeals = Set(copy.meals.map(\.id))
            for entry in copy.diary {
                switch entry.kind {
                case .food(let foodId, _, _): #expect(copyFoods.contains(foodId))
                case .meal(let mealId, _): #expect(copyMeals.contains(mealId))
                default: break
                }
            }
            #expect(copy.meals.flatMap(\.ingredients).allSatisfy { copyFoods.contains($0.foodId) })
            #expect(copy.plan.allSatisfy { copyMeals.contains($0.mealId) })
            #expect(copy.recipePhotos.map(\.mealId) == copy.meals.map(\.id), "the copy's meal has its photo")
            #expect(copy.shoppingLists.flatMap(\.items).allSatisfy { $0.foodId.map(copyFoods.contains) ?? true })
            #expect(copy.shoppingLists.allSatisfy { record in record.items.allSatisfy { $0.listId == record.list.id } })
            #expect(Set(copy.diary.map(\.mealType)) == Set(original.diary.map(\.mealType)).subtracting(original.mealTypes.filter { $0.key == nil }.map { $0.id.uuidString.lowercased() })
                        .union(copy.mealTypes.filter { $0.key == nil && copy.diary.map(\.mealType).contains($0.id.uuidString.lowercased()) }.map { $0.id.uuidString.lowercased() }),
                    "an entry of the person's own meal type follows the type's new id")
            // Nor into an account that holds records.
            let full = try await again.importArchive(Data(buffer: exported.body))
            #expect(full.status == .conflict)
            #expect(full.problem?.detail.contains("empty account") == true)
        }
    }

    /// An export written by hand (or by another program) is stored as the API would store the same
    /// records: no time after the server's own, weights rounded to 10 g with a source this server writes.
    @Test func anImportedRecordTakesNoTimeFromTheFutureAndWeightsAreStoredAsRecorded() async throws {
        try await withForkcast(allowSignup: true) { app in
            let ana = try await app.signUp("ana@example.com")
            _ = try await Self.fill(ana)
            let files = try unzip(Data(buffer: try await ana.get("/api/v1/export").body))
            var document = try Self.document(files)
            #expect(try await ana.deleteAccount(password: "correct horse").status == .noContent)
            let far = try #require(ISO8601DateFormatter().date(from: "2199-01-01T00:00:00Z"))
            document.foods[0].updatedAt = far
            document.foods[0].createdAt = far
            document.weights[0].weightKg = Decimal(string: "72.123456789")!
            document.weights[0].source = "anything-goes"
            var changed = files
            changed[AccountArchive.documentPath] = try AccountArchive.encoder.encode(document)
            let bea = try await app.signUp("bea@example.com")
            let imported = try await bea.importArchive(try zip(changed))
            #expect(imported.status == .created, "\(imported.body.string)")
            let restored = try Self.document(try unzip(Data(buffer: try await bea.get("/api/v1/export").body)))
            let food = try #require(restored.foods.first { $0.id == document.foods[0].id })
            #expect(food.updatedAt <= Date() && food.createdAt <= Date(), "\(food.updatedAt)")
            let weight = try #require(restored.weights.first { $0.id == document.weights[0].id })
            #expect(weight.weightKg == Decimal(string: "72.12")! && weight.source == "manual")
            // A device's edit made now wins over the imported food (it did not, while it was dated 2199).
            var record = FoodsAPITests.oats
            record["name"] = "Oats, edited on the phone"
            let mutation: [String: Any] = ["mutationId": "1", "kind": "food", "id": food.id.uuidString, "op": "upsert",
                                           "updatedAt": ISO8601DateFormatter().string(from: Date().addingTimeInterval(1)), "record": record]
            let push = try JSONSerialization.data(withJSONObject: ["deviceId": "phone", "mutations": [mutation]] as [String: Any])
            let answer = try await bea.send(.POST, "/api/v1/sync/push", raw: String(decoding: push, as: UTF8.self))
            #expect(answer.body.string.contains(#""status":"applied""#), "\(answer.body.string)")
            #expect(try object(try await bea.get("/api/v1/foods/\(food.id)"))["name"] as? String == "Oats, edited on the phone")
        }
    }

    /// Imports one after the other give held ids anew; at the same moment they did not, and all but
    /// one got a 409 "conflicts with something already saved" and nothing.
    @Test func theSameExportImportedIntoSeveralAccountsAtOnceFillsEachOfThem() async throws {
        try await withForkcast(allowSignup: true) { app in
            let ana = try await app.signUp("ana@example.com")
            _ = try await Self.fill(ana)
            let export = Data(buffer: try await ana.get("/api/v1/export").body)
            let foods = try Self.document(try unzip(export)).foods.count
            #expect(try await ana.deleteAccount(password: "correct horse").status == .noContent)
            var people: [Client] = []
            for index in 0..<4 { people.append(try await app.signUp("copy\(index)@example.com")) }
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for person in people { group.addTask { try await person.importArchive(export).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: .created, count: 4), "\(statuses)")
            var ids = Set<UUID>()
            for person in people {
                let held = try Self.document(try unzip(Data(buffer: try await person.get("/api/v1/export").body)))
                #expect(held.foods.count == foods && held.diary.count == 4, "\(held.counts)")
                ids.formUnion(held.foods.map(\.id))
            }
            #expect(ids.count == 4 * foods, "no two accounts share a food's id")
        }
    }

    /// An import runs again only when another took one of its ids (the test above). Before, any
    /// constraint's refusal counted as a taken id, so one that would refuse every run ran five
    /// times before its 409; here each database's refusals are told apart as they come.
    @Test func onlyAnIdHeldAlreadyCountsAsTakenMeanwhile() async throws {
        try await withForkcast(allowSignup: true) { app in
            _ = try await app.signUp("ana@example.com")
            let owner = try #require(try await UserModel.query(on: app.db).first()?.id)
            let at = Self.noon, id = UUID()
            @Sendable func weighing(_ id: UUID, owner: UUID, at: Date) -> WeightEntryModel {
                WeightEntryModel(id: id, ownerID: owner, measuredAt: at, weightKg: 70, source: "manual")
            }
            @Sendable func refusal(_ model: @escaping @Sendable () -> WeightEntryModel) async -> (any Error)? {
                do {
                    try await app.db.write { tx in try await model().create(on: tx) }
                    return nil
                } catch { return error }
            }
            #expect(await refusal { weighing(id, owner: owner, at: at) } == nil)

            let sameID = try #require(await refusal { weighing(id, owner: owner, at: at + 60) })
            #expect(FluentAccountImports.isIDTaken(sameID), "\(String(reflecting: sameID))")
            let sameInstant = try #require(await refusal { weighing(UUID(), owner: owner, at: at) })
            #expect((sameInstant as? any DatabaseError)?.isConstraintFailure == true, "\(String(reflecting: sameInstant))")
            #expect(!FluentAccountImports.isIDTaken(sameInstant), "another unique constraint: one weighing per instant")
            let nobody = try #require(await refusal { weighing(UUID(), owner: UUID(), at: at) })
            #expect((nobody as? any DatabaseError)?.isConstraintFailure == true, "\(String(reflecting: nobody))")
            #expect(!FluentAccountImports.isIDTaken(nobody), "a reference to no one")
        }
    }
}
