import Foundation

/// The order of the meal library: unplanned meals first, meals already planned in the current
/// window last (seed 002 Req 2.5); within each group by description ignoring case, then by id.
public enum MealOrdering {
    /// The sort key the server and the database both use.
    public static func sortKey(description: String) -> String { description.matchKey }
}
