import FluentKit
import ForkcastApp
import ForkcastCore
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

/// One contract for every ``Library``: the server's (run here on SQLite, and on PostgreSQL when the
/// test script sets `FORKCAST_TEST_DATABASE_URL`) and the in-memory fake the use cases are tested
/// with alone. A behaviour the fake has and the database lacks (or the other way) fails here.
@Suite("The library contract: SQLite, PostgreSQL and the in-memory fake")
struct LibraryContractTests {
    enum Backend: String, CaseIterable, CustomTestStringConvertible {
        case inMemory, database
        var testDescription: String { self == .inMemory ? "in memory" : (TestDatabase.postgresURL == nil ? "SQLite" : "PostgreSQL") }
    }

    /// `body` with a way to make a new person's library on `backend`.
    private func withLibraries(_ backend: Backend, _ body: @escaping (_ person: @escaping () async throws -> any Library) async throws -> Void) async throws {
        try await withPeople(backend) { person in try await body { try await person().library } }
    }

    /// One person on a backend: their library, their body store, and the last change the change
    /// feed holds for one of their records (true: a deletion; nil: none).
    struct Person {
        let id: UUID
        let library: any Library
        let body: any BodyStore
        let diary: any Diary
        let lastChange: (SyncKind, UUID) async throws -> Bool?
    }

    /// `body` with a way to make a new person on `backend`.
    private func withPeople(_ backend: Backend, _ body: @escaping (_ person: @escaping () async throws -> Person) async throws -> Void) async throws {
        switch backend {
        case .inMemory:
            let libraries = InMemoryLibraries()
            try await body {
                let id = UUID()
                return Person(id: id, library: libraries.library(of: id), body: libraries.body(of: id),
                              diary: libraries.diary(of: id, zone: .gmt)) { kind, record in
                    libraries.contents.changes.last { $0.kind == kind && $0.id == record }?.deleted
                }
            }
        case .database:
            try await withForkcast(allowSignup: true) { app in
                try await body {
                    let email = "p\(UUID().uuidString.prefix(8).lowercased())@example.com"
                    _ = try await app.signUp(email)
                    let user = try #require(try await UserModel.query(on: app.db).filter(\.$email == email).first())
                    let id = try user.requireID()
                    return Person(id: id, library: FluentLibrary(db: app.db, ownerID: id), body: FluentBodyStore(db: app.db, ownerID: id),
                                  diary: FluentDiary(user: user, db: app.db, now: Date(), photoStore: app.photoStore)) { kind, record in
                        try await SyncLog.version(kind, record, owner: id, on: app.db).map { $0.op == .delete }
                    }
                }
            }
        }
    }

    /// Whole seconds, so every database gives back exactly what it was given.
    private let monday = Date(timeIntervalSince1970: 1_795_392_000)

    private func food(_ name: String, barcode: String? = nil, at time: Date) throws -> Food {
        try FoodDraft(name: name, barcode: barcode, per100: Nutrients(energyKcal: 372, protein: 13.5, carbohydrates: 60, fat: 7))
            .validated(id: UUID(), createdAt: time, now: time)
    }

