import ForkcastCore
import Foundation
import PropertyBased
import Testing

@Suite("Time-ordered ids")
struct TimeOrderedIDTests {
    private func bytes(_ id: UUID) -> [UInt8] { withUnsafeBytes(of: id.uuid) { Array($0) } }

    @Test func beginsWithTheMillisecondAndCarriesVersionSevenAndTheVariant() {
        // 2026-11-28T10:00:00.123Z is 1,795,860,000,123 ms after 1970: 0x01A2 2198 ED7B.
        let instant = Date(timeIntervalSince1970: 1_795_860_000.123)
        let id = UUID.timeOrdered(at: instant)
        let milliseconds = bytes(id).prefix(6).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(milliseconds == 1_795_860_000_123)
        #expect(id.uuidString.hasPrefix("01A22198-ED7B-7"))
        #expect(bytes(id)[6] >> 4 == 7)
        #expect(bytes(id)[8] >> 6 == 0b10)
    }

    @Test func idsMadeLaterSortAfterAsBytesAndAsText() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...4_000_000_000_000), Gen.int(in: 1...86_400_000)) { start, step in
            let earlier = UUID.timeOrdered(at: Date(timeIntervalSince1970: Double(start) / 1000))
            let later = UUID.timeOrdered(at: Date(timeIntervalSince1970: Double(start + step) / 1000))
            #expect(bytes(earlier).lexicographicallyPrecedes(bytes(later)))
            #expect(earlier.uuidString < later.uuidString)
        }
    }

    @Test func idsOfOneMillisecondDifferInTheirRandomBits() {
        let instant = Date(timeIntervalSince1970: 1_795_860_000.123)
        let ids = (0..<1_000).map { _ in UUID.timeOrdered(at: instant) }
        #expect(Set(ids).count == 1_000)
        for index in [7, 9, 15] {  // random bits in both fields: rand_a (bytes 6-7) and rand_b (8-15)
            #expect(Set(ids.map { bytes($0)[index] }).count > 100, "byte \(index)")
        }
        #expect(Set(ids.map { bytes($0)[6] & 0x0F }).count > 8, "the low nibble beside the version")
    }

    @Test func instantsOutsideTheFieldAreClampedNotWrapped() {
        #expect(UUID.timeOrdered(at: Date(timeIntervalSince1970: -5)).uuidString.hasPrefix("00000000-0000-7"))
        #expect(UUID.timeOrdered(at: .distantFuture).uuidString.hasPrefix("3A4AA17B-4000-7"), "the year 4001 still fits")
        for far in [1e15, 1e308, .infinity] {
            #expect(UUID.timeOrdered(at: Date(timeIntervalSince1970: far)).uuidString.hasPrefix("FFFFFFFF-FFFF-7"))
        }
        #expect(UUID.timeOrdered(at: Date(timeIntervalSince1970: .nan)).uuidString.hasPrefix("00000000-0000-7"))
    }
}
