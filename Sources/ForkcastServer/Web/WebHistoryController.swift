import Fluent
import ForkcastApp
import ForkcastContract
import ForkcastCore
import Vapor

/// Seed 004 on the web: the photo capture on Today, meal-first history, and Settings › Meal types.
struct WebHistoryController: RouteCollection {
    let photoMaxBytes: Int

    func boot(routes: any RoutesBuilder) throws {
        let upload = HTTPBodyStreamStrategy.collect(maxSize: ByteCount(value: photoMaxBytes + PhotoRepository.maximumThumbnailBytes + 64 * 1024))
        routes.on(.POST, SiteURL.diaryPhoto, body: upload, use: capture).noting(upload)
        routes.get(SiteURL.history(), use: history)
        routes.get(SiteURL.occasion(SiteURL.anyID), use: occasion)
        routes.get(SiteURL.mealTypes, use: mealTypes)
        routes.post(SiteURL.createMealType, use: createMealType)
        routes.post(SiteURL.updateMealType(SiteURL.anyID), use: updateMealType)
    }

    /// Saves a photo entry: the same upload as `POST /api/v1/photos`, then the same entry as
    /// `POST /api/v1/diary/entries` with only its photoId. Scripts ask for JSON (`Accept`).
    @Sendable func capture(req: Request) async throws -> Response {
        let user = try req.webUser
        let owner = try req.owner
        let upload = try await PhotosController.receive(req, maxBytes: photoMaxBytes)
        let form = upload.fields
        let service = owner.diary
        let date = try WebDiaryController.day(form["date"]) ?? user.today(now: req.now)
        let (entry, photo) = try await owner.logEntry.photo(upload.photo, thumbnail: upload.thumbnail, capturedAt: upload.capturedAt, date: date, mealType: form["mealType"]?.trimmed.nilIfEmptyString)
        let name = try await service.types().name(of: entry.mealType)
        // Only a script asks for JSON (Accept: application/json); a browser's form sends */*.
        if req.headers.accept.contains(where: { $0.mediaType.type == "application" && $0.mediaType.subType == "json" }) {
            let response = Response(status: .created)
            try response.content.encode(DiaryEntryAnswer(entry, owner: owner.id, photos: [photo.id: photo]), as: .json)
            return response
        }
        req.flash("Saved a photo to \(name). Give its calories later, or snap the next one.")
        return req.redirect(to: SiteURL.diary(date: date == user.today(now: req.now) ? nil : date).path(fragment: "capture"), redirectType: .normal)
    }

    @Sendable func history(req: Request) async throws -> Response {
        let user = try req.webUser
        let owner = try req.owner
        let query = req.queryParameters
        let jump = try query.date("date"), before = try query.date("before")
        let limit = 30
        let occasions = try await owner.occasions.list(before: before, through: jump, limit: limit)
        let types = try await owner.mealTypes.catalog(now: req.now)
        let page = HistoryPage(occasions: occasions, types: types, zone: user.zone, jumpDate: jump,
                               today: user.today(now: req.now), limit: limit, nowType: types.suggested(at: req.now, in: user.zone), csrf: CSRF.token(for: req))
        return page.render(layout: req.layout("History", .today)).response()
    }

    @Sendable func occasion(req: Request) async throws -> Response {
        let user = try req.webUser
        let owner = try req.owner
        let id = try req.idParameter(what: "meal")
        guard let occasion = try await owner.occasions.find(id) else {
            throw AppError.notFound("That meal has no entries any more.")
        }
        let types = try await owner.mealTypes.catalog(now: req.now)
        return OccasionPage(occasion: occasion, types: types, zone: user.zone)
            .render(layout: req.layout(types.name(of: occasion.mealType), .today)).response()
    }

    @Sendable func mealTypes(req: Request) async throws -> Response {
        _ = try req.webUser
        let page = MealTypesPage(types: try await req.owner.mealTypes.catalog(now: req.now))
        return page.render(layout: req.layout("Meal types", .settings)).response()
    }

    /// The fields of a meal type form as the API's change: empty times mean no window.
    private func change(_ form: FormData, position: Int? = nil) -> SaveMealType.Change {
        let start = form["windowStart"]?.trimmed ?? "", end = form["windowEnd"]?.trimmed ?? ""
        let window: (start: String, end: String)?? = start.isEmpty && end.isEmpty ? .some(nil) : .some((start, end))
        return SaveMealType.Change(name: form["displayName"], window: window, position: position, hidden: form["hidden"] == "1")
    }

    @Sendable func createMealType(req: Request) async throws -> Response {
        _ = try req.webUser
        let form = FormData(req)
        do {
            let type = try await req.owner.saveMealType.add(change(form), id: req.dependencies.uuid())
            req.flash("Added “\(type.name)”.")
            return req.redirect(to: SiteURL.mealTypes.path(fragment: "type-\(type.id.uuidString.lowercased())"), redirectType: .normal)
        } catch let errors as ValidationError {
            return try await failed(req, errors: errors, id: nil, form: form)
        }
    }

    @Sendable func updateMealType(req: Request) async throws -> Response {
        _ = try req.webUser
        let id = try req.idParameter(what: "meal type")
        let form = FormData(req)
        let types = try await req.owner.mealTypes.catalog(now: req.now)
        guard let index = types.all.firstIndex(where: { $0.id == id }) else { throw AppError.notFound("That meal type does not exist.") }
        let position: Int? = switch form["move"] { case "up": max(0, index - 1); case "down": index + 1; default: nil }
        do {
            guard let type = try await req.owner.saveMealType.change(id, change(form, position: position)) else {
                throw AppError.notFound("That meal type does not exist.")
            }
            req.flash(position == nil ? "Saved “\(type.name)”." : "Moved “\(type.name)”.")
            return req.redirect(to: SiteURL.mealTypes.path(fragment: "type-\(id.uuidString.lowercased())"), redirectType: .normal)
        } catch let errors as ValidationError {
            return try await failed(req, errors: errors, id: id, form: form)
        }
    }

    private func failed(_ req: Request, errors: ValidationError, id: UUID?, form: FormData) async throws -> Response {
        var page = MealTypesPage(types: try await req.owner.mealTypes.catalog(now: req.now), errors: errors, failedID: id)
        for key in ["displayName", "windowStart", "windowEnd"] { page.typed[key] = form[key] }
        return page.render(layout: req.layout("Meal types", .settings)).response(status: .unprocessableEntity)
    }
}
