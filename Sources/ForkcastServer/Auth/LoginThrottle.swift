import Fluent
import Foundation
import NIOCore
import SQLKit

/// Slows password guessing with token buckets kept in the database, so every instance agrees and
/// a check is charged in the same statement that reads it (16 parallel guesses cannot all pass).
///
/// - Every attempt spends a token from its client address's bucket (20, refilled 1 per 6 s).
/// - An attempt from a client that has never signed in to that account (no known device cookie,
///   not a known address) also spends from the account's bucket for that network (5, refilled 1
///   per 5 min; a network is an IPv4 address or an IPv6 /64), then from the account's bucket for
///   every network together (50, refilled 1 per 5 min: over a day no more guesses than one bucket
///   of 5 allowed). A stranger failing empties their own network's bucket only, so the owner on a
///   new network (a phone on mobile data) still gets in; only guesses spread over ten networks or
///   more hold new devices back. Devices that signed in before skip both; the owner is still
///   limited per address.
/// - A correct password gives the tokens back.
struct LoginThrottle {
    struct Bucket: Sendable {
        let prefix: String
        let capacity: Double
        /// Tokens added per second.
        let rate: Double
    }

    static let perAddress = Bucket(prefix: "addr:", capacity: 20, rate: 1.0 / 6)
    static let perAccountNetwork = Bucket(prefix: "email-net:", capacity: 5, rate: 1.0 / 300)
    static let perAccount = Bucket(prefix: "email:", capacity: 50, rate: 1.0 / 300)

    let db: any Database
    let now: Date

    private var sql: any SQLDatabase { db as! any SQLDatabase }
    private var t: Double { now.timeIntervalSince1970 }

    /// Takes one token; returns nil when taken, or the seconds to wait when the bucket is empty.
    func take(_ bucket: Bucket, key: String) async throws -> Int? {
        try await db.write { tx in try await LoginThrottle(db: tx, now: now).takeInside(bucket, key: key) }
    }

    private func takeInside(_ bucket: Bucket, key: String) async throws -> Int? {
        let id = bucket.prefix + Tokens.hash(key)
        try await sql.raw("""
            INSERT INTO login_buckets (key, tokens, updated_at) VALUES (\(bind: id), \(bind: bucket.capacity), \(bind: t))
            ON CONFLICT (key) DO NOTHING
            """).run()
        let refilled = "CASE WHEN tokens + (\(t) - updated_at) * \(bucket.rate) > \(bucket.capacity) THEN \(bucket.capacity) ELSE tokens + (\(t) - updated_at) * \(bucket.rate) END"
        let taken = try await sql.raw("""
            UPDATE login_buckets SET tokens = \(unsafeRaw: refilled) - 1, updated_at = \(bind: t)
            WHERE key = \(bind: id) AND \(unsafeRaw: refilled) >= 1 RETURNING tokens
            """).all()
        if !taken.isEmpty { return nil }
        let row = try await sql.raw("SELECT tokens, updated_at FROM login_buckets WHERE key = \(bind: id)").first()
        let tokens = (try? row?.decode(column: "tokens", as: Double.self)) ?? 0
        let updated = (try? row?.decode(column: "updated_at", as: Double.self)) ?? t
        let current = min(bucket.capacity, tokens + (t - updated) * bucket.rate)
        return max(1, Int(((1 - current) / bucket.rate).rounded(.up)))
    }

    /// Gives a token back (after a correct password).
    func refund(_ bucket: Bucket, key: String) async throws {
        let id = bucket.prefix + Tokens.hash(key)
        try await db.write { tx in try await (tx as any SQLDatabase).raw("""
            UPDATE login_buckets SET tokens = CASE WHEN tokens + 1 > \(unsafeRaw: String(bucket.capacity)) THEN \(unsafeRaw: String(bucket.capacity)) ELSE tokens + 1 END
            WHERE key = \(bind: id)
            """).run() }
    }

    /// Whether this client signed in to the account before (a device cookie or the same address).
    func isKnown(userID: UUID, client: ClientIdentity) async throws -> Bool {
        let keys = client.knownKeys.map(Tokens.hash)
        guard !keys.isEmpty else { return false }
        return try await KnownClientModel.query(on: db).filter(\.$userID == userID).filter(\.$keyHash ~~ keys).first() != nil
    }

    /// Remembers the client after a correct password.
    func remember(userID: UUID, client: ClientIdentity) async throws {
        let now = now
        try await db.write { tx in
            // Two sign-ins of one person at once (PostgreSQL) take turns, so neither inserts twice.
            try await SyncLog.lockOwner(userID, on: tx as any SQLDatabase)
            for key in client.knownKeys {
                let hash = Tokens.hash(key)
                if let existing = try await KnownClientModel.query(on: tx).filter(\.$userID == userID).filter(\.$keyHash == hash).first() {
                    existing.lastSeenAt = now
                    try await existing.save(on: tx)
                } else {
                    try await KnownClientModel(userID: userID, keyHash: hash, lastSeenAt: now).create(on: tx)
                }
            }
        }
    }
}

/// Who is trying to sign in: the client address (from the socket, or the proxy's header when
/// FORKCAST_TRUST_PROXY is set) and, for browsers, a long-lived device cookie.
struct ClientIdentity: Sendable {
    var address: String
    var device: String?

    var knownKeys: [String] { ["addr:" + address] + (device.map { ["device:" + $0] } ?? []) }

    /// The network an address belongs to for sign-in throttling: an IPv4 address itself (also
    /// written IPv4-mapped, `::ffff:192.0.2.1`, as a dual-stack socket reports it), the /64 of an
    /// IPv6 one (what one household or phone is given); anything unparsable as it is.
    var network: String {
        guard let parsed = try? SocketAddress(ipAddress: address, port: 0), case .v6(let v6) = parsed else { return address }
        let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        return stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":") + "::/64"
    }
}
