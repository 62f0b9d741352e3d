import ForkcastCore
import Foundation

/// One person's body profile, goals and weights as the use cases see them. Like ``Library``, an
/// implementation is made for one person and reaches only their records.
public protocol BodyStore: Sendable {
    /// Runs `body` as one transaction: all of it is stored, or none of it when it throws.
    func write<T: Sendable>(_ body: @escaping @Sendable (any BodyRecords) async throws -> T) async throws -> T
}

/// A person's body records inside one ``BodyStore/write(_:)``. Writes store the record with its
/// change-feed row; they decide no rule.
public protocol BodyRecords: Sendable {
    /// The profile, its weight the newest weighing's.
    func profile() async throws -> BodyProfile?
    /// The goals setting as stored; nil when the person never set one (the defaults apply).
    func storedGoals() async throws -> Goals?
    /// Stores the profile, replacing the one the person has.
    func saveProfile(_ profile: BodyProfile, now: Date) async throws
    /// Stores the goals setting, replacing the one the person has.
    func saveGoals(_ goals: Goals, now: Date) async throws
    func weight(_ id: UUID) async throws -> WeightEntry?
    /// The person's weighings at this instant (to the millisecond).
    func weights(at instant: Date) async throws -> [WeightEntry]
    /// The person's weighings from `from` up to, not including, `to` (nil: no bound), oldest first:
    /// a range of days ends at the midnight after its last, which belongs to the next day.
    func weights(from: Date?, to: Date?) async throws -> [WeightEntry]
    /// The newest weighing.
    func latestWeight() async throws -> WeightEntry?
    func insertWeight(_ weight: WeightEntry, now: Date) async throws
    /// Stores many weighings, with their change-feed rows.
    func insertWeights(_ weights: [WeightEntry], now: Date) async throws
    /// False when the person has no weighing with the weight's id.
    func replaceWeight(_ weight: WeightEntry, now: Date) async throws -> Bool
    /// False when the person has no weighing with that id.
    func deleteWeight(_ id: UUID, now: Date) async throws -> Bool
}
