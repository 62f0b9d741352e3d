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
        let since1970 = instant.timeIntervalSince1970 * 1000
        let milliseconds = since1970.isNaN ? 0 : UInt64(min(max(since1970, 0), Double(UInt64(1) << 48 - 1)))
        // A random id's bits (the RFC's variant included), with the time over its first six bytes.
        var bytes = UUID().uuid
        withUnsafeMutableBytes(of: &bytes) { raw in
            for i in 0..<6 { raw[i] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - i))) }
            raw[6] = 0x70 | (raw[6] & 0x0F)  // version 7
        }
        return UUID(uuid: bytes)
    }
}
