import ForkcastCore
import Foundation

/// An import's weights, goals and body profile: checked before anything is written, stored last.
extension ImportAccount {
    /// What can be checked of the body records before anything is written.
    func checkBody(_ archive: AccountArchive) throws {
        // Each weighing as RecordWeight checks one: a plausible weight, not in the future.
        for (index, weight) in archive.weights.enumerated() {
            do {
                _ = try BodyRules.kilograms(kg: weight.weightKg, lb: nil)
                _ = try BodyRules.measuredAt(weight.measuredAt, now: now)
            } catch { throw error.prefixed("weights[\(index)].") }
        }
        var instants = Set<Int64>()
        guard archive.weights.allSatisfy({ instants.insert(WeightEntry.millisecond($0.measuredAt)).inserted }) else {
            throw ValidationError(field: "weights", "Two weights in the export were measured at the same instant.")
        }
        if let goals = archive.goals {
            do { _ = try goals.validated() } catch { throw error.prefixed("goals.") }
            if let problem = goals.profileProblem(hasProfile: archive.bodyProfile != nil, field: "goals.source") { throw ValidationError([problem]) }
        }
        if let profile = archive.bodyProfile {
            do { _ = try profile.validated(today: today) } catch { throw error.prefixed("bodyProfile.") }
        }
    }

    /// Weights (as measured: none is made for the profile), goals and the body profile.
    func writeBody(_ archive: AccountArchive, _ records: any AccountImportRecords) async throws {
        let now = now, today = today
        try await records.body.write { body in
            // Checked in checkBody; stored as RecordWeight stores them (10 g, a source this server writes).
            let weighings = try archive.weights.map {
                WeightEntry(id: $0.id, measuredAt: $0.measuredAt, weightKg: try BodyRules.kilograms(kg: $0.weightKg, lb: nil),
                            source: RecordWeight.sourceRecordedAgain($0.source))
            }
            for start in stride(from: 0, to: weighings.count, by: Self.chunkSize) {
                try await body.insertWeights(Array(weighings[start..<min(start + Self.chunkSize, weighings.count)]), now: now)
            }
            if let goals = archive.goals { try await body.saveGoals(try goals.validated(), now: now) }
            if let profile = archive.bodyProfile { try await body.saveProfile(try profile.validated(today: today), now: now) }
        }
    }
}
