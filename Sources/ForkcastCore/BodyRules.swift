import Foundation

/// The rules for body input (weights, the body profile, manual goals), whoever sends it: the API,
/// the pages, a synced device or an import.
public enum BodyRules {
    /// A weighing may be dated at most this far ahead (clock skew, time zones); a future weighing
    /// would drive computed goals until it came.
    public static let futureWeighingAllowance: TimeInterval = 86_400

    public static func measuredAt(_ at: Date?, now: Date) throws(ValidationError) -> Date {
        let at = at ?? now
        guard at <= now.addingTimeInterval(futureWeighingAllowance) else {
            throw ValidationError(field: "measuredAt", "A weighing cannot be in the future.")
        }
        return at
    }

    /// A weight in kilograms from kilograms or pounds, checked against the plausible range and
    /// rounded for storage (10 g).
    public static func kilograms(kg: Decimal?, lb: Decimal?, field: String = "weightKg") throws(ValidationError) -> Decimal {
        guard let value = kg ?? lb.map(BodyUnits.kilograms(fromPounds:)) else {
            throw ValidationError(field: field, "Give the weight in kg (weightKg) or pounds (weightLb).")
        }
        if let problem = Plausible.bodyWeightKg.check(value, field: kg == nil ? "weightLb" : field, label: "Weight") {
            throw ValidationError([problem])
        }
        return value.rounded(2)
    }

    /// A body profile from what a person typed (metric, or feet, inches and pounds).
    public static func profile(sex: String, birthDate: CalendarDate, heightCm: Decimal?, heightFt: Decimal?, heightIn: Decimal?,
                               weightKg: Decimal?, weightLb: Decimal?, activityLevel: String, aim: String,
                               today: CalendarDate) throws(ValidationError) -> BodyProfile {
        var problems: [ValidationError.Field] = []
        let parsedSex = Sex(rawValue: sex)
        if parsedSex == nil { problems.append(.init(field: "sex", message: "sex must be \"male\" or \"female\" (the equation needs one of the two).")) }
        let level = ActivityLevel(rawValue: activityLevel)
        if level == nil { problems.append(.init(field: "activityLevel", message: "activityLevel must be one of: \(ActivityLevel.allCases.map(\.rawValue).joined(separator: ", ")).")) }
        let parsedAim = Aim(rawValue: aim)
        if parsedAim == nil { problems.append(.init(field: "aim", message: "aim must be cut, maintain or bulk.")) }
        var height = heightCm
        if height == nil, heightFt != nil || heightIn != nil {
            // Each part in its own range: 5 ft and -1 in is not a height (it was read as 4 ft 11).
            if let p = Plausible.heightFeet.check(heightFt, field: "heightFt", label: "Feet") { problems.append(p) }
            if let p = Plausible.heightInches.check(heightIn, field: "heightIn", label: "Inches") { problems.append(p) }
            height = BodyUnits.centimetres(feet: heightFt ?? 0, inches: heightIn ?? 0)
        }
        if height == nil { problems.append(.init(field: "heightCm", message: "Give the height in cm (heightCm) or feet and inches (heightFt, heightIn).")) }
        let weight = weightKg ?? weightLb.map(BodyUnits.kilograms(fromPounds:))
        if weight == nil { problems.append(.init(field: "weightKg", message: "Give the weight in kg (weightKg) or pounds (weightLb).")) }
        guard problems.isEmpty, let parsedSex, let level, let parsedAim, let height, let weight else { throw ValidationError(problems) }
        // The ranges are checked on what was sent, then the values are rounded for storage.
        var profile = try BodyProfile(sex: parsedSex, birthDate: birthDate, heightCm: height, weightKg: weight,
                                      activityLevel: level, aim: parsedAim).validated(today: today)
        profile.heightCm = profile.heightCm.rounded(1)
        profile.weightKg = profile.weightKg.rounded(2)
        return profile
    }

    /// Manual goals: all four numbers, each in its plausible range.
    public static func manualGoals(energyKcal: Decimal?, protein: Decimal?, carbohydrates: Decimal?, fat: Decimal?) throws(ValidationError) -> Goals {
        var missing: [ValidationError.Field] = []
        for (name, value) in [("energyKcal", energyKcal), ("protein", protein), ("carbohydrates", carbohydrates), ("fat", fat)] where value == nil {
            missing.append(.init(field: name, message: "\(name) is required for manual goals."))
        }
        guard missing.isEmpty, let energyKcal, let protein, let carbohydrates, let fat else { throw ValidationError(missing) }
        return try Goals(energyKcal: energyKcal, protein: protein, carbohydrates: carbohydrates, fat: fat).validated()
    }
}

/// One weighing (seed 001): in kilograms, at an instant, from where it came ("manual", "profile",
/// "health", a synced device's source).
public struct WeightEntry: Codable, Sendable, Hashable {
    public var id: UUID
    public var measuredAt: Date
    public var weightKg: Decimal
    public var source: String

    public init(id: UUID, measuredAt: Date, weightKg: Decimal, source: String) {
        self.id = id
        self.measuredAt = measuredAt
        self.weightKg = weightKg
        self.source = source
    }

    /// Instants are the same weighing when they agree to the millisecond (every database keeps at
    /// least that).
    public static func sameInstant(_ a: Date, _ b: Date) -> Bool { millisecond(a) == millisecond(b) }

    public static func millisecond(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
}

/// A history of weighings taken in at one a day, the last measured that day: how an export with
/// several a day (a smart scale, Apple Health) becomes the person's weights, so the trend and the
/// computed goals do not lean on the days weighed most often.
public struct DailyWeighings: Sendable {
    private var byDay: [CalendarDate: (measuredAt: Date, weightKg: Decimal)] = [:]

    public init() {}

    /// Takes a weighing of `day` (the person's local date, as the source wrote it); false when the
    /// day already had one, so one of the two was passed over (the earlier one).
    @discardableResult
    public mutating func add(day: CalendarDate, measuredAt: Date, weightKg: Decimal) -> Bool {
        guard let kept = byDay[day] else {
            byDay[day] = (measuredAt, weightKg)
            return true
        }
        if measuredAt >= kept.measuredAt { byDay[day] = (measuredAt, weightKg) }
        return false
    }

    /// The weighings kept, oldest first.
    public var weighings: [(measuredAt: Date, weightKg: Decimal)] {
        byDay.values.sorted { $0.measuredAt < $1.measuredAt }
    }
}
