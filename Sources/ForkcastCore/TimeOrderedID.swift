import Foundation

extension UUID {
    /// A new id whose first 48 bits are the Unix time in milliseconds (RFC 9562's version 7), the
    /// other 74 random: an id made in a later millisecond sorts after one made earlier (ids of one
    /// millisecond sort at random; there is no counter). New rows' keys then land beside each other
    /// at the end of the time-ordered ids in their table's and indexes' ordering instead of on a
    /// random page each, so a commit of a few new rows writes a few pages, not one per row per
    /// id-ordered index (docs/performance.md). In a database with older random ids, the new ones
    /// cluster in one place among them. 74 random bits, not a random id's 122: no id serves as a
    /// secret (tokens, sessions and invitations have their own hashed keys). An id tells when it
    /// was made.
    public static func timeOrdered(at instant: Date = Date()) -> UUID {
        var generator = SystemRandomNumberGenerator()
        return timeOrdered(at: instant, using: &generator)
    }

    /// The same with the randomness given (tests).
    public static func timeOrdered<G: RandomNumberGenerator>(at instant: Date, using generator: inout G) -> UUID {
        let since1970 = instant.timeIntervalSince1970 * 1000
        let milliseconds = since1970.isNaN ? 0 : UInt64(min(max(since1970, 0), Double(UInt64(1) << 48 - 1)))
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<6 { bytes[i] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - UInt64(i)))) }
        for i in 6..<8 { bytes[i] = UInt8(truncatingIfNeeded: high >> (8 * UInt64(i))) }
        for i in 8..<16 { bytes[i] = UInt8(truncatingIfNeeded: low >> (8 * UInt64(i - 8))) }
        bytes[6] = 0x70 | (bytes[6] & 0x0F)  // version 7
        bytes[8] = 0x80 | (bytes[8] & 0x3F)  // the RFC's variant
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
