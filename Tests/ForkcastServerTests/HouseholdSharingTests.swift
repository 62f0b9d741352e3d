import Fluent
import ForkcastClient
import ForkcastContract
import ForkcastCore
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

/// Two people in one household through the Swift client, on a running server and a real database
/// (SQLite, and PostgreSQL in CI's second run): the owner invites, an existing account joins with
/// what it has, both plan and shop from one library, each diary stays its owner's, a third account
/// sees nothing, and leaving gives a household of one's own with a copy of the library.
@Suite("Households: sharing a kitchen")
struct HouseholdSharingTests {
    struct Person {
        let api: ForkcastAPI
        let id: UUID
    }

    static func person(_ url: URL, _ name: String) async throws -> Person {
        let session = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "\(name.lowercased())@example.com", password: "correct horse", displayName: name)
        return Person(api: ForkcastAPI(baseURL: url, token: session.token, transport: .patient), id: session.user.id)
    }

    @Test func twoPeopleShareALibraryPlanAndListsButNotTheirDiaries() async throws {
        try await withServer(allowSignup: true) { _, url in
            let ana = try await Self.person(url, "Ana"), ben = try await Self.person(url, "Ben"), cleo = try await Self.person(url, "Cleo")
            let anasChili = try await ana.api.createMeal(MealInput(description: "Chili"))
            let bensChili = try await ben.api.createMeal(MealInput(description: "Chili"))
            let bensEntry = try await ben.api.log(DiaryEntryInput(mealType: "snack", quickAdd: .init(energyKcal: 321), name: "Ben's secret snack"))
            let bensCursor = try await ben.api.changes(since: nil).cursor

            let invitation = try await ana.api.inviteToHousehold()
            #expect(invitation.link?.contains("/household/join?invite=") == true)
            #expect(try await ana.api.householdInvitations().map(\.id) == [invitation.id])
            let joined = try await ben.api.joinHousehold(token: invitation.token!)
            #expect(joined.members.map(\.id) == [ana.id, ben.id] && joined.members.map(\.role) == ["owner", "member"])
            #expect(await problemStatus { _ = try await cleo.api.joinHousehold(token: invitation.token!) } == 404, "a link works once")
            #expect(await problemStatus { _ = try await ben.api.inviteToHousehold() } == 403, "only the owner invites")

            // One library: both Chilis, ids kept, nothing merged.
            let anaSees = Set(try await ana.api.meals().items.map(\.id)), benSees = Set(try await ben.api.meals().items.map(\.id))
            #expect(anaSees == [anasChili.id, bensChili.id] && benSees == anaSees)
            #expect(try await cleo.api.meals().items.isEmpty, "a third account sees nothing of it")
            #expect(await problemStatus { _ = try await cleo.api.meal(anasChili.id) } == 404)
            // One plan: what one plans, the other sees; the other changes it.
            let today = try await ana.api.plan().today
            let planned = try await ben.api.assign(mealId: anasChili.id, date: today, servings: 4)
            #expect(try await ana.api.plan(start: today, days: 1).days.first?.assignments.map(\.id) == [planned.id])
            _ = try await ana.api.updateAssignment(planned.id, AssignmentInput(mealId: bensChili.id, date: today, servings: 2))
            #expect(try await ben.api.plan(start: today, days: 1).days.first?.assignments.first?.mealId == bensChili.id)
            // Ben's synced device learns of Ana's meal and the change to the plan; never of Ana's diary.
            let anasEntry = try await ana.api.log(DiaryEntryInput(mealType: "lunch", quickAdd: .init(energyKcal: 500), name: "Ana's lunch"))
            let pulled = try await ben.api.changes(since: bensCursor).changes
            #expect(pulled.contains { $0.id == anasChili.id && $0.op == "upsert" })
            #expect(pulled.contains { $0.id == planned.id })
            #expect(!pulled.contains { $0.id == anasEntry.id }, "another member's diary is not in the feed")
            // Diaries stay their owners'.
            #expect(try await ana.api.diaryDay().entries.flatMap(\.entries).map(\.id) == [anasEntry.id])
            #expect(try await ben.api.diaryDay().entries.flatMap(\.entries).map(\.id) == [bensEntry.id])
            #expect(await problemStatus { _ = try await ana.api.editEntry(bensEntry.id, DiaryEntryInput(mealType: "snack", quickAdd: .init(energyKcal: 1), name: "x")) } == 404)
            // One shopping list for both.
            let list = try await ana.api.makeShoppingList(from: today, to: today)
            #expect(try await ben.api.shoppingList(list.id).id == list.id)
            #expect(await problemStatus { _ = try await cleo.api.shoppingList(list.id) } == 404)

            // Owners hand over before they leave; members leave with a copy of the library.
            #expect(await problemStatus { _ = try await ana.api.leaveHousehold() } == 409)
            let handed = try await ana.api.handHouseholdOver(to: ben.id)
            #expect(handed.members.first?.id == ben.id && handed.members.map(\.role) == ["owner", "member"])
            let own = try await ana.api.leaveHousehold()
            #expect(own.members.map(\.id) == [ana.id] && own.members.first?.role == "owner" && own.id != joined.id)
            let anasCopies = try await ana.api.meals().items
            #expect(anasCopies.map(\.description).sorted() == ["Chili", "Chili"] && Set(anasCopies.map(\.id)).isDisjoint(with: anaSees),
                    "a copy of the library, under new ids")
            #expect(try await ana.api.plan(start: today, days: 1).days.first?.assignments.isEmpty == true, "not the plan")
            #expect(try await ana.api.shoppingLists().items.isEmpty, "nor the lists")
            #expect(Set(try await ben.api.meals().items.map(\.id)) == anaSees, "the household keeps what Ana added")
            #expect(try await ben.api.plan(start: today, days: 1).days.first?.assignments.map(\.id) == [planned.id])
            #expect(try await ana.api.diaryDay().entries.flatMap(\.entries).map(\.id) == [anasEntry.id], "her diary goes with her")
        }
    }

    @Test func theOwnerRemovesAndAnInvitedPersonSignsUpWhileSignUpIsClosed() async throws {
        try await withServer(allowSignup: false) { _, url in
            // The first account is the only one sign-up makes while it is closed.
            let anaSession = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "ana@example.com", password: "correct horse", displayName: "Ana")
            let ana = ForkcastAPI(baseURL: url, token: anaSession.token, transport: .patient)
            let soup = try await ana.createMeal(MealInput(description: "Soup"))
            let invitation = try await ana.inviteToHousehold()
            let revoked = try await ana.inviteToHousehold()
            try await ana.revokeHouseholdInvitation(revoked.id)
            #expect(await problemStatus { _ = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "x@example.com", password: "correct horse", invitation: revoked.token) } == 403)

            let danSession = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "dan@example.com", password: "correct horse", displayName: "Dan", invitation: invitation.token)
            let dan = ForkcastAPI(baseURL: url, token: danSession.token, transport: .patient)
            #expect(try await dan.household().members.map(\.id) == [anaSession.user.id, danSession.user.id])
            #expect(try await dan.meals().items.map(\.id) == [soup.id], "lands in the household, with its library")
            let anasTypes = try await ana.mealTypes().map(\.id)
            #expect(try await dan.mealTypes().map(\.id) == anasTypes, "one set of meal types")

            let dansBowl = try await dan.log(DiaryEntryInput(mealType: "lunch", mealId: soup.id, servings: 1))
            #expect(await problemStatus { _ = try await dan.removeHouseholdMember(anaSession.user.id) } == 403)
            #expect(await problemStatus { _ = try await ana.removeHouseholdMember(UUID()) } == 404)
            let after = try await ana.removeHouseholdMember(danSession.user.id)
            #expect(after.members.map(\.id) == [anaSession.user.id])
            #expect(try await dan.household().members.map(\.role) == ["owner"])
            let dansCopy = try await dan.meals().items
            #expect(dansCopy.map(\.description) == ["Soup"] && dansCopy.first?.id != soup.id)
            let entry = try await dan.diaryDay().entries.flatMap(\.entries).first { $0.id == dansBowl.id }
            #expect(entry?.mealId == dansCopy.first?.id, "his diary points at his copy, which he can open")
        }
    }
}

