import Foundation
import Vapor

/// Serves the files of `Public/` (styles, scripts, icons, the service worker…). Vapor's
/// `FileMiddleware` asks the file system about every request path, on its thread pool; this asks
/// only for paths whose first segment is one of Public's own entries, so API calls and pages skip
/// that round trip (docs/performance.md).
struct PublicFilesMiddleware: Middleware {
    private let files: FileMiddleware
    private let entries: Set<String>

    init(publicDirectory: String) {
        files = FileMiddleware(publicDirectory: publicDirectory, defaultFile: nil)
        entries = Set((try? FileManager.default.contentsOfDirectory(atPath: publicDirectory)) ?? [])
    }

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        let first = request.url.path.drop { $0 == "/" }.prefix { $0 != "/" }
        guard entries.contains(String(first)) else { return next.respond(to: request) }
        return files.respond(to: request, chainingTo: next)
    }
}
