import NIOConcurrencyHelpers

/// One query asked for many keys at once: requests that need it while `lanes` of them are in flight
/// wait, and share the next one, which asks for all their keys together (as logging's requests
/// share a commit).
///
/// A waiter is answered only by a query sent after it arrived, never by one already in flight: a
/// request that follows a change it saw acknowledged reads that change (read-your-writes), as if
/// it had asked alone. With a lane free, a request asks at once, for itself and whoever waits.
///
/// PostgreSQL's token read (``BearerStatement``) runs through it: every API request starts with
/// that read, and under load one round trip answers all the requests that arrived during the last.
final class SharedQuery<Key: Hashable & Sendable, Value: Sendable, Context: Sendable>: Sendable {
    /// Asks for `keys` (distinct), with the context of the batch's first waiter; a key without a
    /// value is absent from the answer.
    typealias Fetch = @Sendable (_ keys: [Key], _ context: Context) async throws -> [Key: Value]

    private struct Waiter: Sendable {
        let key: Key
        let context: Context
        let continuation: CheckedContinuation<Value?, any Error>
    }

    private struct State {
        var waiting: [Waiter] = []
        var running = 0
        var statistics = Statistics()
    }

    /// How many queries were sent, how many requests they answered, how many wait now.
    struct Statistics: Sendable, Equatable {
        var queries = 0
        var answered = 0
        var waiting = 0
    }

    var statistics: Statistics {
        state.withLockedValue { state in
            var statistics = state.statistics
            statistics.waiting = state.waiting.count
            return statistics
        }
    }

    private let state = NIOLockedValueBox(State())
    private let lanes: Int
    private let batchLimit: Int
    private let fetch: Fetch

    /// - Parameters:
    ///   - lanes: how many queries may be in flight at once.
    ///   - batchLimit: the most keys one query asks for.
    init(lanes: Int, batchLimit: Int = 256, fetch: @escaping Fetch) {
        precondition(lanes > 0 && batchLimit > 0)
        self.lanes = lanes
        self.batchLimit = batchLimit
        self.fetch = fetch
    }

    /// The value for `key`, from a query sent after this call began.
    func value(for key: Key, context: Context) async throws -> Value? {
        // A lane is free: this request asks itself, for itself and for everyone waiting.
        let others: [Waiter]? = state.withLockedValue { state in
            guard state.running < lanes else { return nil }
            state.running += 1
            let others = take(&state, leaving: 1)
            state.statistics.queries += 1
            state.statistics.answered += others.count + 1
            return others
        }
        if let others {
            let answer = await ask(others.map(\.key) + [key], context)
            Self.resume(others, with: answer)
            handOff()
            return try answer.get()[key]
        }
        return try await withCheckedThrowingContinuation { continuation in
            let start = state.withLockedValue { state in
                state.waiting.append(Waiter(key: key, context: context, continuation: continuation))
                // A lane may have ended between the two looks at the state.
                guard state.running < lanes else { return false }
                state.running += 1
                return true
            }
            if start { Task.detached { await self.drain() } }
        }
    }

    /// After a request's own query: those who arrived meanwhile are asked for by a task of their
    /// own, so the request's answer does not wait for theirs. The task is detached: it serves many
    /// requests and carries none of the task-locals of the one that started it.
    private func handOff() {
        let more = state.withLockedValue { state in
            if state.waiting.isEmpty { state.running -= 1 }
            return !state.waiting.isEmpty
        }
        if more { Task.detached { await self.drain() } }
    }

    /// Asks for the waiters' keys, batch after batch, until nobody waits; then frees the lane.
    private func drain() async {
        while let batch = state.withLockedValue({ state -> [Waiter]? in
            if state.waiting.isEmpty { state.running -= 1; return nil }
            let batch = take(&state, leaving: 0)
            state.statistics.queries += 1
            state.statistics.answered += batch.count
            return batch
        }) {
            let answer = await ask(batch.map(\.key), batch[0].context)
            Self.resume(batch, with: answer)
        }
    }

    /// The first waiters, as many as a query may ask for with `leaving` keys of its own.
    private func take(_ state: inout State, leaving: Int) -> [Waiter] {
        let count = min(state.waiting.count, batchLimit - leaving)
        guard count > 0 else { return [] }
        let taken = Array(state.waiting.prefix(count))
        state.waiting.removeFirst(count)
        return taken
    }

    private static func resume(_ waiters: [Waiter], with answer: Result<[Key: Value], any Error>) {
        for waiter in waiters {
            switch answer {
            case .success(let values): waiter.continuation.resume(returning: values[waiter.key])
            case .failure(let error): waiter.continuation.resume(throwing: error)
            }
        }
    }

    /// One query for `keys`, each asked for once (a request alone asks without building a set).
    private func ask(_ keys: [Key], _ context: Context) async -> Result<[Key: Value], any Error> {
        var seen = Set<Key>()
        let distinct = keys.count == 1 ? keys : keys.filter { seen.insert($0).inserted }
        do { return .success(try await fetch(distinct, context)) } catch { return .failure(error) }
    }
}
