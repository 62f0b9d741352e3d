import Foundation

/// The daily reference intakes (the US Dietary Reference Intakes: the RDA, or the adequate intake
/// where there is none) for a person's sex and age, from 14 years: what a nutrient's daily target
/// is for someone with a body profile. Without one, the FDA daily values stand
/// (``Nutrient/dailyValue``), as do the limits (sugars, saturated fat, cholesterol, sodium).
public enum ReferenceIntake {
    /// The reference intakes for `sex` at `age`, in each nutrient's unit; empty below 14.
    public static func values(sex: Sex, age: Int) -> [Nutrient: Decimal] {
        guard age >= 14 else { return [:] }
        let teen = age < 19, over50 = age > 50, over70 = age > 70
        let d = { (s: String) in Decimal(string: s)! }
        switch sex {
        case .male:
            return [
                .fiber: over50 ? 30 : 38, .calcium: teen ? 1300 : (over70 ? 1200 : 1000), .iron: teen ? 11 : 8,
                .magnesium: teen ? 410 : (age <= 30 ? 400 : 420), .zinc: 11, .potassium: teen ? 3000 : 3400,
                .vitaminA: 900, .vitaminC: teen ? 75 : 90, .vitaminD: over70 ? 20 : 15, .vitaminE: 15, .vitaminK: teen ? 75 : 120,
                .vitaminB6: over50 ? d("1.7") : d("1.3"), .vitaminB12: d("2.4"), .thiamin: d("1.2"), .riboflavin: d("1.3"),
                .niacin: 16, .folate: 400,
            ]
        case .female:
            return [
                .fiber: teen ? 26 : (over50 ? 21 : 25), .calcium: teen ? 1300 : (over50 ? 1200 : 1000), .iron: teen ? 15 : (over50 ? 8 : 18),
                .magnesium: teen ? 360 : (age <= 30 ? 310 : 320), .zinc: teen ? 9 : 8, .potassium: teen ? 2300 : 2600,
                .vitaminA: 700, .vitaminC: teen ? 65 : 75, .vitaminD: over70 ? 20 : 15, .vitaminE: 15, .vitaminK: teen ? 75 : 90,
                .vitaminB6: teen ? d("1.2") : (over50 ? d("1.5") : d("1.3")), .vitaminB12: d("2.4"),
                .thiamin: teen ? 1 : d("1.1"), .riboflavin: teen ? 1 : d("1.1"), .niacin: 14, .folate: 400,
            ]
        }
    }
}
