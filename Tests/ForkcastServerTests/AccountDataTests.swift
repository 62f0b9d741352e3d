import FluentKit
@testable import ForkcastServer
import ForkcastCore
import Foundation
import SQLKit
import Testing
import VaporTesting
import ZIPFoundation

private func object(_ r: TestingHTTPResponse) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(buffer: r.body)) as? [String: Any], "\(r.status) \(r.body.string)")
}

private func fixturePhoto(_ name: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/photos/\(name)"))
}

/// The files of a zip, by path.
private func unzip(_ data: Data) throws -> [String: Data] {
    let archive = try Archive(data: data, accessMode: .read)
    var files: [String: Data] = [:]
    for entry in archive {
        var bytes = Data()
        _ = try archive.extract(entry) { bytes.append($0) }
        files[entry.path] = bytes
    }
    return files
}

private func zip(_ files: [String: Data]) throws -> Data {
    let archive = try Archive(data: Data(), accessMode: .create)
    for (path, data) in files.sorted(by: { $0.key < $1.key }) {
        try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
    }
    return try #require(archive.data)
}

extension Client {
    func importArchive(_ data: Data, dryRun: Bool = false) async throws -> TestingHTTPResponse {
        try await upload("/api/v1/import\(dryRun ? "?dryRun=true" : "")", data: data, contentType: "application/zip")
    }