extension HouseholdSharingTests {
    @Test func eachPersonLogsTheirOwnPortionsOfAPlannedMeal() async throws {
        try await withServer(allowSignup: true) { _, url in
            let ana = try await Self.person(url, "Ana"), ben = try await Self.person(url, "Ben")
            _ = try await ben.api.joinHousehold(token: try await ana.api.inviteToHousehold().token!)
            let stew = try await ana.api.createMeal(MealInput(description: "Stew", servings: 4, nutrition: .init(energyKcal: 400)))
            let today = try await ana.api.plan().today
            let forAna = try await ana.api.assign(mealId: stew.id, date: today, mealType: "dinner", servings: 4,
                                                  eaters: [EaterEntry(userId: ana.id, portions: 2)])
            #expect(forAna.eaters == [EaterEntry(userId: ana.id, portions: 2)])
            let forBoth = try await ben.api.assign(mealId: stew.id, date: today, mealType: "lunch")
            #expect(forBoth.eaters == nil, "nobody named: everyone, one portion each")
            #expect(try await ben.api.plan(start: today, days: 1).days.first?.assignments.first { $0.id == forAna.id }?.eaters?.first?.userId == ana.id)

            // Each logs their own portions into their own diary.
            let anas = try await ana.api.logPlanned(forAna.id)
            #expect(anas.quantity == 2 && anas.nutrients.energyKcal == 800)
            let bens = try await ben.api.logPlanned(forBoth.id)
            #expect(bens.quantity == 1 && bens.nutrients.energyKcal == 400)
            #expect(try await ana.api.diaryDay().entries.flatMap(\.entries).map(\.id) == [anas.id])

            // Eaters from outside the household, twice, or eating nothing: 422 naming the field, nothing changes.
            for (eaters, field) in [([EaterEntry(userId: UUID(), portions: 1)], "eaters[0].userId"),
                                    ([EaterEntry(userId: ben.id, portions: 1), EaterEntry(userId: ben.id, portions: 1)], "eaters[1].userId"),
                                    ([EaterEntry(userId: ben.id, portions: 0)], "eaters[0].portions"),
                                    ([EaterEntry(userId: ben.id, portions: Decimal(string: "1e100")!)], "eaters[0].portions"),
                                    ([], "eaters")] {
                do {
                    _ = try await ana.api.updateAssignment(forAna.id, AssignmentInput(mealId: stew.id, date: today, eaters: eaters))
                    Issue.record("\(eaters) was accepted")
                } catch ForkcastError.problem(let status, _, _, let fields) {
                    #expect(status == 422 && fields.map(\.field).contains(field), "\(fields)")
                }
            }
            #expect(try await ana.api.plan(start: today, days: 1).days.first?.assignments.first { $0.id == forAna.id }?.eaters?.first?.portions == 2)
        }
    }
}
