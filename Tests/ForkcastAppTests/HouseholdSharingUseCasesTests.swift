import ForkcastApp
import ForkcastCore
import Foundation
import Testing

/// Two people in one household on the in-memory fakes, through the use cases the server calls:
/// joining by a link, the rules of who may invite, leave, remove and hand over, one kitchen for
/// both (meals, plan), eaters checked against the members, each logging their own portions into
/// their own diary, and a third account outside seeing nothing.
@Suite("Households, shared on the in-memory store")
struct HouseholdSharingUseCasesTests {
    let libraries = InMemoryLibraries()
    let noon = Date(timeIntervalSince1970: 1_795_392_000 + 12 * 3600) // 2026-11-23 12:00 UTC
    var today: CalendarDate { CalendarDate(noon, in: .gmt) }
    var membership: HouseholdMembership { HouseholdMembership(accounts: libraries.accounts, now: noon) }

    func account(_ name: String) async throws -> UUID {
        let account = Account(id: UUID(), email: "\(name.lowercased())@example.com", passwordHash: "", displayName: name, timeZone: "UTC", currency: "EUR")
        try await CreateAccount(accounts: libraries.accounts, now: noon)(account)
        return account.id
    }

    func refusal(_ call: () async throws -> Void) async -> Refusal? {
        do { try await call() } catch let refusal as Refusal { return refusal } catch {}
        return nil
    }

    @Test func twoPeopleShareAKitchenAndEachKeepsTheirDiary() async throws {
        let ana = try await account("Ana"), ben = try await account("Ben"), cleo = try await account("Cleo")
        let bensSoup = try await SaveMeal(library: libraries.library(of: ben), now: noon)
            .add(MealDraft(description: "Soup", servings: 2, manualNutrition: Nutrients(energyKcal: 200)), id: UUID())

        // Joining: only the owner invites; a link works once; what moves is said first.
        _ = try await membership.invite(by: ana, tokenHash: "link")
        let preview = try #require(try await membership.preview(tokenHash: "link", for: ben))
        #expect(preview.refusal == nil && preview.share.meals == 1)
        let joined = try await membership.join(ben, tokenHash: "link")
        #expect(joined.members.map(\.id) == [ana, ben] && joined.members.map(\.role) == [.owner, .member])
        #expect(await refusal { _ = try await membership.join(cleo, tokenHash: "link") } == .notFound(Invitation.notGood))
        #expect(await refusal { _ = try await membership.invite(by: ben, tokenHash: "y") } == .notAllowed(HouseholdMembers.ownerOnly))

        // One kitchen: Ana sees and plans Ben's soup, for Ben only, two portions; Cleo sees nothing.
        #expect(try await libraries.library(of: ana).write { try await $0.meals.find(bensSoup.id) }?.description == "Soup")
        #expect(try await libraries.library(of: cleo).write { try await $0.meals.find(bensSoup.id) } == nil)
        let plan = PlanMeal(library: libraries.library(of: ana), now: noon)
        let strangerEats = await #expect(throws: ValidationError.self) {
            try await plan(bensSoup.id, on: today, mealType: "dinner", id: UUID(), eaters: [Eater(userId: cleo, portions: 1)])
        }
        #expect(strangerEats?.fields.map(\.field) == ["eaters[0].userId"], "only members eat")
        let planned = try #require(try await plan(bensSoup.id, on: today, mealType: "dinner", id: UUID(), eaters: [Eater(userId: ben, portions: 2)]))
        #expect(try await PlanMeal(library: libraries.library(of: cleo), now: noon)(bensSoup.id, on: today, mealType: "dinner", id: UUID()) == nil)

        // Each logs their own portions into their own diary.
        let bens = try #require(try await LogEntry(diary: libraries.diary(of: ben, zone: .gmt), now: noon, uuid: { UUID() }).planned(planned.assignment.id))
        #expect(bens.kind == .meal(mealId: bensSoup.id, servings: 2) && bens.nutrients.energyKcal == 400)
        #expect(libraries.contents.entries[bens.id]?.owner == ben)
        #expect(try await libraries.diary(of: ana, zone: .gmt).entry(bens.id) == nil, "another member's diary stays theirs")
        #expect(try await LogEntry(diary: libraries.diary(of: cleo, zone: .gmt), now: noon, uuid: { UUID() }).planned(planned.assignment.id) == nil)

        // Leaving: the owner hands over first; the one who leaves has no part in the kitchen after.
        #expect(await refusal { _ = try await membership.leave(ana) } == .conflict(HouseholdMembers.handOverFirst))
        #expect(await refusal { _ = try await membership.remove(ana, by: ben) } == .notAllowed(HouseholdMembers.ownerOnly))
        #expect(try await membership.handOver(to: ben, by: ana).members.map(\.role) == [.owner, .member])
        let own = try await membership.leave(ana)
        #expect(own.members.map(\.id) == [ana] && own.household.id != joined.household.id)
        #expect(try await libraries.library(of: ana).write { try await $0.plan.find(planned.assignment.id) } == nil, "not the plan")
        #expect(try await libraries.library(of: ben).write { try await $0.plan.find(planned.assignment.id) } != nil, "the household keeps it")
    }
}
