import ForkcastCore
import Foundation

extension Sex: SchemaLeaf {}
extension ActivityLevel: SchemaLeaf {}
extension Aim: SchemaLeaf {}
extension Goals.Source: SchemaLeaf {}

// MARK: Body profile

/// The body profile as the API answers it, with the age it gives today.
public struct BodyProfileAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var sex: Tolerant<Sex>
    public var birthDate: CalendarDate
    public var heightCm: Decimal
    public var weightKg: Decimal
    public var activityLevel: Tolerant<ActivityLevel>
    public var aim: Tolerant<Aim>
    public var age: Int

    public init(_ profile: BodyProfile, today: CalendarDate) {
        sex = .known(profile.sex)
        birthDate = profile.birthDate
        heightCm = profile.heightCm
        weightKg = profile.weightKg.rounded(2)
        activityLevel = .known(profile.activityLevel)
        aim = .known(profile.aim)
        age = profile.age(on: today)
    }

    public static let schemaName = "BodyProfile"
}

/// `PUT /api/v1/body-profile`: metric fields, or imperial ones (heightFt/heightIn, weightLb).
/// The enumerations are text here so a wrong one is a 422 naming its field.
public struct BodyProfileInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var sex: String
    public var birthDate: CalendarDate
    public var heightCm: Decimal?
    public var heightFt: Decimal?
    public var heightIn: Decimal?
    public var weightKg: Decimal?
    public var weightLb: Decimal?
    public var activityLevel: String
    public var aim: String

    public init(sex: String, birthDate: CalendarDate, heightCm: Decimal? = nil, heightFt: Decimal? = nil, heightIn: Decimal? = nil,
                weightKg: Decimal? = nil, weightLb: Decimal? = nil, activityLevel: String, aim: String) {
        self.sex = sex
        self.birthDate = birthDate
        self.heightCm = heightCm
        self.heightFt = heightFt
        self.heightIn = heightIn
        self.weightKg = weightKg
        self.weightLb = weightLb
        self.activityLevel = activityLevel
        self.aim = aim
    }

    public static let schemaName = "BodyProfileInput"
    public static var schemaDescription: String? {
        "Height in cm, or in feet and inches (used when heightCm is absent; \(Plausible.heightCm.lower) to \(Plausible.heightCm.upper) cm either way). Weight in kg, or in pounds (used when weightKg is absent). Ages 13 to 120 today."
    }
    public static var fieldNotes: [String: FieldNote] {
        ["sex": FieldNote(schema: Sex.leafSchema),
         "activityLevel": FieldNote(schema: ActivityLevel.leafSchema),
         "aim": FieldNote(schema: Aim.leafSchema),
         "heightCm": FieldNote(range: Plausible.heightCm),
         "weightKg": FieldNote(range: Plausible.bodyWeightKg)]
    }
    public static var schemaExtras: [String: JSONValue] {
        ["allOf": [
            ["anyOf": [["required": ["heightCm"], "properties": ["heightCm": ["type": "number"]]],
                       ["required": ["heightFt"], "properties": ["heightCm": ["type": "null"], "heightFt": ["type": "number"]]],
                       ["required": ["heightIn"], "properties": ["heightCm": ["type": "null"], "heightIn": ["type": "number"]]]]],
            ["anyOf": [["required": ["weightKg"], "properties": ["weightKg": ["type": "number"]]],
                       ["required": ["weightLb"], "properties": ["weightKg": ["type": "null"],
                                                                 "weightLb": FieldNote(range: Plausible.bodyWeightKg, dividedBy: BodyUnits.kilogramsPerPound).applied(to: ["type": "number"])]]]],
        ]]
    }
}

// MARK: Goals

/// The daily goals in force, as the API answers them (with the arithmetic, for computed ones).
public struct GoalsAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var energyKcal: Decimal
    public var protein: Decimal
    public var carbohydrates: Decimal
    public var fat: Decimal
    public var source: Tolerant<Goals.Source>
    public var bmr: Decimal?
    public var tdee: Decimal?
    public var steps: [String]?
    /// Every nutrient's daily target: the person's own, or the daily value.
    public var targets: NutrientTargetsAnswer

    public init(_ goals: Goals, steps: [String]? = nil) {
        targets = NutrientTargetsAnswer(goals)
        energyKcal = goals.energyKcal
        protein = goals.protein
        carbohydrates = goals.carbohydrates
        fat = goals.fat
        source = .known(goals.source)
        bmr = goals.bmr
        tdee = goals.tdee
        self.steps = steps
    }

    public static let schemaName = "Goals"
    public static var fieldNotes: [String: FieldNote] {
        ["steps": FieldNote("The arithmetic, for computed goals"),
         "targets": FieldNote("Each nutrient's daily target (its daily value unless changed)")]
    }
}

/// Each nutrient's daily target, in its unit.
public struct NutrientTargetsAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var values: [Nutrient: Decimal]
    public init(_ goals: Goals) {
        values = Dictionary(uniqueKeysWithValues: Nutrient.targeted.compactMap { n in goals.target(n).map { (n, $0) } })
    }
    public subscript(_ nutrient: Nutrient) -> Decimal? { values[nutrient] }
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: NutrientKey.self)
        values = [:]
        for n in Nutrient.targeted { values[n] = try c.decodeIfPresent(Decimal.self, forKey: NutrientKey(n)) }
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: NutrientKey.self)
        for n in Nutrient.targeted { try c.encodeIfPresent(values[n], forKey: NutrientKey(n)) }
    }
    public static let schemaName = "NutrientTargets"
    public static var fieldNotes: [String: FieldNote] {
        Dictionary(uniqueKeysWithValues: Nutrient.targeted.map { ($0.rawValue, FieldNote("\($0.name) a day (\($0.unit.rawValue))", minimum: 0)) })
    }
}

