import NIOCore
import Vapor

/// Every request on PostgreSQL is answered within `limit`. A statement sent on a connection that
/// PostgreSQL is closing can go unanswered (writes watch their connection, reads cannot); once in
/// about 2,500 requests over six outages a write waited past 40 s. Past the limit the person gets
/// the 503 the database's absence deserves: a read "nothing was saved", a change "may or may not
/// have been saved" (it may still commit). The limit is past the pool's wait plus a new
/// connection's, so a request that is merely slow is not cut.
struct AnswerDeadline: AsyncMiddleware {
    let limit: Duration

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let answer = request.eventLoop.makePromise(of: Response.self)
        let changes = ![.GET, .HEAD].contains(request.method)
        let timer = request.eventLoop.scheduleTask(in: TimeAmount(limit)) {
            request.logger.warning("no answer within \(limit): answered 503")
            answer.fail(changes ? AppError.outcomeUnknown : AppError.storageUnavailable)
        }
        answer.completeWithTask { try await next.respond(to: request) }
        defer { timer.cancel() }
        return try await answer.futureResult.get()
    }
}
