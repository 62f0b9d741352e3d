import ForkcastApp
import ForkcastCore
import Foundation
import Testing

/// ``CreateAccount`` alone on the in-memory accounts: sign-up, `forkcast user create` and a first
/// sign-in with Apple or OpenID Connect all store an account through it.
@Suite("Creating an account, alone on the in-memory store")
struct AccountUseCasesTests {
    let libraries = InMemoryLibraries()
    let now = Date(timeIntervalSince1970: 1_795_392_000)

    func account(_ email: String) -> Account {
        Account(id: UUID(), email: email, passwordHash: "", displayName: nil, timeZone: "UTC", currency: "EUR")
    }

    @Test func anAccountStartsWithItsSettingsAndTheDefaultMealTypesInTheFeed() async throws {
        let ann = account("Ann@example.com")
        try await CreateAccount(accounts: libraries.accounts, now: now)(ann, identity: LinkedIdentity(provider: "apple", subject: "a1", email: nil))
        let stored = libraries.contents
        #expect(stored.accounts[ann.id] == ann && stored.identities[LinkedIdentity(provider: "apple", subject: "a1", email: nil)] == ann.id)
        let types = stored.mealTypes.values.filter { $0.owner == ann.id }.map(\.value).sorted { $0.position < $1.position }
        #expect(types.map(\.key) == MealTypeCatalog.defaults(owner: ann.id, now: now).all.map(\.key))
        #expect(stored.changes.first == .init(kind: .settings, id: ann.id, deleted: false, at: now))
        #expect(stored.changes.filter { $0.kind == .mealType }.count == types.count)
    }

    @Test func anEmailIsTakenInAnyCaseAndAClosedServerTakesOnlyTheFirst() async throws {
        let create = CreateAccount(accounts: libraries.accounts, now: now)
        try await create(account("ann@example.com"), onlyIfFirst: true)
        let taken = await #expect(throws: Refusal.self) { try await create(account("ANN@Example.com")) }
        #expect(taken == .conflict(CreateAccount.emailTaken))
        let closed = await #expect(throws: Refusal.self) { try await create(account("bob@example.com"), onlyIfFirst: true) }
        #expect(closed == .notAllowed(CreateAccount.signupClosed))
        #expect(libraries.contents.accounts.count == 1)
        #expect(libraries.contents.mealTypes.count == MealTypeCatalog.defaults(owner: UUID(), now: now).all.count, "a refused account stores nothing")
    }

    @Test func aSignInLinkedElsewhereLeavesNoHalfMadeAccount() async throws {
        let create = CreateAccount(accounts: libraries.accounts, now: now)
        let identity = LinkedIdentity(provider: "oidc", subject: "same", email: nil)
        try await create(account("ann@example.com"), identity: identity)
        let before = libraries.contents
        await #expect(throws: InMemoryAccounts.IdentityLinkedTwice.self) { try await create(account("bob@example.com"), identity: identity) }
        let after = libraries.contents
        #expect(after.accounts == before.accounts && after.mealTypes.count == before.mealTypes.count && after.changes == before.changes)
    }

    @Test func deletingAnAccountTakesEverythingOfItAndNothingOfAnothers() async throws {
        let create = CreateAccount(accounts: libraries.accounts, now: now)
        let ann = account("ann@example.com"), bob = account("bob@example.com")
        try await create(ann, identity: LinkedIdentity(provider: "apple", subject: "a1", email: nil))
        try await create(bob)
        for owner in [ann.id, bob.id] {
            _ = try await SaveFood(library: libraries.library(of: owner), now: now).add(FoodDraft(name: "Bread", per100: Nutrients(energyKcal: 250)), id: UUID())
            try await RecordWeight(store: libraries.body(of: owner), now: now)(.init(measuredAt: nil, weightKg: 70, weightLb: nil), id: UUID())
        }
        #expect(try await DeleteAccount(accounts: libraries.accounts)(ann.id))
        let stored = libraries.contents
        #expect(stored.accounts.keys.sorted { $0.uuidString < $1.uuidString } == [bob.id])
        #expect(stored.foods.values.allSatisfy { $0.owner == bob.id } && stored.foods.count == 1)
        #expect(stored.weights.values.allSatisfy { $0.owner == bob.id } && stored.mealTypes.values.allSatisfy { $0.owner == bob.id })
        #expect(stored.identities.isEmpty, "Ann's sign-in with Apple goes with her")
        #expect(try await DeleteAccount(accounts: libraries.accounts)(ann.id) == false, "deleted already")
    }

    @Test func eightFirstVisitsAtOnceMakeOneAccount() async throws {
        let create = CreateAccount(accounts: libraries.accounts, now: now)
        let made = await withTaskGroup(of: Bool.self) { group in
            for n in 0..<8 { group.addTask { (try? await create(account("p\(n)@example.com"), onlyIfFirst: true)) != nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(made == 1 && libraries.contents.accounts.count == 1)
    }
}
