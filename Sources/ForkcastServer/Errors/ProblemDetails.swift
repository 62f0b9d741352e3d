import ForkcastContract
import ForkcastCore
import Vapor

/// An RFC 9457 problem details document (`application/problem+json`): ForkcastContract's
/// ``Problem``, the one type the server answers and ForkcastClient reads.
typealias ProblemDetails = Problem

extension Problem: Content {
    /// A problem of the kind `type` (the last part of its URI) with the status it is answered with.
    init(type: String, title: String, status: HTTPResponseStatus, detail: String, errors: [ValidationError.Field]? = nil,
         from: OccasionRef? = nil, to: OccasionRef? = nil) {
        self.init(type: "https://forkcast.invalid/problems/" + type, title: title, status: Int(status.code), detail: detail,
                  errors: errors, from: from, to: to)
    }
}
