import ForkcastCore
import Foundation

// Membership changes in memory: who is in which household, and the records a person added moving
// with them. The fake's libraries share a household's kitchen as the server's do
// (``InMemoryLibraries/Records/shares(_:with:)``); what moves on joining and leaving is simpler
// here (no merged meal types, no copy of the library for a leaver), which the engines' tests cover.
extension InMemoryAccounts.Records {
    func share(of member: UUID) async throws -> HouseholdShare {
        let records = tx.records
        let members = Set(records.memberships.filter { $0.value.household == records.memberships[member]?.household }.keys).union([member])
        return HouseholdShare(meals: records.meals.values.count { members.contains($0.owner) },
                              foods: records.foods.values.count { members.contains($0.owner) },
                              mealTypes: records.mealTypes.values.count { members.contains($0.owner) },
                              plannedMeals: records.assignments.values.count { members.contains($0.owner) },
                              shoppingLists: records.shoppingLists.values.count { members.contains($0.owner) })
    }

    func join(_ member: UUID, household: UUID, now: Date) async throws {
        tx.update { records in
            let old = records.memberships[member]?.household
            records.memberships[member] = (household, .member, now)
            if let old, !records.memberships.values.contains(where: { $0.household == old }) {
                records.households[old] = nil
                records.invitations = records.invitations.filter { $0.value.household != old }
            }
        }
    }

    func separate(_ member: UUID, keeper: UUID, into new: Household, now: Date) async throws {
        tx.update { records in
            func hand<V>(_ records: inout [UUID: InMemoryLibraries.Owned<V>]) {
                for (id, owned) in records where owned.owner == member { records[id] = .init(owner: keeper, value: owned.value) }
            }
            hand(&records.foods)
            hand(&records.meals)
            hand(&records.mealTypes)
            hand(&records.assignments)
            hand(&records.shoppingLists)
            records.households[new.id] = new
            records.memberships[member] = (new.id, .owner, now)
        }
    }

    func setRole(_ member: UUID, _ role: Household.Role) async throws {
        tx.update { records in records.memberships[member]?.role = role }
    }
}
