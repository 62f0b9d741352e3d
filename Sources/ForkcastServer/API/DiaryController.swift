import Fluent
import ForkcastApp
import ForkcastContract
import ForkcastCore
import Vapor

/// `/api/v1/diary`: logging, the plate, the day, range summaries and exports.
struct DiaryController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let diary = routes.grouped("diary")
        diary.get(use: day)
        diary.get("summary", use: summary)
        diary.get("export", use: export)
        diary.post("plate", use: plate)
        diary.post("log-planned", use: logPlanned)
        diary.post("copy", use: copy)
        diary.post("entries", use: create)
        diary.get("entries", ":id", use: show)
        diary.put("entries", ":id", use: update)
        diary.delete("entries", ":id", use: delete)
    }

    @Sendable func day(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let today = user.today(now: req.now)
        let date = try req.queryParameters.date("date") ?? today
        let service = try req.owner.diaryContext
        return try await req.application.readCache.answer(req, owner: service.ownerID, today: today) {
            let day = try await service.day(date)
            return DiaryDayDTO(day, owner: service.ownerID, photos: try await service.photos.find(ids: day.groups.flatMap { $0.entries.compactMap(\.photoId) }))
        }
    }

    @Sendable func create(req: Request) async throws -> Response {
        _ = try req.requireUser()
        let input = try req.decodeJSON(DiaryEntryInput.self)
        let owner = try req.owner
        let entry = try await owner.logEntry.single(input)
        return try created(try await dtos([entry], owner.diaryContext)[0], location: "/api/v1/diary/entries/\(entry.id)")
    }

    @Sendable func show(req: Request) async throws -> DiaryEntryDTO {
        _ = try req.requireUser()
        let id = try req.idParameter(what: "diary entry")
        let service = try req.owner.diaryContext
        guard let entry = try await service.entries.find(id) else { throw notFound(id) }
        return try await dtos([entry], service)[0]
    }

    /// Edits an entry: move it to another meal type or time, change the amount or note. A changed
    /// amount is recomputed from the food or meal as it is now; otherwise the copied values stay.
    @Sendable func update(req: Request) async throws -> DiaryEntryDTO {
        _ = try req.requireUser()
        let id = try req.idParameter(what: "diary entry")
        let owner = try req.owner
        let input = try req.decodeJSON(DiaryEntryInput.self)
        guard let entry = try await owner.editEntry(id, with: input, confirmMove: input.confirmMove ?? false) else { throw notFound(id) }
        return try await dtos([entry], owner.diaryContext)[0]
    }

    @Sendable func delete(req: Request) async throws -> HTTPStatus {
        _ = try req.requireUser()
        let id = try req.idParameter(what: "diary entry")
        guard try await req.owner.deleteEntry(id) != nil else { throw notFound(id) }
        return .noContent
    }

    @Sendable func plate(req: Request) async throws -> Response {
        _ = try req.requireUser()
        let input = try req.decodeJSON(PlateInput.self)
        let owner = try req.owner
        let entries = try await owner.logEntry.plate(input)
        return try created(try await dtos(entries, owner.diaryContext), location: nil)
    }

    /// Eats one meal of a day again (say yesterday's breakfast today), as it was logged.
    @Sendable func copy(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let input = try req.decodeJSON(CopyMealInput.self)
        let owner = try req.owner
        let entries = try await owner.logEntry.copied(from: input.from, mealType: input.fromMealType, to: input.to ?? user.today(now: req.now),
                                                      as: input.mealType ?? input.fromMealType)
        return try created(try await dtos(entries, owner.diaryContext), location: nil)
    }

    /// Logs one serving (or `servings`) of a planned meal in one tap.
    @Sendable func logPlanned(req: Request) async throws -> Response {
        _ = try req.requireUser()
        let input = try req.decodeJSON(LogPlannedInput.self)
        let owner = try req.owner
        guard let entry = try await owner.logEntry.planned(input.assignmentId, loggedAt: input.loggedAt, mealType: input.mealType,
                                                           servings: input.servings) else {
            throw AppError.notFound("No assignment with id \(input.assignmentId) exists in your plan.")
        }
        return try created(try await dtos([entry], owner.diaryContext)[0], location: "/api/v1/diary/entries/\(entry.id)")
    }

    /// Daily totals over a range (at most 400 days) with the goals and weights, for charts.
    @Sendable func summary(req: Request) async throws -> SummaryDTO {
        let user = try req.requireUser()
        let (from, to) = try range(req, user: user, defaultDays: 7, maximum: 400)
        let service = try req.owner.diaryContext
        let totals = try await service.entries.dailyTotals(from: from, to: to)
        let byDate = Dictionary(uniqueKeysWithValues: totals.map { ($0.date, $0) })
        let days = WeekWindow(start: from, length: from.days(until: to) + 1).dates.map { date in
            let t = byDate[date]
            return DaySummaryDTO(date: date, energyKcal: t?.nutrients.energyKcal ?? 0, protein: t?.nutrients.protein ?? 0,
                                 carbohydrates: t?.nutrients.carbohydrates ?? 0, fat: t?.nutrients.fat ?? 0, cost: t?.cost?.rounded(2), entries: t?.entries ?? 0)
        }
        let weights = try await req.owner.body.weights(from: from.instant(in: user.zone), to: to.adding(days: 1).instant(in: user.zone))
        return SummaryDTO(from: from, to: to, goals: GoalsAnswer(try await service.goals().goals), days: days,
                          weights: weights.map { WeightEntry(id: $0.id, measuredAt: $0.measuredAt, weightKg: $0.weightKg, source: $0.source) })
    }

    /// The diary of a range as CSV or JSON (`format=csv|json`).
    @Sendable func export(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let (from, to) = try range(req, user: user, defaultDays: 30, maximum: 366 * 20)
        let service = try req.owner.diaryContext
        let entries = try await service.entries.entries(from: from, to: to)
        let format = req.queryParameters.string("format") ?? "csv"
        let filename = "forkcast-diary-\(from.iso)-to-\(to.iso)"
        switch format {
        case "csv":
            let response = Response(status: .ok, body: .init(string: DiaryExport.csv(entries)))
            response.headers.replaceOrAdd(name: .contentType, value: "text/csv; charset=utf-8")
            response.headers.replaceOrAdd(name: .contentDisposition, value: "attachment; filename=\"\(filename).csv\"")
            return response
        case "json":
            let response = Response(status: .ok)
            try response.content.encode(DiaryExportDTO(from: from, to: to, entries: try await dtos(entries, service)), as: .json)
            response.headers.replaceOrAdd(name: .contentDisposition, value: "attachment; filename=\"\(filename).json\"")
            return response
        default:
            throw AppError.badRequest("format must be csv or json; got \"\(format.prefix(20))\".")
        }
    }

    private func range(_ req: Request, user: UserModel, defaultDays: Int, maximum: Int) throws -> (CalendarDate, CalendarDate) {
        let query = req.queryParameters
        // One end alone stands for the default span from (or up to) it.
        let givenFrom = try query.date("from"), givenTo = try query.date("to")
        let to = givenTo ?? givenFrom.map { $0.adding(days: defaultDays - 1) } ?? user.today(now: req.now)
        let from = givenFrom ?? to.adding(days: -(defaultDays - 1))
        guard from <= to else { throw AppError.badRequest("from (\(from)) must not be after to (\(to)).") }
        guard from.days(until: to) < maximum else { throw AppError.badRequest("Ask for at most \(maximum) days at once.") }
        return (from, to)
    }

    /// Entries as the API answers them, with their photos' sizes.
    private func dtos(_ entries: [DiaryEntry], _ service: FluentDiary) async throws -> [DiaryEntryDTO] {
        let photos = try await service.photos.find(ids: entries.compactMap(\.photoId))
        return entries.map { DiaryEntryDTO($0, owner: service.ownerID, photos: photos) }
    }

    private func created(_ value: some Encodable, location: String?) throws -> Response {
        let response = Response(status: .created)
        if let location { response.headers.replaceOrAdd(name: .location, value: location) }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        response.body = .init(data: try encoder.encode(value))
        response.headers.contentType = .json
        return response
    }

    private func notFound(_ id: UUID) -> AppError { .notFound("No diary entry with id \(id) exists in your account.") }
}

