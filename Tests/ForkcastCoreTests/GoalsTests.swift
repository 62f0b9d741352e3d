import ForkcastCore
import Foundation
import PropertyBased
import Testing

@Suite("Goals and the diary day")
struct GoalsTests {
    let today = CalendarDate(iso: "2026-11-21")!

    @Test func nutrientTargetsFollowThePersonsSexAndAge() {
        let today = CalendarDate(iso: "2026-12-01")!
        let woman = BodyProfile(sex: .female, birthDate: CalendarDate(iso: "1990-05-17")!, heightCm: 168, weightKg: 64, activityLevel: .light, aim: .maintain)
        var man = woman
        man.sex = .male
        let hers = Goals.inForce(stored: nil, profile: woman, today: today).goals, his = Goals.inForce(stored: nil, profile: man, today: today).goals
        #expect(hers.target(.vitaminA) == 700 && his.target(.vitaminA) == 900, "a woman of 36, a man of 36")
        #expect(hers.target(.iron) == 18 && his.target(.iron) == 8 && hers.target(.fiber) == 25 && his.target(.fiber) == 38)
        #expect(hers.target(.calcium) == 1000 && hers.target(.sodium) == 2300, "limits stay the daily values")
        let older = Goals.inForce(stored: nil, profile: BodyProfile(sex: .female, birthDate: CalendarDate(iso: "1950-01-01")!, heightCm: 160,
                                                                     weightKg: 60, activityLevel: .light, aim: .maintain), today: today).goals
        #expect(older.target(.calcium) == 1200 && older.target(.iron) == 8 && older.target(.vitaminD) == 20, "a woman of 76")
        let none = Goals.inForce(stored: nil, profile: nil, today: today).goals
        #expect(none.target(.vitaminA) == 900 && none.target(.iron) == 18, "no profile: the FDA daily values")
        // The person's own target wins; set to the reference, it is no change.
        var stored = Goals.defaults
        stored.targets = [.vitaminA: 800]
        #expect(Goals.inForce(stored: stored, profile: woman, today: today).goals.target(.vitaminA) == 800)
        #expect((try? hers.withTargets([.vitaminA: 700]))?.targets.isEmpty == true)
        // A day short of its target only on what some entries say is not called under.
        #expect(NutrientStanding(nutrient: .fiber, amount: 10, target: 25, missing: 1).verdict == .unknown)
        #expect(NutrientStanding(nutrient: .fiber, amount: 10, target: 25, missing: 0).verdict == .under)
    }

    @Test func mifflinStJeorReferencePoints() {
        // An 80 kg, 180 cm, 30-year-old man: 10 × 80 + 6.25 × 180 − 5 × 30 + 5 = 1780 kcal.
        let man = BodyProfile(sex: .male, birthDate: CalendarDate(iso: "1996-01-01")!, heightCm: 180, weightKg: 80, activityLevel: .sedentary, aim: .maintain)
        #expect(GoalCalculation(profile: man, today: today).bmr == 1780)
        // A 60 kg, 165 cm, 25-year-old woman: 600 + 1031.25 − 125 − 161 = 1345.25 kcal.
        let woman = BodyProfile(sex: .female, birthDate: CalendarDate(iso: "2001-06-01")!, heightCm: 165, weightKg: 60, activityLevel: .sedentary, aim: .maintain)
        #expect(GoalCalculation(profile: woman, today: today).bmr == Decimal(string: "1345.25"))
    }

