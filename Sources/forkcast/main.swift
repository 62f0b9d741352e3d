import ForkcastServer
import Foundation
import Logging
import NIOCore
import NIOPosix
import Vapor

// Swift concurrency runs on SwiftNIO's event loops (the threads Vapor already serves on) instead of
// its own pool, so a request is not handed between thread pools at every `await` (docs/performance.md). Must
// run on the main thread before any asynchronous work. Slow work (password hashing, Apple Health
// parsing) runs on its own thread pools.
NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()

var env = try Environment.detect()
try LoggingSystem.bootstrap(from: &env)
let app = try await Application.make(env)
// Asking for help reads and writes nothing: no configuration, no database file, no migrations.
let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--help") || arguments.contains("-h") || arguments.first == "help" {
    app.registerCommands()
    if arguments.first == "help" { app.environment.arguments = [CommandLine.arguments[0], "--help"] }
    do { try await app.execute() } catch { app.logger.report(error: error) }
    try await app.asyncShutdown()
    exit(0)
}
do {
    let config = try AppConfig.fromEnvironment()
    try await configure(app, config: config)
    app.registerCommands()
    // `serve` (also the default command) migrates first, so a fresh checkout just runs.
    let command = CommandLine.arguments.dropFirst().first ?? "serve"
    // Every command but `routes` reads or writes the data (Fluent's `migrate` among them).
    if command != "routes" { try config.makeDatabaseFolder() }
    if command == "serve" || command.hasPrefix("-") {
        try await app.prepareStorage()
        app.startHousekeeping()
    }
    try await app.execute()
} catch {
    app.logger.report(error: error)
    try? await app.asyncShutdown()
    exit(1)
}
try await app.asyncShutdown()
