import ForkcastCore
import Foundation

extension OccasionRef {
    /// The occasion `entry` is in.
    init(_ entry: DiaryEntry, owner: UUID, types: MealTypeCatalog) {
        self.init(id: entry.occasionId(owner: owner), date: entry.date, mealType: entry.mealType,
                  name: "\(types.name(of: entry.mealType)) on \(entry.date.longText)")
    }
}
