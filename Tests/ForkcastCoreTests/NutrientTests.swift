import Foundation
import PropertyBased
import Testing
@testable import ForkcastCore

/// The one definition of the nutrients, their sums, targets and where a day or week stands.
@Suite struct NutrientTests {
    func d(_ text: String) -> Decimal { Decimal(string: text)! }

    @Test func everyNutrientHasAUnitAndTheMicronutrientsADailyValue() {
        #expect(Nutrient.allCases.count == 26)
        #expect(Set(Nutrient.allCases.map(\.rawValue)).count == 26)
        #expect(Nutrient.sodium.unit == .mg && Nutrient.vitaminA.unit == .µg && Nutrient.fiber.unit == .g && Nutrient.energyKcal.unit == .kcal)
        for n in Nutrient.micronutrients where n != .salt { #expect(n.dailyValue != nil, "\(n)") }
        #expect(Nutrient.targeted.count == 21 && !Nutrient.targeted.contains(.salt) && !Nutrient.targeted.contains(.protein))
        #expect(Nutrient.sodium.direction == .atMost && Nutrient.iron.direction == .atLeast && Nutrient.fat.direction == .goal)
        #expect(Nutrient.vitaminA.maximumPer100 == 100_000_000 && Nutrient.iron.maximumPer100 == 100_000 && Nutrient.energyKcal.maximumPer100 == 900)
        #expect(Nutrient.vitaminA.text(d("1252.5")) == "1252.5 µg" && Nutrient.riboflavin.text(d("0.087")) == "0.09 mg")
    }

    @Test func unknownStaysUnknownInSumsAndTheTotalSaysHowManyLackIt() {
        let a = Nutrients([.energyKcal: 100, .iron: d("1.5")]), b = Nutrients([.energyKcal: 50]), c = Nutrients([.energyKcal: 10, .iron: 2])
        let sum = a + b
        #expect(sum.energyKcal == 150 && sum[.iron] == d("1.5") && sum[.sodium] == nil)
        let totals = NutrientTotals.of([a, b, c])
        #expect(totals.total[.iron] == d("3.5") && totals.unknown[.iron] == 1 && totals.unknown[.energyKcal] == nil)
        #expect(totals.unknown[.sodium] == 3 && totals.count == 3)
        #expect(a.scaled(by: d("1.5"))[.iron] == d("2.25") && a.scaled(by: 2)[.sodium] == nil)
    }

    @Test func saltAndSodiumFollowFromEachOther() {
        #expect(Nutrients([.salt: 1]).withSaltAndSodium()[.sodium] == 400)
        #expect(Nutrients([.sodium: 69]).withSaltAndSodium().salt == d("0.1725"))
        #expect(Nutrients([.salt: 2, .sodium: 500]).withSaltAndSodium()[.sodium] == 500, "both given: kept as given")
        #expect(Nutrients().withSaltAndSodium().isEmpty)
    }

    @Test func nutrientsReadOlderAndNewerCopies() throws {
        let old = #"{"energyKcal":41,"protein":0.93,"fiber":2.8,"salt":0.1}"#
        let n = try JSONDecoder().decode(Nutrients.self, from: Data(old.utf8))
        #expect(n.energyKcal == 41 && n.fiber == d("2.8") && n.salt == d("0.1") && n[.sodium] == nil)
        let newer = #"{"energyKcal":41,"vitaminZ":3,"iron":0.3}"#
        #expect(try JSONDecoder().decode(Nutrients.self, from: Data(newer.utf8)) == Nutrients([.energyKcal: 41, .iron: d("0.3")]))
        let again = try JSONDecoder().decode(Nutrients.self, from: JSONEncoder().encode(n))
        #expect(again == n)
    }

    @Test func targetsAreDailyValuesUntilChanged() throws {
        let goals = Goals.defaults
        #expect(goals.target(.sodium) == 2300 && goals.target(.protein) == 150 && goals.target(.salt) == nil)
        let changed = try goals.withTargets([.sodium: Decimal?.some(1500), .fiber: Decimal?.some(35)])
        #expect(changed.target(.sodium) == 1500 && changed.target(.fiber) == 35 && changed.target(.iron) == 18)
        let back = try changed.withTargets([.sodium: Decimal?.none, .fiber: Decimal?.some(28)])
        #expect(back.targets.isEmpty, "null, or the daily value itself, is no change")
        #expect(throws: ValidationError.self) { try goals.withTargets([.iron: -1]) }
        #expect(throws: ValidationError.self) { try goals.withTargets([.vitaminD: 1001]) }
        #expect(throws: ValidationError.self) { try goals.withTargets([.protein: 100]) }
        #expect(throws: ValidationError.self) { try goals.withTargets([.salt: 5]) }
        do { _ = try goals.withTargets([.iron: -1, .zinc: 12]) } catch { #expect(error.fields.map(\.field) == ["targets.iron"]) }
        // Goals stored before targets existed still read.
        let old = #"{"energyKcal":2000,"protein":150,"carbohydrates":250,"fat":65,"source":"manual"}"#
        let decoded = try JSONDecoder().decode(Goals.self, from: Data(old.utf8))
        #expect(decoded == .defaults)
        #expect(try JSONDecoder().decode(Goals.self, from: JSONEncoder().encode(changed)) == changed)
    }

    @Test func aDayStandsUnderMetOverOrUnknown() {
        let goals = try! Goals.defaults.withTargets([.sodium: 1500])
        let day = NutrientStanding.day(Nutrients([.fiber: 14, .sodium: 1600, .iron: 18]), missing: [.fiber: 1], goals: goals)
        func standing(_ n: Nutrient) -> NutrientStanding { day.first { $0.nutrient == n }! }
        #expect(standing(.fiber).verdict == .unknown && standing(.fiber).percent == 50 && standing(.fiber).missing == 1, "only a lower bound: not called under")
        #expect(standing(.sodium).verdict == .over && standing(.sodium).percent == 107)
        #expect(standing(.iron).verdict == .met && standing(.iron).percent == 100)
        #expect(standing(.zinc).verdict == .unknown && standing(.zinc).percent == nil)
        #expect(NutrientStanding(nutrient: .sugars, amount: 10, target: 50, missing: 0).verdict == .met, "under a limit is fine")
        #expect(NutrientStanding(nutrient: .iron, amount: Decimal(string: "1e30")!, target: 18, missing: 0).percent == Int.max, "no trap on huge values")
    }

    @Test func aLowNutrientsSourcesAreRankedPerUsualPortion() {
        let paprika = Food(name: "Paprika", per100: Nutrients([.fiber: 35]), serving: Serving(size: 2, unit: .gram, label: "1 tsp"))
        let lentils = Food(name: "Lentils", per100: Nutrients([.fiber: 8]), serving: Serving(size: 200, unit: .gram, label: "1 cup"))
        let oats = Food(name: "Oats", per100: Nutrients([.fiber: 10]))
        let soda = Food(name: "Soda", basis: .milliliter, per100: Nutrients([.fiber: 0]))
        let ranked = NutrientSources.richest(.fiber, foods: [paprika, lentils, oats, soda, Food(name: "Mystery")])
        #expect(ranked.map(\.name) == ["Lentils", "Oats", "Paprika"], "per portion eaten: a teaspoon of paprika is not a fibre source")
        #expect(ranked.first == NutrientSource(name: "Lentils", amount: 16, portion: "1 cup (200 g)"))
        let day = CalendarDate(iso: "2026-12-01")!
        let quick = DiaryEntry(loggedAt: Date(), date: day, mealType: "snack", kind: .quickAdd, name: "Biscuit", nutrients: Nutrients(energyKcal: 90))
        let photo = DiaryEntry(loggedAt: Date(), date: day, mealType: "snack", kind: .photo, name: "Photo", nutrients: Nutrients())
        let known = DiaryEntry(loggedAt: Date(), date: day, mealType: "snack", kind: .quickAdd, name: "Bar", nutrients: Nutrients([.fiber: 3]))
        #expect(NutrientSources.silent(on: .fiber, in: [quick, photo, known]).map(\.name) == ["Biscuit"], "a photo not counted yet is not silent")
    }

    @Test func aWeekSaysWhatIsPersistentlyUnderOrOver() {
        let goals = Goals.defaults
        func day(fiber: Decimal, sodium: Decimal) -> (totals: Nutrients, missing: [Nutrient: Int]) { (Nutrients([.fiber: fiber, .sodium: sodium]), [:]) }
        let week = NutrientWeek(days: [day(fiber: 10, sodium: 3000), day(fiber: 12, sodium: 3000), day(fiber: 30, sodium: 3000),
                                       day(fiber: 11, sodium: 1000), day(fiber: 9, sodium: 2900)], goals: goals)
        func row(_ n: Nutrient) -> NutrientWeek.Row { week.rows.first { $0.nutrient == n }! }
        #expect(row(.fiber).under == 4 && row(.fiber).persistent == .under, "4 of 5 days ≥ 70 %")
        #expect(row(.sodium).over == 4 && row(.sodium).persistent == .over)
        #expect(row(.iron).persistent == nil && row(.iron).averagePercent == nil)
        let short = NutrientWeek(days: [day(fiber: 1, sodium: 0), day(fiber: 1, sodium: 0)], goals: goals)
        #expect(short.rows.first { $0.nutrient == .fiber }!.persistent == nil, "two days are not a pattern")
        #expect(week.loggedDays == 5)
    }

    @Test("Sums of nutrients are exact and agree with the known values alone", .tags(.property))
    func sumsAreExact() async {
        let amount = Gen.int(in: 0...1_000_000).map { Decimal($0) / 1000 }
        let entry = zip(amount.optional, amount.optional).map { Nutrients([.iron: $0.0, .vitaminC: $0.1].compactMapValues { $0 }) }
        await propertyCheck(count: 300, input: entry.array(of: 0...30)) { entries in
            let totals = NutrientTotals.of(entries)
            let known = entries.compactMap { $0[.iron] }
            #expect(totals.total[.iron] == (known.isEmpty ? nil : known.reduce(0, +)))
            #expect((totals.unknown[.iron] ?? 0) == entries.count - known.count)
            #expect(totals.total == entries.reduce(Nutrients(), +))
        }
    }
}
