import FluentKit
@testable import ForkcastServer
import ForkcastCore
import Foundation
import SQLKit
import Testing
import VaporTesting
import ZIPFoundation

extension AccountDataTests {
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
            // A recipe's photo is checked as an upload is, and must head a meal the export holds.
            var badRecipePhoto = files
            badRecipePhoto[document.recipePhotos[0].file] = Data("<svg onload=alert(1)>".utf8)
            try await refused(try zip(badRecipePhoto), .unprocessableEntity, "recipePhotos[0].file")
            try await refused(try with { $0.recipePhotos[0].mealId = UUID() }, .unprocessableEntity, "recipePhotos[0].mealId")
            try await refused(try with { $0.recipePhotos.append($0.recipePhotos[0]) }, .unprocessableEntity, "more than one photo")
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
            let (document, files) = try AccountData.readArchive(at: url)
            let user = try #require(try await UserModel.query(on: app.db).filter(\.$emailKey == "empty@example.com").first())
            let data = AccountData(user: user, db: app.db, photoStore: app.photoStore, now: Self.noon)
            let others = Statuses()
            let report = try await data.importArchive(document, files: files, dryRun: false) { done, _ in
                let at = Self.noon.addingTimeInterval(Double(-3600 * done))
                let status = (try? await bob.send(.POST, "/api/v1/weights", json: SeamTests.NewWeight(weightKg: 70, measuredAt: ISO8601DateFormatter().string(from: at))))?.status
                await others.add(status)
            }
            #expect(report.created["diary"] == document.diary.count)
            let statuses = await others.list
            #expect(statuses.count >= 3, "the import went in steps: \(statuses.count)")
            #expect(statuses.allSatisfy { $0 == .created }, "another person's writes between the steps: \(statuses)")
            // The same archive again is refused at the first step and takes nothing away.
            await #expect(throws: AppError.self) { _ = try await data.importArchive(document, files: files, dryRun: false) }
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
