import ForkcastApp
import ForkcastContract
import ForkcastCore
import Vapor

/// What a coach's diary link opens, for its API answers and its page alike: the person's reads
/// (their `Owner`), only what the link shows, only the days it covers.
struct SharedDiary {
    let link: DiaryLink
    let owner: Owner

    /// Reads through links, per address: a coach's page and its CSV, not a scraper.
    static let reads = LoginThrottle.Bucket(prefix: "diary-link:", capacity: 120, rate: 1)

    /// The open link with this token: 429 past the address's reads, 404 once revoked or expired.
    static func open(_ token: String, _ req: Request) async throws -> SharedDiary {
        if let wait = try await LoginThrottle(db: req.db, now: req.now).take(reads, key: req.clientIdentity.address) {
            throw AppError.tooManyRequests("Too many requests through diary links from your network. Wait \(wait) seconds and try again.", retryAfter: wait)
        }
        guard token.count <= 100, let found = try await ShareDiary(accounts: FluentAccounts(db: req.db), now: req.now).open(tokenHash: Tokens.hash(token)),
              let user = try await UserModel.find(found.owner, on: req.db) else { throw AppError.notFound(DiaryLink.gone) }
        return SharedDiary(link: found.link, owner: try Owner(user: user, db: req.db, now: req.now, uuid: req.dependencies.uuid, application: req.application))
    }

    /// A day the link covers (default its last that has begun); 404 for one it does not (that day is
    /// not shared), as for a link that is not.
    func day(_ asked: CalendarDate?) async throws -> SharedDiaryAnswer {
        let user = owner.user, shows = link.shows
        guard let date = link.day(asked: asked, today: user.today(now: owner.now)) else {
            throw AppError.notFound("This link covers \(link.from.iso) to \(link.to.iso) only.")
        }
        var entries: [SharedEntryAnswer]?, totals: MacrosAnswer?, goals: SharedGoalsAnswer?, weights: [SharedWeightAnswer]?
        if !link.nutrientsShown.isEmpty {
            let day = try await owner.diary.day(date)
            totals = MacrosAnswer(link.visible(day.totals))
            if shows.contains(.diary) {
                goals = SharedGoalsAnswer(day.goals)
                entries = day.groups.flatMap { group in
                    group.entries.map { entry in
                        let amount = Self.amount(of: entry)
                        return SharedEntryAnswer(mealType: group.mealType.name, name: entry.name, quantity: amount.quantity, unit: amount.unit,
                                                 loggedAt: entry.loggedAt, nutrients: MacrosAnswer(link.visible(entry.nutrients)))
                    }
                }
            }
        }
        if shows.contains(.weights) { weights = try await self.weights().map { SharedWeightAnswer(measuredAt: $0.measuredAt, weightKg: $0.weightKg) } }
        return SharedDiaryAnswer(displayName: user.displayName, link: link, date: date, entries: entries, totals: totals, goals: goals, weights: weights)
    }

    /// The weights measured in the days covered, oldest first.
    func weights() async throws -> [WeightEntry] {
        let zone = owner.user.zone
        return try await owner.body.weights(from: link.from.instant(in: zone), to: link.to.adding(days: 1).instant(in: zone))
    }

    /// A row a day the link covers, with what it shows: the nutrients it shows (``DiaryLink/nutrientsShown``),
    /// the current energy goal (diary) and the day's last weight (weights).
    func csv() async throws -> String {
        let shows = link.shows, zone = owner.user.zone, nutrients = link.nutrientsShown
        var header = ["date"] + nutrients.map(\.rawValue)
        if shows.contains(.diary) { header.append("goalEnergyKcal") }
        if shows.contains(.weights) { header.append("weightKg") }
        let totals = nutrients.isEmpty ? [:]
            : Dictionary(try await owner.diary.entries.dailyTotals(from: link.from, to: link.to).map { ($0.date, $0.nutrients) }) { a, _ in a }
        let goal = shows.contains(.diary) ? try await owner.diary.goals().goals.energyKcal : nil
        let weighed = shows.contains(.weights)
            ? Dictionary(try await weights().map { (CalendarDate($0.measuredAt, in: zone), $0.weightKg) }) { _, later in later } : [:]
        var lines = [header.joined(separator: ",")]
        var date = link.from
        while date <= link.to {
            let n = totals[date] ?? .zero
            var row = [date.iso] + nutrients.map { DiaryExport.number(n[$0] ?? 0, places: $0 == .energyKcal ? 0 : 1) }
            if shows.contains(.diary) { row.append(DiaryExport.number(goal, places: 0)) }
            if shows.contains(.weights) { row.append(DiaryExport.number(weighed[date])) }
            lines.append(row.joined(separator: ","))
            date = date.adding(days: 1)
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// What was logged, as amount and unit (servings of a meal); nil for a quick add or a photo.
    static func amount(of entry: DiaryEntry) -> (quantity: Decimal?, unit: String?) {
        switch entry.kind {
        case let .food(_, quantity, unit): (quantity, unit.rawValue)
        case let .meal(_, servings): (servings, "serving")
        case .quickAdd, .photo: (nil, nil)
        }
    }
}
