import ForkcastContract
import ForkcastCore
import Foundation
import NIOCore
import Vapor

/// `/api/v1/export`, `/api/v1/import` and `DELETE /api/v1/me`: a person's whole account
/// (docs/export-format.md), as ForkcastContract's ``Me`` operations.
enum AccountController {
    static func register(_ routes: OperationRoutes) {
        routes.raw(Me.Export.self) { req, _ in
            try await exportResponse(req, data: try req.owner.accountData)
        }
        routes.raw(Me.Import.self, body: .stream) { req, query in
            let dryRun = query.dryRun ?? false
            let report = try await runImport(req, data: try req.owner.accountData, dryRun: dryRun)
            let response = Response(status: dryRun ? .ok : .created)
            try response.content.encode(report, as: .json)
            return response
        }
        routes.on(Me.Delete.self) { req, _, input in
            let user = try req.requireUser()
            if let password = input.password {
                try await req.accounts.confirmPassword(password, of: user, client: req.clientIdentity)
            } else if let token = input.identityToken {
                try await req.confirmIdentity(token: token, nonce: input.nonce, of: user)
            } else {
                throw AppError.validation(ValidationError([.init(field: "password", message: user.hasPassword
                    ? "Send your password to confirm."
                    : "This account has no password: send identityToken from a fresh sign-in with the provider it uses.")]))
            }
            try await req.owner.accountData.deleteAccount(readCache: req.application.readCache)
            req.auth.logout(UserModel.self)
            if req.hasSession { req.session.destroy() }
            return Nothing()
        }
    }

    /// The archive as a download, written to a temporary file first and removed once sent.
    static func exportResponse(_ req: Request, data: AccountData) async throws -> Response {
        // In a folder only this user can enter (/tmp is shared; the archive is someone's data).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("forkcast-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let url = folder.appendingPathComponent("export.zip")
        do {
            try await data.writeArchive(to: url)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        let response = try await req.fileio.asyncStreamFile(at: url.path, mediaType: HTTPMediaType(type: "application", subType: "zip")) { _ in
            try? FileManager.default.removeItem(at: folder)
        }
        let name = "forkcast-export-\(data.user.today(now: data.now).iso).zip"
        response.headers.replaceOrAdd(name: .contentDisposition, value: "attachment; filename=\"\(name)\"")
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return response
    }

    /// Receives the upload (the body itself, or the file of a form) into a temporary file, reads it
    /// and imports it. Shared by the API and the Settings page.
    static func runImport(_ req: Request, data: AccountData, dryRun: Bool) async throws -> AccountData.ImportReport {
        let file = try await HealthImportRunner.receive(req, limit: maximumUpload)
        defer {
            try? FileManager.default.removeItem(at: file)
            // The archive's records are freed by now (they live in `read`): hand their pages back.
            _ = req.application.threadPool.runIfActive(eventLoop: req.eventLoop) { ProcessMemory.handBackFreed() }
        }
        @Sendable func read() async throws -> AccountData.ImportReport {
            let (archive, files) = try await req.application.threadPool.runIfActive { try AccountData.readArchive(at: file) }
            return try await data.importArchive(archive, files: files, dryRun: dryRun)
        }
        return try await read()
    }

    /// The largest archive accepted (photos make most of it).
    static let maximumUpload: Int64 = 4 << 30
}
