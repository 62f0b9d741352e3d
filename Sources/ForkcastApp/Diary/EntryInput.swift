import ForkcastContract
import ForkcastCore
import Foundation

extension DiaryEntryInput.QuickAdd {
    var nutrients: Nutrients { Nutrients(energyKcal: energyKcal, protein: protein, carbohydrates: carbohydrates, fat: fat) }
}

extension DiaryEntryInput {
    /// Whether it says what was eaten (a food, a meal or a quick add), not only when or where.
    var counts: Bool { foodId != nil || mealId != nil || quickAdd != nil }
}
