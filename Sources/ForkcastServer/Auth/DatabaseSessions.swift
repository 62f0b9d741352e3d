import Fluent
import Foundation
import Vapor

/// Web sessions in the database (every instance sees them), stored by the SHA-256 of the cookie
/// value, ending after ``lifetime`` without use. A request writes its session only when its data
/// changed or the expiry is more than a day old, so reading a page costs no write.
struct DatabaseSessions: SessionDriver {
    let lifetime: TimeInterval

    private struct Loaded: StorageKey { typealias Value = (data: String, expiresAt: Date) }

    func createSession(_ data: SessionData, for request: Request) -> EventLoopFuture<SessionID> {
        let id = SessionID(string: Tokens.generate())
        let model = WebSessionModel(keyHash: Tokens.hash(id.string), data: Self.encode(data), expiresAt: request.now.addingTimeInterval(lifetime))
        return request.eventLoop.makeFutureWithTask {
            try await request.db.write { tx in try await model.create(on: tx) }
            return id
        }
    }

    func readSession(_ sessionID: SessionID, for request: Request) -> EventLoopFuture<SessionData?> {
        request.eventLoop.makeFutureWithTask {
            guard let model = try await WebSessionModel.query(on: request.db)
                .filter(\.$keyHash == Tokens.hash(sessionID.string)).first(),
                  model.expiresAt > request.now,
                  let data = Self.decode(model.data) else { return nil }
            request.storage[Loaded.self] = (model.data, model.expiresAt)
            return data
        }
    }

    func updateSession(_ sessionID: SessionID, to data: SessionData, for request: Request) -> EventLoopFuture<SessionID> {
        let encoded = Self.encode(data)
        let expiresAt = request.now.addingTimeInterval(lifetime)
        if let loaded = request.storage[Loaded.self], loaded.data == encoded,
           expiresAt.timeIntervalSince(loaded.expiresAt) < 24 * 3600 {
            return request.eventLoop.makeSucceededFuture(sessionID)
        }
        return request.eventLoop.makeFutureWithTask {
            let hash = Tokens.hash(sessionID.string)
            let saved = try await request.db.write { tx in
                guard let model = try await WebSessionModel.query(on: tx).filter(\.$keyHash == hash).first() else { return false }
                model.data = encoded
                model.expiresAt = expiresAt
                try await model.save(on: tx)
                return true
            }
            if !saved {
                // Deleted meanwhile (signed out, expired): a request still in flight must not bring
                // it back signed in, so it starts over with a fresh, empty session.
                return try await createSession(SessionData(), for: request).get()
            }
            return sessionID
        }
    }

    func deleteSession(_ sessionID: SessionID, for request: Request) -> EventLoopFuture<Void> {
        request.eventLoop.makeFutureWithTask {
            try await request.db.write { tx in try await WebSessionModel.query(on: tx).filter(\.$keyHash == Tokens.hash(sessionID.string)).delete() }
        }
    }

    static func encode(_ data: SessionData) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(data)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func decode(_ text: String) -> SessionData? {
        try? JSONDecoder().decode(SessionData.self, from: Data(text.utf8))
    }
}

/// Loads the web session. On the API only for requests without an `Authorization` header: a
/// bearer-token call never reads, creates or extends a session, and never receives a cookie. Web
/// pages always use the session (an `Authorization` header a proxy adds means nothing to them).
struct BrowserSessionsMiddleware: Middleware {
    let sessions: SessionsMiddleware
    let authenticator: UserSessionAuthenticator
    var skipWhenAuthorized = true

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        if !skipWhenAuthorized || request.headers[.authorization].isEmpty {
            return sessions.respond(to: request, chainingTo: authenticator.makeResponder(chainingTo: EmptySessionsStayUnsaved(next: next)))
        }
        return next.respond(to: request)
    }
}

/// A session that holds nothing is not stored: a visitor (or a stale cookie) costs no row.
private struct EmptySessionsStayUnsaved: Responder {
    let next: any Responder
    func respond(to request: Request) -> EventLoopFuture<Response> {
        next.respond(to: request).map { response in
            if request.hasSession, request.session.id == nil, request.session.data.snapshot.isEmpty { request.session.destroy() }
            return response
        }
    }
}

extension Request {
    /// A new session id after sign-in or sign-out (no session fixation), with a new CSRF token.
    func rotateSession() async throws {
        if hasSession, let old = session.id {
            try await db.write { tx in try await WebSessionModel.query(on: tx).filter(\.$keyHash == Tokens.hash(old.string)).delete() }
        }
        session.id = nil
        session.data = SessionData()
        session.data["csrf"] = Tokens.generate()
    }
}
