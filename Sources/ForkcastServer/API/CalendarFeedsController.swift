import ForkcastApp
import ForkcastContract
import ForkcastCore
import Vapor

/// `/api/v1/calendar-feeds` as ForkcastContract's ``CalendarFeeds`` operations: the same use case
/// as Settings › Calendar (``ShareCalendar``).
enum CalendarFeedsController {
    static func register(_ routes: OperationRoutes) {
        routes.on(CalendarFeeds.Create.self) { req, _, input in
            let made = try await req.makeCalendarFeed(input.scope)
            return CalendarFeedAnswer(made.feed, url: made.url)
        }
        routes.on(CalendarFeeds.List.self) { req, _, _ in
            try await req.shareCalendar.feeds(of: try req.requireUserID()).map { CalendarFeedAnswer($0) }
        }
        routes.on(CalendarFeeds.Renew.self) { req, parameters, _ in
            let made = try await req.renewCalendarFeed(parameters.id)
            return CalendarFeedAnswer(made.feed, url: made.url)
        }
        routes.on(CalendarFeeds.Delete.self) { req, parameters, _ in
            guard try await req.shareCalendar.revoke(parameters.id, by: try req.requireUserID()) else { throw noFeed(parameters.id) }
            return Nothing()
        }
    }

    static func noFeed(_ id: UUID) -> AppError { AppError.notFound("No calendar address with id \(id) is yours.") }
}

extension Request {
    var shareCalendar: ShareCalendar { ShareCalendar(accounts: FluentAccounts(db: db), now: now) }

    /// A new feed for the signed-in person: its address, with the token, shown once.
    func makeCalendarFeed(_ scope: CalendarFeed.Scope, replacing: UUID? = nil) async throws -> (feed: CalendarFeed, url: String) {
        let token = Tokens.generate()
        do {
            let feed = try await shareCalendar.make(by: try requireUserID(), tokenHash: Tokens.hash(token), scope: scope, replacing: replacing)
            return (feed, publicBaseURL + SiteURL.calendarFeed(file: token + ".ics").path)
        } catch let refusal as Refusal {
            throw AppError(refusal)
        }
    }

    /// The feed again at a new address, the old one stopped in the same write.
    func renewCalendarFeed(_ id: UUID) async throws -> (feed: CalendarFeed, url: String) {
        guard let old = try await shareCalendar.feeds(of: try requireUserID()).first(where: { $0.id == id }) else {
            throw CalendarFeedsController.noFeed(id)
        }
        return try await makeCalendarFeed(old.scope, replacing: old.id)
    }
}

/// `GET /calendar/{token}.ics`: what a subscribed calendar app reads, no account, no session.
/// Removed or renewed, it is a plain 404.
struct CalendarFeedRoute: RouteCollection {
    /// Reads per address: apps refresh hourly; this is not for scraping.
    static let reads = LoginThrottle.Bucket(prefix: "calendar-feed:", capacity: 120, rate: 1)

    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.calendarFeed(file: ":file"), use: feed)
    }

    @Sendable func feed(req: Request) async throws -> Response {
        let file = req.parameters.get("file") ?? ""
        guard file.hasSuffix(".ics"), file.count <= 104 else { throw AppError.notFound(CalendarFeed.gone) }
        if let wait = try await LoginThrottle(db: req.db, now: req.now).take(Self.reads, key: req.clientIdentity.address) {
            throw AppError.tooManyRequests("Too many calendar reads from your network. Wait \(wait) seconds.", retryAfter: wait)
        }
        guard let found = try await req.shareCalendar.open(tokenHash: Tokens.hash(String(file.dropLast(4)))),
              let user = try await UserModel.find(found.owner, on: req.db) else { throw AppError.notFound(CalendarFeed.gone) }
        let owner = try Owner(user: user, db: req.db, now: req.now, uuid: req.dependencies.uuid, application: req.application)
        let text = try await Self.document(found.feed, owner: owner, baseURL: req.publicBaseURL)
        var headers = ShoppingController.sharedHeaders
        headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=300")
        headers.replaceOrAdd(name: .contentType, value: "text/calendar; charset=utf-8")
        return Response(status: .ok, headers: headers, body: .init(string: text))
    }

    /// The plan from two weeks back to three months ahead: an event per planned meal at its slot's
    /// time in the person's zone, its ingredients for the entry's portions and a link to the recipe.
    static func document(_ feed: CalendarFeed, owner: Owner, baseURL: String) async throws -> String {
        let user = owner.user, me = try user.requireID(), zone = user.zone
        let today = user.today(now: owner.now)
        let window = WeekWindow(start: today.adding(days: -CalendarFeed.daysBack), length: CalendarFeed.daysBack + CalendarFeed.daysAhead + 1)
        let days = try await owner.plan.days(in: window)
        let types = try await owner.mealTypes.catalog(now: owner.now)
        let entries = days.flatMap(\.entries).filter { feed.scope.shows($0.assignment, to: me) }
        let foods = try await owner.meals.foods(for: entries.map(\.meal))
        let events = entries.map { entry in
            let assignment = entry.assignment, meal = entry.meal
            let slot = CalendarFeed.slot(of: assignment.mealType.flatMap(types.resolve))
            let start = assignment.date.instant(hour: slot.start / 60, minute: slot.start % 60, in: zone)
            let portions = assignment.portions(of: meal)
            let lines = meal.recipeLines(foods: foods, servings: portions).map { "• " + $0.text }
            let url = baseURL + SiteURL.recipe(meal.id, entry: assignment.id).path
            let name = assignment.mealType.map { types.name(of: $0) }
            let description = ([[name, "\(portions) portion\(portions == 1 ? "" : "s")"].compactMap { $0 }.joined(separator: " · ")] + lines + [url])
                .joined(separator: "\n")
            return ICalendar.Event(uid: "\(assignment.id.uuidString.lowercased())@forkcast", start: start, end: start.addingTimeInterval(Double(slot.minutes * 60)),
                                   summary: meal.description, description: description, url: url)
        }
        let title = feed.scope == .household ? "Forkcast: the household's meals" : "Forkcast: \(user.displayName ?? "my") meals"
        return ICalendar.document(name: title, zone: user.timeZone, events: events, stamp: owner.now)
    }
}
