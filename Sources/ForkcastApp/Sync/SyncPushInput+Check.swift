import ForkcastContract
import ForkcastCore
import Foundation

extension SyncPushInput {
    /// The longest a device id, a mutation id or a group name may be (in Unicode scalars).
    public static let maximumNameLength = 100

    /// Refuses a malformed batch whole, naming every bad field (what the OpenAPI schema refuses):
    /// a device id that is empty, too long or the server's own, too many mutations, a mutation id
    /// used twice, an unknown kind or op, a group longer than a plate. A well-formed mutation that
    /// the rules refuse is not a problem of the batch: it is answered "rejected" on its own.
    /// Returns the mutations with their kind and op read.
    func checked() throws -> [CheckedMutation] {
        var problems: [ValidationError.Field] = []
        let names = 1...Self.maximumNameLength
        if !names.contains(deviceId.unicodeScalars.count) || deviceId == SyncMerge.serverDeviceId {
            problems.append(.init(field: "deviceId", message: "deviceId must be 1 to \(Self.maximumNameLength) characters naming the device (not \"\(SyncMerge.serverDeviceId)\")."))
        }
        if mutations.count > Self.maximumMutations {
            problems.append(.init(field: "mutations", message: "Send at most \(Self.maximumMutations) mutations at once; this batch has \(mutations.count)."))
        }
        var mutationIds = Set<String>()
        for (index, m) in mutations.enumerated() {
            if !names.contains(m.mutationId.unicodeScalars.count) {
                problems.append(.init(field: "mutations[\(index)].mutationId", message: "mutationId must be 1 to \(Self.maximumNameLength) characters, unique per change."))
            } else if !mutationIds.insert(m.mutationId).inserted {
                // The second would silently get the first's answer: two changes, one id.
                problems.append(.init(field: "mutations[\(index)].mutationId", message: "mutationId \"\(m.mutationId.prefix(40))\" is used twice in this batch; each change needs its own."))
            }
            if SyncKind(rawValue: m.kind) == nil {
                problems.append(.init(field: "mutations[\(index)].kind", message: "kind must be one of: \(SyncKind.allCases.map(\.rawValue).joined(separator: ", "))."))
            }
            if SyncOp(rawValue: m.op) == nil {
                problems.append(.init(field: "mutations[\(index)].op", message: "op must be \"upsert\" or \"delete\"."))
            }
            if let group = m.group, !names.contains(group.unicodeScalars.count) {
                problems.append(.init(field: "mutations[\(index)].group", message: "group must be 1 to \(Self.maximumNameLength) characters naming the change its mutations make together."))
            }
            if let record = m.record {
                switch record {
                case .object, .null: break
                default: problems.append(.init(field: "mutations[\(index)].record", message: "record must be an object (the resource's input) or null."))
                }
            }
        }
        let groupSizes = Dictionary(grouping: mutations.compactMap(\.group), by: { $0 }).mapValues(\.count)
        for (group, size) in groupSizes where size > DiaryValidation.maximumPlateItems {
            problems.append(.init(field: "mutations", message: "A group holds at most \(DiaryValidation.maximumPlateItems) mutations (a plate's limit); group \"\(group.prefix(40))\" has \(size)."))
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        return mutations.map { CheckedMutation(mutation: $0, kind: SyncKind(rawValue: $0.kind)!, op: SyncOp(rawValue: $0.op)!) }
    }
}

/// A pushed mutation whose kind and op were read (``SyncPushInput/checked()`` refused any other).
struct CheckedMutation: Sendable {
    let mutation: PushedMutation
    let kind: SyncKind
    let op: SyncOp
}
