import Fluent
import FluentPostgresDriver
import FluentSQLiteDriver
import Foundation
import NIOSSL
import Vapor

/// Wires the application: configuration → database → middleware → routes.
public func configure(_ app: Application, config: AppConfig, dependencies: Dependencies = .live) async throws {
    app.forkcastConfig = config
    app.dependencies = dependencies
    // What lives as long as the application (its composition root): the event streams, the gate
    // every write passes (in the database's configuration), the Apple Health imports under way.
    let events = SyncEvents()
    app.syncEvents = events
    app.healthImports = HealthImports()
    try configureDatabase(app, config: config, events: events)
    app.registerMigrations()
    app.configureOpenFoodFacts()
    app.identityProviders = try IdentityProviders(config: config)

    app.passwords.use(.bcrypt(cost: config.bcryptCost))
    app.routes.defaultMaxBodySize = config.maxBodySize
    app.sessions.use { _ in DatabaseSessions(lifetime: config.sessionLifetime) }
    app.sessions.configuration = SessionsConfiguration(cookieName: SecurityHeadersMiddleware.sessionCookie) { id in
        // The server ends sessions itself (unused for the lifetime, or signed out); the browser
        // keeps the cookie as long. SecurityHeadersMiddleware adds Secure on HTTPS.
        HTTPCookies.Value(string: id.string, expires: Date().addingTimeInterval(config.sessionLifetime),
                          maxAge: Int(config.sessionLifetime), path: "/", isSecure: false, isHTTPOnly: true, sameSite: .lax)
    }

    // Vapor's `content` reads only its global configuration; Forkcast's own answers are encoded
    // with the same encoder directly (OperationRoutes, ReadCache).
    ContentConfiguration.global.use(encoder: JSONEncoder.forkcastSorted, for: .json)
    ContentConfiguration.global.use(decoder: JSONDecoder.forkcast, for: .json)

    // Replace Vapor's default error middleware with ours (one place renders every error).
    app.middleware = .init()
    let requests = InFlightRequests()
    app.middleware.use(InFlightRequests.Middleware(requests: requests))
    app.middleware.use(RouteLoggingMiddleware(logLevel: .info))
    app.readCache = ReadCache(maxBytes: config.readCacheBytes)
    app.catalogState = CatalogState(shippedFoods: dependencies.shippedCatalog)
    app.middleware.use(SecurityHeadersMiddleware(config: config))
    app.middleware.use(ProblemMiddleware())
    if case .postgres = config.storage {
        app.middleware.use(AnswerDeadline(limit: config.postgresConnectionWaitLimit + config.postgresConnectTimeout + .seconds(3)))
    }
    app.middleware.use(MethodNotAllowedMiddleware())
    app.middleware.use(PublicFilesMiddleware(publicDirectory: publicDirectory()))
    try routes(app)
    app.lifecycle.use(SyncEvents.PostgresListener())
    app.lifecycle.use(InFlightRequests.Draining(requests: requests))  // last: shut down first
}

private func configureDatabase(_ app: Application, config: AppConfig, events: SyncEvents) throws {
    switch config.storage {
    case .sqlite(let path):
        // SQLite's pool holds one connection per event loop. Writes have a pool of their own: a
        // writer waiting for another process's lock (`busy_timeout`) then holds none of the
        // connections that reads (a token, a page) need.
        let databases = app.databases
        let gate = WriteGate(events: events, waitLimit: config.writeWaitLimit) { db in
            // Gone once the application has shut its databases down: a background write still
            // running then (the catalogue's first load, housekeeping) fails instead of trapping.
            guard let writes = databases.database(.sqliteWrites, logger: db.logger, on: db.eventLoop) else { throw AppError.storageUnavailable }
            return writes
        }
        app.writeGate = gate
        for id in [DatabaseID.sqlite, .sqliteWrites] {
            let sqlite = DatabaseConfigurationFactory.sqlite(.file(path), connectionPoolTimeout: TimeAmount(config.sqliteConnectionWaitLimit),
                                                             sqlLogLevel: .debug)
            app.databases.use(WriteGate.Gated(base: sqlite.make(), gate: gate), as: id, isDefault: id == .sqlite)
        }
    case .postgres(let url, let searchPath):
        var configuration = try SQLPostgresConfiguration(url: url)
        if let searchPath { configuration.searchPath = [searchPath] }
        configuration.coreConfiguration.options.connectTimeout = TimeAmount(config.postgresConnectTimeout)
        // Eight per event loop (sixteen on two cores): with four, 64 clients reading waited for a
        // connection and PostgreSQL's reads stayed under half of SQLite's (docs/performance.md).
        let postgres = DatabaseConfigurationFactory.postgres(configuration: configuration, maxConnectionsPerEventLoop: 8,
                                                             connectionPoolTimeout: TimeAmount(config.postgresConnectionWaitLimit),
                                                             encodingContext: .default, decodingContext: .default, sqlLogLevel: .debug)
        let gate = WriteGate(events: events, waitLimit: config.writeWaitLimit)
        app.writeGate = gate
        app.databases.use(WriteGate.Gated(base: postgres.make(), gate: gate), as: .psql)
    }
}

/// Where the bundled static files (CSS, scripts, icons, manifest) live.
func publicDirectory() -> String {
    Bundle.module.resourceURL!.appendingPathComponent("Public").path + "/"
}

extension DatabaseID {
    /// SQLite's connections for writes (``WriteGate``): the same file as `.sqlite`.
    static let sqliteWrites = DatabaseID(string: "sqlite-writes")
}
