import ForkcastCore
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// The answers of the hottest reads (the week view, a diary day, food search), kept in memory per
/// person under the head of their change feed (docs/performance.md), which every change moves in
/// its own transaction. The head is read before the data on every request, so a kept answer is
/// never older than its key, and instances sharing one PostgreSQL see each other's changes.
/// Today's date is part of the key; answers expire after `maxAge` (a command writing behind the
/// feed's back) and the least recently used go first past `maxBytes`.
final class ReadCache: Sendable {
    struct Key: Hashable, Sendable {
        var owner: UUID
        var request: String
        var head: Int
        var today: CalendarDate
    }

    private struct Entry {
        var body: ByteBuffer
        var storedAt: Date
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        var hits = 0
        var misses = 0
        /// Values (not answers) kept per person, by name: the version they were read at and when.
        var values: [UUID: [String: (version: String, storedAt: Date, value: any Sendable)]] = [:]
    }

    let maxBytes: Int
    let maxAge: TimeInterval
    private let state = NIOLockedValueBox(State())

    init(maxBytes: Int = 16 << 20, maxAge: TimeInterval = 300) {
        self.maxBytes = maxBytes
        self.maxAge = maxAge
    }

    /// Answers kept and reused so far (for tests and curiosity).
    var statistics: (hits: Int, misses: Int, entries: Int, bytes: Int) {
        state.withLockedValue { ($0.hits, $0.misses, $0.entries.count, $0.bytes) }
    }

    /// The answer to `request` for `owner`: the kept one while nothing of the person changed and the
    /// day is the same, otherwise `build()`'s (then kept). Parse and validate parameters before
    /// calling, so bad input is refused before anything is looked up.
    func answer<T: Encodable & Sendable>(_ request: Request, owner: UUID, today: CalendarDate,
                                         _ build: () async throws -> T) async throws -> Reply<T> {
        let head = try await request.feedHead(of: owner)
        let key = Key(owner: owner, request: request.url.string, head: head, today: today)
        let now = request.now
        if let kept = lookup(key, now: now) { return .encoded(kept) }
        var body = request.byteBufferAllocator.buffer(capacity: 1024)
        var headers = HTTPHeaders()
        try JSONEncoder.forkcastSorted.encode(try await build(), to: &body, headers: &headers)
        store(key, body: body, now: now)
        return .encoded(body)
    }

    private func lookup(_ key: Key, now: Date) -> ByteBuffer? {
        state.withLockedValue { state in
            guard var entry = state.entries[key], now.timeIntervalSince(entry.storedAt) < maxAge,
                  now >= entry.storedAt else {
                if let stale = state.entries.removeValue(forKey: key) { state.bytes -= stale.body.readableBytes }
                state.misses += 1
                return nil
            }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            state.hits += 1
            return entry.body
        }
    }

    private func store(_ key: Key, body: ByteBuffer, now: Date) {
        let size = body.readableBytes
        guard size <= maxBytes / 8 else { return }
        state.withLockedValue { state in
            // An answer for an older head (or another day) of the same request is of no more use.
            for old in state.entries.keys where old.owner == key.owner && old.request == key.request {
                state.bytes -= state.entries.removeValue(forKey: old)?.body.readableBytes ?? 0
            }
            state.clock += 1
            state.entries[key] = Entry(body: body, storedAt: now, lastUse: state.clock)
            state.bytes += size
            while state.bytes > maxBytes, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.bytes -= oldest.value.body.readableBytes
                state.entries.removeValue(forKey: oldest.key)
            }
        }
    }
}

extension ReadCache {
    /// A value made of some of the person's data (their meal types), kept under that data's version
    /// in the feed, read before the data as the head is for answers.
    func value<T: Sendable>(_ name: String, owner: UUID, version: String, now: Date, _ build: () async throws -> T) async throws -> T {
        guard maxBytes > 0 else { return try await build() }
        let kept: T? = state.withLockedValue { state in
            guard let entry = state.values[owner]?[name], entry.version == version, now.timeIntervalSince(entry.storedAt) < maxAge,
                  now >= entry.storedAt else { return nil }
            return entry.value as? T
        }
        if let kept { return kept }
        let value = try await build()
        state.withLockedValue { state in
            // Bounded within `maxBytes`: each person's values (at most 128, about 1 kB each) count as
            // 128 kB; past that, another person's go.
            if state.values[owner] == nil, state.values.count >= max(1, maxBytes / (128 << 10)), let any = state.values.keys.first {
                state.values.removeValue(forKey: any)
            }
            // At most 128 names per person (foods logged lately, say): the oldest give way.
            if let names = state.values[owner], names.count >= 128, names[name] == nil,
               let oldest = names.min(by: { $0.value.storedAt < $1.value.storedAt })?.key {
                state.values[owner]?.removeValue(forKey: oldest)
            }
            state.values[owner, default: [:]][name] = (version, now, value)
        }
        return value
    }
}

/// Versions of the person's meal types and foods, read with the token: logging needs both, and the
/// feed's head moves with every entry logged, so they are kept under their own.
struct KeptVersions: Sendable {
    var owner: UUID
    var mealTypes: String
    var foods: String
}

extension Request {
    private struct FeedHeadKey: StorageKey { typealias Value = (owner: UUID, head: Int) }

    /// The signed-in person's change-feed head, when it was read while signing the request in.
    var feedHead: (owner: UUID, head: Int)? {
        get { storage[FeedHeadKey.self] }
        set { storage[FeedHeadKey.self] = newValue }
    }

    /// `owner`'s change-feed head: the one read with the bearer token (before any of the data)
    /// when it is `owner`'s, else read now (a web session).
    func feedHead(of owner: UUID) async throws -> Int {
        if let known = feedHead, known.owner == owner { return known.head }
        return try await SyncLog.lastSequence(owner: owner, on: database as! any SQLDatabase)
    }

    private struct KeptVersionsKey: StorageKey { typealias Value = KeptVersions }

    var keptVersions: KeptVersions? {
        get { storage[KeptVersionsKey.self] }
        set { storage[KeptVersionsKey.self] = newValue }
    }
}

extension Application {
    private struct ReadCacheKey: StorageKey { typealias Value = ReadCache }

    /// This application's kept answers (set up by `configure`).
    var readCache: ReadCache {
        get { storage[ReadCacheKey.self] ?? ReadCache(maxBytes: 0) }
        set { storage[ReadCacheKey.self] = newValue }
    }
}

extension ReadCache {
    /// Drops every answer kept for `owner` (an account deleted).
    func forget(owner: UUID) {
        state.withLockedValue { state in
            state.values.removeValue(forKey: owner)
            for key in state.entries.keys where key.owner == owner {
                state.bytes -= state.entries.removeValue(forKey: key)?.body.readableBytes ?? 0
            }
        }
    }
}
