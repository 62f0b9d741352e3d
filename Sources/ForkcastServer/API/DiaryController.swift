import Fluent
import ForkcastApp
import ForkcastContract
import ForkcastCore
import Vapor

/// `/api/v1/diary`: logging, the plate, the day, range summaries and exports, as ForkcastContract's
/// ``Diary`` operations.
enum DiaryController {
    static func register(_ routes: OperationRoutes) {
        routes.on(Diary.Day.self) { req, query, _ in
            let user = try req.requireUser()
            let today = user.today(now: req.now)
            let date = query.date ?? today
            let service = try req.owner.diary
            return try await req.application.readCache.answer(req, owner: service.ownerID, today: today) {
                let day = try await service.day(date)
                return DiaryDayAnswer(day, owner: service.ownerID,
                                      photos: try await service.photos.find(ids: day.groups.flatMap { $0.entries.compactMap(\.photoId) }))
            }
        }
        routes.on(Diary.Log.self) { req, _, input in
            let owner = try req.owner
            let entry = try await owner.logEntry.single(EntryInput(input))
            return .value(try await answers([entry], owner.diary)[0], headers: location(entry.id))
        }
        routes.on(Diary.Get.self) { req, parameters, _ in
            let service = try req.owner.diary
            guard let entry = try await service.entries.find(parameters.id) else { throw notFound(parameters.id) }
            return try await answers([entry], service)[0]
        }
        // Edits an entry: move it to another meal type or time, change the amount or note. A changed
        // amount is recomputed from the food or meal as it is now; otherwise the copied values stay.
        routes.on(Diary.Edit.self) { req, parameters, update in
            let owner = try req.owner
            let input = update.input
            guard let entry = try await owner.editEntry(parameters.id, with: EntryInput(input), confirmMove: input.confirmMove ?? false) else {
                throw notFound(parameters.id)
            }
            return try await answers([entry], owner.diary)[0]
        }
        routes.on(Diary.Delete.self) { req, parameters, _ in
            guard try await req.owner.deleteEntry(parameters.id) != nil else { throw notFound(parameters.id) }
            return Nothing()
        }
        routes.on(Diary.Plate.self) { req, _, input in
            let owner = try req.owner
            return try await answers(try await owner.logEntry.plate(LogEntry.Plate(input)), owner.diary)
        }
        // Eats one meal of a day again (say yesterday's breakfast today), as it was logged.
        routes.on(Diary.Copy.self) { req, _, input in
            let owner = try req.owner
            let entries = try await owner.logEntry.copied(from: input.from, mealType: input.fromMealType,
                                                          to: input.to ?? owner.user.today(now: req.now), as: input.mealType ?? input.fromMealType)
            return try await answers(entries, owner.diary)
        }
        // Logs one serving (or `servings`) of a planned meal in one tap.
        routes.on(Diary.LogPlanned.self) { req, _, input in
            let owner = try req.owner
            guard let entry = try await owner.logPlanned(input.assignmentId, loggedAt: input.loggedAt, mealType: input.mealType,
                                                         servings: input.servings) else {
                throw AppError.notFound("No assignment with id \(input.assignmentId) exists in your plan.")
            }
            return .value(try await answers([entry], owner.diary)[0], headers: location(entry.id))
        }
        // Daily totals over a range (at most 400 days) with the goals and weights, for charts.
        routes.on(Diary.Summary.self) { req, query, _ in
            let user = try req.requireUser()
            let range = try range(query, user: user, now: req.now, defaultDays: 7, maximum: RangeQuery.summaryMaximumDays)
            let (from, to) = (range.from, range.to)
            let service = try req.owner.diary
            let totals = try await service.entries.dailyTotals(from: from, to: to)
            let byDate = Dictionary(uniqueKeysWithValues: totals.map { ($0.date, $0) })
            let days = range.dates.map { date in
                let t = byDate[date]
                var summary = DaySummary(date: date, energyKcal: t?.nutrients.energyKcal ?? 0, protein: t?.nutrients.protein ?? 0,
                                         carbohydrates: t?.nutrients.carbohydrates ?? 0, fat: t?.nutrients.fat ?? 0, cost: t?.cost?.rounded(2), entries: t?.entries ?? 0)
                summary.nutrients = MacrosAnswer(t?.nutrients ?? .zero)
                summary.missing = NutrientCountsAnswer(t?.missing ?? [:])
                return summary
            }
            let weights = try await req.owner.body.weights(from: from.instant(in: user.zone), to: to.adding(days: 1).instant(in: user.zone))
            return DiarySummary(from: from, to: to, goals: GoalsAnswer(try await service.goals().goals), days: days,
                                weights: weights.map { WeightEntry(id: $0.id, measuredAt: $0.measuredAt, weightKg: $0.weightKg, source: $0.source) })
        }
        // The diary of a range as CSV or JSON (`format=csv|json`).
        routes.raw(Diary.Export.self) { req, query in
            let user = try req.requireUser()
            let range = try range(query.range, user: user, now: req.now, defaultDays: 30, maximum: RangeQuery.exportMaximumDays)
            let (from, to) = (range.from, range.to)
            let service = try req.owner.diary
            let entries = try await service.entries.entries(from: from, to: to)
            let filename = "forkcast-diary-\(from.iso)-to-\(to.iso)"
            switch query.format ?? .csv {
            case .csv:
                let types = try await service.types()
                let names = Dictionary(entries.map { ($0.mealType, types.name(of: $0.mealType)) }, uniquingKeysWith: { a, _ in a })
                let response = Response(status: .ok, body: .init(string: DiaryExport.csv(entries, zone: user.zone, mealTypeNames: names)))
                response.headers.replaceOrAdd(name: .contentType, value: "text/csv; charset=utf-8")
                response.headers.replaceOrAdd(name: .contentDisposition, value: "attachment; filename=\"\(filename).csv\"")
                return response
            case .json:
                let response = Response(status: .ok)
                try response.content.encode(DiaryExportAnswer(from: from, to: to, entries: try await answers(entries, service)), as: .json)
                response.headers.replaceOrAdd(name: .contentDisposition, value: "attachment; filename=\"\(filename).json\"")
                return response
            }
        }
    }

