import FluentKit
@testable import ForkcastServer
import ForkcastCore
import Foundation
import SQLKit
import Testing
import VaporTesting

extension SeamTests {
    // MARK: Accounts

    @Test func twoFirstAccountsAtOnceMakeOneAccount() async throws {
        try await withForkcast { app in
            // The API: eight registrations at once on a server whose sign-up is closed.
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await app.anonymous.send(.POST, "/api/v1/auth/register",
                                                     json: ["email": "first\(index)@example.com", "password": "correct horse"]).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .created }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == .forbidden }.count == 7, "\(statuses)")
            #expect(try await UserModel.query(on: app.db).count() == 1)
        }
        try await withForkcast { app in
            // The setup page: two visitors submit it at once.
            var browsers = [Browser(app: app), Browser(app: app)]
            var tokens: [String] = []
            for index in browsers.indices { tokens.append(try await browsers[index].csrf(from: "/setup")) }
            let forms = tokens.enumerated().map { ["_csrf": $0.element, "email": "setup\($0.offset)@example.com", "password": "correct horse"] }
            let pairs = Array(zip(browsers, forms))
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for (browser, form) in pairs {
                    group.addTask { var browser = browser; return try await browser.send(.POST, "/setup", form: form).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(try await UserModel.query(on: app.db).count() == 1, "\(statuses)")
            #expect(statuses.contains(.seeOther))
        }
    }

    /// Registering an existing email answered in 2 ms, a new one after the password hash
    /// (about 400 ms): an account oracle when sign-up is open. Both now pay for one hash first.
    @Test func registeringTakesOneHashWhetherOrNotTheEmailHasAnAccount() async throws {
        try await withForkcast(allowSignup: true) { app in
            _ = try await app.signUp("taken@example.com")
            let counter = CountingHasher()
            let accounts = AccountService(db: app.db, passwords: AsyncPasswordHasher(hasher: counter, threadPool: app.threadPool,
                                                                                     eventLoop: app.eventLoopGroup.next()), now: Date())
            await #expect(throws: AppError.self) {
                _ = try await accounts.register(.init(email: "Taken@example.com", password: "correct horse", displayName: nil, timeZone: nil), allowSignup: true)
            }
            let forTaken = counter.count
            _ = try await accounts.register(.init(email: "new@example.com", password: "correct horse", displayName: nil, timeZone: nil), allowSignup: true)
            #expect(forTaken == 1, "an existing email is answered after the same hash as a new one")
            #expect(counter.count - forTaken == 1)
        }
    }

    final class CountingHasher: PasswordHasher, @unchecked Sendable {
        let lock = NSLock()
        var hashes = 0
        var count: Int { lock.withLock { hashes } }
        func hash<Password: DataProtocol>(_ password: Password) throws -> [UInt8] {
            lock.withLock { hashes += 1 }
            return Array(password)
        }
        func verify<Password: DataProtocol, Digest: DataProtocol>(_ password: Password, created digest: Digest) throws -> Bool {
            Array(password) == Array(digest)
        }
    }

    @Test func visitorsStoreNoSessions() async throws {
        try await withForkcast { app in
            for _ in 0..<5 { var visitor = Browser(app: app); _ = try await visitor.send(.GET, "/setup") }
            #expect(try await WebSessionModel.query(on: app.db).count() == 0, "the setup page stores nothing")
            _ = try await app.signUp()
            for _ in 0..<5 { var visitor = Browser(app: app); _ = try await visitor.send(.GET, "/login") }
            // A made-up or stale session cookie is no way around it.
            var stale = Browser(app: app, cookies: [SecurityHeadersMiddleware.sessionCookie: "made-up-session-id"])
            _ = try await stale.send(.GET, "/login")
            #expect(try await WebSessionModel.query(on: app.db).count() == 0, "looking at /login stores nothing")
            // The form still works: its token is the visitor cookie's, repeated in the form.
            var browser = Browser(app: app)
            #expect(try await browser.signIn().status == .seeOther)
            #expect(try await WebSessionModel.query(on: app.db).count() == 1, "signing in starts the one session")
            // Without the cookie the form's token is worth nothing.
            var forger = Browser(app: app)
            let token = try await forger.csrf(from: "/login")
            forger.cookies = [:]
            let forged = try await forger.send(.POST, "/login", form: ["_csrf": token, "email": "owner@example.com", "password": "correct horse"])
            #expect(forged.status == .forbidden)
            // Signing out ends the session and starts none.
            let out = try await browser.csrf(from: "/settings")
            _ = try await browser.send(.POST, "/logout", form: ["_csrf": out])
            #expect(try await WebSessionModel.query(on: app.db).count() == 0)
        }
    }
}
