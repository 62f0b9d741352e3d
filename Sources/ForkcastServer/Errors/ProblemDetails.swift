import ForkcastCore
import Vapor

/// An RFC 9457 problem details document (`application/problem+json`).
struct ProblemDetails: Content, Sendable {
    var type: String
    var title: String
    var status: Int
    var detail: String
    var errors: [ValidationError.Field]?

    init(type: String, title: String, status: HTTPResponseStatus, detail: String, errors: [ValidationError.Field]? = nil) {
        self.type = "https://forkcast.invalid/problems/" + type
        self.title = title
        self.status = Int(status.code)
        self.detail = detail
        self.errors = errors
    }
}