    /// The days asked for (``DayRange``'s rule); a range it refuses is a 400.
    private static func range(_ query: RangeQuery, user: UserModel, now: Date, defaultDays: Int, maximum: Int) throws -> DayRange {
        switch DayRange.asked(from: query.from, to: query.to, today: user.today(now: now), defaultDays: defaultDays, maximumDays: maximum) {
        case .success(let range): return range
        case .failure(let problem): throw AppError.badRequest(problem.message)
        }
    }

    /// Entries as the API answers them, with their photos' sizes.
    private static func answers(_ entries: [DiaryEntry], _ service: some DiaryReads) async throws -> [DiaryEntryAnswer] {
        let photos = try await service.photos.find(ids: entries.compactMap(\.photoId))
        return entries.map { DiaryEntryAnswer($0, owner: service.ownerID, photos: photos) }
    }

    private static func location(_ id: UUID) -> HTTPHeaders {
        ["Location": Diary.Get.path.filled(["id": id.uuidString])]
    }

    private static func notFound(_ id: UUID) -> AppError { .notFound("No diary entry with id \(id) exists in your account.") }
}

/// CSV with a header row; fields quoted where needed (RFC 4180). Amounts are rounded as the pages
/// show them (whole kcal, grams and the rest to one decimal, money to cents); after the nutrients
/// come the local time in the person's time zone beside the UTC `loggedAt`, the zone, and the meal
/// type's name. The JSON export keeps every figure exact.
enum DiaryExport {
    /// A text cell, quoted where needed.
    static func field(_ raw: String) -> String {
        // A cell starting with = + - @ (or a tab/CR) is a formula to a spreadsheet: shown as text.
        let s = raw.first.map { "=+-@\t\r".contains($0) } == true ? "'" + raw : raw
        return s.contains(where: { ",\"\n\r".contains($0) }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
    }

    /// A number cell, rounded; empty for an unknown value.
    static func number(_ d: Decimal?, places: Int = 1) -> String { d.map { "\($0.rounded(places))" } ?? "" }

    static func csv(_ entries: [DiaryEntry], zone: TimeZone = .gmt, mealTypeNames: [String: String] = [:]) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        func local(_ instant: Date) -> String {
            let p = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
            return String(format: "%04d-%02d-%02d %02d:%02d", p.year ?? 0, p.month ?? 0, p.day ?? 0, p.hour ?? 0, p.minute ?? 0)
        }
        let formatter = ISO8601DateFormatter()
        // The other nutrients follow the note (in GET /api/v1/nutrients' order and units), so the
        // first thirteen columns stay where they always were.
        let more = Nutrient.allCases.filter { ![.energyKcal, .protein, .carbohydrates, .fat].contains($0) }
        var lines = ["date,loggedAt,mealType,name,kind,quantity,unit,energyKcal,protein,carbohydrates,fat,cost,note," + more.map(\.rawValue).joined(separator: ",")
                     + ",localTime,timeZone,mealTypeName"]
        for e in entries {
            let (kind, quantity, unit): (String, Decimal?, String) = switch e.kind {
            case let .food(_, q, u): ("food", q, u.rawValue)
            case let .meal(_, s): ("meal", s, "serving")
            case .quickAdd: ("quickAdd", nil, "")
            case .photo: ("photo", nil, "")
            }
            lines.append([e.date.iso, formatter.string(from: e.loggedAt), e.mealType, field(e.name), kind, number(quantity, places: 3), unit,
                          number(e.nutrients.energyKcal, places: 0), number(e.nutrients.protein), number(e.nutrients.carbohydrates),
                          number(e.nutrients.fat), number(e.cost, places: 2), field(e.note ?? "")].joined(separator: ",")
                          + "," + more.map { number(e.nutrients[$0]) }.joined(separator: ",")
                          + ",\(local(e.loggedAt)),\(zone.identifier),\(field(mealTypeNames[e.mealType] ?? e.mealType))")
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}

