import ForkcastApp
import ForkcastCore
import Foundation
import Vapor

/// Every failure the server reports on purpose. ``ProblemMiddleware`` is the one place that turns
/// these (and framework errors) into HTTP answers.
enum AppError: Error, Sendable {
    /// Input that breaks a rule; names each field.
    case validation(ValidationError)
    /// A request that cannot be understood (bad query parameter, malformed JSON).
    case badRequest(String)
    /// Nothing with that id belongs to the signed-in user.
    case notFound(String)
    /// A field refers to something the user does not have (a meal, a food): 404, naming the field.
    case missingReference(field: String, detail: String)
    case unauthorized(String)
    case forbidden(String)
    case conflict(String)
    /// What the request refers to is no longer kept (an expired sync cursor).
    case gone(String)
    /// Too many attempts; try again after the given seconds.
    case tooManyRequests(String, retryAfter: Int)
    /// The database could not be used; nothing was saved.
    case storageUnavailable
    /// The database went away after the write's COMMIT was sent: it may have been saved or not.
    case outcomeUnknown
    /// The database's disk is full: nothing was saved, and trying again will not help until the
    /// server's owner frees space.
    case storageFull
    /// An outside service (Open Food Facts, a sign-in provider) could not answer; local data
    /// still works. The problem's title names the service.
    case upstreamUnavailable(String, retryAfter: Int?, service: String = "Open Food Facts")
    /// A time edit would move an entry to another occasion and was not confirmed (seed 004 §7).
    case occasionChange(from: OccasionRef, to: OccasionRef)
    /// An upload larger than the server accepts.
    case payloadTooLarge(String)
    /// An upload that is not one of the accepted kinds of file (judged by content).
    case unsupportedMediaType(String)
}

extension AppError {
    var status: HTTPResponseStatus {
        switch self {
        case .validation: .unprocessableEntity
        case .badRequest: .badRequest
        case .notFound, .missingReference: .notFound
        case .unauthorized: .unauthorized
        case .forbidden: .forbidden
        case .conflict: .conflict
        case .gone: .gone
        case .tooManyRequests: .tooManyRequests
        case .storageUnavailable, .storageFull, .outcomeUnknown: .serviceUnavailable
        case .upstreamUnavailable: .serviceUnavailable
        case .occasionChange: .conflict
        case .payloadTooLarge: .payloadTooLarge
        case .unsupportedMediaType: .unsupportedMediaType
        }
    }

    var problem: ProblemDetails {
        switch self {
        case .validation(let error):
            return ProblemDetails(type: "validation", title: "Some fields need fixing", status: status,
                                  detail: error.summary, errors: error.fields)
        case .badRequest(let detail):
            return ProblemDetails(type: "bad-request", title: "The request could not be read", status: status, detail: detail)
        case .notFound(let detail):
            return ProblemDetails(type: "not-found", title: "Not found", status: status, detail: detail)
        case .missingReference(let field, let detail):
            return ProblemDetails(type: "not-found", title: "Not found", status: status, detail: detail,
                                  errors: [ValidationError.Field(field: field, message: detail)])
        case .unauthorized(let detail):
            return ProblemDetails(type: "unauthorized", title: "Sign in required", status: status, detail: detail)
        case .forbidden(let detail):
            return ProblemDetails(type: "forbidden", title: "Not allowed", status: status, detail: detail)
        case .conflict(let detail):
            return ProblemDetails(type: "conflict", title: "Already exists", status: status, detail: detail)
        case .gone(let detail):
            return ProblemDetails(type: "gone", title: "No longer available", status: status, detail: detail)
        case .tooManyRequests(let detail, _):
            return ProblemDetails(type: "too-many-requests", title: "Too many attempts", status: status, detail: detail)
        case let .upstreamUnavailable(detail, _, service):
            return ProblemDetails(type: service == "Open Food Facts" ? "openfoodfacts-unavailable" : "sign-in-provider-unavailable",
                                  title: "\(service) unavailable", status: status, detail: detail)
        case let .occasionChange(from, to):
            return ProblemDetails(type: "occasion-change", title: "This moves the entry to another meal", status: status,
                                  detail: "The new time moves this entry from \(from.name) to \(to.name). Send the change again with \"confirmMove\": true to move it.",
                                  from: from, to: to)
        case .payloadTooLarge(let detail):
            return ProblemDetails(type: "payload-too-large", title: "Too large", status: status, detail: detail)
        case .unsupportedMediaType(let detail):
            return ProblemDetails(type: "unsupported-media-type", title: "Not a supported file", status: status, detail: detail)
        case .storageUnavailable:
            return ProblemDetails(type: "storage-unavailable", title: "Storage unavailable", status: status,
                                  detail: "The database could not be reached, so nothing was saved. Your input is unchanged; try again in a moment.")
        case .outcomeUnknown:
            return ProblemDetails(type: "outcome-unknown", title: "Outcome unknown", status: status,
                                  detail: "The database went away while this change was being committed, so it may or may not have been saved. Look at what is stored (reload the page, or read it back) before sending it again.")
        case .storageFull:
            return ProblemDetails(type: "storage-full", title: "Storage full", status: status,
                                  detail: "The server's disk is full, so nothing was saved. Your input is unchanged; the server's owner must free some space.")
        }
    }
}

extension AppError {
    /// A use case's refusal, as the same problem everywhere: 409, or 404 naming the field (after
    /// `prefix`, e.g. "meals[3]." for a record of an archive).
    init(_ refusal: Refusal, prefix: String = "") {
        switch refusal {
        case .conflict(let detail): self = .conflict(detail)
        case .notAllowed(let detail): self = .forbidden(detail)
        case .notFound(let detail): self = .notFound(detail)
        case let .missingReference(field, detail): self = .missingReference(field: prefix + field, detail: detail)
        case let .occasionChange(from, to): self = .occasionChange(from: from, to: to)
        case .outOfDate(let detail): self = .gone(detail)
        case .largeAmounts(let questions): self = .conflict(questions.map(\.message).joined(separator: " "))
        case .tooLarge(let detail): self = .payloadTooLarge(detail)
        }
    }
}

extension ValidationError {
    /// Thrown as an HTTP error.
    var asAppError: AppError { .validation(self) }
}
