import Vapor

/// Every route of the server. API routes need a signed-in user except register, login and the spec;
/// web pages need one except setup and sign-in.
func routes(_ app: Application) throws {

    let apiMiddleware: [any Middleware] = [
        BrowserSessionsMiddleware(sessions: app.sessions.middleware, authenticator: UserSessionAuthenticator()),
        BearerAuthenticator(), CSRFMiddleware(mode: .api),
    ]
    // Operations defined in ForkcastContract carry their whole path.
    let operations = OperationRoutes(open: app.grouped(apiMiddleware), signedIn: app.grouped(apiMiddleware).grouped(RequireUserMiddleware()))
    BodyController.register(operations)
    MealTypesController.register(operations)
    AuthController.register(operations)
    InvitationsController.register(operations)
    HouseholdController.register(operations)
    DiaryLinksController.register(operations)
    CalendarFeedsController.register(operations)
    APIKeysController.register(operations)
    AccountController.register(operations)
    FoodsController.register(operations)
    MealsController.register(operations)
    RecipesController.register(operations)
    PlanController.register(operations)
    ShoppingController.register(operations)
    PantryController.register(operations)
    DiaryController.register(operations)
    OccasionsController.register(operations)
    PhotosController.register(operations, maxBytes: app.forkcastConfig.photoMaxBytes)
    MealPhotosController.register(operations, maxBytes: app.forkcastConfig.photoMaxBytes)
    SyncController.register(operations)
    // Outside the API's sessions and CSRF check: a probe and the document.
    SystemController.register(OperationRoutes(open: app, signedIn: app))

    let web = app.grouped(BrowserSessionsMiddleware(sessions: app.sessions.middleware, authenticator: UserSessionAuthenticator(),
                                                    skipWhenAuthorized: false),
                          CSRFMiddleware(mode: .web))
    try web.register(collection: WebAuthController())
    try web.register(collection: APIDocsController())
    try web.register(collection: WebIdentityController())
    // A shopping list's sharing link: no account, that list only (read and check off).
    try web.register(collection: WebSharedShoppingController())
    try web.register(collection: WebSharedRecipeController())
    try web.register(collection: WebCoachController())
    // A calendar app's subscription: no session, no cookies.
    try app.register(collection: CalendarFeedRoute())
    // An invitation into a household: signed out, it offers sign-up or sign-in.
    try web.register(collection: WebHouseholdController.JoinPage())
    // Apple's cross-site form_post: no session, no CSRF token; it only hands on to a GET (see there).
    try app.register(collection: WebIdentityController.AppleFormPost())
    let signedInWeb = web.grouped(WebAuthGuard())
    try signedInWeb.register(collection: WebMealsController())
    try signedInWeb.register(collection: WebRecipesController(photoMaxBytes: app.forkcastConfig.photoMaxBytes))
    try signedInWeb.register(collection: WebPlanController())
    try signedInWeb.register(collection: WebSettingsController())
    try signedInWeb.register(collection: WebShoppingController())
    try signedInWeb.register(collection: WebPantryController())
    try signedInWeb.register(collection: WebFoodsController())
    try signedInWeb.register(collection: WebDiaryController())
    try signedInWeb.register(collection: WebGoalsController())
    try signedInWeb.register(collection: WebHistoryController(photoMaxBytes: app.forkcastConfig.photoMaxBytes))
    try signedInWeb.register(collection: WebAccountController())
    try signedInWeb.register(collection: WebInvitationsController())
    try signedInWeb.register(collection: WebHouseholdController())
    try signedInWeb.register(collection: WebCoachLinksController())
    try signedInWeb.register(collection: WebCalendarFeedsController())
    try signedInWeb.register(collection: WebPlanTemplatesController())
    try signedInWeb.register(collection: WebAPIKeysController())
    try signedInWeb.register(collection: WebIdentityController.Settings())
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
