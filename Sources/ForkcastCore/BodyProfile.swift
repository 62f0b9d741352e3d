import Foundation

/// Sex as used by the Mifflin-St Jeor equation.
public enum Sex: String, Sendable, Codable, CaseIterable {
    case male, female
}

/// The five activity levels of seed 003 and their TDEE multipliers.
public enum ActivityLevel: String, Sendable, Codable, CaseIterable {
    case sedentary, light, moderate, active, veryActive

    public var multiplier: Decimal {
        switch self {
        case .sedentary: Decimal(string: "1.2")!
        case .light: Decimal(string: "1.375")!
        case .moderate: Decimal(string: "1.55")!
        case .active: Decimal(string: "1.725")!
        case .veryActive: Decimal(string: "1.9")!
        }
    }

    public var label: String {
        switch self {
        case .sedentary: "Sedentary (little or no exercise)"
        case .light: "Lightly active (1–3 days a week)"
        case .moderate: "Moderately active (3–5 days a week)"
        case .active: "Active (6–7 days a week)"
        case .veryActive: "Very active (hard exercise or a physical job)"
        }
    }

    /// The label in a few words, for a choice on a phone's width (the arithmetic says ``label``).
    public var shortLabel: String {
        switch self {
        case .sedentary: "Sedentary, little exercise"
        case .light: "Light, 1–3 days a week"
        case .moderate: "Moderate, 3–5 days a week"
        case .active: "Active, 6–7 days a week"
        case .veryActive: "Very active, physical job"
        }
    }
}

/// What the person wants (seed 003): lose (−500 kcal), keep (±0) or gain (+300 kcal).
public enum Aim: String, Sendable, Codable, CaseIterable {
    case cut, maintain, bulk

    public var adjustment: Decimal {
        switch self {
        case .cut: -500
        case .maintain: 0
        case .bulk: 300
        }
    }

    public var label: String {
        switch self {
        case .cut: "Lose weight (−500 kcal)"
        case .maintain: "Maintain"
        case .bulk: "Gain (+300 kcal)"
        }
    }
}

/// Body data the goals are computed from (metric: cm and kg).
public struct BodyProfile: Hashable, Sendable, Codable {
    public var sex: Sex
    public var birthDate: CalendarDate
    public var heightCm: Decimal
    public var weightKg: Decimal
    public var activityLevel: ActivityLevel
    public var aim: Aim

    public init(sex: Sex, birthDate: CalendarDate, heightCm: Decimal, weightKg: Decimal, activityLevel: ActivityLevel, aim: Aim) {
        self.sex = sex
        self.birthDate = birthDate
        self.heightCm = heightCm
        self.weightKg = weightKg
        self.activityLevel = activityLevel
        self.aim = aim
    }

    /// The profile goals are computed from: the latest weighing replaces the weight typed into the
    /// profile (goals follow the scale), when there is one and it is plausible.
    public func following(latestWeight kg: Decimal?) -> BodyProfile {
        guard let kg, Plausible.bodyWeightKg.contains(kg) else { return self }
        var profile = self
        profile.weightKg = kg
        return profile
    }

    /// Whole years of age on a day.
    public func age(on day: CalendarDate) -> Int {
        var years = day.year - birthDate.year
        if (day.month, day.day) < (birthDate.month, birthDate.day) { years -= 1 }
        return years
    }

    /// Checks the values are plausible for a person.
    public func validated(today: CalendarDate) throws(ValidationError) -> BodyProfile {
        var problems: [ValidationError.Field] = []
        let age = age(on: today)
        if birthDate > today { problems.append(.init(field: "birthDate", message: "Date of birth cannot be in the future.")) }
        else if !(13...120).contains(age) { problems.append(.init(field: "birthDate", message: "Goals are computed for ages 13 to 120; this date gives \(age).")) }
        if let p = Plausible.heightCm.check(heightCm, field: "heightCm", label: "Height") { problems.append(p) }
        if let p = Plausible.bodyWeightKg.check(weightKg, field: "weightKg", label: "Weight") { problems.append(p) }
        guard problems.isEmpty else { throw ValidationError(problems) }
        // Each value can be plausible while together they describe no one goals can be computed
        // for (635 kg at 272 cm and 13, very active, bulking; 20 kg at 50 cm and 119).
        if let problem = GoalCalculation(profile: self, today: today).problem { throw ValidationError([problem]) }
        return self
    }
}

/// Unit conversions for imperial input.
public enum BodyUnits {
    public static let kilogramsPerPound = Decimal(string: "0.45359237")!
    public static let centimetresPerInch = Decimal(string: "2.54")!

    public static func kilograms(fromPounds pounds: Decimal) -> Decimal { pounds * kilogramsPerPound }
    public static func pounds(fromKilograms kg: Decimal) -> Decimal { kg / kilogramsPerPound }
    public static func centimetres(feet: Decimal, inches: Decimal) -> Decimal { (feet * 12 + inches) * centimetresPerInch }
    public static func centimetres(fromInches inches: Decimal) -> Decimal { inches * centimetresPerInch }
}
