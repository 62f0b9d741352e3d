import Vapor

/// Every route of the server. API routes need a signed-in user except register, login and the spec.
func routes(_ app: Application) throws {
    try app.register(collection: SystemController())

    let api = app.grouped("api", "v1")
        .grouped(app.sessions.middleware, UserSessionAuthenticator(), BearerAuthenticator())
    try api.register(collection: AuthController())
    let signedIn = api.grouped(RequireUserMiddleware())
    try signedIn.register(collection: MealsController())
    try signedIn.register(collection: PlanController())
}

/// Restores the user of a web session cookie.
struct UserSessionAuthenticator: AsyncSessionAuthenticator {
    typealias User = UserModel
    func authenticate(sessionID: UUID, for request: Request) async throws {
        if let user = try await UserModel.find(sessionID, on: request.db) {
            request.auth.login(user)
        }
    }
}
