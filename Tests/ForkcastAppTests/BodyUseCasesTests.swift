import ForkcastApp
import ForkcastCore
import Foundation
import Testing

/// Weights, the body profile and goals: the body's use cases alone on the in-memory store.
@Suite("Body use cases, alone on the in-memory store")
struct BodyUseCasesTests {
    let libraries = InMemoryLibraries()
    let ann = UUID(), bob = UUID()
    let monday = Date(timeIntervalSince1970: 1_795_392_000) // 2026-11-23 00:00 UTC
    var today: CalendarDate { CalendarDate(monday, in: TimeZone(identifier: "UTC")!) }

    func profile(weightKg: Decimal) -> SaveBodyProfile.Input {
        SaveBodyProfile.Input(sex: "female", birthDate: CalendarDate(iso: "1990-05-17")!, heightCm: 168, weightKg: weightKg,
                              activityLevel: "moderate", aim: "maintain")
    }

    @Test func aSecondWeightAtTheSameInstantIsRefusedAndASyncedEditChangesItInPlace() async throws {
        let at = monday.addingTimeInterval(7 * 3600)
        let later = monday.addingTimeInterval(9 * 3600)
        let record = RecordWeight(store: libraries.body(of: ann), now: later)
        let first = try await record(.init(measuredAt: at, weightKg: 70.4, weightLb: nil), id: UUID())
        #expect(first.weightKg == 70.4 && first.measuredAt == at && first.source == "manual")
        #expect(libraries.contents.changes.last == .init(kind: .weight, id: first.id, deleted: false, at: later), "in the change feed at the request's time")

        let twice = await #expect(throws: Refusal.self) { try await record(.init(measuredAt: at.addingTimeInterval(0.0002), weightKg: 71, weightLb: nil), id: UUID()) }
        #expect(twice == .conflict("A weight is already recorded at 2026-11-23T07:00:00Z."), "the same instant to the millisecond")
        _ = try await RecordWeight(store: libraries.body(of: bob), now: later)(.init(measuredAt: at, weightKg: 80, weightLb: nil), id: UUID())

        let edited = try await record(.init(measuredAt: at.addingTimeInterval(60), weightKg: nil, weightLb: 154), id: first.id)
        #expect(edited.id == first.id && edited.measuredAt == at.addingTimeInterval(60))
        #expect(edited.weightKg == (BodyUnits.kilogramsPerPound * 154).rounded(2), "pounds stored as kilograms")
        #expect(libraries.contents.weights.count == 2, "Ann's edit changed hers in place; Bob's is his")

        let bad = await #expect(throws: ValidationError.self) { try await record(.init(measuredAt: nil, weightKg: -5, weightLb: nil), id: UUID()) }
        #expect(bad?.fields.map(\.field) == ["weightKg"])
        let none = await #expect(throws: ValidationError.self) { try await record(.init(measuredAt: nil, weightKg: nil, weightLb: nil), id: UUID()) }
        #expect(none?.fields.isEmpty == false)
        #expect(libraries.contents.weights.count == 2)

        #expect(try await DeleteWeight(store: libraries.body(of: bob), now: later)(first.id) == nil, "not Bob's to delete")
        #expect(try await DeleteWeight(store: libraries.body(of: ann), now: later)(first.id)?.id == first.id)
        #expect(try await DeleteWeight(store: libraries.body(of: ann), now: later)(first.id) == nil, "already gone")
        #expect(libraries.contents.changes.last == .init(kind: .weight, id: first.id, deleted: true, at: later))
        _ = try await record(.init(measuredAt: at, weightKg: 70.4, weightLb: nil), id: UUID())
        #expect(libraries.contents.weights.count == 2, "its instant is free again")
    }

