import Fluent
import ForkcastContract
import ForkcastCore
import Vapor

/// `/api/v1/photos`: upload (checked by content, stored without metadata) and the private bytes, as
/// ForkcastContract's ``Photos`` operations.
enum PhotosController {
    static func register(_ routes: OperationRoutes, maxBytes: Int) {
        // A photo as the raw body (any image type; `?capturedAt=`), or a form with `photo`, optional
        // `thumbnail` (at most 640 px, checked the same way) and `capturedAt`.
        routes.raw(Photos.Upload.self, body: .collect(maxSize: ByteCount(value: maxBytes + PhotoRepository.maximumThumbnailBytes + 64 * 1024))) { req, _ in
            let owner = try req.owner
            let upload = try await receive(req, maxBytes: maxBytes)
            let photo = try await owner.uploadPhoto(upload.photo, thumbnail: upload.thumbnail, capturedAt: upload.capturedAt)
            let response = Response(status: .created)
            response.headers.replaceOrAdd(name: .location, value: PhotoURL.metadata(photo.id))
            try response.content.encode(PhotoAnswer(photo), as: .json)
            return response
        }
        routes.on(Photos.Get.self) { req, parameters, _ in
            guard let photo = try await req.owner.photos.find(parameters.id) else { throw notFound(parameters.id) }
            return PhotoAnswer(photo)
        }
        routes.raw(Photos.Image.self) { req, parameters in try await bytes(req, parameters.id, .full) }
        routes.raw(Photos.Thumbnail.self) { req, parameters in try await bytes(req, parameters.id, .thumbnail) }
    }

    /// Reads an upload from the API's raw body or a form (the web page's too).
    /// A recipe's photo has no `capturedAt` (`readsCapturedAt` false): one sent is not read.
    static func receive(_ req: Request, maxBytes: Int, readsCapturedAt: Bool = true) async throws -> (photo: Data, thumbnail: Data?, capturedAt: Date?, fields: [String: String]) {
        var photo: Data, thumbnail: Data?, capturedRaw: String?, fields: [String: String] = [:]
        if req.headers.contentType?.type == "multipart" {
            // Our own reader: multipart-kit's traps on some malformed forms (see MultipartReader).
            let missing = AppError.validation(ValidationError(field: "photo", "Send the photo as a file in the form field \"photo\"."))
            guard let boundary = req.headers.contentType?.parameters["boundary"], let body = req.body.data,
                  let form = try? MultipartForm(body: body, boundary: boundary), let file = form.first("photo"), file.filename != nil else {
                throw missing
            }
            photo = file.data
            thumbnail = form.first("thumbnail").flatMap { $0.filename != nil && !$0.data.isEmpty ? $0.data : nil }
            capturedRaw = form.first("capturedAt").map { String(decoding: $0.data, as: UTF8.self) }
            for part in form.parts where part.filename == nil { fields[part.name] = String(decoding: part.data, as: UTF8.self) }
            if readsCapturedAt, let query = req.queryParameters.string("capturedAt"), Instant.parse(query) == nil {
                throw AppError.badRequest("capturedAt must be an ISO 8601 instant such as 2026-11-22T12:30:00Z; got \"\(query.prefix(40))\".")
            }
            if capturedRaw == nil { capturedRaw = req.queryParameters.string("capturedAt") }
        } else {
            photo = req.body.data.map { Data(buffer: $0) } ?? Data()
            capturedRaw = req.queryParameters.string("capturedAt")
        }
        if photo.isEmpty { throw AppError.validation(ValidationError(field: "photo", "The photo is empty.")) }
        if photo.count > maxBytes {
            throw AppError.payloadTooLarge("A photo can be at most \(maxBytes / 1024 / 1024) MB; this one is \(photo.count / 1024 / 1024) MB.")
        }
        var capturedAt: Date?
        if readsCapturedAt, let capturedRaw {
            guard let at = Instant.parse(capturedRaw) else {
                throw AppError.badRequest("capturedAt must be an ISO 8601 instant such as 2026-11-22T12:30:00Z; got \"\(capturedRaw.prefix(40))\".")
            }
            capturedAt = at
        }
        return (photo, thumbnail, capturedAt, fields)
    }

    /// Private, immutable bytes: a photo never changes under its id (a new photo has a new id).
    private static func bytes(_ req: Request, _ id: UUID, _ variant: PhotoVariant) async throws -> Response {
        guard let (data, format) = try await req.owner.photos.bytes(id, variant: variant) else { throw notFound(id) }
        return image(data, format: format, etag: "\"\(id.uuidString.lowercased())-\(variant.rawValue)\"",
                     cache: "private, max-age=31536000, immutable", name: id.uuidString.lowercased(), req)
    }

    /// Image bytes with the headers every photo answer has; a 304 when the client has this copy.
    static func image(_ data: Data, format: ImageFormat, etag: String, cache: String, name: String, _ req: Request) -> Response {
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .cacheControl, value: cache)
        headers.replaceOrAdd(name: .eTag, value: etag)
        headers.replaceOrAdd(name: .contentType, value: format.mimeType)
        headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        headers.replaceOrAdd(name: .contentDisposition, value: "inline; filename=\"\(name).\(format.fileExtension)\"")
        if req.headers.first(name: .ifNoneMatch) == etag { return Response(status: .notModified, headers: headers) }
        return Response(status: .ok, headers: headers, body: .init(data: data))
    }

    private static func notFound(_ id: UUID) -> AppError { .notFound("No photo with id \(id) exists in your account.") }
}
