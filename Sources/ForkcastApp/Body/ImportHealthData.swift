import ForkcastCore
import Foundation

/// Taking what an Apple Health export holds into the person's body records, from the API and the
/// Goals page alike: the weighings not recorded yet, and sex, birth date and height merged into the
/// profile. The server's parser reads the export; the rules of what it adds are here.
public struct ImportHealthData: Sendable {
    let store: any BodyStore
    /// The request's time: the time of every change.
    let now: Date

    public init(store: any BodyStore, now: Date) {
        self.store = store
        self.now = now
    }

    /// The source a weighing from an export is stored with.
    public static let source = "apple-health"
    /// Weighings written per transaction: years of daily weighings never hold the writer for long,
    /// and a failure keeps the chunks written before it (each one whole).
    public static let chunkSize = 500

    /// What an export brought, each value already checked as plausible by the parser.
    public struct Export: Sendable {
        public var weights: [(measuredAt: Date, weightKg: Decimal)]
        public var sex: Sex?
        public var birthDate: CalendarDate?
        public var heightCm: Decimal?

        public init(weights: [(measuredAt: Date, weightKg: Decimal)], sex: Sex? = nil, birthDate: CalendarDate? = nil, heightCm: Decimal? = nil) {
            self.weights = weights
            self.sex = sex
            self.birthDate = birthDate
            self.heightCm = heightCm
        }
    }

    /// How many of the export's weighings were new: one at an instant (to the millisecond) the person
    /// has a weighing at already, or one the export repeats, is passed over.
    @discardableResult
    public func callAsFunction(_ export: Export) async throws -> Int {
        let now = now
        var added = 0
        var start = 0
        while start < export.weights.count {
            let chunk = Array(export.weights[start..<min(start + Self.chunkSize, export.weights.count)])
            start += Self.chunkSize
            added += try await store.write { body in
                let instants = chunk.map(\.measuredAt)
                var seen = Set(try await body.weights(from: instants.min()!.addingTimeInterval(-1), to: instants.max()!.addingTimeInterval(1))
                    .map { WeightEntry.millisecond($0.measuredAt) })
                let fresh = chunk.filter { seen.insert(WeightEntry.millisecond($0.measuredAt)).inserted }
                    .map { WeightEntry(id: UUID.timeOrdered(), measuredAt: $0.measuredAt, weightKg: $0.weightKg, source: Self.source) }
                try await body.insertWeights(fresh, now: now)
                return fresh.count
            }
        }
        try await mergeProfile(export)
        return added
    }

    /// The export's sex, birth date and height replace the profile's; a person without a profile
    /// gets one only when the export has all three and a weighing is known (activity and aim then
    /// start at light and maintain, as the profile form's defaults).
    private func mergeProfile(_ export: Export) async throws {
        guard export.sex != nil || export.birthDate != nil || export.heightCm != nil else { return }
        let now = now
        try await store.write { body in
            if var profile = try await body.profile() {
                if let sex = export.sex { profile.sex = sex }
                if let birthDate = export.birthDate { profile.birthDate = birthDate }
                if let heightCm = export.heightCm { profile.heightCm = heightCm }
                try await body.saveProfile(profile, now: now)
            } else if let sex = export.sex, let birthDate = export.birthDate, let heightCm = export.heightCm,
                      let weight = try await body.latestWeight() {
                try await body.saveProfile(BodyProfile(sex: sex, birthDate: birthDate, heightCm: heightCm, weightKg: weight.weightKg,
                                                       activityLevel: .light, aim: .maintain), now: now)
            }
        }
    }
}
