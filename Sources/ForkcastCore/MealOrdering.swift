import Foundation

/// The order of the meal library: unplanned meals first, meals already planned in the current
/// window last (002 Req 2.5); within each group by description ignoring case, then by id.
public enum MealOrdering {
    /// The sort key the server and the database both use.
    public static func sortKey(description: String) -> String { description.matchKey }

    public static func ordered(_ meals: [Meal], planned: Set<UUID>) -> [Meal] {
        meals.sorted { a, b in
            let pa = planned.contains(a.id), pb = planned.contains(b.id)
            if pa != pb { return !pa }
            let ka = sortKey(description: a.description), kb = sortKey(description: b.description)
            if ka != kb { return ka < kb }
            return a.id.uuidString < b.id.uuidString
        }
    }
}
