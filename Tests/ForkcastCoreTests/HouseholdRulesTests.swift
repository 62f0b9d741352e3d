import ForkcastCore
import Foundation
import Testing

/// Who may change a household's members, and who eats a planned meal.
@Suite("Household rules")
struct HouseholdRulesTests {
    let owner = UUID(), member = UUID(), stranger = UUID()

    var two: HouseholdMembers {
        HouseholdMembers(household: Household(id: UUID(), name: "Home", createdAt: Date(), updatedAt: Date()),
                         members: [.init(id: member, displayName: "Ben", role: .member), .init(id: owner, displayName: "Ana", role: .owner)])
    }

    @Test func theOwnerHandsOverBeforeLeavingAndOnlyTheOwnerRemoves() {
        #expect(two.members.first?.id == owner, "the owner first")
        #expect(two.refusalToLeave(owner) == HouseholdMembers.handOverFirst)
        #expect(two.refusalToLeave(member) == nil)
        #expect(two.refusalToLeave(stranger) == HouseholdMembers.notAMember)
        var alone = two
        alone.members = [alone.members[0]]
        #expect(alone.refusalToLeave(owner) == HouseholdMembers.aloneAlready)
        #expect(two.refusalToRemove(member, by: owner) == nil)
        #expect(two.refusalToRemove(owner, by: member) == HouseholdMembers.ownerOnly)
        #expect(two.refusalToRemove(owner, by: owner) == HouseholdMembers.notYourself)
        #expect(two.refusalToRemove(stranger, by: owner) == HouseholdMembers.notAMember)
        #expect(two.refusalToHandOver(to: member, by: owner) == nil)
        #expect(two.refusalToHandOver(to: owner, by: member) == HouseholdMembers.ownerOnly)
    }

    @Test func joiningAnotherHouseholdLeavesNobodyBehind() {
        let two = two
        #expect(two.refusalToJoin(UUID(), otherCount: 1) == HouseholdMembers.leaveFirst)
        #expect(two.refusalToJoin(two.household.id, otherCount: 2) == HouseholdMembers.alreadyIn)
        var alone = two
        alone.members = [alone.members[0]]
        #expect(alone.refusalToJoin(UUID(), otherCount: 3) == nil)
        #expect(alone.refusalToJoin(UUID(), otherCount: HouseholdMembers.memberLimit) == HouseholdMembers.full)
    }

    @Test func eatersSayWhoEatsAndHowMuch() {
        let everyone = Assignment(mealId: UUID(), date: CalendarDate(iso: "2026-12-02")!)
        #expect(everyone.portions(for: owner) == 1 && everyone.isEaten(by: stranger), "nobody named: everyone, one portion each")
        var named = everyone
        named.eaters = [Eater(userId: owner, portions: 2.5)]
        #expect(named.portions(for: owner) == 2.5 && !named.isEaten(by: member))
        #expect(CalendarFeed.Scope.me.shows(named, to: owner) && !CalendarFeed.Scope.me.shows(named, to: member))
        #expect(CalendarFeed.Scope.household.shows(named, to: member) && CalendarFeed.Scope.me.shows(everyone, to: member))
        let members: Set = [owner, member]
        #expect(Assignment.problems(eaters: nil, members: members).isEmpty)
        #expect(Assignment.problems(eaters: named.eaters, members: members).isEmpty)
        #expect(Assignment.problems(eaters: [], members: members).map(\.field) == ["eaters"])
        let bad = [Eater(userId: stranger, portions: 1), Eater(userId: owner, portions: 0), Eater(userId: owner, portions: 1),
                   Eater(userId: member, portions: Decimal(string: "1e100")!), Eater(userId: UUID(), portions: -5)]
        #expect(Assignment.problems(eaters: bad, members: members).map(\.field) ==
                ["eaters[0].userId", "eaters[1].portions", "eaters[2].userId", "eaters[3].portions", "eaters[4].userId", "eaters[4].portions"])
        #expect(Assignment.initials(of: "Ana Lima") == "AL" && Assignment.initials(of: nil) == "?" && Assignment.initials(of: "  ") == "?")
    }

    @Test func membersWithoutANameStayDistinctOnThePages() {
        let ana = Household.Member(id: UUID(), displayName: nil, role: .owner), ben = Household.Member(id: UUID(), displayName: " ", role: .member)
        let cleo = Household.Member(id: UUID(), displayName: "Cleo Dias", role: .member), all = [ana, ben, cleo]
        #expect(all.map { Household.name(of: $0, among: all, me: ana.id) } == ["You", "Member 2", "Cleo Dias"])
        #expect(all.map { Household.name(of: $0, among: all, me: ben.id) } == ["Member 1", "You", "Cleo Dias"])
        #expect(all.map { Assignment.initials(of: Household.name(of: $0, among: all, me: cleo.id)) } == ["M1", "M2", "CD"],
                "initials on the planner tell them apart")
    }
}
