import Fluent
import ForkcastCore
import Foundation

/// A stored diary entry with the name, nutrition and cost copied in when it was logged.
final class DiaryEntryModel: Model, @unchecked Sendable {
    static let schema = "diary_entries"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var ownerID: UUID
    @Field(key: "logged_at") var loggedAt: Date
    @Field(key: "local_date") var localDate: String
    @Field(key: "meal_type") var mealType: String
    @OptionalField(key: "note") var note: String?
    @Field(key: "kind") var kind: String
    @OptionalField(key: "food_id") var foodID: UUID?
    @OptionalField(key: "meal_id") var mealID: UUID?
    @OptionalField(key: "quantity") var quantity: Double?
    @OptionalField(key: "unit") var unit: String?
    @Field(key: "name") var name: String
    @OptionalField(key: "energy_kcal") var energyKcal: Double?
    @OptionalField(key: "protein") var protein: Double?
    @OptionalField(key: "carbohydrates") var carbohydrates: Double?
    @OptionalField(key: "fat") var fat: Double?
    @OptionalField(key: "cost") var cost: Double?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date
    /// Its occasion (``Occasion/id(owner:date:mealType:)``), kept for history queries.
    @OptionalField(key: "occasion_id") var occasionID: UUID?
    @OptionalField(key: "photo_id") var photoID: UUID?
    /// The nutrients beyond energy and the macros (``NutrientText``).
    @OptionalField(key: "micros") var micros: String?
    /// The fields above, listed by hand: FluentKit otherwise finds them by reflection on every row (docs/performance.md).
    var properties: [any AnyProperty] { [$id, $ownerID, $loggedAt, $localDate, $mealType, $note, $kind, $foodID, $mealID, $quantity, $unit, $name, $energyKcal, $protein, $carbohydrates, $fat, $cost, $createdAt, $updatedAt, $occasionID, $photoID, $micros] }

    /// The nutrients with a column of their own.
    static let columns: Set<Nutrient> = [.energyKcal, .protein, .carbohydrates, .fat]

    init() {}

    init(_ entry: DiaryEntry, ownerID: UUID, now: Date) {
        self.id = entry.id
        self.ownerID = ownerID
        self.createdAt = now
        apply(entry, now: now)
    }

    func apply(_ entry: DiaryEntry, now: Date) {
        loggedAt = entry.loggedAt
        localDate = entry.date.iso
        mealType = entry.mealType
        occasionID = Occasion.id(owner: ownerID, date: entry.date, mealType: entry.mealType)
        photoID = entry.photoId
        note = entry.note
        switch entry.kind {
        case let .food(foodId, q, u): kind = "food"; foodID = foodId; mealID = nil; quantity = q.doubleValue; unit = u.rawValue
        case let .meal(mealId, servings): kind = "meal"; mealID = mealId; foodID = nil; quantity = servings.doubleValue; unit = "serving"
        case .quickAdd: kind = "quickAdd"; foodID = nil; mealID = nil; quantity = nil; unit = nil
        case .photo: kind = "photo"; foodID = nil; mealID = nil; quantity = nil; unit = nil
        }
        name = entry.name
        energyKcal = entry.nutrients.energyKcal?.doubleValue
        protein = entry.nutrients.protein?.doubleValue
        carbohydrates = entry.nutrients.carbohydrates?.doubleValue
        fat = entry.nutrients.fat?.doubleValue
        micros = NutrientText.encode(entry.nutrients, except: Self.columns)
        cost = entry.cost?.doubleValue
        updatedAt = now
    }

