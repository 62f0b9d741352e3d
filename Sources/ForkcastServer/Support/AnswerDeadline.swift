import NIOCore
import Vapor

/// Every request on PostgreSQL is answered within `limit`. A statement sent on a connection that
/// PostgreSQL is closing can go unanswered (writes watch their connection, reads cannot); once in
/// about 2,500 requests over six outages a write waited past 40 s. Past the limit the person gets
/// the 503 the database's absence deserves: a read "nothing was saved", a change "may or may not
/// have been saved" (it may still commit), and the work is cancelled. The limit is past the pool's
/// wait plus a new connection's, so a request that is merely slow is not cut; exports, imports and
/// uploads, which take as long as their files, and event streams are not limited.
struct AnswerDeadline: AsyncMiddleware {
    let limit: Duration

    static let unlimited = ["/export", "/import", "/photos", "/health-import", "/sync/events", "/data/"]

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let path = request.url.path
        guard !Self.unlimited.contains(where: { path.contains($0) }) else { return try await next.respond(to: request) }
        let answer = request.eventLoop.makePromise(of: Response.self)
        let work = Task { try await next.respond(to: request) }
        let changes = ![.GET, .HEAD].contains(request.method)
        let timer = request.eventLoop.scheduleTask(in: TimeAmount(limit)) {
            request.logger.warning("no answer within \(limit): answered 503")
            answer.fail(changes ? AppError.outcomeUnknown : AppError.storageUnavailable)
            work.cancel()
        }
        answer.completeWithTask { try await work.value }
        defer { timer.cancel() }
        return try await answer.futureResult.get()
    }
}