    @Test(arguments: Backend.allCases) func foodsAreFoundChangedAndDeletedOnlyByTheirOwner(_ backend: Backend) async throws {
        try await withPeople(backend) { person in
            let annPerson = try await person()
            let ann = annPerson.library, bob = try await person().library
            let oats = try food("Rolled oats", barcode: "737628064502", at: monday)
            try await ann.write { try await $0.foods.insert(oats) }
            let barcode = try #require(oats.barcode)
            try await ann.write { tx async throws in
                let found = try #require(try await tx.foods.find(oats.id))
                #expect(found.name == "Rolled oats" && found.barcode == oats.barcode && found.createdAt == monday && found.per100 == oats.per100)
                #expect(try await tx.foods.find(ids: [oats.id, UUID()]).keys.sorted() == [oats.id])
                #expect(try await tx.foods.holder(of: barcode, except: UUID())?.id == oats.id)
                #expect(try await tx.foods.holder(of: barcode, except: oats.id) == nil, "a food does not hold its own barcode against itself")
            }
            try await bob.write { tx async throws in
                #expect(try await tx.foods.find(oats.id) == nil)
                #expect(try await tx.foods.find(ids: [oats.id]).isEmpty)
                #expect(try await tx.foods.holder(of: barcode, except: UUID()) == nil)
                var stolen = oats
                stolen.name = "Mine now"
                #expect(try await tx.foods.replace(stolen) == false)
                #expect(try await tx.foods.delete(oats.id, now: monday) == false)
            }
            await #expect(throws: (any Error).self, "an id already stored, whoever holds it") {
                try await bob.write { try await $0.foods.insert(oats) }
            }
            var changed = oats
            changed.name = "Jumbo oats"
            changed.updatedAt = monday.addingTimeInterval(60)
            let jumbo = changed
            try await ann.write { tx async throws in
                #expect(try await tx.foods.replace(jumbo))
                #expect(try await tx.foods.find(oats.id)?.createdAt == monday, "createdAt stays as first stored")
                #expect(try await tx.foods.find(oats.id)?.name == "Jumbo oats")
                #expect(try await tx.foods.delete(oats.id, now: monday))
                #expect(try await tx.foods.find(oats.id) == nil)
                #expect(try await tx.foods.delete(oats.id, now: monday) == false, "already gone")
            }
            #expect(try await annPerson.lastChange(.food, oats.id) == true, "the deletion is in the change feed")
            let kept = try food("Kept oats", at: monday)
            await #expect(throws: (any Error).self, "a food an ingredient refers to is not deleted by the records either") {
                try await ann.write { tx async throws in
                    try await tx.foods.insert(kept)
                    _ = try await tx.meals.insert(try MealDraft(description: "Porridge", ingredients: [Ingredient(foodId: kept.id, quantity: 50, unit: .gram)]).validated(),
                                                  id: UUID(), now: monday)
                    _ = try await tx.foods.delete(kept.id, now: monday)
                }
            }
        }
    }

    @Test(arguments: Backend.allCases) func mealsKeepTheirContentAndAPlannedOneIsNotDeletedByTheRecords(_ backend: Backend) async throws {
        try await withPeople(backend) { person in
            let annPerson = try await person()
            let ann = annPerson.library, bob = try await person().library
            let oats = try food("Rolled oats", at: monday)
            let content = try MealDraft(description: "Porridge", primaryProtein: "Milk", primaryCarb: "Oats", otherComponents: ["Berries", "Honey"],
                                        servings: 2, ingredients: [Ingredient(foodId: oats.id, quantity: 80, unit: .gram)]).validated()
            let mealID = UUID()
            let meal = try await ann.write { tx async throws in
                try await tx.foods.insert(oats)
                return try await tx.meals.insert(content, id: mealID, now: monday)
            }
            #expect(meal.content == content && meal.createdAt == monday && meal.updatedAt == monday)
            let friday = try #require(CalendarDate(iso: "2026-11-27"))
            let assignment = Assignment(id: UUID(), mealId: mealID, date: friday, createdAt: monday, mealType: "dinner")
            try await ann.write { tx async throws in
                #expect(try await tx.meals.find(mealID) == meal)
                #expect(try await tx.foods.meals(using: oats.id) == ["Porridge"])
                try await tx.plan.insert(assignment, now: monday)
            }
            try await bob.write { tx async throws in
                #expect(try await tx.meals.find(mealID) == nil)
                #expect(try await tx.foods.meals(using: oats.id).isEmpty)
                #expect(try await tx.meals.replace(mealID, with: content, now: monday) == nil)
                #expect(try await tx.plan.delete(assignment.id, now: monday) == nil)
                #expect(try await tx.plan.deleteAll(of: mealID, now: monday).isEmpty, "Bob has no plan of Ann's meal")
                #expect(try await tx.meals.delete(mealID, now: monday) == false)
            }
            let tuesday = monday.addingTimeInterval(86_400)
            let soup = try MealDraft(description: "Soup", manualNutrition: Nutrients(energyKcal: 250, protein: 12.5)).validated()
            try await ann.write { tx async throws in
                let changed = try #require(try await tx.meals.replace(mealID, with: soup, now: tuesday))
                #expect(changed.content == soup && changed.createdAt == monday && changed.updatedAt == tuesday)
                #expect(try await tx.meals.find(mealID) == changed)
                #expect(try await tx.foods.meals(using: oats.id).isEmpty, "its ingredients went with the change")
            }
            await #expect(throws: StillReferenced.self, "a meal still planned is not deleted by the records (the feed would miss its plan days)") {
                try await ann.write { tx async throws in _ = try await tx.meals.delete(mealID, now: tuesday) }
            }
            #expect(try await ann.write { try await $0.meals.find(mealID) } != nil, "nothing was deleted")
            try await ann.write { tx async throws in
                #expect(try await tx.plan.deleteAll(of: mealID, now: tuesday) == [assignment])
                #expect(try await tx.plan.delete(assignment.id, now: tuesday) == nil, "the plan day is gone")
                #expect(try await tx.meals.delete(mealID, now: tuesday))
            }
            #expect(try await annPerson.lastChange(.meal, mealID) == true)
            #expect(try await annPerson.lastChange(.assignment, assignment.id) == true, "the plan day's deletion is in the feed too")
        }
    }

    @Test(arguments: Backend.allCases) func mealTypesStartAsTheDefaultsAndMoveInOrder(_ backend: Backend) async throws {
        try await withLibraries(backend) { person in
            let ann = try await person(), bob = try await person()
            let defaults = try await ann.write { tx async throws in
                let read = try await tx.mealTypes.catalog(now: monday)
                #expect(read.all.map(\.key) == MealTypeCatalog.defaults(owner: UUID(), now: monday).all.map(\.key))
                let stored = try await tx.mealTypes.stored(now: monday)
                #expect(stored.all.map(\.id) == read.all.map(\.id))
                #expect(try await tx.mealTypes.find(read.all[0].id)?.name == "Breakfast", "stored (at sign-up on the server)")
                return stored
            }
            let brunch = MealType(id: UUID(), key: nil, name: "Brunch", window: SuggestionWindow(start: "10:00", end: "12:00"),
                                  position: defaults.all.count, createdAt: monday, updatedAt: monday)
            try await ann.write { tx async throws in
                try await tx.mealTypes.insert(brunch, now: monday)
                try await tx.mealTypes.move(brunch.id, to: 1, in: MealTypeCatalog(defaults.all + [brunch]), now: monday)
                let order = try await tx.mealTypes.catalog(now: monday).all
                #expect(order.map(\.name).prefix(3) == ["Breakfast", "Brunch", "Lunch"])
                #expect(order.map(\.position) == Array(0..<order.count), "numbered in order")
                var renamed = try #require(try await tx.mealTypes.find(brunch.id))
                renamed.name = "Late breakfast"
                renamed.hidden = true
                #expect(try await tx.mealTypes.replace(renamed, now: monday))
                #expect(try await tx.mealTypes.find(brunch.id)?.name == "Late breakfast")
            }
            try await bob.write { tx async throws in
                #expect(try await tx.mealTypes.find(brunch.id) == nil)
                #expect(try await tx.mealTypes.replace(brunch, now: monday) == false)
                #expect(try await tx.mealTypes.catalog(now: monday).all.count == defaults.all.count, "Bob has the defaults of his own")
            }
        }
    }

    @Test(arguments: Backend.allCases) func aWriteThatThrowsLeavesNothing(_ backend: Backend) async throws {
        struct Stop: Error {}
        try await withLibraries(backend) { person in
            let ann = try await person()
            let oats = try food("Rolled oats", at: monday)
            await #expect(throws: Stop.self) {
                try await ann.write { tx async throws in
                    try await tx.foods.insert(oats)
                    _ = try await tx.meals.insert(try MealDraft(description: "Porridge").validated(), id: UUID(), now: monday)
                    #expect(try await tx.foods.find(oats.id) != nil, "a transaction sees its own writes")
                    throw Stop()
                }
            }
            try await ann.write { tx async throws in #expect(try await tx.foods.find(oats.id) == nil) }
        }
    }

    /// Planning a meal while it is deleted: either it is planned and then deleted with its plan
    /// days, or planning finds no meal; never a plan day for a meal that is gone.
    @Test(arguments: Backend.allCases) func planningAMealWhileItIsDeletedNeverLeavesAPlanDayWithoutItsMeal(_ backend: Backend) async throws {
        try await withLibraries(backend) { person in
            let ann = try await person()
            let friday = try #require(CalendarDate(iso: "2026-11-27"))
            for _ in 0..<5 {
                let meal = try await SaveMeal(library: ann, now: monday).add(MealDraft(description: "Curry"), id: UUID())
                let ids = (0..<6).map { _ in UUID() }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for id in ids { group.addTask { _ = try await PlanMeal(library: ann, now: monday)(meal.id, on: friday, mealType: "dinner", id: id) } }
                    group.addTask { _ = try await DeleteMeal(library: ann, now: monday)(meal.id) }
                    try await group.waitForAll()
                }
                for id in ids {
                    #expect(try await ann.write { try await $0.plan.delete(id, now: monday) } == nil, "no plan day outlives its meal")
                }
            }
        }
    }

    /// Eight people at once adding a meal type of the same name to one account: one is added.
    @Test(arguments: Backend.allCases) func eightAddingTheSameMealTypeAtOnceMakeOne(_ backend: Backend) async throws {
        try await withLibraries(backend) { person in
            let ann = try await person()
            let added = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 {
                    group.addTask { (try? await SaveMealType(library: ann, now: monday).add(.init(name: "Brunch"), id: UUID())) != nil }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(added == 1)
            let names = try await ann.write { try await $0.mealTypes.catalog(now: monday).all.map(\.name) }
            #expect(names.filter { $0 == "Brunch" }.count == 1)
        }
    }

    @Test(arguments: Backend.allCases) func weightsProfileAndGoalsAreEachPersonsOwn(_ backend: Backend) async throws {
        try await withPeople(backend) { person in
            let annPerson = try await person()
            let ann = annPerson.body, bob = try await person().body
            let at = monday.addingTimeInterval(7 * 3600 + 0.25)
            let weight = WeightEntry(id: UUID(), measuredAt: at, weightKg: 70.45, source: "manual")
            try await ann.write { body async throws in
                #expect(try await body.profile() == nil)
                #expect(try await body.latestWeight() == nil)
                try await body.insertWeight(weight, now: monday)
                #expect(try await body.weight(weight.id) == weight)
                #expect(try await body.weights(at: at.addingTimeInterval(0.0003)).map(\.id) == [weight.id], "the same instant to the millisecond")
                #expect(try await body.weights(at: at.addingTimeInterval(0.002)).isEmpty)
                #expect(try await body.latestWeight() == weight)
            }
            try await bob.write { body async throws in
                #expect(try await body.weight(weight.id) == nil)
                #expect(try await body.weights(at: at).isEmpty)
                #expect(try await body.replaceWeight(weight, now: monday) == false)
                #expect(try await body.deleteWeight(weight.id, now: monday) == false)
            }
            var moved = weight
            moved.measuredAt = at.addingTimeInterval(3600)
            moved.weightKg = 70.1
            let profile = BodyProfile(sex: .female, birthDate: try #require(CalendarDate(iso: "1990-05-17")), heightCm: 168, weightKg: 65,
                                      activityLevel: .moderate, aim: .maintain)
            let goals = Goals(energyKcal: 1800, protein: 120, carbohydrates: 200, fat: 60)
            try await ann.write { [moved] body async throws in
                #expect(try await body.replaceWeight(moved, now: monday))
                #expect(try await body.weight(weight.id) == moved)
                try await body.saveProfile(profile, now: monday)
                try await body.saveGoals(goals, now: monday)
                let stored = try #require(try await body.profile())
                #expect(stored.heightCm == 168 && stored.sex == .female && stored.activityLevel == .moderate)
                #expect(stored.weightKg == 70.1, "a profile's weight is the newest weighing's")
                #expect(try await body.storedGoals() == goals)
            }
            try await bob.write { body async throws in
                #expect(try await body.profile() == nil)
                #expect(try await body.storedGoals() == nil)
            }
            #expect(try await annPerson.lastChange(.goals, annPerson.id) == false, "goals are in the change feed, keyed by the person")
            let twin = WeightEntry(id: UUID(), measuredAt: moved.measuredAt, weightKg: 69, source: "manual")
            await #expect(throws: (any Error).self, "one weighing per instant, whatever the use case checked") {
                try await ann.write { body async throws in try await body.insertWeight(twin, now: monday) }
            }
            try await ann.write { body async throws in
                #expect(try await body.deleteWeight(weight.id, now: monday))
                #expect(try await body.weight(weight.id) == nil)
                #expect(try await body.deleteWeight(weight.id, now: monday) == false, "already gone")
                let many = (1...3).map { WeightEntry(id: UUID(), measuredAt: monday.addingTimeInterval(Double($0) * 86_400), weightKg: 70, source: "apple-health") }
                try await body.insertWeights(many, now: monday)
                #expect(try await body.weights(from: many[1].measuredAt, to: nil).map(\.id) == many[1...].map(\.id), "from is included, oldest first")
                #expect(try await body.weights(from: nil, to: many[1].measuredAt).map(\.id) == many[..<2].map(\.id))
            }
            try await bob.write { body async throws in #expect(try await body.weights(from: nil, to: nil).isEmpty) }
        }
    }

    @Test(arguments: Backend.allCases) func diaryEntriesAndTheirPhotosAreEachPersonsOwn(_ backend: Backend) async throws {
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/photos/photo.jpg"))
        try await withPeople(backend) { person in
            let annPerson = try await person()
            let ann = annPerson.diary, bob = try await person().diary
            let day = CalendarDate(monday, in: .gmt)
            func entry(_ name: String, at hour: Double, photo: UUID? = nil) -> DiaryEntry {
                var entry = DiaryEntry(id: UUID(), loggedAt: monday.addingTimeInterval(hour * 3600), date: day, mealType: "snack", note: nil,
                                       kind: .quickAdd, name: name, nutrients: Nutrients(energyKcal: 100))
                entry.photoId = photo
                return entry
            }
            #expect(try await ann.mealTypes(now: monday).all.map(\.key) == MealTypeCatalog.defaults(owner: UUID(), now: monday).all.map(\.key), "the defaults")
            let pear = entry("Pear", at: 15), apple = entry("Apple", at: 10)
            try await ann.insert([pear, apple], now: monday)
            #expect(try await ann.entries(on: day).map(\.name) == ["Apple", "Pear"], "a day's entries in the order they were eaten")
            #expect(try await ann.entry(pear.id) == pear)
            #expect(try await annPerson.lastChange(.diaryEntry, pear.id) == false)
            #expect(try await bob.entry(pear.id) == nil)
            #expect(try await bob.entries(on: day).isEmpty)
            #expect(try await bob.replace(pear, deletingPhoto: nil, now: monday) == false)
            #expect(try await bob.delete(pear.id, now: monday) == nil)
            await #expect(throws: (any Error).self, "an id already stored") { try await bob.insert([pear], now: monday) }

            let shot = entry("Photo", at: 12)
            let photo = try await ann.insert(shot, showing: NewPhoto(id: UUID(), data: jpeg, thumbnail: nil, capturedAt: nil), now: monday)
            #expect(photo.format == .jpeg && photo.width > 0 && photo.capturedAt == monday)
            #expect(try await ann.hasPhoto(photo.id))
            #expect(try await bob.hasPhoto(photo.id) == false)
            var shown = shot
            shown.photoId = photo.id
            #expect(try await ann.replace(shown, deletingPhoto: nil, now: monday))
            #expect(try await ann.entry(showingPhoto: photo.id) == shot.id)
            await #expect(throws: (any Error).self, "one entry per photo, whatever the use case checked") {
                try await ann.insert([entry("Twin", at: 13, photo: photo.id)], now: monday)
            }
            var edited = pear
            edited.note = "ripe"
            #expect(try await ann.replace(edited, deletingPhoto: nil, now: monday))
            #expect(try await ann.entry(pear.id)?.note == "ripe")
            #expect(try await ann.delete(shot.id, now: monday)?.photoId == photo.id)
            #expect(try await ann.hasPhoto(photo.id) == false, "the photo goes with its entry")
            #expect(try await annPerson.lastChange(.photo, photo.id) == true)
            #expect(try await annPerson.lastChange(.diaryEntry, shot.id) == true)
            #expect(try await ann.delete(shot.id, now: monday) == nil, "already gone")
            #expect(try await ann.entries(on: day).count == 2)
        }
    }

    @Test(arguments: Backend.allCases) func anAccountIsCreatedWholeOrNotAtAll(_ backend: Backend) async throws {
        let now = monday
        func account(_ email: String) -> Account {
            Account(id: UUID(), email: email, passwordHash: "", displayName: "Ann \u{202E}<b>", timeZone: "Europe/Berlin", currency: "EUR")
        }
        func check(_ accounts: any Accounts, mealTypes: @escaping (UUID) async throws -> [MealType]) async throws {
            let create = CreateAccount(accounts: accounts, now: now)
            let identity = LinkedIdentity(provider: "apple", subject: "contract-\(UUID())", email: nil)
            let ann = account("contract-\(UUID().uuidString.prefix(8))@example.com")
            try await create(ann, identity: identity)
            #expect(try await mealTypes(ann.id).map(\.key) == MealTypeCatalog.defaults(owner: ann.id, now: now).all.map(\.key))
            let taken = await #expect(throws: Refusal.self) { try await create(account(ann.email.uppercased())) }
            #expect(taken == .conflict(CreateAccount.emailTaken))
            let closed = await #expect(throws: Refusal.self) { try await create(account("other-\(UUID())@example.com"), onlyIfFirst: true) }
            #expect(closed == .notAllowed(CreateAccount.signupClosed))
            let bob = account("bob-\(UUID().uuidString.prefix(8))@example.com")
            await #expect(throws: (any Error).self, "a sign-in links to one account, whatever the use case checked") {
                try await create(bob, identity: identity)
            }
            #expect(try await mealTypes(bob.id).isEmpty, "the account refused at its last step stored nothing")
            try await create(bob)
            #expect(try await accounts.write { try await $0.hasAccount(emailKey: bob.emailKey) })
        }
        switch backend {
        case .inMemory:
            let libraries = InMemoryLibraries()
            try await check(libraries.accounts) { owner in
                libraries.contents.mealTypes.values.filter { $0.owner == owner }.map(\.value).sorted { $0.position < $1.position }
            }
        case .database:
            try await withForkcast(allowSignup: true) { app in
                _ = try await app.signUp("first@example.com")
                try await check(FluentAccounts(db: app.db)) { owner in
                    try await MealTypeModel.query(on: app.db).filter(\.$ownerID == owner).sort(\.$position).all().map(\.domain)
                }
            }
        }
    }

    /// Invitations: only the first account invites; a link creates one account while
    /// sign-up is closed, once, until it expires; a revoked link creates none.
    @Test(arguments: Backend.allCases) func anInvitationCreatesOneAccountOnce(_ backend: Backend) async throws {
        let now = monday
        func account(_ email: String) -> Account {
            Account(id: UUID(), email: "\(email)-\(UUID().uuidString.prefix(8))@example.com", passwordHash: "", displayName: nil, timeZone: "UTC", currency: "EUR")
        }
        func check(_ accounts: any Accounts) async throws {
            let create = CreateAccount(accounts: accounts, now: now)
            if try await accounts.write({ try await $0.firstAccountID() }) == nil { try await create(account("owner")) }
            let owner = try #require(try await accounts.write { try await $0.firstAccountID() })
            let invite = InviteMember(accounts: accounts, now: now)
            let unknown = await #expect(throws: Refusal.self) { try await create(account("stranger"), onlyIfFirst: true, invitation: "no-such-\(UUID())") }
            #expect(unknown == .notAllowed(Invitation.notGood))
            let hash = "hash-\(UUID())"
            let made = try await invite(by: owner, tokenHash: hash)
            #expect(made.expiresAt == now.addingTimeInterval(Invitation.lifetime))
            #expect(try await invite.waiting(for: owner).open.map(\.id).contains(made.id))
            #expect(try await invite.waiting(for: owner).isOwner)
            #expect(try await invite.isOpen(tokenHash: hash))
            // The guest, then a second person with the same link: one account.
            let guest = account("guest")
            try await create(guest, onlyIfFirst: true, invitation: hash)
            #expect(try await accounts.write { try await $0.hasAccount(emailKey: guest.emailKey) })
            let again = account("again")
            let used = await #expect(throws: Refusal.self) { try await create(again, onlyIfFirst: true, invitation: hash) }
            #expect(used == .notAllowed(Invitation.notGood))
            #expect(try await !accounts.write { try await $0.hasAccount(emailKey: again.emailKey) }, "a refused link stores nothing")
            #expect(try await !invite.waiting(for: owner).open.map(\.id).contains(made.id))
            #expect(try await !invite.isOpen(tokenHash: hash), "used up")
            // Only the owner invites; the guest sees none.
            let notOwner = await #expect(throws: Refusal.self) { try await invite(by: guest.id, tokenHash: "h-\(UUID())") }
            #expect(notOwner == .notAllowed(Invitation.onlyTheOwner))
            let guestSees = try await invite.waiting(for: guest.id)
            #expect(!guestSees.isOwner && guestSees.open.isEmpty)
            // Expired and revoked links create nothing.
            let old = "old-\(UUID())"
            _ = try await InviteMember(accounts: accounts, now: now.addingTimeInterval(-Invitation.lifetime - 1))(by: owner, tokenHash: old)
            await #expect(throws: Refusal.self) { try await create(account("late"), onlyIfFirst: true, invitation: old) }
            #expect(try await !invite.isOpen(tokenHash: old), "expired")
            let revoked = "revoked-\(UUID())"
            let second = try await invite(by: owner, tokenHash: revoked)
            #expect(try await invite.revoke(second.id, by: owner))
            #expect(try await !invite.revoke(second.id, by: owner), "revoked once")
            await #expect(throws: Refusal.self) { try await create(account("revoked"), onlyIfFirst: true, invitation: revoked) }
            // An email taken leaves the link unused (the whole write is undone).
            let kept = "kept-\(UUID())"
            _ = try await invite(by: owner, tokenHash: kept)
            let taken = Account(id: UUID(), email: guest.email.uppercased(), passwordHash: "", displayName: nil, timeZone: "UTC", currency: "EUR")
            await #expect(throws: Refusal.self) { try await create(taken, onlyIfFirst: true, invitation: kept) }
            try await create(account("kept"), onlyIfFirst: true, invitation: kept)
            // Where sign-up is open, a stale link is no bar.
            try await create(account("open"), invitation: kept)
            // Six sign-ups at once with one link: exactly one account is created.
            let shared = "shared-\(UUID())"
            _ = try await invite(by: owner, tokenHash: shared)
            let racers = (0..<6).map { _ in account("racer") }
            let created = await withTaskGroup(of: Bool.self) { group in
                for racer in racers {
                    group.addTask { (try? await create(racer, onlyIfFirst: true, invitation: shared)) != nil }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(created == 1, "one link, one account")
            var stored = 0
            for racer in racers where try await accounts.read({ try await $0.hasAccount(emailKey: racer.emailKey) }) { stored += 1 }
            #expect(stored == 1)
        }
        switch backend {
        case .inMemory:
            try await check(InMemoryLibraries().accounts)
        case .database:
            try await withForkcast { app in
                _ = try await app.signUp("first@example.com")
                try await check(FluentAccounts(db: app.db))
            }
        }
    }
}
