import Fluent
import ForkcastCore
import Foundation
import NIOCore
import NIOPosix
import ForkcastContract
import Vapor

/// Runs Apple Health imports for the API and the web form alike: the upload is streamed to a
/// temporary file (raw body or multipart form, never held in memory), parsed on the thread pool
/// (never on an event loop) with progress the page can poll, one import per user at a time.
enum HealthImportRunner {
    /// Apple Health exports reach gigabytes; the upload streams to a temporary file.
    static let maximumUploadSize: Int64 = 4 << 30

    static func run(_ req: Request, user: UserModel) async throws -> HealthImportResult {
        let userID = try user.requireID()
        let imports = req.application.healthImports
        guard await imports.begin(userID) else {
            throw AppError.conflict("An Apple Health import is already running for your account; wait for it to finish.")
        }
        do {
            let file = try await receive(req)
            defer { try? FileManager.default.removeItem(at: file) }
            let total = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
            await imports.update(userID, phase: .reading, bytesRead: 0, bytesTotal: total)
            let limits = AppleHealthImport.Limits(maxXMLBytes: req.application.forkcastConfig.healthMaxXMLBytes)
            let now = req.now
            let parsed: AppleHealthImport.Result
            do {
                // A thread of its own: parsing gigabytes must not hold up the pool that runs every
                // SQLite query and file read. Imports from several users take turns on it.
                parsed = try await imports.parsingThread.runIfActive {
                    try AppleHealthImport.parse(fileAt: file, limits: limits, now: now) { read in
                        Task { await imports.update(userID, phase: .reading, bytesRead: read, bytesTotal: total) }
                    }
                }
            } catch let failure as AppleHealthImport.Failure {
                throw AppError.validation(ValidationError(field: "file", failure.message))
            }
            await imports.update(userID, phase: .saving, bytesRead: total, bytesTotal: total)
            let added = try await (try req.owner).importHealthData(parsed.export)
            let result = BodyController.present(parsed, added: added)
            await imports.end(userID)
            return result
        } catch {
            await imports.end(userID)
            throw error
        }
    }

    /// Writes the upload to a temporary file chunk by chunk: the body itself, or the first file
    /// part of a multipart form (the web page's upload).
    static func receive(_ req: Request, limit: Int64 = maximumUploadSize) async throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("forkcast-upload-\(UUID().uuidString)")
        let io = NonBlockingFileIO(threadPool: req.application.threadPool)
        // Readable by this user only (an upload is someone's data; /tmp is shared), and new: never
        // an existing file or link of that name.
        let handle = try await io.openFile(_deprecatedPath: url.path, mode: .write,
                                           flags: .allowFileCreation(posixMode: 0o600), eventLoop: req.eventLoop).get()
        var written: Int64 = 0
        let multipart = MultipartFileStream(contentType: req.headers.contentType)
        do {
            for try await chunk in req.body {
                let pieces = try multipart.map { try $0.feed(chunk) } ?? [chunk]
                for piece in pieces {
                    written += Int64(piece.readableBytes)
                    if written > limit { throw Abort(.payloadTooLarge) }
                    try await io.write(fileHandle: handle, buffer: piece, eventLoop: req.eventLoop).get()
                }
            }
            try handle.close()
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: url)
            throw error
        }
        guard written > 0 else {
            try? FileManager.default.removeItem(at: url)
            throw AppError.badRequest("The upload is empty: send the file as the request body, or as the file of a form.")
        }
        return url
    }
}

/// Pulls the bytes of the first file part out of a streamed multipart/form-data body.
final class MultipartFileStream {
    private let reader: MultipartReader
    private var inFile = false
    private var fileDone = false
    private var isFilePart = false
    private var pending: [ByteBuffer] = []

    init?(contentType: HTTPMediaType?) {
        guard let contentType, contentType.type == "multipart", contentType.subType == "form-data",
              let boundary = contentType.parameters["boundary"], let reader = MultipartReader(boundary: boundary) else { return nil }
        self.reader = reader
        reader.onHeader = { [unowned self] name, value in
            if name.lowercased() == "content-disposition", value.contains("filename=") { isFilePart = true }
        }
        reader.onBody = { [unowned self] buffer in
            guard isFilePart, !fileDone else { return }
            inFile = true
            pending.append(buffer)
        }
        reader.onPartComplete = { [unowned self] in
            if inFile { fileDone = true }
            isFilePart = false
        }
    }

    /// The file bytes found in this piece of the body.
    func feed(_ chunk: ByteBuffer) throws -> [ByteBuffer] {
        do { try reader.feed(chunk) } catch { throw AppError.badRequest("The upload is not a well-formed form.") }
        defer { pending = [] }
        return pending
    }
}
