import Vapor

extension Application {
    /// Adds Forkcast's own commands beside Vapor's `serve`, `migrate` and `routes`.
    public func registerCommands() {
        asyncCommands.use(UserCommand(), as: "user")
        asyncCommands.use(HouseholdCommand(), as: "household")
        asyncCommands.use(BenchmarkCommand(), as: "benchmark")
        asyncCommands.use(SeedFoodsCommand(), as: "seed-foods")
        asyncCommands.use(ImportCommand(), as: "import")
        asyncCommands.use(BackupCommand(), as: "backup")
        asyncCommands.use(CatalogCommand(), as: "catalog")
    }
}