    @Test func theGoalsInForceFollowTheChoiceAndKeepTheTargets() {
        let today = CalendarDate(iso: "2026-11-27")!
        let profile = BodyProfile(sex: .male, birthDate: CalendarDate(iso: "1996-01-01")!, heightCm: 180, weightKg: 80, activityLevel: .light, aim: .maintain)
        let lowSodium: [Nutrient: Decimal] = [.sodium: 1500]
        // Nothing stored: the defaults, whether or not there is a profile.
        #expect(Goals.inForce(stored: nil, profile: profile, today: today).goals == .defaults)
        // Set by hand: those numbers, a profile or not.
        let manual = Goals(energyKcal: 1800, protein: 120, carbohydrates: 200, fat: 60, targets: lowSodium)
        #expect(Goals.inForce(stored: manual, profile: profile, today: today).goals == manual)
        #expect(Goals.inForce(stored: manual, profile: profile, today: today).calculation == nil)
        // Computed: from the profile, with its arithmetic; without a profile yet, the defaults.
        var computed = Goals.computed
        computed.targets = lowSodium
        let fromProfile = Goals.inForce(stored: computed, profile: profile, today: today)
        #expect(fromProfile.calculation == GoalCalculation(profile: profile, today: today))
        #expect(fromProfile.goals.energyKcal == GoalCalculation(profile: profile, today: today).goals.energyKcal && fromProfile.goals.source == .computed)
        let noProfile = Goals.inForce(stored: computed, profile: nil, today: today)
        #expect(noProfile.goals.energyKcal == Goals.defaults.energyKcal && noProfile.calculation == nil)
        // The daily targets the person changed stay in every case.
        #expect([fromProfile.goals.targets, noProfile.goals.targets, Goals.inForce(stored: manual, profile: nil, today: today).goals.targets]
            .allSatisfy { $0 == lowSodium })
    }

    @Test func activityMultipliersAndAims() {
        let base = BodyProfile(sex: .male, birthDate: CalendarDate(iso: "1996-01-01")!, heightCm: 180, weightKg: 80, activityLevel: .sedentary, aim: .maintain)
        let expected: [(ActivityLevel, String)] = [(.sedentary, "2136"), (.light, "2447.5"), (.moderate, "2759"), (.active, "3070.5"), (.veryActive, "3382")]
        for (level, tdee) in expected {
            var p = base
            p.activityLevel = level
            #expect(GoalCalculation(profile: p, today: today).tdee == Decimal(string: tdee), "\(level)")
        }
        var cut = base
        cut.activityLevel = .moderate
        cut.aim = .cut
        #expect(GoalCalculation(profile: cut, today: today).goals.energyKcal == 2259)
        var bulk = cut
        bulk.aim = .bulk
        #expect(GoalCalculation(profile: bulk, today: today).goals.energyKcal == 3059)
    }

    @Test func theArithmeticIsShown() {
        let p = BodyProfile(sex: .male, birthDate: CalendarDate(iso: "1996-01-01")!, heightCm: 180, weightKg: 80, activityLevel: .moderate, aim: .maintain)
        let calc = GoalCalculation(profile: p, today: today)
        #expect(calc.steps[0].contains("10 × 80 kg + 6.25 × 180 cm − 5 × 30 years + 5 (male) = 1780 kcal"))
        #expect(calc.steps[1].contains("× 1.55"))
        #expect(calc.goals.protein == 144)
        let macroKcal = calc.goals.protein * 4 + calc.goals.carbohydrates * 4 + calc.goals.fat * 9
        #expect((macroKcal - calc.goals.energyKcal).magnitude < 10, "the macros add up to the calories")
    }

    @Test func ageCountsWholeYears() {
        let p = BodyProfile(sex: .female, birthDate: CalendarDate(iso: "2000-11-22")!, heightCm: 170, weightKg: 65, activityLevel: .light, aim: .maintain)
        #expect(p.age(on: today) == 25)
        #expect(p.age(on: CalendarDate(iso: "2026-11-22")!) == 26)
        #expect(throws: ValidationError.self) { try BodyProfile(sex: .male, birthDate: CalendarDate(iso: "2030-01-01")!, heightCm: 180, weightKg: 80, activityLevel: .light, aim: .cut).validated(today: today) }
        #expect(throws: ValidationError.self) { try BodyProfile(sex: .male, birthDate: CalendarDate(iso: "1990-01-01")!, heightCm: 18, weightKg: 80, activityLevel: .light, aim: .cut).validated(today: today) }
    }

    @Test func profilesGivingImplausibleGoalsAreRefusedAndTheGoalsStayInRange() {
        // Each value is plausible alone; together they give 15,481 kcal.
        let huge = BodyProfile(sex: .male, birthDate: CalendarDate(iso: "2013-01-01")!, heightCm: 272, weightKg: 635, activityLevel: .veryActive, aim: .bulk)
        #expect(throws: ValidationError.self) { try huge.validated(today: today) }
        let big = GoalCalculation(profile: huge, today: today)
        #expect(big.problem?.field == "activityLevel")
        #expect(big.goals.energyKcal == Plausible.goalEnergyKcal.upper && Plausible.goalMacroGrams.contains(big.goals.protein))
        // 20 kg at 50 cm and 119 years: a negative resting energy.
        let tiny = BodyProfile(sex: .female, birthDate: CalendarDate(iso: "1907-06-01")!, heightCm: 50, weightKg: 20, activityLevel: .sedentary, aim: .maintain)
        let small = GoalCalculation(profile: tiny, today: today)
        #expect(small.bmr < 0 && small.problem?.message.contains("below the 500 kcal") == true)
        #expect(throws: ValidationError.self) { try tiny.validated(today: today) }
        #expect(Plausible.goalEnergyKcal.contains(small.goals.energyKcal))
        // An ordinary profile has no problem.
        let ordinary = BodyProfile(sex: .female, birthDate: CalendarDate(iso: "1990-05-05")!, heightCm: 168, weightKg: 68, activityLevel: .light, aim: .cut)
        #expect(GoalCalculation(profile: ordinary, today: today).problem == nil)
        #expect((try? ordinary.validated(today: today)) != nil)
    }

    @Test("One weighing a day from a history: the last of the day, whatever order they come in")
    func oneWeighingADay() throws {
        let monday = try #require(CalendarDate(iso: "2026-11-23")), tuesday = try #require(CalendarDate(iso: "2026-11-24"))
        let morning = Date(timeIntervalSince1970: 1_795_420_800), evening = morning.addingTimeInterval(12 * 3600)
        var daily = DailyWeighings()
        let first = daily.add(day: monday, measuredAt: evening, weightKg: 80.4)
        let second = daily.add(day: monday, measuredAt: morning, weightKg: 79.8)
        let nextDay = daily.add(day: tuesday, measuredAt: evening.addingTimeInterval(86_400), weightKg: 80.1)
        #expect(first && nextDay)
        #expect(!second, "the day had one: the earlier is passed over")
        #expect(daily.weighings.map(\.weightKg) == [80.4, 80.1], "the evening's, oldest first")
        var reversed = DailyWeighings()
        reversed.add(day: monday, measuredAt: morning, weightKg: 79.8)
        let later = reversed.add(day: monday, measuredAt: evening, weightKg: 80.4)
        #expect(!later)
        #expect(reversed.weighings.map(\.weightKg) == [80.4] && reversed.weighings.map(\.measuredAt) == [evening])
    }

    @Test func imperialUnits() {
        #expect(BodyUnits.kilograms(fromPounds: 100) == Decimal(string: "45.359237"))
        #expect(BodyUnits.centimetres(feet: 5, inches: 11) == Decimal(string: "180.34"))
    }

    @Test func defaultGoalsAreSeed001s() {
        #expect(Goals.defaults.energyKcal == 2000 && Goals.defaults.protein == 150 && Goals.defaults.carbohydrates == 250 && Goals.defaults.fat == 65)
    }

    @Test func aDayGroupsByMealTypeAndRemainingMayGoNegative() {
        let d = today
        let breakfast = DiaryEntry(loggedAt: Date(timeIntervalSince1970: 1000), date: d, mealType: "breakfast", kind: .quickAdd, name: "Toast",
                                   nutrients: Nutrients(energyKcal: 1500, protein: 20, carbohydrates: 100, fat: 30), cost: 2)
        let snack = DiaryEntry(loggedAt: Date(timeIntervalSince1970: 2000), date: d, mealType: "snack", kind: .quickAdd, name: "Cake",
                               nutrients: Nutrients(energyKcal: 800, protein: 5, carbohydrates: 90, fat: 40))
        let types = MealTypeCatalog.defaults(owner: UUID(), now: Date(timeIntervalSince1970: 0))
        let day = DiaryDay(date: d, entries: [snack, breakfast], goals: .defaults, types: types)
        #expect(day.groups.map(\.mealType.key) == ["breakfast", "lunch", "dinner", "afternoon-snack", "snack", "workout-fuel", "protein-shake"])
        #expect(day.groups[0].entries.map(\.name) == ["Toast"])
        #expect(day.groups[1].entries.isEmpty)
        #expect(day.totals.energyKcal == 2300)
        #expect(day.remaining.energyKcal == -300)
        #expect(day.remaining.fat == -5)
        #expect(day.cost == 2)
        #expect(DiaryDay(date: d, entries: [], goals: .defaults, types: types).remaining.energyKcal == 2000)
    }

    @Test func entriesCopyTheFoodsValues() throws {
        let food = Food(name: "Oats", per100: Nutrients(energyKcal: 372, protein: 13, carbohydrates: 60, fat: 7),
                        price: Price(amount: 2, per: .package, packageSize: 1000))
        var entry = try DiaryEntry.food(food, quantity: 50, unit: .gram, loggedAt: Date(), date: today, mealType: "breakfast")
        #expect(entry.nutrients.energyKcal == 186)
        #expect(entry.cost == Decimal(string: "0.1"))
        #expect(entry.name == "Oats")
        entry.mealType = "lunch"
        #expect(entry.nutrients.energyKcal == 186, "moving it keeps the values")
    }

}

