import ForkcastApp
import ForkcastContract
import ForkcastCore
import Foundation
import Testing

/// ``PushChanges`` alone on the in-memory store: how a device's pushed changes are decided, whatever
/// the records are (the server's sync tests run the same use case on SQLite and PostgreSQL).
@Suite("Applying a device's push, alone on the in-memory store")
struct SyncUseCaseTests {
    let owner = UUID()
    let now = Date(timeIntervalSince1970: 1_795_392_000)
    let soup = UUID(), bread = UUID()

    /// A refusal as the API would present it; storage trouble (the fake's `Unavailable`) is not one.
    static let present: @Sendable (any Error, PushedMutation) -> Problem? = { error, _ in
        switch error {
        case is InMemorySyncStore.Unavailable: nil
        case let error as ValidationError: Problem(type: "validation", title: "Some fields need fixing", status: 422, detail: error.summary, errors: error.fields)
        case let refusal as Refusal: Problem(type: "refused", title: "Refused", status: 409, detail: "\(refusal)")
        default: Problem(type: "other", title: "Other", status: 400, detail: "\(error)")
        }
    }

    /// Foods need a name, as SaveFood's rules say.
    static let rules: @Sendable (SyncKind, JSONValue?) throws -> Void = { _, record in
        guard case .object(let fields)? = record, case .string(let name)? = fields["name"], !name.isEmpty else {
            throw ValidationError(field: "name", "A food needs a name.")
        }
    }

    func push(_ store: InMemorySyncStore, _ mutations: [PushedMutation], device: String = "phone", sentAt: Date? = nil) async throws -> [SyncResult] {
        try await PushChanges(store: store, owner: owner, now: now, present: Self.present)(
            SyncPushInput(deviceId: device, sentAt: sentAt, mutations: mutations)).results
    }

    func food(_ mutationId: String, _ id: UUID, name: String, at minutesAgo: Double, group: String? = nil) -> PushedMutation {
        PushedMutation(mutationId: mutationId, kind: "food", id: id, op: "upsert", updatedAt: now.addingTimeInterval(-minutesAgo * 60),
                       record: .object(["name": .string(name)]), group: group)
    }

    func delete(_ mutationId: String, _ id: UUID, at minutesAgo: Double) -> PushedMutation {
        PushedMutation(mutationId: mutationId, kind: "food", id: id, op: "delete", updatedAt: now.addingTimeInterval(-minutesAgo * 60))
    }

    @Test func aMutationSentAgainGetsItsFirstAnswerAndChangesNothing() async throws {
        let store = InMemorySyncStore(rules: Self.rules)
        let first = try await push(store, [food("m1", soup, name: "Soup", at: 5)])
        #expect(first.map(\.status) == [.known(.applied)])
        #expect(first[0].record == .object(["name": .string("Soup")]))
        let before = store.contents
        let again = try await push(store, [food("m1", soup, name: "Soup, edited meanwhile", at: 1)])
        #expect(again == first)
        #expect(store.contents == before, "nothing changes")
        // Another device may use the same mutation id for its own change.
        let other = try await push(store, [food("m1", soup, name: "Tomato soup", at: 1)], device: "laptop")
        #expect(other[0].status == .known(.applied) && other[0].record == .object(["name": .string("Tomato soup")]))
    }

    @Test func anOlderChangeIsSupersededWithTheRecordAsItIsNow() async throws {
        let store = InMemorySyncStore(rules: Self.rules)
        _ = try await push(store, [food("m1", soup, name: "Soup", at: 1)], device: "laptop")
        let older = try await push(store, [food("m2", soup, name: "Old soup", at: 10)])
        #expect(older == [SyncResult(mutationId: "m2", status: .superseded, record: .object(["name": .string("Soup")]))])
        // A newer delete wins; an older edit after it is superseded with no record (it is gone).
        let deleted = try await push(store, [delete("m3", soup, at: 0.5)])
        #expect(deleted.map(\.status) == [.known(.applied)] && deleted[0].record == nil)
        let late = try await push(store, [food("m4", soup, name: "Soup again", at: 0.8)])
        #expect(late == [SyncResult(mutationId: "m4", status: .superseded, record: nil)])
        #expect(store.contents.replica.records.isEmpty)
        #expect(store.contents.sequence == 2, "a superseded change is not a change")
    }

