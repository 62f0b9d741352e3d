import ForkcastServer
import Foundation
import Logging
import Vapor

var env = try Environment.detect()
try LoggingSystem.bootstrap(from: &env)
let app = try await Application.make(env)
do {
    let config = try AppConfig.fromEnvironment()
    try await configure(app, config: config)
    app.registerCommands()
    // `serve` (also the default command) migrates first, so a fresh checkout just runs.
    let command = CommandLine.arguments.dropFirst().first ?? "serve"
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
