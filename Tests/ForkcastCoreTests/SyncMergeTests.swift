import ForkcastCore
import Foundation
import PropertyBased
import Testing

@Suite("Sync merge rule")
struct SyncMergeTests {
    static let ids = (0..<4).map { UUID(uuidString: "00000000-0000-0000-0000-00000000000\($0)")! }
    static let devices = ["phone", "tablet", "web", "laptop"]

    /// Mutations from several devices on a few records, with clashing clocks (equal instants happen).
    /// Mutation ids are unique per device, as real ones (UUIDs) are: two different changes never
    /// share a version (a delete and an upsert of the same value once did, and then which one
    /// won depended on the order they arrived in, on the generator's account, not the rule's).
    static let mutation = zip(Gen.int(in: 0...3), Gen.int(in: 0...3), Gen.int(in: 0...20), Gen.bool, Gen.int(in: 0...1000))
        .map { record, device, second, delete, value in
            SyncMutation<Int>(kind: record % 2 == 0 ? .meal : .food, id: ids[record],
                              op: delete ? .delete : .upsert,
                              version: SyncVersion(updatedAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(second)),
                                                   deviceId: devices[device], mutationId: "\(device)-\(second)-\(value)-\(delete)"),
                              record: delete ? nil : value)
        }

    @Test func anyOrderAndAnyDuplicatesGiveTheSameState() async {
        await propertyCheck(count: 300, input: Self.mutation.array(of: 0...30), Gen.int(in: 0...1_000_000)) { mutations, seed in
            var reference = SyncReplica<Int>()
            for m in mutations { reference.apply(m) }
            var generator = SeededGenerator(seed: UInt64(seed))
            let shuffled = (mutations + mutations.prefix(5)).shuffled(using: &generator)
            var other = SyncReplica<Int>()
            for m in shuffled { other.apply(m) }
            #expect(other == reference)
        }
    }

    @Test func devicesThatPushAndPullConvergeWithTheServer() async {
        await propertyCheck(count: 200, input: Self.mutation.array(of: 0...24), Gen.int(in: 0...1_000_000)) { mutations, seed in
            var generator = SeededGenerator(seed: UInt64(seed))
            // Each device first applies its own changes offline.
            var devices = Dictionary(uniqueKeysWithValues: Self.devices.map { ($0, SyncReplica<Int>()) })
            for m in mutations { devices[m.version.deviceId]!.apply(m) }
            // They push in a random order (some twice), the server applies what arrives...
            var server = SyncReplica<Int>()
            for device in Self.devices.shuffled(using: &generator) {
                for m in mutations.filter({ $0.version.deviceId == device }).shuffled(using: &generator) { server.apply(m) }
            }
            for m in mutations.shuffled(using: &generator).prefix(4) { server.apply(m) }
            // ...then every device pulls the server's state.
            for device in Self.devices {
                for (key, entry) in server.entries {
                    devices[device]!.apply(SyncMutation(kind: key.kind, id: key.id, op: entry.record == nil ? .delete : .upsert,
                                                        version: entry.version, record: entry.record))
                }
                #expect(devices[device]! == server, "\(device)")
            }
        }
    }

    @Test func aDeleteBeatsAnOlderUpdateAndLosesToANewerOne() {
        let id = UUID()
        func at(_ s: Double, _ op: SyncOp, _ device: String = "a") -> SyncMutation<String> {
            SyncMutation(kind: .meal, id: id, op: op, version: SyncVersion(updatedAt: Date(timeIntervalSince1970: s), deviceId: device),
                         record: op == .delete ? nil : "v\(s)")
        }
        var replica = SyncReplica<String>()
        replica.apply(at(10, .upsert))
        let deleted = replica.apply(at(20, .delete))
        #expect(deleted && replica.records.isEmpty)
        let stale = replica.apply(at(15, .upsert))
        #expect(!stale, "an older update does not bring it back")
        let newer = replica.apply(at(30, .upsert, "b"))
        #expect(newer && replica.records.values.first == "v30.0")
        let tie = replica.apply(at(30, .upsert, "a"))
        #expect(!tie, "same instant: the larger device id wins, on every replica")
    }

    @Test func aClockFarAheadIsPulledBack() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        // Without the device's clock: never later than the receipt.
        #expect(SyncMerge.accepted(now.addingTimeInterval(86_400 * 365), sentAt: nil, receivedAt: now) == now)
        #expect(SyncMerge.accepted(now.addingTimeInterval(-5), sentAt: nil, receivedAt: now) == now.addingTimeInterval(-5))
        // Two minutes fast: an edit stamped 90 s before sending was made 90 s before the receipt.
        let fast = now.addingTimeInterval(120)
        #expect(SyncMerge.accepted(fast.addingTimeInterval(-90), sentAt: fast, receivedAt: now) == now.addingTimeInterval(-90))
        // A slow clock is not moved forward.
        #expect(SyncMerge.accepted(now.addingTimeInterval(-400), sentAt: now.addingTimeInterval(-300), receivedAt: now) == now.addingTimeInterval(-400))
    }

    @Test func changesOlderThanTheTombstonesAreBeyondTheHorizon() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let days = Double(SyncMerge.tombstoneDays) * 86_400
        #expect(SyncMerge.isBeyondHorizon(now.addingTimeInterval(-days - 1), receivedAt: now))
        #expect(!SyncMerge.isBeyondHorizon(now.addingTimeInterval(-days + 60), receivedAt: now))
    }
}

/// A small deterministic generator (SplitMix64) for reproducible shuffles.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
