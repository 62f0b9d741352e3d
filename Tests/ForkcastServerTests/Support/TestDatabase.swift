@testable import ForkcastServer
import Foundation
import Logging
import PostgresKit
import PostgresNIO
import VaporTesting

/// Which database the server tests run on: SQLite in a temporary file by default, or the
/// PostgreSQL server named by `FORKCAST_TEST_DATABASE_URL` (each test in a database of its own).
///
/// Each test starts from a copy of one database this process migrated on that engine, so every
/// test process still runs every migration from nothing, once. Migrating for each test was a
/// quarter of a second of CPU on SQLite and 0.6 s on PostgreSQL (505 statements), a third of the
/// PostgreSQL run (2026-12-04).
enum TestDatabase {
    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["FORKCAST_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A fresh migrated database for one test, and what removes it afterwards.
    static func fresh(in directory: String) async throws -> (storage: AppConfig.Storage, remove: @Sendable () async -> Void) {
        if let url = postgresURL {
            let template = try await postgresTemplate.value
            let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            // From a template: its files are copied, nothing is migrated again.
            try await administer(url, "CREATE DATABASE \(name) TEMPLATE \(template)")
            return (.postgres(url: try database(name, of: url), searchPath: nil), {
                try? await administer(url, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            })
        }
        let bytes = try await sqliteTemplate.value
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/forkcast.sqlite"
        try bytes.write(to: URL(fileURLWithPath: path))
        return (.sqlite(path: path), {})
    }

    /// The migrated SQLite file, kept in memory: a test writes it out as its own database.
    private static let sqliteTemplate = Task<Data, any Error> {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forkcast-template-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/forkcast.sqlite"
        try await migrate(.sqlite(path: path), in: directory)
        // Closing the last connection wrote the log back into the file and removed it.
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// The migrated PostgreSQL database's name. Left on the server: the test script throws the
    /// whole cluster away, and a database used as a template cannot be dropped by a test.
    private static let postgresTemplate = Task<String, any Error> {
        guard let url = postgresURL else { throw TemplateError.noPostgreSQL }
        let name = "template_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await administer(url, "CREATE DATABASE \(name)")
        try await migrate(.postgres(url: try database(name, of: url), searchPath: nil), in: nil)
        return name
    }

    private enum TemplateError: Error { case noPostgreSQL, notADatabaseURL(String) }

    /// Migrates a database as the server does when it starts, then closes every connection to it.
    private static func migrate(_ storage: AppConfig.Storage, in directory: String?) async throws {
        let app = try await Application.make(.testing)
        let config = AppConfig(dataDirectory: directory ?? FileManager.default.temporaryDirectory.path, storage: storage,
                               allowSignup: false, bcryptCost: 4, contact: "tests@forkcast.invalid",
                               openFoodFactsURL: "http://127.0.0.1:1")
        do {
            try await configure(app, config: config, dependencies: Dependencies(shippedCatalog: { [] }))
            try await app.prepareStorage()
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
    }

    /// `url` with another database's name.
    private static func database(_ name: String, of url: String) throws -> String {
        guard var components = URLComponents(string: url) else { throw TemplateError.notADatabaseURL(url) }
        components.path = "/" + name
        guard let named = components.string else { throw TemplateError.notADatabaseURL(url) }
        return named
    }

    /// Runs one statement on a connection of its own to the database `url` names (CREATE DATABASE
    /// and DROP DATABASE run outside any pool's transaction).
    private static func administer(_ url: String, _ statement: String) async throws {
        let configuration = try SQLPostgresConfiguration(url: url).coreConfiguration
        let logger = Logger(label: "forkcast.tests.database")
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        do {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }
}