@Suite("Diary properties", .tags(.property))
struct DiaryPropertyTests {
    static let kcal = Gen.int(in: 0...3000).map { Decimal($0) }

    @Test("A day's totals are the sum of its entries and remaining is goal minus total") func totals() async {
        await propertyCheck(count: 200, input: Self.kcal.array(of: 0...12), Gen.int(in: 0...3)) { values, typeIndex in
            let d = CalendarDate(iso: "2026-11-21")!
            let entries = values.enumerated().map { i, v in
                DiaryEntry(loggedAt: Date(timeIntervalSince1970: Double(i)), date: d, mealType: MealType.systemDefaults[(i + typeIndex) % 4].key,
                           kind: .quickAdd, name: "x", nutrients: Nutrients(energyKcal: v, protein: v / 10))
            }
            let day = DiaryDay(date: d, entries: entries, goals: .defaults, types: .defaults(owner: UUID(), now: Date()))
            #expect(day.totals.energyKcal == values.reduce(0, +))
            #expect(day.remaining.energyKcal == 2000 - values.reduce(0, +))
            #expect(day.groups.flatMap(\.entries).count == entries.count)
            // Typed apart: as one expression it took the type checker 4.7 s.
            let groupTotals: [Decimal] = day.groups.map { $0.totals.energyKcal ?? 0 }
            #expect(groupTotals.reduce(0, +) == values.reduce(0, +))
        }
    }

