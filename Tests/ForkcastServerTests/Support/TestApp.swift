import FluentKit
import ForkcastClient
@testable import ForkcastServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOPosix
import SQLKit
import Testing
import VaporTesting

/// A settable clock for tests that need time to pass.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    init(_ start: Date = ISO8601DateFormatter().date(from: "2026-11-21T12:00:00Z")!) { current = start }
    var now: Date { lock.withLock { current } }
    func advance(by seconds: TimeInterval) { lock.withLock { current = current.addingTimeInterval(seconds) } }
    func set(_ date: Date) { lock.withLock { current = date } }
}

/// Swift concurrency on SwiftNIO's event loops, as `forkcast` runs it (Sources/forkcast/main.swift):
/// the server tests answer requests on the executor production answers them on. Installed by the
/// first test that starts a server (the hook is read at every enqueue, so it takes effect from then).
let productionExecutor: Bool = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()

/// The shipped catalogue, read from its files once for the whole test process: each test's fresh
/// database loads it again (the loading is what is tested), but reading the files in a debug build
/// took about a second each time, a tenth of the SQLite run's CPU (2026-12-04).
private let shippedCatalog = Result { try ShippedCatalog.foods() }

/// Runs `body` against a fresh Forkcast on a clean database, then removes that database.
func withForkcast(
    allowSignup: Bool = false,
    clock: TestClock? = nil,
    openFoodFactsURL: String = "http://127.0.0.1:1",
    productsPerMinute: Int = 100,
    adjust: (inout AppConfig) -> Void = { _ in },
    _ body: (Application) async throws -> Void
) async throws {
    #expect(productionExecutor, "the tests run on the production executor")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forkcast-test-\(UUID().uuidString)").path
    let (storage, removeDatabase) = try await TestDatabase.fresh(in: directory)
    let app = try await Application.make(.testing)
    var config = AppConfig(dataDirectory: directory, storage: storage, allowSignup: allowSignup, bcryptCost: 4,
                           contact: "tests@forkcast.invalid", openFoodFactsURL: openFoodFactsURL,
                           openFoodFactsProductsPerMinute: productsPerMinute, openFoodFactsSearchesPerMinute: 100,
                           openFoodFactsTimeout: 1, openFoodFactsBackoff: { _ in 0.05 })
    // Up to four servers share two cores beside each other's heaviest tests: a write or a
    // PostgreSQL connection may wait past production's 15 s and 5 s there, and a 503 from that
    // says nothing of what a test checks (a sign-in got one, 2026-11-27). Opening a connection
    // took past production's 10 s there once too (a PostgreSQL run, 2026-11-28). That writers past
    // the limit are answered 503 in time is the system tests' (test_concurrency.py), against the binary.
    // SQLite's one connection per event loop too: a test that held it for 300 ms while eight
    // others queued saw the last wait past Fluent's 10 s there once (2026-11-28, later).
    config.writeWaitLimit = .seconds(60)
    config.postgresConnectionWaitLimit = .seconds(60)
    config.sqliteConnectionWaitLimit = .seconds(60)
    config.postgresConnectTimeout = .seconds(60)
    adjust(&config)
    var dependencies = Dependencies(shippedCatalog: { try shippedCatalog.get() })
    if let clock { dependencies.now = { clock.now } }
    do {
        try await configure(app, config: config, dependencies: dependencies)
        try await app.prepareStorage()
        try await body(app)
    } catch {
        await cleanUp(app, removeDatabase: removeDatabase, directory: directory)
        throw error
    }
    await cleanUp(app, removeDatabase: removeDatabase, directory: directory)
}

private func cleanUp(_ app: Application, removeDatabase: () async -> Void, directory: String) async {
    try? await app.asyncShutdown()
    await removeDatabase()
    try? FileManager.default.removeItem(atPath: directory)
}

/// A signed-in API client for one user.
struct Client {
    let app: Application
    var token: String?

    var authHeaders: HTTPHeaders {
        var headers = HTTPHeaders()
        if let token { headers.bearerAuthorization = .init(token: token) }
        return headers
    }

    /// Sends a request with an optional JSON body (any Encodable, or raw text with a content type).
    @discardableResult
    func send(_ method: HTTPMethod, _ path: String, json: (any Encodable)? = nil, raw: String? = nil,
              contentType: String = "application/json", headers extra: HTTPHeaders = [:],
              overTheNetwork: Bool = false) async throws -> TestingHTTPResponse {
        var headers = authHeaders
        for (name, value) in extra { headers.replaceOrAdd(name: name, value: value) }
        var body: ByteBuffer?
        if let json {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            body = ByteBuffer(data: try encoder.encode(json))
            headers.replaceOrAdd(name: .contentType, value: "application/json")
        } else if let raw {
            body = ByteBuffer(string: raw)
            headers.replaceOrAdd(name: .contentType, value: contentType)
        }
        // Over the network the real HTTP server runs (body limits, streaming) on a free loopback port.
        let tester = try app.testing(method: overTheNetwork ? .running(hostname: "127.0.0.1", port: 0) : .inMemory)
        let response = try await tester.sendRequest(method, path, headers: headers, body: body)
        // Every answer a test receives must be one the OpenAPI document describes.
        if path.hasPrefix("/api/") || path == "/healthz" { OpenAPIConformance.check(method: method, path: path, response: response) }
        return response
    }

    func get(_ path: String) async throws -> TestingHTTPResponse { try await send(.GET, path) }
}

extension Application {
    var anonymous: Client { Client(app: self, token: nil) }