struct DiaryExportDTO: Content {
    var from: CalendarDate
    var to: CalendarDate
    var entries: [DiaryEntryDTO]
}

/// CSV with a header row; fields quoted where needed (RFC 4180).
enum DiaryExport {
    static func csv(_ entries: [DiaryEntry]) -> String {
        func field(_ raw: String) -> String {
            // A cell starting with = + - @ (or a tab/CR) is a formula to a spreadsheet: shown as text.
            let s = raw.first.map { "=+-@\t\r".contains($0) } == true ? "'" + raw : raw
            return s.contains(where: { ",\"\n\r".contains($0) }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
        }
        func number(_ d: Decimal?) -> String { d.map { "\($0.rounded(3))" } ?? "" }
        let formatter = ISO8601DateFormatter()
        var lines = ["date,loggedAt,mealType,name,kind,quantity,unit,energyKcal,protein,carbohydrates,fat,cost,note"]
        for e in entries {
            let (kind, quantity, unit): (String, Decimal?, String) = switch e.kind {
            case let .food(_, q, u): ("food", q, u.rawValue)
            case let .meal(_, s): ("meal", s, "serving")
            case .quickAdd: ("quickAdd", nil, "")
            case .photo: ("photo", nil, "")
            }
            lines.append([e.date.iso, formatter.string(from: e.loggedAt), e.mealType, field(e.name), kind, number(quantity), unit,
                          number(e.nutrients.energyKcal), number(e.nutrients.protein), number(e.nutrients.carbohydrates),
                          number(e.nutrients.fat), number(e.cost), field(e.note ?? "")].joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}

