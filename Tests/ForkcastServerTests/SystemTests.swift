import ForkcastContract
import ForkcastCore
@testable import ForkcastServer
import FluentKit
import Foundation
import SQLKit
import Testing
import Vapor
import VaporTesting

@Suite("Health, OpenAPI and storage failures")
struct SystemTests {
    /// The pages' scripts and the service worker reach the API through the table the server
    /// generates from ForkcastContract: it holds every operation's path, and no script, page or
    /// handler spells an API path of its own.
    @Test func theScriptsPathTableIsTheContractsAndNothingElseSpellsAnAPIPath() async throws {
        try await withForkcast { app in
            let module = try await app.anonymous.get("/js/api.js").body.string
            let table = try #require(module.firstMatch(of: /export const operations = (\{.*?\});\n/.dotMatchesNewlines())?.1)
            let operations = try JSONDecoder().decode([String: [String: String]].self, from: Data(table.utf8))
            #expect(operations.count == APIv1.operations.count)
            for operation in APIv1.operations {
                #expect(operations[operation.id] == ["method": operation.method.rawValue, "path": operation.path.description])
            }
            // The search length the pages hold back from asking with is ForkcastCore's, from the same module.
            #expect(module.contains("export const minimumSearchLength = \(CatalogSearch.minimumQueryLength);"))
            let worker = try await app.anonymous.get("/sw.js").body.string
            #expect(worker.contains("const API = \(table);") && !worker.contains("/* operations */"))
            // The shell it keeps for offline use has the stylesheets the pages link, from the same list.
            #expect(worker.contains(#"const STYLESHEETS = ["/css/app.css","/css/views.css","/css/features.css"];"#))
            // Sign-in, or the first run's set-up it sends to while there is no account.
            let signIn = try await app.anonymous.get("/login")
            let page = try await app.anonymous.get(signIn.headers.first(name: .location) ?? "/login").body.string
            #expect(Layout.stylesheets.allSatisfy { page.contains(#"<link rel="stylesheet" href="/css/\#($0).css">"#) })
        }
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ForkcastServer")
        var spelt: [String] = []
        for folder in ["API", "Web", "Web/Pages", "Sync", "Public/js"] {
            let directory = sources.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".swift") || name.hasSuffix(".js") {
                let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where line.contains("/api/v1") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    spelt.append("\(folder)/\(name):\(number + 1)")
                }
            }
        }
        #expect(spelt.isEmpty, "API paths written by hand: \(spelt)")
        // Nor does a script read a typed number: what was typed goes to the server, which reads it.
        let scripts = sources.appendingPathComponent("Public/js")
        let reading = try FileManager.default.contentsOfDirectory(atPath: scripts.path).filter { name in
            let text = try String(contentsOf: scripts.appendingPathComponent(name), encoding: .utf8)
            return text.contains(#"replace(",""#) || text.contains("replaceAll(\",\"")
        }
        #expect(reading.isEmpty, "scripts that read decimal commas: \(reading)")
    }

    @Test func healthzReportsTheDatabase() async throws {
        try await withForkcast { app in
            let response = try await app.anonymous.get("/healthz")
            #expect(response.status == .ok)
            #expect(response.body.string.contains(#""status":"ok""#))
        }
    }

    /// With the disk full, /healthz kept answering `writable: true` (its one probe row
    /// still fit) while every other write failed. A full disk is made here with SQLite's own limit
    /// on the file's pages, on every connection the server writes with.
    /// PostgreSQL over TCP or, on the same machine, through its Unix socket (PostgresKit's
    /// `postgres+uds://` form); any other URL is refused at start-up with a clear message.
    @Test func databaseURLsOfPostgreSQLAreTakenOverTCPOrAUnixSocket() throws {
        for url in ["postgres://forkcast@db.example.com/forkcast", "postgresql://forkcast@127.0.0.1:5432/forkcast",
                    "postgres+uds://forkcast@localhost/run/postgresql/.s.PGSQL.5432#forkcast"] {
            #expect(try AppConfig.fromEnvironment(["DATABASE_URL": url]).storage == .postgres(url: url, searchPath: nil))
        }
        for url in ["mysql://forkcast@db/forkcast", "sqlite:///tmp/forkcast.sqlite", "postgres:/no-slashes"] {
            #expect(throws: ConfigError.self) { try AppConfig.fromEnvironment(["DATABASE_URL": url]) }
        }
    }

    @Test func aFullDiskIsReportedByHealthzAtOnce() async throws {
        guard TestDatabase.postgresURL == nil else { return }  // SQLite's page limit; PostgreSQL's disk is the server's
        try await withForkcast { app in
            let client = try await app.signUp()
            func limitPages(_ pages: String) async throws {
                for loop in app.eventLoopGroup.makeIterator() {
                    for id in [DatabaseID.sqlite, .sqliteWrites] {
                        try await app.databases.database(id, logger: app.logger, on: loop)!.withConnection { connection in
                            let sql = connection as! any SQLDatabase
                            let count = try await sql.raw("PRAGMA page_count").first()!.decode(column: "page_count", as: Int.self)
                            _ = try await sql.raw("PRAGMA max_page_count = \(unsafeRaw: pages == "now" ? String(count) : pages)").all()
                        }
                    }
                }
            }
            #expect(try await app.anonymous.get("/healthz").status == .ok)
            try await limitPages("now")
            var statuses: [HTTPStatus] = []
            for i in 0..<400 where statuses.filter({ $0 == .serviceUnavailable }).count < 3 {
                let r = try await client.sendJSON(.POST, "/api/v1/meals", ["description": "Meal \(i) " + String(repeating: "long name ", count: 14),
                                                                           "otherComponents": (0..<8).map { "Component \(i)-\($0) with a long name" }])
                statuses.append(r.status)
                if r.status == .serviceUnavailable {
                    // Said as it is: a full disk, not a database out of reach.
                    #expect(r.problem?.type.hasSuffix("storage-full") == true && r.problem?.detail.contains("disk is full, so nothing was saved") == true,
                            "\(r.body.string)")
                }
                else { #expect(r.status == .created, "\(r.body.string)") }
            }
            #expect(statuses.contains(.serviceUnavailable), "the disk filled up after \(statuses.count) meals")
            let health = try await app.anonymous.get("/healthz")
            #expect(health.status == .serviceUnavailable && health.body.string.contains(#""writable":false"#), "\(health.body.string)")
            // Room again: the next write commits and /healthz says so.
            try await limitPages("1073741823")
            #expect(try await client.sendJSON(.POST, "/api/v1/meals", ["description": "Soup"]).status == .created)
            #expect(try await app.anonymous.get("/healthz").status == .ok)
        }
    }

    @Test func sqliteCommitsAreDurable() async throws {
        guard TestDatabase.postgresURL == nil else { return }  // PostgreSQL is durable with its defaults
        try await withForkcast { app in
            let sql = app.db as! any SQLDatabase
            let mode = try await sql.raw("PRAGMA journal_mode").first()?.decode(column: "journal_mode", as: String.self)
            let sync = try await sql.raw("PRAGMA synchronous").first()?.decode(column: "synchronous", as: Int.self)
            #expect(mode == "wal")
            #expect(sync == 2, "FULL: every commit is fsynced before the answer")
        }
    }

    @Test func unknownPathsAreProblemDocuments() async throws {
        try await withForkcast { app in
            let response = try await app.anonymous.get("/api/v1/nothing-here")
            #expect(response.status == .notFound)
            #expect(response.headers.contentType?.subType == "problem+json")
        }
    }

    /// Every route the server registers is in the OpenAPI document, and every documented
    /// operation is a real route.
    @Test func openAPIDescribesEveryRoute() async throws {
        try await withForkcast { app in
            let response = try await app.anonymous.get("/api/v1/openapi.json")
            #expect(response.status == .ok)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            var documented = Set<String>()
            for (path, operations) in paths {
                for method in operations.keys { documented.insert("\(method.uppercased()) \(path)") }
                for (_, operation) in operations {
                    let op = try #require(operation as? [String: Any])
                    #expect(op["operationId"] != nil, "\(path) needs an operationId")
                    #expect((op["responses"] as? [String: Any])?.isEmpty == false, "\(path) needs responses")
                }
            }
            let routes = Set(app.routes.all.map { route in
                let path = "/" + route.path.map { component -> String in
                    if case .parameter(let name) = component { return "{\(name)}" }
                    return component.description
                }.joined(separator: "/")
                return "\(route.method.rawValue) \(path)"
            }.filter { $0.contains("/api/v1/") || $0.contains("/healthz") })
            #expect(routes.subtracting(documented).isEmpty, "undocumented routes: \(routes.subtracting(documented).sorted())")
            #expect(documented.subtracting(routes).isEmpty, "documented but missing: \(documented.subtracting(routes).sorted())")
            // Every $ref points at a schema that exists.
            let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
            let text = response.body.string
            let refs = text.matches(of: /"#\/components\/schemas\/([A-Za-z]+)"/).map { String($0.1) }
            #expect(!refs.isEmpty)
            for ref in refs { #expect(schemas[ref] != nil, "missing schema \(ref)") }
        }
    }

    /// A database that cannot be reached answers 503 saying nothing was saved; the server stays up.
    @Test func anUnreachableDatabaseIsA503AndTheServerStaysUp() async throws {
        let app = try await Application.make(.testing)
        app.logger.logLevel = .critical  // the failures below are the point; keep the log quiet
        // Nothing listens on port 1 of the loopback address.
        let config = AppConfig(dataDirectory: NSTemporaryDirectory(), storage: .postgres(url: "postgres://forkcast:x@127.0.0.1:1/forkcast", searchPath: nil), bcryptCost: 4)
        do {
            try await configure(app, config: config)
            let register = try await app.anonymous.send(.POST, "/api/v1/auth/register", json: ["email": "a@example.com", "password": "guest horse 12"])
            #expect(register.status == .serviceUnavailable)
            #expect(register.headers.contentType?.subType == "problem+json")
            #expect(register.problem?.detail.contains("nothing was saved") == true)
            let health = try await app.anonymous.get("/healthz")
            #expect(health.status == .serviceUnavailable)
            let spec = try await app.anonymous.get("/api/v1/openapi.json")
            #expect(spec.status == .ok, "the server keeps answering")
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
    }
}
