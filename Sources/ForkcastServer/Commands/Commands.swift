import Vapor

extension Application {
    /// Adds Forkcast's own commands beside Vapor's `serve`, `migrate` and `routes`.
    public func registerCommands() {
        asyncCommands.use(UserCommand(), as: "user")
        asyncCommands.use(BenchmarkCommand(), as: "benchmark")
        asyncCommands.use(SeedFoodsCommand(), as: "seed-foods")
        asyncCommands.use(ImportCommand(), as: "import")
        asyncCommands.use(BackupCommand(), as: "backup")
        asyncCommands.use(CatalogCommand(), as: "catalog")
    }
}

extension Application {
    /// Runs `body` (the command line's command, `serve` included) with this application's write
    /// gate, so what a command writes itself queues as its requests' writes do.
    public func withItsWriteGate<T>(_ body: () async throws -> T) async throws -> T {
        try await WriteGate.$current.withValue(writeGate) { try await body() }
    }
}
