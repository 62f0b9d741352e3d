import ForkcastApp
import ForkcastContract

// The body's wire inputs (ForkcastContract) as its use cases take them, for the API and sync.

extension SaveBodyProfile.Input {
    init(_ sent: BodyProfileInput) {
        self.init(sex: sent.sex, birthDate: sent.birthDate, heightCm: sent.heightCm, heightFt: sent.heightFt, heightIn: sent.heightIn,
                  weightKg: sent.weightKg, weightLb: sent.weightLb, activityLevel: sent.activityLevel, aim: sent.aim)
    }
}

extension SetGoals.Input {
    init(_ sent: GoalsInput) {
        self.init(source: sent.source, energyKcal: sent.energyKcal, protein: sent.protein, carbohydrates: sent.carbohydrates, fat: sent.fat,
                  targets: sent.targets?.changes ?? [:])
    }
}

extension RecordWeight.Input {
    init(_ sent: WeightInput) { self.init(measuredAt: sent.measuredAt, weightKg: sent.weightKg, weightLb: sent.weightLb) }
}