    @Test func aDeviceClockAheadOfTheServersDoesNotWinOverLaterEdits() async throws {
        let store = InMemorySyncStore(rules: Self.rules)
        _ = try await push(store, [food("m1", soup, name: "Honest edit", at: 2)], device: "laptop")
        // Its clock is an hour fast: stamped 30 minutes from now, made 30 minutes ago.
        let fast = PushedMutation(mutationId: "f1", kind: "food", id: soup, op: "upsert", updatedAt: now.addingTimeInterval(1800),
                                  record: .object(["name": .string("From the fast clock")]))
        let results = try await push(store, [fast], device: "fast-phone", sentAt: now.addingTimeInterval(3600))
        #expect(results[0].status == .known(.superseded))
        #expect(store.contents.replica.records.values.first == .object(["name": .string("Honest edit")]))
    }

    @Test func aGroupIsAppliedWholeOrEveryMemberIsRejectedWithTheReason() async throws {
        let store = InMemorySyncStore(rules: Self.rules)
        let plate = [food("p1", soup, name: "Soup", at: 1, group: "plate"), food("p2", bread, name: "", at: 1, group: "plate")]
        let refused = try await push(store, plate)
        #expect(refused.map(\.status) == [.known(.rejected), .known(.rejected)])
        #expect(refused[1].problem?.errors?.map(\.field) == ["name"], "the refused member names its field")
        #expect(refused[0].problem?.detail.hasPrefix("Nothing of this group was saved: its item p2 was refused") == true)
        #expect(refused[0].problem?.errors == nil)
        #expect(store.contents.replica.entries.isEmpty && store.contents.sequence == 0, "nothing of the plate is kept")
        // Sent again, the group gets the same answers, whole.
        #expect(try await push(store, plate) == refused)
        #expect(store.contents.replica.entries.isEmpty)

        let fixed = [food("p3", soup, name: "Soup", at: 1, group: "plate 2"), food("p4", bread, name: "Bread", at: 1, group: "plate 2")]
        let applied = try await push(store, fixed)
        #expect(applied.map(\.status) == [.known(.applied), .known(.applied)] && store.contents.sequence == 2)
    }

    @Test func aGroupWithAMemberANewerChangeBeatIsNotApplied() async throws {
        let store = InMemorySyncStore(rules: Self.rules)
        _ = try await push(store, [food("n1", bread, name: "Rye bread", at: 0.5)], device: "laptop")
        let plate = [food("p1", soup, name: "Soup", at: 1, group: "plate"), food("p2", bread, name: "Bread", at: 1, group: "plate")]
        let results = try await push(store, plate)
        #expect(results.map(\.status) == [.known(.rejected), .known(.rejected)])
        #expect(results[1].problem?.detail.contains("A newer change to food \(bread) was already synced") == true)
        #expect(store.contents.replica.records.count == 1 && store.contents.replica.records.values.first == .object(["name": .string("Rye bread")]))
    }

    @Test func aChangeFromBeforeTheForgottenDeletionsIsRefusedUnlessTheRecordIsKnown() async throws {
        let store = InMemorySyncStore(forgotDeletions: true, rules: Self.rules)
        let ancient = food("old", soup, name: "Soup", at: Double(SyncMerge.tombstoneDays + 1) * 1440)
        let results = try await push(store, [ancient])
        #expect(results.map(\.status) == [.known(.rejected)])
        #expect(results[0].problem?.detail.contains("\(SyncMerge.tombstoneDays) days ago") == true)
        #expect(store.contents.replica.entries.isEmpty)
        // The answer is remembered like any other.
        #expect(store.contents.answers["phone"]?["old"] == results[0])
        // Without forgotten deletions, the same old change is simply applied.
        let fresh = InMemorySyncStore(rules: Self.rules)
        #expect(try await push(fresh, [ancient]).map(\.status) == [.known(.applied)])
    }