    @Test("Pounds and kilograms round-trip") func pounds() async {
        await propertyCheck(count: 200, input: Gen.int(in: 1...5000)) { tenths in
            let kg = Decimal(tenths) / 10
            #expect((BodyUnits.kilograms(fromPounds: BodyUnits.pounds(fromKilograms: kg)) - kg).magnitude < Decimal(string: "0.0000001")!)
        }
    }

    @Test("BMR grows with weight and height, falls with age") func bmrMonotonic() async {
        await propertyCheck(count: 200, input: Gen.int(in: 40...150), Gen.int(in: 140...210), Gen.int(in: 1940...2005)) { w, h, year in
            let p = BodyProfile(sex: .female, birthDate: CalendarDate(year: year, month: 6, day: 1)!, heightCm: Decimal(h), weightKg: Decimal(w), activityLevel: .light, aim: .maintain)
            let today = CalendarDate(iso: "2026-11-21")!
            var heavier = p; heavier.weightKg += 1
            var taller = p; taller.heightCm += 1
            let bmr = GoalCalculation(profile: p, today: today).bmr
            #expect(GoalCalculation(profile: heavier, today: today).bmr - bmr == 10)
            #expect(GoalCalculation(profile: taller, today: today).bmr - bmr == Decimal(string: "6.25"))
            #expect(GoalCalculation(profile: p, today: today).tdee == bmr * Decimal(string: "1.375")!)
        }
    }
}

@Suite("Goals follow the scale")
struct GoalsFollowTheScaleTests {
    let profile = BodyProfile(sex: .male, birthDate: CalendarDate(iso: "1996-01-01")!, heightCm: 180, weightKg: 80, activityLevel: .light, aim: .maintain)

    @Test func theLatestWeighingReplacesTheTypedWeight() {
        #expect(profile.following(latestWeight: 76).weightKg == 76)
        #expect(profile.following(latestWeight: nil).weightKg == 80)
        #expect(profile.following(latestWeight: Decimal(string: "1e38")!).weightKg == 80, "an absurd stored weight is not followed")
    }
}