    func deleteAccount(password: String) async throws -> TestingHTTPResponse {
        try await sendJSON(.DELETE, "/api/v1/me", ["password": password])
    }
}

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
                                                                                  "ingredients": [["foodId": oatsID, "quantity": 80, "unit": "g"],
                                                                                                  ["foodId": milkID, "quantity": 300, "unit": "ml"]]]))
        let mealID = try #require(meal["id"] as? String)
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
                                        "shoppingLists": 1])
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
            func shape(_ types: [MealType]) -> [String] { types.map { "\($0.key ?? $0.id.uuidString) \($0.name) \($0.window.map { "\($0.startText)-\($0.endText)" } ?? "-") \($0.position) \($0.hidden)" } }
            #expect(shape(restored.mealTypes) == shape(original.mealTypes))
            #expect(restored.photos.map(\.id) == original.photos.map(\.id) && restored.photos.map(\.capturedAt) == original.photos.map(\.capturedAt))
            #expect(restored.account.timeZone == "Europe/Lisbon" && restored.account.currency == "CHF" && restored.account.email == "ana.new@example.com")
            let image = try await again.get("/api/v1/photos/\(photo.id)/image")
            #expect(image.status == .ok && Data(buffer: image.body) == files[photo.file])
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
            #expect(copy.shoppingLists.flatMap(\.items).allSatisfy { $0.foodId.map(copyFoods.contains) ?? true })
            #expect(copy.shoppingLists.allSatisfy { record in record.items.allSatisfy { $0.listId == record.list.id } })
            #expect(Set(copy.diary.map(\.mealType)) == Set(original.diary.map(\.mealType)).subtracting(original.mealTypes.filter { $0.key == nil }.map { $0.id.uuidString.lowercased() })
                        .union(copy.mealTypes.filter { $0.key == nil && copy.diary.map(\.mealType).contains($0.id.uuidString.lowercased()) }.map { $0.id.uuidString.lowercased() }),
                    "an entry of the person's own meal type follows the type's new id")
            // Nor into an account that holds records.
            let full = try await again.importArchive(Data(buffer: exported.body))
            #expect(full.status == .conflict && full.problem?.detail.contains("empty account") == true)
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

    @Test func aBrokenOrHostileArchiveIsRefusedWithAProblemAndChangesNothing() async throws {
        try await withForkcast(allowSignup: true, clock: TestClock(Self.noon)) { app in
            let ana = try await app.signUp("ana@example.com")
            _ = try await Self.fill(ana)
            let good = Data(buffer: try await ana.get("/api/v1/export").body)
            let files = try unzip(good)
            let document = try Self.document(files)
            #expect(try await ana.deleteAccount(password: "correct horse").status == .noContent)
            let empty = try await app.signUp("empty@example.com")
            let untouched = try Self.document(try unzip(Data(buffer: try await empty.get("/api/v1/export").body)))

            func refused(_ data: Data, _ expected: HTTPStatus, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
                // A dry run (rehearsed in memory) refuses what the import refuses, in the same words.
                for dryRun in [true, false] {
                    let r = try await empty.importArchive(data, dryRun: dryRun)
                    #expect(r.status == expected, "dry run \(dryRun): \(r.body.string)", sourceLocation: sourceLocation)
                    #expect(text.isEmpty || r.body.string.contains(text), "dry run \(dryRun): \(r.body.string)", sourceLocation: sourceLocation)
                }
            }
            func with(_ change: (inout AccountArchive) -> Void) throws -> Data {
                var copy = document
                change(&copy)
                var changed = files
                changed[AccountArchive.documentPath] = try AccountArchive.encoder.encode(copy)
                return try zip(changed)
            }
            try await refused(Data("not a zip".utf8), .unprocessableEntity, "not a Forkcast export")
            try await refused(good.prefix(good.count / 2), .unprocessableEntity, "")
            try await refused(try zip(["other.json": Data("{}".utf8)]), .unprocessableEntity, "holds no forkcast.json")
            try await refused(try zip([AccountArchive.documentPath: Data("{\"format\": 1".utf8)]), .unprocessableEntity, "forkcast.json cannot be read")
            // A byte changed after zipping (stored, not deflated, so it still reads): its checksum says so.
            let stored = try Archive(data: Data(), accessMode: .create)
            for (path, data) in files.sorted(by: { $0.key < $1.key }) {
                try stored.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .none) { position, size in
                    data.subdata(in: Int(position)..<Int(position) + size)
                }
            }
            var flipped = try #require(stored.data)
            let email = try #require(flipped.range(of: Data("ana@example.com".utf8)))
            flipped[email.lowerBound + 2] = UInt8(ascii: "b")
            try await refused(flipped, .unprocessableEntity, "is damaged")
            try await refused(try with { $0.version = 99 }, .unprocessableEntity, "version 99")
            try await refused(try with { $0.format = "mealie" }, .unprocessableEntity, "not a Forkcast export")
            try await refused(try with { $0.diary[0].nutrients.energyKcal = Decimal(string: "1e100") }, .unprocessableEntity, "diary[0].nutrients.energyKcal")
            try await refused(try with { $0.foods[0].name = "  " }, .unprocessableEntity, "foods[0].name")
            try await refused(try with { $0.foods.append($0.foods[0]) }, .unprocessableEntity, "The same id appears twice in foods")
            try await refused(try with { $0.plan[0] = Assignment(id: $0.plan[0].id, mealId: UUID(), date: $0.plan[0].date) }, .unprocessableEntity, "plan[0].mealId")
            try await refused(try with { $0.diary[0].mealType = "<script>" }, .unprocessableEntity, "diary[0].mealType")
            // What the API refuses, an import refuses: a weighing in the future, computed goals with no
            // profile to compute them from, an entry's day that is not its instant's day in any zone.
            try await refused(try with { $0.weights[0].measuredAt = Date().addingTimeInterval(30 * 86_400) }, .unprocessableEntity, "weights[0].measuredAt")
            try await refused(try with { $0.goals?.source = .computed; $0.bodyProfile = nil }, .unprocessableEntity, "goals.source")
            try await refused(try with { $0.diary[0].date = CalendarDate(year: 2020, month: 1, day: 1)! }, .unprocessableEntity, "diary[0].date")
            // Daily targets as the goals page and the API set them (they were imported as sent: -1, 1e100).
            #expect(document.goals != nil)
            try await refused(try with { $0.goals?.targets[.iron] = -1 }, .unprocessableEntity, "goals.targets.iron")
            try await refused(try with { $0.goals?.targets[.sodium] = Decimal(string: "1e100")! }, .unprocessableEntity, "goals.targets.sodium")
            try await refused(try with { $0.goals?.targets[.protein] = 90 }, .unprocessableEntity, "goals.targets.protein")
            var noPhoto = files
            noPhoto.removeValue(forKey: document.photos[0].file)
            try await refused(try zip(noPhoto), .unprocessableEntity, "holds no photos")
            var badPhoto = files
            badPhoto[document.photos[0].file] = Data("<svg onload=alert(1)>".utf8)
            try await refused(try zip(badPhoto), .unsupportedMediaType, "")
            // A bomb: a photo that inflates far past the limit.
            var bomb = files
            bomb[document.photos[0].file] = Data(count: 40 << 20)
            try await refused(try zip(bomb), .unprocessableEntity, "zip bomb")
            #expect(try await empty.importArchive(good, dryRun: true).status == .ok)
            // `occasions` is derived and ignored: an archive without it is read (docs/export-format.md).
            var withoutOccasions = files
            var json = try #require(try JSONSerialization.jsonObject(with: files[AccountArchive.documentPath]!) as? [String: Any])
            json.removeValue(forKey: "occasions")
            withoutOccasions[AccountArchive.documentPath] = try JSONSerialization.data(withJSONObject: json)
            #expect(try await empty.importArchive(try zip(withoutOccasions), dryRun: true).status == .ok)
            // A fraction where a whole number belongs is said to be one (Foundation calls it "not valid JSON").
            var fractional = files
            json["version"] = 1.5
            fractional[AccountArchive.documentPath] = try JSONSerialization.data(withJSONObject: json)
            try await refused(try zip(fractional), .unprocessableEntity, "does not fit its field")
            let r = try await empty.send(.POST, "/api/v1/import?dryRun=maybe", raw: "x", contentType: "application/zip")
            #expect(r.status == .badRequest)

            // After all of that the account is as empty as it was.
            let after = try Self.document(try unzip(Data(buffer: try await empty.get("/api/v1/export").body)))
            #expect(after.foods.isEmpty && after.meals.isEmpty && after.diary.isEmpty && after.photos.isEmpty && after.weights.isEmpty)
            #expect(after.mealTypes.count == 7 && after.goals == nil && after.bodyProfile == nil)
            // A photo refused after the records were written (the import writes in steps)
            // put back the settings and meal types it had changed.
            #expect(after.account.timeZone == untouched.account.timeZone && after.account.currency == untouched.account.currency
                    && after.account.displayName == untouched.account.displayName)
            #expect(after.mealTypes.map { "\($0.name) \($0.position) \($0.hidden)" } == untouched.mealTypes.map { "\($0.name) \($0.position) \($0.hidden)" })
            #expect(document.account.timeZone != untouched.account.timeZone || document.mealTypes.map(\.name) != untouched.mealTypes.map(\.name),
                    "the archive changes something an undo must put back")
            #expect(try await empty.importArchive(good).status == .created)
        }
    }

    /// A crafted archive's diary named another account's food and meal, and its 409
    /// told whether any account held an id. References outside the archive are given new ids.
    @Test func anArchiveCannotPointIntoAnotherAccount() async throws {
        try await withForkcast(allowSignup: true, clock: TestClock(Self.noon)) { app in
            let victim = try await app.signUp("victim@example.com")
            let victimFood = try #require(try await victim.createFood(FoodsAPITests.oats).json(TestFood.self).id)
            let victimMeal = try await victim.createMeal("Victim's stew")
            var rye = FoodsAPITests.oats
            rye["name"] = "Rye flakes"
            rye["barcode"] = nil
            let victimOther = try #require(try await victim.createFood(rye).json(TestFood.self).id)
            let mallory = try await app.signUp("mallory@example.com")
            _ = try await Self.fill(mallory)
            let files = try unzip(Data(buffer: try await mallory.get("/api/v1/export").body))
            var document = try Self.document(files)
            #expect(try await mallory.deleteAccount(password: "correct horse").status == .noContent)
            let foodIndex = try #require(document.diary.firstIndex { if case .food = $0.kind { true } else { false } })
            let mealIndex = try #require(document.diary.firstIndex { if case .meal = $0.kind { true } else { false } })
            for (index, kind) in [(foodIndex, DiaryEntry.Kind.food(foodId: victimFood, quantity: 10, unit: .gram)),
                                  (mealIndex, DiaryEntry.Kind.meal(mealId: victimMeal.id, servings: 1))] {
                let e = document.diary[index]
                document.diary[index] = DiaryEntry(id: e.id, loggedAt: e.loggedAt, date: e.date, mealType: e.mealType, note: e.note, kind: kind,
                                                   name: e.name, nutrients: e.nutrients, cost: e.cost, photoId: e.photoId)
            }
            // One of the archive's own ids is the victim's food's id too: it is not refused (that
            // would tell the id is held), it is given anew.
            document = document.renaming([document.foods[0].id: victimOther])
            var changed = files
            changed[AccountArchive.documentPath] = try AccountArchive.encoder.encode(document)
            let importer = try await app.signUp("importer@example.com")
            let imported = try await importer.importArchive(try zip(changed))
            #expect(imported.status == .created, "\(imported.body.string)")
            let after = try Self.document(try unzip(Data(buffer: try await importer.get("/api/v1/export").body)))
            let named = after.diary.flatMap { entry -> [UUID] in
                switch entry.kind { case .food(let id, _, _): [id]; case .meal(let id, _): [id]; default: [] }
            }
            #expect(!named.contains(victimFood) && !named.contains(victimMeal.id), "no entry names the victim's records")
            #expect(!after.recordIDs.contains(victimOther) && !named.contains(victimOther))
            #expect(after.foods.count == document.foods.count)
            // The victim's records are untouched and still theirs alone.
            #expect(try await victim.get("/api/v1/foods/\(victimFood)").status == .ok)
            #expect(try await importer.get("/api/v1/foods/\(victimFood)").status == .notFound)
            #expect(try await victim.get("/api/v1/foods/\(victimOther)").status == .ok)
            #expect(try await victim.get("/api/v1/meals/\(victimMeal.id)").status == .ok)
        }
    }

    /// An import held SQLite's one writer for its whole run, so every other person's
    /// writes waited (503 after 15 s). It now writes in steps; between them others write at once.
    @Test func otherPeopleWriteWhileAnImportRuns() async throws {
        try await withForkcast(allowSignup: true, clock: TestClock(Self.noon)) { app in
            let ana = try await app.signUp("ana@example.com")
            _ = try await Self.fill(ana)
            let archive = Data(buffer: try await ana.get("/api/v1/export").body)
            #expect(try await ana.deleteAccount(password: "correct horse").status == .noContent)
            _ = try await app.signUp("empty@example.com")
            let bob = try await app.signUp("bob@example.com")
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("forkcast-import-\(UUID().uuidString).zip")
            try archive.write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            let (document, photos) = try AccountData.readArchive(at: url)
            let user = try #require(try await UserModel.query(on: app.db).filter(\.$emailKey == "empty@example.com").first())
            let data = AccountData(user: user, db: app.db, photoStore: app.photoStore, now: Self.noon)
            let others = Statuses()
            let report = try await data.importArchive(document, photos: photos, dryRun: false) { done, _ in
                let at = Self.noon.addingTimeInterval(Double(-3600 * done))
                let status = (try? await bob.send(.POST, "/api/v1/weights", json: SeamTests.NewWeight(weightKg: 70, measuredAt: ISO8601DateFormatter().string(from: at))))?.status
                await others.add(status)
            }
            #expect(report.created["diary"] == document.diary.count)
            let statuses = await others.list
            #expect(statuses.count >= 3, "the import went in steps: \(statuses.count)")
            #expect(statuses.allSatisfy { $0 == .created }, "another person's writes between the steps: \(statuses)")
            // The same archive again is refused at the first step and takes nothing away.
            await #expect(throws: AppError.self) { _ = try await data.importArchive(document, photos: photos, dryRun: false) }
            #expect(try await DiaryEntryModel.query(on: app.db).filter(\.$ownerID == user.requireID()).count() == document.diary.count)
            #expect(try await FoodModel.query(on: app.db).filter(\.$ownerID == user.requireID()).count() == document.foods.count)
        }
    }

    actor Statuses {
        var list: [HTTPStatus?] = []
        func add(_ status: HTTPStatus?) { list.append(status) }
    }

    @Test func deletingAnAccountLeavesNothingOfItInAnyTableOrThePhotoStore() async throws {
        try await withForkcast(allowSignup: true, clock: TestClock(Self.noon)) { app in
            let ana = try await app.signUp("ana@example.com")
            _ = try await Self.fill(ana)
            let bob = try await app.signUp("bob@example.com")
            _ = try await Self.fill(bob)
            let anaID = try await ana.get("/api/v1/me").json(TestUser.self).id
            // A browser session of Ana's and a sync client's history.
            var browser = Browser(app: app)
            #expect(try await browser.signIn("ana@example.com").status == .seeOther)
            #expect(try await browser.send(.GET, "/settings/data").status == .ok)
            #expect(try await ana.sendJSON(.POST, "/api/v1/sync/push", ["deviceId": "phone", "mutations": [[
                "mutationId": "m1", "kind": "weight", "id": UUID().uuidString, "op": "delete", "updatedAt": "2026-11-21T11:00:00Z"]]]).status == .ok)
            _ = try await ana.get("/api/v1/plan?start=2026-11-23&days=7")  // a kept answer
            #expect(try await ana.deleteAccount(password: "wrong horse").status == .forbidden)
            #expect(try await ana.get("/api/v1/me").status == .ok, "a wrong password deletes nothing")
            #expect(try await ana.send(.DELETE, "/api/v1/me", raw: "{}").status.code >= 400)

            // The search finds what it looks for: before, Ana (her id, email or photo's id) is in every
            // table a person's rows live in, the photo bytes' table too on PostgreSQL.
            let anaPhoto = try #require(try Self.document(try unzip(Data(buffer: try await ana.get("/api/v1/export").body))).photos.first).id
            let before = Set(try await Self.rowsNaming([anaID, anaPhoto], email: "ana@example.com", in: app).map { String($0.prefix { $0 != "." }) })
            for table in ["users", "api_tokens", "web_sessions", "known_clients", "sync_records", "sync_mutations", "diary_entries", "photos", "foods", "food_terms",
                          "meals", "meal_ingredients", "meal_components", "assignments", "meal_types", "weight_entries", "goal_settings", "body_profiles"]
                + (TestDatabase.postgresURL != nil ? ["photo_blobs"] : []) {
                #expect(before.contains(table), "\(table) holds Ana's rows before: \(before.sorted())")
            }

            #expect(try await ana.deleteAccount(password: "correct horse").status == .noContent)
            #expect(try await ana.get("/api/v1/me").status == .unauthorized, "its token went with it")
            let leftovers = try await Self.rowsNaming([anaID, anaPhoto], email: "ana@example.com", in: app)
            #expect(leftovers.isEmpty, "rows of the deleted account: \(leftovers)")
            if TestDatabase.postgresURL == nil {
                let photos = app.forkcastConfig.dataDirectory + "/photos"
                let bobPhoto = try #require(try Self.document(try unzip(Data(buffer: try await bob.get("/api/v1/export").body))).photos.first)
                let remaining = (try? FileManager.default.subpathsOfDirectory(atPath: photos).filter { $0.hasSuffix(".full") }) ?? []
                #expect(remaining == [DirectoryPhotoStore.relativePath(bobPhoto.id, .full)], "only Bob's photo is left: \(remaining)")
                // Nor in the database file's free pages or its write-ahead log.
                let database = app.forkcastConfig.dataDirectory + "/forkcast.sqlite"
                for file in [database, database + "-wal"] {
                    let bytes = (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()
                    #expect(bytes.range(of: Data("ana@example.com".utf8)) == nil, "\(file) still holds the deleted address")
                }
                let bobBytes = try Data(contentsOf: URL(fileURLWithPath: database)) + ((try? Data(contentsOf: URL(fileURLWithPath: database + "-wal"))) ?? Data())
                #expect(bobBytes.range(of: Data("bob@example.com".utf8)) != nil, "the search finds an address that is there")
            }
            #expect(try await browser.send(.GET, "/settings/data").status == .seeOther, "the browser session went with it")
            // Bob is untouched.
            let bobExport = try Self.document(try unzip(Data(buffer: try await bob.get("/api/v1/export").body)))
            #expect(bobExport.counts["diary"] == 4 && bobExport.counts["foods"] == 2)
            // The address can sign up again, as a new account.
            #expect(try await app.signUp("ana@example.com").token != nil)
        }
    }

    /// Every row of every table in which any column holds one of the ids or the email address.
    static func rowsNaming(_ ids: [UUID], email: String, in app: Application) async throws -> [String] {
        var found: [String] = []
        for id in ids { found += try await rowsNaming(id, email: email, in: app) }
        return Array(Set(found)).sorted()
    }

    static func rowsNaming(_ id: UUID, email: String, in app: Application) async throws -> [String] {
        let sql = app.db as! any SQLDatabase
        var found: [String] = []
        if sql.dialect.name == "sqlite" {
            let tables = try await sql.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all().map { try $0.decode(column: "name", as: String.self) }
            for table in tables {
                let columns = try await sql.raw("SELECT name FROM pragma_table_info(\(bind: table))").all().map { try $0.decode(column: "name", as: String.self) }
                for column in columns {
                    let rows = try await sql.raw("""
                        SELECT count(*) AS n FROM \(ident: table) WHERE \(ident: column) = \(bind: id)
                        OR instr(lower(CAST(\(ident: column) AS TEXT)), \(bind: id.uuidString.lowercased())) > 0
                        OR instr(lower(CAST(\(ident: column) AS TEXT)), \(bind: email)) > 0
                        """).first()!.decode(column: "n", as: Int.self)
                    if rows > 0 { found.append("\(table).\(column): \(rows)") }
                }
            }
        } else {
            let columns = try await sql.raw("""
                SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()
                """).all().map { (try $0.decode(column: "table_name", as: String.self), try $0.decode(column: "column_name", as: String.self)) }
            for (table, column) in columns {
                let rows = try await sql.raw("""
                    SELECT count(*) AS n FROM \(ident: table) WHERE lower(CAST(\(ident: column) AS TEXT)) LIKE \(bind: "%" + id.uuidString.lowercased() + "%")
                    OR lower(CAST(\(ident: column) AS TEXT)) LIKE \(bind: "%" + email + "%")
                    """).first()!.decode(column: "n", as: Int.self)
                if rows > 0 { found.append("\(table).\(column): \(rows)") }
            }
        }
        return found
    }
}

private extension AccountArchive {
    /// Every id the archive's own records carry (the person's own meal types only: built-in ones
    /// are matched by their key).
    var recordIDs: Set<UUID> {
        Set(mealTypes.filter { $0.key == nil }.map(\.id) + foods.map(\.id) + meals.map(\.id) + plan.map(\.id)
            + diary.map(\.id) + photos.map(\.id) + weights.map(\.id) + shoppingLists.map(\.list.id) + shoppingLists.flatMap { $0.items.map(\.id) })
    }
}
