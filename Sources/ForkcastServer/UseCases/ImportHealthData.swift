import Fluent
import ForkcastCore
import Foundation

/// Taking what an Apple Health export holds into the person's body records (the API's and the
/// Goals page's import alike): weights not recorded yet, and sex, birth date and height merged into
/// the profile.
struct ImportHealthData {
    let body: BodyRepository
    let now: Date

    /// How many of the export's weights were new.
    func callAsFunction(_ result: AppleHealthImport.Result) async throws -> Int {
        let added = try await body.addWeights(result.weights, source: "apple-health")
        try await body.merge(sex: result.sex, birthDate: result.birthDate, heightCm: result.height?.cm, now: now)
        return added
    }
}