    @Test func aProfileWithANewWeightRecordsAWeighingAndKeepsManualGoalsUnlessAsked() async throws {
        let store = libraries.body(of: ann)
        try await SetGoals(store: store, now: monday)(.init(source: "manual", energyKcal: 1800, protein: 120, carbohydrates: 200, fat: 60))
        let saved = try await SaveBodyProfile(store: store, now: monday, today: today, uuid: { UUID() })(profile(weightKg: 64))
        #expect(saved.weightKg == 64)
        #expect(libraries.contents.weights.values.map(\.value.source) == ["profile"], "the profile's weight became a weighing")
        #expect(libraries.contents.goals[ann]?.source == .manual && libraries.contents.goals[ann]?.energyKcal == 1800, "manual goals are kept")

        let tuesday = monday.addingTimeInterval(86_400)
        _ = try await SaveBodyProfile(store: store, now: tuesday, today: today, uuid: { UUID() })(profile(weightKg: 64), useComputedGoals: true)
        #expect(libraries.contents.weights.count == 1, "the same weight again is no new weighing")
        #expect(libraries.contents.goals[ann]?.source == .computed, "asked for, goals are computed")

        let wrong = await #expect(throws: ValidationError.self) {
            var input = profile(weightKg: 64)
            input.heightCm = 2000
            try await SaveBodyProfile(store: store, now: tuesday, today: today, uuid: { UUID() })(input)
        }
        #expect(wrong?.fields.map(\.field) == ["heightCm"])
    }

    @Test func aWeighingRecordedAgainKeepsOnlyASourceOfThisServer() {
        #expect(RecordWeight.sourceRecordedAgain(ImportHealthData.source) == ImportHealthData.source)
        #expect(RecordWeight.sourceRecordedAgain("profile") == "profile" && RecordWeight.sourceRecordedAgain("manual") == "manual")
        for other in ["Ana's iPhone", "<script>", "", nil] as [String?] {
            #expect(RecordWeight.sourceRecordedAgain(other) == "manual", "\(String(describing: other))")
        }
    }

    @Test func computedGoalsNeedAProfile() async throws {
        let store = libraries.body(of: bob)
        let refused = await #expect(throws: ValidationError.self) { try await SetGoals(store: store, now: monday)(.init(source: "computed")) }
        #expect(refused?.fields.map(\.field) == ["source"])
        let unknown = await #expect(throws: ValidationError.self) { try await SetGoals(store: store, now: monday)(.init(source: "guessed")) }
        #expect(unknown?.fields.map(\.field) == ["source"])
        #expect(libraries.contents.goals[bob] == nil, "refused goals store nothing")
    }

    @Test func aHealthExportAddsOnlyNewWeighingsAndMergesTheProfile() async throws {
        let store = libraries.body(of: ann)
        let at = monday.addingTimeInterval(7 * 3600)
        _ = try await RecordWeight(store: store, now: monday)(.init(measuredAt: at, weightKg: 70, weightLb: nil), id: UUID())
        // 1,200 days of weighings (three transactions), one of them at the instant Ann recorded by
        // hand (to the millisecond) and one repeated in the export itself.
        var weights: [(measuredAt: Date, weightKg: Decimal)] = []
        for day in 0..<1200 {
            let kg: Decimal = 70 + Decimal(day % 10) / 10
            weights.append((measuredAt: at.addingTimeInterval(Double(-day * 86_400)), weightKg: kg))
        }
        weights[0].measuredAt = at.addingTimeInterval(0.0003)
        weights.append(weights[5])
        let export = ImportHealthData.Export(weights: weights, sex: .female, birthDate: nil, heightCm: 170)
        #expect(try await ImportHealthData(store: store, now: monday)(export) == 1199)
        let stored = libraries.contents.weights.values.filter { $0.owner == ann }.map(\.value)
        #expect(stored.count == 1200 && stored.filter { $0.source == ImportHealthData.source }.count == 1199)
        #expect(try await ImportHealthData(store: store, now: monday)(export) == 0, "a second import adds nothing")
        #expect(libraries.contents.profiles[ann] == nil, "no birth date: no profile is made up")

        // With all three, a profile is made (the newest weighing's weight); later exports merge into it.
        #expect(try await ImportHealthData(store: store, now: monday)(.init(weights: [], sex: .female, birthDate: CalendarDate(iso: "1990-05-17"), heightCm: 170)) == 0)
        let made = try #require(libraries.contents.profiles[ann])
        #expect(made.heightCm == 170 && made.activityLevel == .light && made.aim == .maintain)
        _ = try await ImportHealthData(store: store, now: monday)(.init(weights: [], heightCm: 171))
        let merged = try #require(libraries.contents.profiles[ann])
        #expect(merged.heightCm == 171 && merged.sex == .female && merged.birthDate == CalendarDate(iso: "1990-05-17"))
        #expect(libraries.contents.weights.values.allSatisfy { $0.owner == ann }, "nothing of Bob's")
    }
}