    @Test func goalsProfileAndSettingsAreThePersonsOwnId() async throws {
        let store = InMemorySyncStore()
        let someoneElse = PushedMutation(mutationId: "g1", kind: "goals", id: UUID(), op: "upsert", updatedAt: now, record: .object([:]))
        let mine = PushedMutation(mutationId: "g2", kind: "goals", id: owner, op: "upsert", updatedAt: now, record: .object([:]))
        let results = try await push(store, [someoneElse, mine])
        #expect(results.map(\.status) == [.known(.rejected), .known(.applied)])
        #expect(results[0].problem?.detail.contains("its id is your user id") == true)
    }

    @Test func aMalformedBatchIsRefusedWholeAndNothingIsKept() async throws {
        let store = InMemorySyncStore(rules: Self.rules)
        var batch = [food("same", soup, name: "Soup", at: 1), food("same", bread, name: "Bread", at: 1)]
        batch.append(PushedMutation(mutationId: "k", kind: "recipe", id: UUID(), op: "merge", updatedAt: now, record: .string("soup")))
        batch += (0...DiaryValidation.maximumPlateItems).map { food("g\($0)", UUID(), name: "Item", at: 1, group: "big") }
        let error = await #expect(throws: ValidationError.self) { try await push(store, batch, device: SyncMerge.serverDeviceId) }
        #expect(Set(error?.fields.map(\.field) ?? []) == ["deviceId", "mutations[1].mutationId", "mutations[2].kind", "mutations[2].op",
                                                         "mutations[2].record", "mutations"])
        let tooMany = (0...SyncPushInput.maximumMutations).map { food("t\($0)", UUID(), name: "Item", at: 1) }
        let second = await #expect(throws: ValidationError.self) { try await push(store, tooMany) }
        #expect(second?.fields.map(\.field) == ["mutations"])
        #expect(store.contents == InMemorySyncStore.State(), "nothing of either batch is kept")
    }

    /// Foods need a name; a food named "disk full" meets storage trouble instead.
    static let troubledRules: @Sendable (SyncKind, JSONValue?) throws -> Void = { kind, record in
        if case .object(let fields)? = record, fields["name"] == .string("disk full") { throw InMemorySyncStore.Unavailable() }
        try rules(kind, record)
    }

    @Test func aLongPushIsAppliedSeveralMutationsToAWriteEachUndoingOnlyItsOwnWhenRefused() async throws {
        let store = InMemorySyncStore(rules: Self.rules)
        let ids = (0..<8).map { _ in UUID() }
        // Seven units: five alone (one refused), a group of two (refused whole), one alone.
        let batch = [food("1", ids[0], name: "Soup", at: 1), food("2", ids[1], name: "", at: 1), food("3", ids[2], name: "Bread", at: 1),
                     food("4", ids[3], name: "Rice", at: 1, group: "plate"), food("5", ids[4], name: "Tea", at: 1),
                     food("6", ids[5], name: "", at: 1, group: "plate"), food("7", ids[6], name: "Milk", at: 1), food("8", ids[7], name: "Eggs", at: 1)]
        let pushed = PushChanges(store: store, owner: owner, now: now, chunk: .init(limit: 3, time: .seconds(60)), present: Self.present)
        let results = try await pushed(SyncPushInput(deviceId: "phone", mutations: batch)).results
        // A group's answers come where its first member stands.
        #expect(results.map(\.mutationId) == ["1", "2", "3", "4", "6", "5", "7", "8"])
        #expect(results.map(\.status) == [.known(.applied), .known(.rejected), .known(.applied), .known(.rejected), .known(.rejected),
                                          .known(.applied), .known(.applied), .known(.applied)])
        #expect(store.writes == 3, "seven units, three to a write")
        #expect(Set(store.contents.replica.records.keys.map(\.id)) == Set([ids[0], ids[2], ids[4], ids[6], ids[7]]))
        #expect(store.contents.sequence == 5)
        #expect(store.contents.answers["phone"]?.count == 8, "every answer is remembered, refusals too")

        // A write that has run its time ends after the unit under way: one unit a write.
        let slow = InMemorySyncStore(rules: Self.rules)
        let oneByOne = PushChanges(store: slow, owner: owner, now: now, chunk: .init(limit: 64, time: .zero), present: Self.present)
        #expect(try await oneByOne(SyncPushInput(deviceId: "phone", mutations: batch)).results == results)
        #expect(slow.writes == 7 && slow.contents == store.contents)

        // With other writers waiting, a write ends after each unit too: they get in between.
        let shared = InMemorySyncStore(busy: true, rules: Self.rules)
        let besideOthers = PushChanges(store: shared, owner: owner, now: now, chunk: .init(limit: 64, time: .seconds(60)), present: Self.present)
        #expect(try await besideOthers(SyncPushInput(deviceId: "phone", mutations: batch)).results == results)
        #expect(shared.writes == 7 && shared.contents == store.contents)
        // Sent again, every answer is one it got, and they are read in one write: they change nothing.
        #expect(try await besideOthers(SyncPushInput(deviceId: "phone", mutations: batch)).results == results)
        #expect(shared.writes == 8 && shared.contents == store.contents)
        // Sent again with two new changes after it: the answers given before and the first new change
        // share a write; the second, with others waiting, gets one of its own.
        let more = batch + [food("9", UUID(), name: "Oats", at: 1), food("10", UUID(), name: "Kale", at: 1)]
        #expect(try await besideOthers(SyncPushInput(deviceId: "phone", mutations: more)).results.map(\.status).suffix(2) == [.known(.applied), .known(.applied)])
        #expect(shared.writes == 10 && shared.contents.sequence == store.contents.sequence + 2)
    }

    @Test func storageTroubleInALongPushKeepsTheWritesBeforeItAndNothingOfItsOwn() async throws {
        let store = InMemorySyncStore(rules: Self.troubledRules)
        let pushed = PushChanges(store: store, owner: owner, now: now, chunk: .init(limit: 2, time: .seconds(60)), present: Self.present)
        let batch = [food("1", soup, name: "Soup", at: 1), food("2", bread, name: "Bread", at: 1),
                     food("3", UUID(), name: "Tea", at: 1), food("4", UUID(), name: "disk full", at: 1)]
        await #expect(throws: InMemorySyncStore.Unavailable.self) { try await pushed(SyncPushInput(deviceId: "phone", mutations: batch)) }
        // The first write (1, 2) was kept; the second (3, 4) kept nothing, not even Tea, applied before the trouble.
        #expect(store.writes == 1)
        #expect(Set(store.contents.answers["phone"]?.keys.map { $0 } ?? []) == ["1", "2"])
        #expect(store.contents.replica.records.count == 2 && store.contents.sequence == 2)
        // Sent again without the troubled change: 1 and 2 get their answers, 3 is applied.
        let again = try await pushed(SyncPushInput(deviceId: "phone", mutations: Array(batch.prefix(3)))).results
        #expect(again.map(\.status) == [.known(.applied), .known(.applied), .known(.applied)])
        #expect(store.contents.sequence == 3)
    }

    @Test func storageTroubleIsThrownAndNothingIsRemembered() async throws {
        let store = InMemorySyncStore(rules: Self.rules)
        store.failNextWrite()
        await #expect(throws: InMemorySyncStore.Unavailable.self) { try await push(store, [food("m1", soup, name: "Soup", at: 1)]) }
        #expect(store.contents == InMemorySyncStore.State())
        // The device sends it again, and it is applied.
        #expect(try await push(store, [food("m1", soup, name: "Soup", at: 1)]).map(\.status) == [.known(.applied)])
    }
}
