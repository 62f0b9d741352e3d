import FluentKit
import ForkcastApp
import ForkcastCore
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

extension LibraryContractTests {
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
                #expect(try await body.weights(from: nil, to: many[1].measuredAt).map(\.id) == many[..<1].map(\.id), "to is not: the next day's midnight")
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
