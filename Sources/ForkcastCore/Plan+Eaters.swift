import Foundation

/// Who eats a planned meal, and how many portions: a household plans once and each person logs
/// their own share. An assignment without eaters is everyone's, one portion each.
public struct Eater: Hashable, Sendable, Codable {
    public var userId: UUID
    public var portions: Decimal

    public init(userId: UUID, portions: Decimal) {
        self.userId = userId
        self.portions = portions
    }

    /// The most portions one person eats of one planned meal.
    public static let maximumPortions: Decimal = 20
}

extension Assignment {
    /// The portions `person` eats of it: their own when eaters are named, one when none are (every
    /// member eats); nil when eaters are named and they are not among them.
    public func portions(for person: UUID) -> Decimal? {
        guard let eaters else { return 1 }
        return eaters.first { $0.userId == person }?.portions
    }

    /// Whether `person` eats it.
    public func isEaten(by person: UUID) -> Bool { portions(for: person) != nil }

    /// The problems of `eaters` for a household of `members`: each a member, once, eating more
    /// than 0 and at most ``Eater/maximumPortions`` portions. An empty list is refused: a meal
    /// nobody eats is removed, not planned.
    public static func problems(eaters: [Eater]?, members: Set<UUID>?) -> [ValidationError.Field] {
        guard let eaters else { return [] }
        if eaters.isEmpty { return [.init(field: "eaters", message: "Name at least one person who eats it, or leave eaters out for everyone.")] }
        var problems: [ValidationError.Field] = []
        var seen = Set<UUID>()
        for (index, eater) in eaters.enumerated() {
            if !seen.insert(eater.userId).inserted {
                problems.append(.init(field: "eaters[\(index)].userId", message: "Each person is named once."))
            } else if let members, !members.contains(eater.userId) {
                problems.append(.init(field: "eaters[\(index)].userId", message: "There is nobody with id \(eater.userId) in your household."))
            }
            if !(eater.portions > 0 && eater.portions <= Eater.maximumPortions) {
                problems.append(.init(field: "eaters[\(index)].portions", message: "Portions are more than 0 and at most \(Eater.maximumPortions); got \(eater.portions)."))
            }
        }
        return problems
    }

    /// Initials of a person's name for the planner ("Ana Lima" → "AL"); "?" without one.
    public static func initials(of name: String?) -> String {
        let words = (name ?? "").split(whereSeparator: \.isWhitespace).prefix(2)
        let letters = words.compactMap(\.first).map { String($0).uppercased() }.joined()
        return letters.isEmpty ? "?" : letters
    }
}
