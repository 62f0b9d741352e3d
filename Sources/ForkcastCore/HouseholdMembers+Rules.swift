import Foundation

/// Who may change a household's members, and how. Each answer is nil when the change may be made,
/// or what to tell the person when it may not.
extension HouseholdMembers {
    /// The most people one household holds.
    public static let memberLimit = 20

    public static let ownerOnly = "Only the household's owner can do this."
    public static let handOverFirst = "You own this household and others are in it: hand ownership to one of them first (Settings › Household)."
    public static let aloneAlready = "You are the only one in this household; there is nobody to leave."
    public static let notAMember = "There is nobody with that id in your household."
    public static let notYourself = "That is you: to go, leave the household instead."
    public static let alreadyIn = "You are in this household already."
    public static let full = "This household has \(memberLimit) people in it already."
    public static let leaveFirst = "You share a household with others: leave it first (Settings › Household), then join with the link."

    public func isOwner(_ person: UUID) -> Bool { role(of: person) == .owner }

    /// Why `person` may not leave: the owner while others remain, or a person alone.
    public func refusalToLeave(_ person: UUID) -> String? {
        guard role(of: person) != nil else { return Self.notAMember }
        if members.count == 1 { return Self.aloneAlready }
        return isOwner(person) ? Self.handOverFirst : nil
    }

    /// Why `person` may not take `member` out of the household.
    public func refusalToRemove(_ member: UUID, by person: UUID) -> String? {
        guard isOwner(person) else { return Self.ownerOnly }
        if member == person { return Self.notYourself }
        return role(of: member) == nil ? Self.notAMember : nil
    }

    /// Why `person` may not make `member` the owner.
    public func refusalToHandOver(to member: UUID, by person: UUID) -> String? {
        guard isOwner(person) else { return Self.ownerOnly }
        if member == person { return "You own this household already." }
        return role(of: member) == nil ? Self.notAMember : nil
    }

    /// Why `person`, in this household now, may not move into the household `other` (whose
    /// people are counted in `otherCount`): one household at a time, and nobody is left behind.
    public func refusalToJoin(_ other: UUID, otherCount: Int) -> String? {
        if other == household.id { return Self.alreadyIn }
        if members.count > 1 { return Self.leaveFirst }
        return otherCount >= Self.memberLimit ? Self.full : nil
    }
}

/// What joining a household takes along: the person's shared records, which become the
/// household's (ids kept, nothing merged; meal types of the same name become one).
public struct HouseholdShare: Sendable, Hashable, Codable {
    public var meals: Int
    public var foods: Int
    public var mealTypes: Int
    public var plannedMeals: Int
    public var shoppingLists: Int

    public init(meals: Int, foods: Int, mealTypes: Int, plannedMeals: Int, shoppingLists: Int) {
        (self.meals, self.foods, self.mealTypes, self.plannedMeals, self.shoppingLists) = (meals, foods, mealTypes, plannedMeals, shoppingLists)
    }

    /// "3 meals, 12 foods, 4 meal types, 9 planned meals and 1 shopping list".
    public var summary: String {
        let parts = [(meals, "meal", "meals"), (foods, "food", "foods"), (mealTypes, "meal type", "meal types"),
                     (plannedMeals, "planned meal", "planned meals"), (shoppingLists, "shopping list", "shopping lists")]
            .map { "\($0.0) \($0.0 == 1 ? $0.1 : $0.2)" }
        return parts.dropLast().joined(separator: ", ") + " and " + parts.last!
    }
}
