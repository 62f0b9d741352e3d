import ForkcastCore
import Foundation
import Vapor

/// The query string as name → values, with strict readers that answer 400 on bad values.
struct QueryParameters {
    private var values: [String: [String]] = [:]

    init(_ request: Request) {
        var components = URLComponents()
        components.percentEncodedQuery = request.url.query?.replacingOccurrences(of: "+", with: "%20")
        for item in components.queryItems ?? [] {
            values[item.name, default: []].append(item.value ?? "")
        }
    }

    func string(_ name: String) -> String? { values[name]?.last }
    func strings(_ name: String) -> [String] { values[name] ?? [] }

    func int(_ name: String) throws -> Int? {
        guard let raw = string(name), !raw.isEmpty else { return nil }
        guard let value = Int(raw) else { throw AppError.badRequest("\(name) must be a whole number; got \"\(raw.prefix(40))\".") }
        return value
    }

    func date(_ name: String) throws -> CalendarDate? {
        guard let raw = string(name), !raw.isEmpty else { return nil }
        guard let date = CalendarDate(iso: raw) else {
            throw AppError.badRequest("\(name) must be a date that exists, written YYYY-MM-DD; got \"\(raw.prefix(40))\".")
        }
        return date
    }

    func page() throws -> Paging {
        do { return try Paging(page: try int("page"), per: try int("per")) } catch let error as ValidationError {
            throw AppError.badRequest(error.summary)
        }
    }

    func mealFilter() -> MealFilter {
        MealFilter(protein: string("protein"), carb: string("carb"), components: strings("component"), text: string("q"))
    }
}

extension Request {
    var queryParameters: QueryParameters { QueryParameters(self) }

    /// A UUID path parameter; a malformed one is simply not found.
    func idParameter(_ name: String = "id", what: String) throws -> UUID {
        guard let raw = parameters.get(name), let id = UUID(uuidString: raw) else {
            throw AppError.notFound("No \(what) with id \(parameters.get(name) ?? "") exists in your account.")
        }
        return id
    }
}

extension Request {
    /// Decodes a JSON body: 415 when it is not JSON, 400 when empty or malformed, 422 naming the field.
    func decodeJSON<T: Decodable>(_ type: T.Type) throws -> T {
        guard let contentType = headers.contentType, contentType.type == "application",
              contentType.subType == "json" || contentType.subType.hasSuffix("+json") else {
            throw Abort(.unsupportedMediaType)
        }
        guard let body = body.data, body.readableBytes > 0 else {
            throw AppError.badRequest("The body is empty; send a JSON object.")
        }
        return try content.decode(T.self, using: ContentConfiguration.global.requireDecoder(for: .json))
    }
}
