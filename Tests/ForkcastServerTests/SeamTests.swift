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

    // MARK: Accounts

    @Test func twoFirstAccountsAtOnceMakeOneAccount() async throws {
        try await withForkcast { app in
            // The API: eight registrations at once on a server whose sign-up is closed.
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await app.anonymous.send(.POST, "/api/v1/auth/register",
                                                     json: ["email": "first\(index)@example.com", "password": "correct horse"]).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .created }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == .forbidden }.count == 7, "\(statuses)")
            #expect(try await UserModel.query(on: app.db).count() == 1)
        }
        try await withForkcast { app in
            // The setup page: two visitors submit it at once.
            var browsers = [Browser(app: app), Browser(app: app)]
            var tokens: [String] = []
            for index in browsers.indices { tokens.append(try await browsers[index].csrf(from: "/setup")) }
            let forms = tokens.enumerated().map { ["_csrf": $0.element, "email": "setup\($0.offset)@example.com", "password": "correct horse"] }
            let pairs = Array(zip(browsers, forms))
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for (browser, form) in pairs {
                    group.addTask { var browser = browser; return try await browser.send(.POST, "/setup", form: form).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(try await UserModel.query(on: app.db).count() == 1, "\(statuses)")
            #expect(statuses.contains(.seeOther))
        }
    }

    /// Registering an existing email answered in 2 ms, a new one after the password hash
    /// (about 400 ms): an account oracle when sign-up is open. Both now pay for one hash first.
    @Test func registeringTakesOneHashWhetherOrNotTheEmailHasAnAccount() async throws {
        try await withForkcast(allowSignup: true) { app in
            _ = try await app.signUp("taken@example.com")
            let counter = CountingHasher()
            let accounts = AccountService(db: app.db, passwords: AsyncPasswordHasher(hasher: counter, threadPool: app.threadPool,
                                                                                     eventLoop: app.eventLoopGroup.next()), now: Date())
            await #expect(throws: AppError.self) {
                _ = try await accounts.register(.init(email: "Taken@example.com", password: "correct horse", displayName: nil, timeZone: nil), allowSignup: true)
            }
            let forTaken = counter.count
            _ = try await accounts.register(.init(email: "new@example.com", password: "correct horse", displayName: nil, timeZone: nil), allowSignup: true)
            #expect(forTaken == 1, "an existing email is answered after the same hash as a new one")
            #expect(counter.count - forTaken == 1)
        }
    }

    final class CountingHasher: PasswordHasher, @unchecked Sendable {
        private let lock = NSLock()
        private var hashes = 0
        var count: Int { lock.withLock { hashes } }
        func hash<Password: DataProtocol>(_ password: Password) throws -> [UInt8] {
            lock.withLock { hashes += 1 }
            return Array(password)
        }
        func verify<Password: DataProtocol, Digest: DataProtocol>(_ password: Password, created digest: Digest) throws -> Bool {
            Array(password) == Array(digest)
        }
    }

    @Test func visitorsStoreNoSessions() async throws {
        try await withForkcast { app in
            for _ in 0..<5 { var visitor = Browser(app: app); _ = try await visitor.send(.GET, "/setup") }
            #expect(try await WebSessionModel.query(on: app.db).count() == 0, "the setup page stores nothing")
            _ = try await app.signUp()
            for _ in 0..<5 { var visitor = Browser(app: app); _ = try await visitor.send(.GET, "/login") }
            // A made-up or stale session cookie is no way around it.
            var stale = Browser(app: app, cookies: [SecurityHeadersMiddleware.sessionCookie: "made-up-session-id"])
            _ = try await stale.send(.GET, "/login")
            #expect(try await WebSessionModel.query(on: app.db).count() == 0, "looking at /login stores nothing")
            // The form still works: its token is the visitor cookie's, repeated in the form.
            var browser = Browser(app: app)
            #expect(try await browser.signIn().status == .seeOther)
            #expect(try await WebSessionModel.query(on: app.db).count() == 1, "signing in starts the one session")
            // Without the cookie the form's token is worth nothing.
            var forger = Browser(app: app)
            let token = try await forger.csrf(from: "/login")
            forger.cookies = [:]
            let forged = try await forger.send(.POST, "/login", form: ["_csrf": token, "email": "owner@example.com", "password": "correct horse"])
            #expect(forged.status == .forbidden)
            // Signing out ends the session and starts none.
            let out = try await browser.csrf(from: "/settings")
            _ = try await browser.send(.POST, "/logout", form: ["_csrf": out])
            #expect(try await WebSessionModel.query(on: app.db).count() == 0)
        }
    }

    // MARK: Sync

    @Test func twoIdenticalPushesAtOnceGetTheSameAnswer() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let entry = UUID().uuidString, now = sync.iso(Date())
            let sync = sync
            let results = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        let mutation: [String: Any] = ["mutationId": "tab", "kind": "diaryEntry", "id": entry, "op": "upsert", "updatedAt": now,
                                                       "record": ["quickAdd": ["energyKcal": 90], "name": "Toast", "mealType": "breakfast"]]
                        return try await sync.push(client, [mutation]).results[0].status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results == ["applied", "applied", "applied", "applied"])
            #expect(try await DiaryEntryModel.query(on: app.db).count() == 1)
        }
    }

    @Test func aPageQueuedForOneAccountSendsNothingAsAnother() async throws {
        try await withForkcast(allowSignup: true) { app in
            let ana = try await app.signUp("ana@example.com")
            let ben = try await app.signUp("ben@example.com")
            let anaID = try await ana.get("/api/v1/me").json(TestUser.self).id
            let body = try JSONSerialization.data(withJSONObject: ["deviceId": "browser", "mutations": [
                ["mutationId": "m1", "kind": "diaryEntry", "id": UUID().uuidString, "op": "upsert", "updatedAt": sync.iso(Date()),
                 "record": ["quickAdd": ["energyKcal": 120], "name": "Ana's snack", "mealType": "snack"]]]])
            // Ana's outbox, flushed while Ben is signed in: refused, nothing saved.
            let refused = try await ben.send(.POST, "/api/v1/sync/push", raw: String(decoding: body, as: UTF8.self),
                                             headers: [RequireUserMiddleware.accountHeader: anaID.uuidString.lowercased()])
            #expect(refused.status == .conflict)
            #expect(try await DiaryEntryModel.query(on: app.db).count() == 0)
            // A header that names no account is a bad request, not "another account".
            for garbage in ["not-a-uuid", "", "\(anaID.uuidString)x"] {
                let bad = try await ana.send(.POST, "/api/v1/sync/push", raw: String(decoding: body, as: UTF8.self),
                                             headers: [RequireUserMiddleware.accountHeader: garbage])
                #expect(bad.status == .badRequest, "\(garbage): \(bad.body.string)")
                #expect(bad.body.string.contains("must be an account id"))
            }
            #expect(try await DiaryEntryModel.query(on: app.db).count() == 0)
            // As Ana it goes through.
            let sent = try await ana.send(.POST, "/api/v1/sync/push", raw: String(decoding: body, as: UTF8.self),
                                          headers: [RequireUserMiddleware.accountHeader: anaID.uuidString.lowercased()])
            #expect(sent.status == .ok)
            #expect(try await DiaryEntryModel.query(on: app.db).count() == 1)
        }
    }

    @Test func anOfflinePlateIsOneChange() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let now = sync.iso(Date())
            func item(_ id: String, _ kcal: Any) -> [String: Any] {
                ["mutationId": id, "kind": "diaryEntry", "id": UUID().uuidString, "op": "upsert", "updatedAt": now, "group": "plate-1",
                 "record": ["quickAdd": ["energyKcal": kcal], "name": "Item \(id)", "mealType": "lunch"]]
            }
            // One item the rules refuse: nothing of the plate is saved, and every item says why.
            let refused = try await sync.push(client, [item("a", 100), item("b", -5), item("c", 120)])
            #expect(refused.results.map(\.status) == ["rejected", "rejected", "rejected"])
            #expect(refused.results[1].problem?.status == 422)
            #expect(refused.results[0].problem?.detail.contains("Nothing of this group was saved") == true)
            #expect(try await DiaryEntryModel.query(on: app.db).count() == 0)
            // A good plate is saved whole, and sending it again changes nothing.
            var plate = [item("d", 100), item("e", 200)]
            plate = plate.map { var m = $0; m["group"] = "plate-2"; return m }
            #expect(try await sync.push(client, plate).results.map(\.status) == ["applied", "applied"])
            #expect(try await sync.push(client, plate).results.map(\.status) == ["applied", "applied"])
            #expect(try await DiaryEntryModel.query(on: app.db).count() == 2)
            // More than a plate's 50 items is refused whole.
            let big = (0..<51).map { index -> [String: Any] in var m = item("big\(index)", 10); m["group"] = "plate-3"; return m }
            let body = try JSONSerialization.data(withJSONObject: ["deviceId": "phone", "mutations": big])
            let tooBig = try await client.send(.POST, "/api/v1/sync/push", raw: String(decoding: body, as: UTF8.self))
            #expect(tooBig.status == .unprocessableEntity)
            #expect(try await DiaryEntryModel.query(on: app.db).count() == 2)
        }
    }

    // MARK: Photos

    static func photoFile(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/photos/\(name)"))
    }

    struct Created: Decodable { var id: UUID }

    @Test func onePhotoIsShownByOneEntryEvenWhenFourAskAtOnce() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let uploaded = try await client.upload("/api/v1/photos", data: try Self.photoFile("photo.jpg"), contentType: "image/jpeg")
            let photo = try uploaded.json(Created.self).id
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for _ in 0..<4 {
                    group.addTask { try await client.send(.POST, "/api/v1/diary/entries", json: ["photoId": photo.uuidString, "mealType": "lunch"]).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .created }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == .conflict }.count == 3, "\(statuses)")
            #expect(try await DiaryEntryModel.query(on: app.db).filter(\.$photoID == photo).count() == 1)
        }
    }

    @Test func aRefusedPhotoEntryLeavesNoPhoto() async throws {
        try await withForkcast { app in
            _ = try await app.signUp()
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            let (form, type) = Client.multipart([("photo", "IMG.jpg", try Self.photoFile("photo.jpg")), ("mealType", nil, Data("no such meal".utf8))])
            var headers = HTTPHeaders()
            headers.replaceOrAdd(name: .cookie, value: browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
            headers.replaceOrAdd(name: .contentType, value: type)
            headers.replaceOrAdd(name: .accept, value: "application/json")
            headers.replaceOrAdd(name: "Sec-Fetch-Site", value: "same-origin")
            let refused = try await app.testing().sendRequest(.POST, "/diary/photo", headers: headers, body: ByteBuffer(data: form))
            #expect(refused.status == .unprocessableEntity, "\(refused.body.string)")
            #expect(try await PhotoModel.query(on: app.db).count() == 0, "the photo was stored before the entry was checked")
        }
    }

    @Test func photosNoEntryShowsAreSweptAfterADay() async throws {
        let clock = TestClock()
        try await withForkcast(clock: clock) { app in
            let client = try await app.signUp()
            let jpeg = try Self.photoFile("photo.jpg")
            let kept = try await client.upload("/api/v1/photos", data: jpeg, contentType: "image/jpeg").json(Created.self).id
            let forgotten = try await client.upload("/api/v1/photos", data: jpeg, contentType: "image/jpeg").json(Created.self).id
            #expect(try await client.send(.POST, "/api/v1/diary/entries", json: ["photoId": kept.uuidString]).status == .created)
            // Within the grace period nothing goes (a client uploads, then logs).
            clock.advance(by: 3600)
            #expect(try await Housekeeping.run(on: app.db, now: clock.now, photoStore: app.photoStore).photos == 0)
            clock.advance(by: Housekeeping.unattachedPhotoGrace)
            #expect(try await Housekeeping.run(on: app.db, now: clock.now, photoStore: app.photoStore).photos == 1)
            #expect(try await client.get("/api/v1/photos/\(forgotten)/image").status == .notFound)
            #expect(try await client.get("/api/v1/photos/\(kept)/image").status == .ok)
        }
    }

    @Test func eachPersonsPhotosHaveAQuota() async throws {
        let jpeg = try Self.photoFile("photo.jpg")
        // What one photo takes once stored: stripped, with its embedded thumbnail.
        let stored = try ImageFile.strippingMetadata(jpeg).count + (ImageFile.embeddedThumbnail(jpeg)?.count ?? 0)
        try await withForkcast(adjust: { $0.photoQuotaBytes = Int64(stored) * 3 / 2 }) { app in
            let client = try await app.signUp()
            #expect(try await client.upload("/api/v1/photos", data: jpeg, contentType: "image/jpeg").status == .created)
            let over = try await client.upload("/api/v1/photos", data: jpeg, contentType: "image/jpeg")
            #expect(over.status == .payloadTooLarge)
            #expect(over.problem?.detail.contains("FORKCAST_PHOTO_QUOTA_MB") == true)
            #expect(try await PhotoModel.query(on: app.db).count() == 1)
        }
    }

    @Test func entriesSharingAPhotoBeforeTheIndexKeepItOnTheEarliest() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let photo = try await client.upload("/api/v1/photos", data: try Self.photoFile("photo.jpg"), contentType: "image/jpeg").json(Created.self).id
            let first = try await client.send(.POST, "/api/v1/diary/entries", json: ["photoId": photo.uuidString]).json(Created.self).id
            let second = try await client.send(.POST, "/api/v1/diary/entries", json: ["quickAdd": ["energyKcal": 200]]).json(Created.self).id
            // The state an older server could leave: two entries showing one photo.
            try await M014_PhotoOnOneEntry().revert(on: app.db)
            let sql = app.db as! any SQLDatabase
            try await sql.raw("UPDATE diary_entries SET photo_id = \(bind: photo), created_at = \(bind: Date().addingTimeInterval(60)) WHERE id = \(bind: second)").run()
            try await M014_PhotoOnOneEntry().prepare(on: app.db)
            let entries = try await DiaryEntryModel.query(on: app.db).all()
            #expect(entries.first { $0.id == first }?.photoID == photo)
            #expect(entries.first { $0.id == second }?.photoID == nil)
            #expect(entries.first { $0.id == second }?.energyKcal == 200, "the later entry keeps everything else")
        }
    }

    // MARK: Storage hygiene

    @Test func everyMigrationRevertsToAnEmptyDatabase() async throws {
        try await withForkcast { app in
            try await app.autoRevert()
            let sql = app.db as! any SQLDatabase
            let tables: [String]
            if sql.dialect.name == "sqlite" {
                tables = try await sql.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all()
                    .map { try $0.decode(column: "name", as: String.self) }
            } else {
                tables = try await sql.raw("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()").all()
                    .map { try $0.decode(column: "table_name", as: String.self) }
            }
            #expect(tables.filter { $0 != "_fluent_migrations" }.isEmpty, "\(tables)")
        }
    }
}