    var domain: DiaryEntry {
        func d(_ v: Double?) -> Decimal? { v.map(Decimal.init(shortest:)) }
        let kind: DiaryEntry.Kind = switch self.kind {
        case "food": .food(foodId: foodID!, quantity: d(quantity) ?? 0, unit: QuantityUnit(rawValue: unit ?? "g") ?? .gram)
        case "meal": .meal(mealId: mealID!, servings: d(quantity) ?? 1)
        case "photo": .photo
        default: .quickAdd
        }
        var nutrients = Nutrients(energyKcal: d(energyKcal), protein: d(protein), carbohydrates: d(carbohydrates), fat: d(fat))
        NutrientText.decode(micros, into: &nutrients, except: Self.columns)
        return DiaryEntry(id: id!, loggedAt: loggedAt, date: CalendarDate(stored: localDate), mealType: mealType, note: note, kind: kind,
                          name: name, nutrients: nutrients, cost: d(cost), photoId: photoID)
    }
}

/// A user's body profile (one per user).
final class BodyProfileModel: Model, @unchecked Sendable {
    static let schema = "body_profiles"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var ownerID: UUID
    @Field(key: "sex") var sex: String
    @Field(key: "birth_date") var birthDate: String
    @Field(key: "height_cm") var heightCm: Double
    @Field(key: "weight_kg") var weightKg: Double
    @Field(key: "activity_level") var activityLevel: String
    @Field(key: "aim") var aim: String
    @Field(key: "updated_at") var updatedAt: Date
    /// The fields above, listed by hand: FluentKit otherwise finds them by reflection on every row (docs/performance.md).
    var properties: [any AnyProperty] { [$id, $ownerID, $sex, $birthDate, $heightCm, $weightKg, $activityLevel, $aim, $updatedAt] }

    init() {}

    var domain: BodyProfile? {
        guard let sex = Sex(rawValue: sex), let birth = CalendarDate(iso: birthDate), let level = ActivityLevel(rawValue: activityLevel),
              let aim = Aim(rawValue: aim) else { return nil }
        return BodyProfile(sex: sex, birthDate: birth, heightCm: Decimal(shortest: heightCm), weightKg: Decimal(shortest: weightKg),
                           activityLevel: level, aim: aim)
    }

    func apply(_ p: BodyProfile, now: Date) {
        sex = p.sex.rawValue
        birthDate = p.birthDate.iso
        heightCm = p.heightCm.doubleValue
        weightKg = p.weightKg.doubleValue
        activityLevel = p.activityLevel.rawValue
        aim = p.aim.rawValue
        updatedAt = now
    }
}

/// A user's goal setting: manual values, or "computed" from the body profile.
final class GoalSettingModel: Model, @unchecked Sendable {
    static let schema = "goal_settings"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var ownerID: UUID
    @Field(key: "source") var source: String
    @Field(key: "energy_kcal") var energyKcal: Double
    @Field(key: "protein") var protein: Double
    @Field(key: "carbohydrates") var carbohydrates: Double
    @Field(key: "fat") var fat: Double
    @Field(key: "updated_at") var updatedAt: Date
    /// Daily targets changed from the daily values (``NutrientText``).
    @OptionalField(key: "targets") var targets: String?
    /// The fields above, listed by hand: FluentKit otherwise finds them by reflection on every row (docs/performance.md).
    var properties: [any AnyProperty] { [$id, $ownerID, $source, $energyKcal, $protein, $carbohydrates, $fat, $updatedAt, $targets] }

    var storedTargets: [Nutrient: Decimal] {
        var n = Nutrients()
        NutrientText.decode(targets, into: &n)
        return n.values
    }

    init() {}
}

/// A weight measurement.
final class WeightEntryModel: Model, @unchecked Sendable {
    static let schema = "weight_entries"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var ownerID: UUID
    @Field(key: "measured_at") var measuredAt: Date
    @Field(key: "weight_kg") var weightKg: Double
    @Field(key: "source") var source: String
    /// The fields above, listed by hand: FluentKit otherwise finds them by reflection on every row (docs/performance.md).
    var properties: [any AnyProperty] { [$id, $ownerID, $measuredAt, $weightKg, $source] }

    init() {}

    init(id: UUID, ownerID: UUID, measuredAt: Date, weightKg: Decimal, source: String) {
        self.id = id
        self.ownerID = ownerID
        self.measuredAt = measuredAt
        self.weightKg = weightKg.doubleValue
        self.source = source
    }
}
