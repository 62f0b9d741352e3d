import ForkcastCore
import Foundation

/// One person's body records in memory (see ``InMemoryLibraries``).
public struct InMemoryBodyStore: BodyStore {
    let libraries: InMemoryLibraries
    public let owner: UUID
    /// See ``InMemoryLibrary``'s.
    var joined: InMemoryLibrary.Transaction?

    public func write<T: Sendable>(_ body: @escaping @Sendable (any BodyRecords) async throws -> T) async throws -> T {
        if let joined { return try await body(Records(tx: joined)) }
        return try await libraries.transaction(owner: owner) { try await body(Records(tx: $0)) }
    }

    struct Records: BodyRecords {
        let tx: InMemoryLibrary.Transaction

        func profile() async throws -> BodyProfile? {
            // As the server's: the profile's weight is the newest weighing.
            tx.records.profiles[tx.owner]?.following(latestWeight: try await latestWeight()?.weightKg)
        }

        func storedGoals() async throws -> Goals? { tx.records.goals[tx.owner] }

        func saveProfile(_ profile: BodyProfile, now: Date) async throws {
            tx.update { records in
                records.profiles[tx.owner] = profile
                tx.log(.bodyProfile, [tx.owner], deleted: false, at: now, in: &records)
            }
        }

        func saveGoals(_ goals: Goals, now: Date) async throws {
            tx.update { records in
                records.goals[tx.owner] = goals
                tx.log(.goals, [tx.owner], deleted: false, at: now, in: &records)
            }
        }

        func weight(_ id: UUID) async throws -> WeightEntry? {
            tx.records.weights[id].flatMap { $0.owner == tx.owner ? $0.value : nil }
        }

        func weights(at instant: Date) async throws -> [WeightEntry] {
            tx.records.weights.values.filter { $0.owner == tx.owner && WeightEntry.sameInstant($0.value.measuredAt, instant) }.map(\.value)
        }

        func weights(from: Date?, to: Date?) async throws -> [WeightEntry] {
            tx.records.weights.values.filter { $0.owner == tx.owner }.map(\.value)
                .filter { weight in weight.measuredAt >= (from ?? .distantPast) && weight.measuredAt < (to ?? .distantFuture) }
                .sorted { $0.measuredAt < $1.measuredAt }
        }

        func latestWeight() async throws -> WeightEntry? {
            tx.records.weights.values.filter { $0.owner == tx.owner }.map(\.value).max { $0.measuredAt < $1.measuredAt }
        }

        func insertWeights(_ weights: [WeightEntry], now: Date) async throws {
            for weight in weights { try await insertWeight(weight, now: now) }
        }

        func insertWeight(_ weight: WeightEntry, now: Date) async throws {
            try tx.update { records in
                guard records.weights[weight.id] == nil else { throw InMemoryLibraries.DuplicateID(id: weight.id) }
                try Self.checkInstant(weight, owner: tx.owner, records)
                records.weights[weight.id] = .init(owner: tx.owner, value: weight)
                tx.log(.weight, [weight.id], deleted: false, at: now, in: &records)
            }
        }

        func replaceWeight(_ weight: WeightEntry, now: Date) async throws -> Bool {
            try tx.update { records in
                guard let stored = records.weights[weight.id], stored.owner == tx.owner else { return false }
                try Self.checkInstant(weight, owner: tx.owner, records)
                var weight = weight
                weight.source = stored.value.source  // as the database's row keeps it
                records.weights[weight.id]?.value = weight
                tx.log(.weight, [weight.id], deleted: false, at: now, in: &records)
                return true
            }
        }

        /// One weighing per person and instant, like the database's unique index.
        private static func checkInstant(_ weight: WeightEntry, owner: UUID, _ records: InMemoryLibraries.Records) throws {
            if records.weights.values.contains(where: { other in
                other.value.id != weight.id && other.owner == owner && other.value.measuredAt == weight.measuredAt
            }) { throw InMemoryLibraries.SameInstant(at: weight.measuredAt) }
        }

        func deleteWeight(_ id: UUID, now: Date) async throws -> Bool {
            tx.update { records in
                guard records.weights[id]?.owner == tx.owner else { return false }
                records.weights[id] = nil
                tx.log(.weight, [id], deleted: true, at: now, in: &records)
                return true
            }
        }
    }
}
