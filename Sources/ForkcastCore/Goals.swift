import Foundation

/// Daily targets: calories and macros in grams.
public struct Goals: Hashable, Sendable, Codable {
    public enum Source: String, Sendable, Codable, CaseIterable { case manual, computed }

    public var energyKcal: Decimal
    public var protein: Decimal
    public var carbohydrates: Decimal
    public var fat: Decimal
    public var source: Source
    public var bmr: Decimal?
    public var tdee: Decimal?
    /// Daily targets the person changed from the daily value (a low-sodium or keto diet changes a
    /// few), in each nutrient's unit; the others are their ``Nutrient/dailyValue``.
    public var targets: [Nutrient: Decimal]
    /// The reference intakes for the person's sex and age (``ReferenceIntake``), set when the goals
    /// in force are read with a body profile; not stored. A target not changed is this, else the daily value.
    public var reference: [Nutrient: Decimal] = [:]

    public init(energyKcal: Decimal, protein: Decimal, carbohydrates: Decimal, fat: Decimal, source: Source = .manual,
                bmr: Decimal? = nil, tdee: Decimal? = nil, targets: [Nutrient: Decimal] = [:]) {
        self.energyKcal = energyKcal
        self.protein = protein
        self.carbohydrates = carbohydrates
        self.fat = fat
        self.source = source
        self.bmr = bmr
        self.tdee = tdee
        self.targets = targets
    }

    private enum CodingKeys: String, CodingKey { case energyKcal, protein, carbohydrates, fat, source, bmr, tdee, targets }

    public static func == (a: Goals, b: Goals) -> Bool {
        (a.energyKcal, a.protein, a.carbohydrates, a.fat, a.source) == (b.energyKcal, b.protein, b.carbohydrates, b.fat, b.source)
            && a.bmr == b.bmr && a.tdee == b.tdee && a.targets == b.targets
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(energyKcal); hasher.combine(protein); hasher.combine(targets)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        energyKcal = try c.decode(Decimal.self, forKey: .energyKcal)
        protein = try c.decode(Decimal.self, forKey: .protein)
        carbohydrates = try c.decode(Decimal.self, forKey: .carbohydrates)
        fat = try c.decode(Decimal.self, forKey: .fat)
        source = try c.decode(Source.self, forKey: .source)
        bmr = try c.decodeIfPresent(Decimal.self, forKey: .bmr)
        tdee = try c.decodeIfPresent(Decimal.self, forKey: .tdee)
        // Older copies have no targets; keys this version does not know are left out.
        let raw = try c.decodeIfPresent([String: Decimal].self, forKey: .targets) ?? [:]
        targets = Dictionary(uniqueKeysWithValues: raw.compactMap { k, v in Nutrient(rawValue: k).map { ($0, v) } })
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(energyKcal, forKey: .energyKcal); try c.encode(protein, forKey: .protein)
        try c.encode(carbohydrates, forKey: .carbohydrates); try c.encode(fat, forKey: .fat); try c.encode(source, forKey: .source)
        try c.encodeIfPresent(bmr, forKey: .bmr); try c.encodeIfPresent(tdee, forKey: .tdee)
        if !targets.isEmpty { try c.encode(Dictionary(uniqueKeysWithValues: targets.map { ($0.rawValue, $1) }), forKey: .targets) }
    }

    /// The day's target for a nutrient: the goals for energy and macros, else the person's own
    /// target or the daily value; nil where none applies (salt: sodium carries it).
    public func target(_ nutrient: Nutrient) -> Decimal? {
        switch nutrient {
        case .energyKcal: energyKcal
        case .protein: protein
        case .carbohydrates: carbohydrates
        case .fat: fat
        default: targets[nutrient] ?? standard(nutrient)
        }
    }

    /// A nutrient's target until the person changes it: the reference intake for their sex and
    /// age when there is a body profile, else the FDA daily value.
    public func standard(_ nutrient: Nutrient) -> Decimal? { reference[nutrient] ?? nutrient.dailyValue }

    /// The most a daily target can be: fifty times the daily value.
    public static func targetRange(_ nutrient: Nutrient) -> PlausibleRange? {
        nutrient.dailyValue.map { PlausibleRange(0, $0 * 50, unit: nutrient.unit.rawValue) }
    }

