import ConsoleKit
import Fluent
import ForkcastCore
import Foundation
import SQLKit
import Vapor

struct CatalogStatusCommand: AsyncCommand {
    struct Signature: CommandSignature {}
    var help: String { "What the catalogue holds" }

    func run(using context: CommandContext, signature: Signature) async throws {
        let app = context.application
        try await app.prepareStorage()
        try await app.catalogState.ensureShipped(db: app.db, threadPool: CatalogState.threads)
        for part in try await CatalogPartModel.query(on: app.db).sort(\.$part).all() {
            context.console.print("\(part.part): \(part.rows) foods, \(part.complete ? "complete" : "stopped at byte \(part.position)") (\(part.version))")
        }
    }
}