    /// Registers (the first account, or with sign-up open) and returns a signed-in client.
    func signUp(_ email: String = "owner@example.com", password: String = "correct horse", timeZone: String? = nil) async throws -> Client {
        var body = ["email": email, "password": password]
        if let timeZone { body["timeZone"] = timeZone }
        let response = try await anonymous.send(.POST, "/api/v1/auth/register", json: body)
        #expect(response.status == .created, "register \(email): \(response.body.string)")
        return Client(app: self, token: try response.json(TestSession.self).token)
    }

    /// Runs `queue` while a write holds this application's write gate (SQLite), then lets that write
    /// end. `queue` starts writers in tasks of their own and calls `untilWaiting(n)` to go on once
    /// `n` wait at the gate: they then join the held write's batch in that order. Returns the held
    /// write's task (it fails when its batch does) and what `queue` returned.
    func whileAWriteHoldsTheGate<T>(_ queue: (_ untilWaiting: (Int) async throws -> Void) async throws -> T) async throws -> (held: Task<Void, any Error>, queued: T) {
        let (release, releasing) = AsyncStream<Void>.makeStream()
        let (entered, enter) = AsyncStream<Void>.makeStream()
        let db = db
        let held = Task {
            try await db.write { _ in
                enter.yield()
                for await _ in release { break }
            }
        }
        for await _ in entered { break }
        let gate = writeGate
        // The held write ends however `queue` does.
        defer { releasing.yield() }
        let queued = try await queue { count in
            while await gate.waiting < count { try await Task.sleep(for: .milliseconds(5)) }
        }
        return (held, queued)
    }
}

extension TestingHTTPResponse {
    func json<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(T.self, from: Data(buffer: body))
    }

    var problem: TestProblem? { try? json(TestProblem.self) }
}

// Client-side shapes, decoded independently of the server's DTOs so tests check the wire format.
struct TestSession: Decodable { var token: String; var user: TestUser; var expiresAt: Date }
struct TestUser: Decodable { var id: UUID; var email: String; var displayName: String?; var timeZone: String }
struct TestProblem: Decodable {
    var type: String; var title: String; var status: Int; var detail: String
    var errors: [Field]?
    struct Field: Decodable { var field: String; var message: String }
    func message(for field: String) -> String? { errors?.first { $0.field == field }?.message }
}
struct TestMeal: Decodable, Equatable {
    var id: UUID; var description: String; var primaryProtein: String?; var primaryCarb: String?
    var otherComponents: [String]; var createdAt: Date; var updatedAt: Date; var isPlanned: Bool
}
struct TestMealPage: Decodable {
    var items: [TestMeal]
    var metadata: Metadata
    struct Metadata: Decodable { var page: Int; var per: Int; var total: Int }
}
struct TestAssignment: Decodable { var id: UUID; var date: String; var mealId: UUID; var meal: TestMeal }
struct TestPlan: Decodable {
    var start: String; var end: String; var today: String; var previousStart: String; var nextStart: String
    var days: [Day]
    struct Day: Decodable { var date: String; var weekday: String; var assignments: [TestAssignment] }
}
struct TestFacets: Decodable, Equatable { var proteins: [String]; var carbs: [String]; var components: [String] }

extension Client {
    /// Creates a meal through the API and returns it.
    func createMeal(_ description: String, protein: String? = nil, carb: String? = nil, components: [String] = []) async throws -> TestMeal {
        struct Body: Encodable { var description: String; var primaryProtein: String?; var primaryCarb: String?; var otherComponents: [String] }
        let response = try await send(.POST, "/api/v1/meals", json: Body(description: description, primaryProtein: protein,
                                                                        primaryCarb: carb, otherComponents: components))
        #expect(response.status == .created, "create meal: \(response.body.string)")
        return try response.json()
    }

    func assign(_ mealID: UUID, on date: String) async throws -> TestingHTTPResponse {
        try await send(.POST, "/api/v1/plan/assignments", json: ["mealId": mealID.uuidString, "date": date])
    }

    func meals(_ query: String = "") async throws -> TestMealPage {
        let response = try await get("/api/v1/meals" + (query.isEmpty ? "" : "?" + query))
        #expect(response.status == .ok, "list meals: \(response.body.string)")
        return try response.json()
    }

    func plan(_ query: String = "") async throws -> TestPlan {
        let response = try await get("/api/v1/plan" + (query.isEmpty ? "" : "?" + query))
        #expect(response.status == .ok, "plan: \(response.body.string)")
        return try response.json()
    }
}

/// Runs a fresh Forkcast on a loopback port for the body, which gets its address.
func withServer(allowSignup: Bool = false, clock: TestClock? = nil, _ body: @escaping (Application, URL) async throws -> Void) async throws {
    try await withForkcast(allowSignup: allowSignup, clock: clock) { app in
        try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        let url = URL(string: "http://127.0.0.1:\(app.http.server.shared.localAddress!.port!)")!
        do { try await body(app, url) } catch {
            await app.server.shutdown()
            throw error
        }
        await app.server.shutdown()
    }
}

/// The status of the problem `call` is answered with; nil when it succeeds, -1 for another error.
func problemStatus(_ call: () async throws -> Void) async -> Int? {
    do {
        try await call()
        return nil
    } catch ForkcastError.problem(let status, _, _, _) {
        return status
    } catch {
        return -1
    }
}

/// URLSession with room to wait: the whole suite runs at once on two cores, and a server in a test
/// can take longer than a phone's 30 seconds to be given a thread. A request that times out here
/// fails the test, so a slow machine must not look like a broken server.
struct PatientTransport: ForkcastTransport {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        var patient = request
        patient.timeoutInterval = max(request.timeoutInterval, 300)
        return try await URLSessionTransport().send(patient)
    }
}

extension ForkcastTransport where Self == PatientTransport {
    static var patient: PatientTransport { PatientTransport() }
}