/// `targets` of `PUT /api/v1/goals`: a nutrient given a number gets that daily target, one given
/// null goes back to its daily value, one not named stays as it is.
public struct NutrientTargetsInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var changes: [Nutrient: Decimal?]
    public init(_ changes: [Nutrient: Decimal?]) { self.changes = changes }
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: NutrientKey.self)
        changes = [:]
        for n in Nutrient.targeted where c.contains(NutrientKey(n)) {
            changes[n] = try c.decodeNil(forKey: NutrientKey(n)) ? .some(nil) : .some(try c.decode(Decimal.self, forKey: NutrientKey(n)))
        }
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: NutrientKey.self)
        for (n, value) in changes.sorted(by: { $0.key < $1.key }) {
            if let value { try c.encode(value, forKey: NutrientKey(n)) } else { try c.encodeNil(forKey: NutrientKey(n)) }
        }
    }
    public static let schemaName = "NutrientTargetsInput"
    public static var schemaDescription: String? { "A number sets a nutrient's daily target, null puts back its daily value; nutrients not named keep theirs" }
    public static var fieldNotes: [String: FieldNote] {
        Dictionary(uniqueKeysWithValues: Nutrient.targeted.map { n in
            let range = Goals.targetRange(n)!
            return (n.rawValue, FieldNote("\(n.name) a day (\(n.unit.rawValue))",
                                          schema: ["type": ["number", "null"], "minimum": .number(range.lower.doubleValue), "maximum": .number(range.upper.doubleValue)]))
        })
    }
}

/// `PUT /api/v1/goals`: `source` "manual" (the default) with the four numbers, or "computed".
public struct GoalsInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var source: String?
    public var energyKcal: Decimal?
    public var protein: Decimal?
    public var carbohydrates: Decimal?
    public var fat: Decimal?
    /// Daily targets to change (absent: all stay as they are).
    public var targets: NutrientTargetsInput?

    public init(source: String? = nil, energyKcal: Decimal? = nil, protein: Decimal? = nil, carbohydrates: Decimal? = nil, fat: Decimal? = nil,
                targets: NutrientTargetsInput? = nil) {
        self.targets = targets
        self.source = source
        self.energyKcal = energyKcal
        self.protein = protein
        self.carbohydrates = carbohydrates
        self.fat = fat
    }

    public static let schemaName = "GoalsInput"
    public static var schemaDescription: String? {
        "Manual goals need all four numbers; computed goals need a body profile first (422 otherwise) and ignore the numbers. targets change nutrients' daily targets either way."
    }
    public static var fieldNotes: [String: FieldNote] {
        ["source": FieldNote(default: "manual", schema: ["type": ["string", "null"], "enum": ["manual", "computed", .null]])]
    }
    public static var schemaExtras: [String: JSONValue] {
        let energy = FieldNote(range: Plausible.goalEnergyKcal).applied(to: ["type": "number"])
        let grams = FieldNote(range: Plausible.goalMacroGrams).applied(to: ["type": "number"])
        return ["oneOf": [
            ["required": ["energyKcal", "protein", "carbohydrates", "fat"],
             "properties": ["source": ["enum": ["manual", .null]], "energyKcal": energy, "protein": grams, "carbohydrates": grams, "fat": grams]],
            ["required": ["source"], "properties": ["source": ["const": "computed"]]],
        ]]
    }
}

// MARK: Operations

/// `/api/v1/body-profile`: sex, birth date, height, weight, activity and aim.
public enum BodyProfiles {
    public enum Get: APIOperation {
        public typealias Answer = BodyProfileAnswer
        public static let spec = OperationSpec(.get, "/api/v1/body-profile", "getBodyProfile", tag: "body",
            summary: "Your body profile", success: Outcome(200, "The profile"),
            failures: [Outcome(404, "No profile yet")] + Outcome.read)
    }

    public enum Save: APIOperation {
        public typealias Body = BodyProfileInput
        public typealias Answer = BodyProfileAnswer
        public static let spec = OperationSpec(.put, "/api/v1/body-profile", "putBodyProfile", tag: "body",
            summary: "Set your body profile (metric, or heightFt/heightIn and weightLb)", success: Outcome(200, "Saved"),
            failures: Outcome.writeJSON)
    }
}

/// `/api/v1/goals`: the daily calories and macros.
public enum DailyGoals {
    public enum Get: APIOperation {
        public typealias Answer = GoalsAnswer
        public static let spec = OperationSpec(.get, "/api/v1/goals", "getGoals", tag: "body",
            summary: "Daily goals in force (manual, computed, or the 2000/150/250/65 defaults)", success: Outcome(200, "Goals"),
            failures: Outcome.read)
    }

    public enum Set: APIOperation {
        public typealias Body = GoalsInput
        public typealias Answer = GoalsAnswer
        public static let spec = OperationSpec(.put, "/api/v1/goals", "putGoals", tag: "body",
            summary: "Set manual goals, or source=computed to compute them from the body profile", success: Outcome(200, "Goals"),
            failures: Outcome.writeJSON)
    }
}
