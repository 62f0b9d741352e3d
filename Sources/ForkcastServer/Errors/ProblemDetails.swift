import ForkcastApp
import ForkcastCore
import Vapor

/// An RFC 9457 problem details document (`application/problem+json`).
struct ProblemDetails: Content, Sendable {
    var type: String
    var title: String
    var status: Int
    var detail: String
    var errors: [ValidationError.Field]?
    /// For `occasion-change`: the occasion an entry is in and the one the edit would move it to.
    var from: OccasionRef?
    var to: OccasionRef?

    typealias OccasionRef = ForkcastCore.OccasionRef

    init(type: String, title: String, status: HTTPResponseStatus, detail: String, errors: [ValidationError.Field]? = nil,
         from: OccasionRef? = nil, to: OccasionRef? = nil) {
        self.from = from
        self.to = to
        self.type = "https://forkcast.invalid/problems/" + type
        self.title = title
        self.status = Int(status.code)
        self.detail = detail
        self.errors = errors
    }
}
