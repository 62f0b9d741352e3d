import ForkcastApp
import ForkcastContract
import ForkcastCore

// The diary's wire inputs (ForkcastContract) as its use cases take them, for the API and sync.

extension EntryInput {
    init(_ sent: DiaryEntryInput) {
        self.init(loggedAt: sent.loggedAt, date: sent.date, mealType: sent.mealType, note: sent.note, foodId: sent.foodId,
                  quantity: sent.quantity, unit: sent.unit, mealId: sent.mealId, servings: sent.servings,
                  quickAdd: sent.quickAdd.map { Nutrients(energyKcal: $0.energyKcal, protein: $0.protein, carbohydrates: $0.carbohydrates, fat: $0.fat) },
                  name: sent.name, photoId: sent.photoId)
    }
}

extension LogEntry.Plate {
    init(_ sent: PlateInput) { self.init(loggedAt: sent.loggedAt, mealType: sent.mealType, note: sent.note, items: sent.items.map(EntryInput.init)) }
}