    /// These goals with targets changed: a value sets one, nil puts it back to the daily value.
    /// Throws ``ValidationError`` naming `targets.<key>` for a nutrient without a daily value or
    /// a value outside ``targetRange(_:)``.
    public func withTargets(_ changes: [Nutrient: Decimal?]) throws(ValidationError) -> Goals {
        var result = self
        var problems: [ValidationError.Field] = []
        for (nutrient, value) in changes.sorted(by: { $0.key < $1.key }) {
            if let p = Self.targetProblem(nutrient, value) { problems.append(p); continue }
            result.targets[nutrient] = value == standard(nutrient) ? nil : value
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        return result
    }

    /// A daily target for `nutrient` (nil: back to the daily value): nil when it may be set, else
    /// the problem, named `targets.<key>`.
    static func targetProblem(_ nutrient: Nutrient, _ value: Decimal?) -> ValidationError.Field? {
        guard let range = targetRange(nutrient) else {
            return .init(field: "targets.\(nutrient.rawValue)", message: "\(nutrient.name) has no daily target\(nutrient.group == .macronutrients || nutrient == .energyKcal ? " here: it is one of the four goals" : "").")
        }
        return value.flatMap { range.check($0, field: "targets.\(nutrient.rawValue)", label: "\(nutrient.name) a day") }
    }

    /// The goals in force from what is stored: computed from the profile when the person chose
    /// that and has a profile; the numbers set by hand when they chose those; else seed 001's
    /// defaults (computed without a profile yet included). The daily targets stay in every case.
    public static func inForce(stored: Goals?, profile: BodyProfile?, today: CalendarDate) -> (goals: Goals, calculation: GoalCalculation?) {
        let targets = stored?.targets ?? [:]
        let reference = profile.map { ReferenceIntake.values(sex: $0.sex, age: $0.age(on: today)) } ?? [:]
        if stored?.source == .computed, let profile {
            let calculation = GoalCalculation(profile: profile, today: today)
            var goals = calculation.goals
            goals.targets = targets
            goals.reference = reference
            return (goals, calculation)
        }
        guard var stored, stored.source == .manual else {
            var goals = Goals.defaults
            goals.targets = targets
            goals.reference = reference
            return (goals, nil)
        }
        stored.reference = reference
        return (stored, nil)
    }

    /// Seed 001's defaults: 2000 kcal, 150 g protein, 250 g carbohydrates, 65 g fat.
    public static let defaults = Goals(energyKcal: 2000, protein: 150, carbohydrates: 250, fat: 65)
    /// The setting "computed from the body profile" (the numbers are computed when read).
    public static let computed = Goals(energyKcal: 0, protein: 0, carbohydrates: 0, fat: 0, source: .computed)

    public var nutrients: Nutrients { Nutrients(energyKcal: energyKcal, protein: protein, carbohydrates: carbohydrates, fat: fat) }

    /// Computed goals are worked out from a body profile: without one there is nothing to compute.
    public func profileProblem(hasProfile: Bool, field: String = "source") -> ValidationError.Field? {
        source == .computed && !hasProfile ? .init(field: field, message: "Computed goals need a body profile first.") : nil
    }

    public func validated() throws(ValidationError) -> Goals {
        var problems: [ValidationError.Field] = []
        if let p = Plausible.goalEnergyKcal.check(energyKcal, field: "energyKcal", label: "Calories a day") { problems.append(p) }
        for (name, label, value) in [("protein", "Protein a day", protein), ("carbohydrates", "Carbohydrates a day", carbohydrates), ("fat", "Fat a day", fat)] {
            if let p = Plausible.goalMacroGrams.check(value, field: name, label: label) { problems.append(p) }
        }
        // Daily targets as ``withTargets(_:)`` sets them (an import or a synced device sends them whole).
        for (nutrient, value) in targets.sorted(by: { $0.key < $1.key }) {
            if let p = Self.targetProblem(nutrient, value) { problems.append(p) }
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        return self
    }
}

/// Goals from a body profile: BMR by Mifflin-St Jeor, TDEE by the activity multiplier, the aim's
/// adjustment, then macros (protein by body weight, fat a quarter of calories, carbohydrates the rest).
public struct GoalCalculation: Hashable, Sendable {
    public let age: Int
    public let bmr: Decimal
    public let tdee: Decimal
    public let goals: Goals
    /// The arithmetic, one line per step, to show the person.
    public let steps: [String]
    /// Why this profile gives no plausible goals (a resting energy too low, or calories above what
    /// goals can be); the goals are then clamped into their ranges, and the profile is refused.
    public let problem: ValidationError.Field?

    /// The least resting energy (BMR) goals are computed from; below it the formula is outside the
    /// bodies it was fitted on (it gives negative values for 20 kg at 50 cm).
    public static let minimumBMR: Decimal = 500

    /// Protein per kg of body weight: more while cutting, to keep muscle.
    public static func proteinPerKg(_ aim: Aim) -> Decimal { aim == .cut ? Decimal(string: "2.0")! : Decimal(string: "1.8")! }
    public static let fatShare = Decimal(string: "0.25")!

    public init(profile stored: BodyProfile, today: CalendarDate) {
        // Whatever an older version stored, the arithmetic runs on plausible values only.
        var p = stored
        p.weightKg = Plausible.bodyWeightKg.clamped(stored.weightKg)
        p.heightCm = Plausible.heightCm.clamped(stored.heightCm)
        age = min(max(p.age(on: today), 0), 150)
        let sexTerm: Decimal = p.sex == .male ? 5 : -161
        bmr = 10 * p.weightKg + Decimal(string: "6.25")! * p.heightCm - 5 * Decimal(age) + sexTerm
        tdee = bmr * p.activityLevel.multiplier
        let wanted = max(1200, tdee + p.aim.adjustment)
        if bmr < Self.minimumBMR {
            problem = .init(field: "heightCm", message: "Height \(p.heightCm.display(0)) cm, weight \(p.weightKg.display(0)) kg and age \(age) give a resting energy of \(bmr.display(0)) kcal a day, below the \(Self.minimumBMR) kcal goals can be computed from. Check them, or set your goals by hand.")
        } else if wanted > Plausible.goalEnergyKcal.upper {
            problem = .init(field: "activityLevel", message: "These values give \(wanted.display(0)) kcal a day, above the \(Plausible.goalEnergyKcal.upper) kcal goals can be set to. Check height, weight, age and activity, or set your goals by hand.")
        } else {
            problem = nil
        }
        // Goals always stay within the ranges a person could set by hand, whatever was stored.
        let target = Plausible.goalEnergyKcal.clamped(wanted)
        let protein = Plausible.goalMacroGrams.clamped(Self.proteinPerKg(p.aim) * p.weightKg)
        let fat = target * Self.fatShare / 9
        let carbohydrates = max(0, (target - protein * 4 - fat * 9) / 4)
        goals = Goals(energyKcal: target.rounded(0), protein: protein.rounded(0), carbohydrates: carbohydrates.rounded(0),
                      fat: fat.rounded(0), source: .computed, bmr: bmr.rounded(0), tdee: tdee.rounded(0))
        let sexText = p.sex == .male ? "+ 5 (male)" : "− 161 (female)"
        steps = [
            "BMR (Mifflin-St Jeor) = 10 × \(p.weightKg.display(1)) kg + 6.25 × \(p.heightCm.display(1)) cm − 5 × \(age) years \(sexText) = \(bmr.display(0)) kcal",
            "TDEE = BMR × \(p.activityLevel.multiplier) (\(p.activityLevel.label.lowercased())) = \(tdee.display(0)) kcal",
            "Calories = TDEE \(p.aim.adjustment >= 0 ? "+" : "−") \(p.aim.adjustment.magnitude) (\(p.aim.rawValue)) = \(target.display(0)) kcal"
                + (tdee + p.aim.adjustment < 1200 ? " (raised to the 1200 kcal floor)" : "")
                + (wanted > target ? " (held at the \(Plausible.goalEnergyKcal.upper) kcal most)" : ""),
            "Protein = \(Self.proteinPerKg(p.aim)) g × \(p.weightKg.display(1)) kg = \(protein.display(0)) g",
            "Fat = 25 % of calories ÷ 9 kcal/g = \(fat.display(0)) g",
            "Carbohydrates = (calories − protein × 4 − fat × 9) ÷ 4 = \(carbohydrates.display(0)) g",
        ]
    }
}
