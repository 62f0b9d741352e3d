import FluentKit
@testable import ForkcastServer
import ForkcastContract
import ForkcastCore
import Foundation
import PropertyBased
import SQLKit
import Testing
import VaporTesting
import ZIPFoundation

/// The check every API test's answer goes through (Support/OpenAPIConformance.swift) does catch drift.
@Suite("OpenAPI conformance check")
struct OpenAPIConformanceCheckTests {
    @Test func undocumentedStatusesAndShapesAreCaught() {
        let meals = #"{"items":[],"metadata":{"page":1,"per":100,"total":0}}"#
        #expect(OpenAPIConformance.problems(method: "GET", path: "/api/v1/meals?q=x", status: 200, contentType: "application/json", body: Data(meals.utf8)).isEmpty)
        #expect(!OpenAPIConformance.problems(method: "GET", path: "/api/v1/meals", status: 200, contentType: "application/json", body: Data(#"{"items":5}"#.utf8)).isEmpty)
        #expect(!OpenAPIConformance.problems(method: "GET", path: "/api/v1/meals", status: 418, contentType: nil, body: Data()).isEmpty)
        #expect(!OpenAPIConformance.problems(method: "GET", path: "/api/v1/recipes", status: 200, contentType: nil, body: Data()).isEmpty)
        let problem = #"{"type":"x","title":"y","status":404,"detail":"z"}"#
        #expect(OpenAPIConformance.problems(method: "GET", path: "/api/v1/meals/\(UUID())", status: 404, contentType: "application/problem+json", body: Data(problem.utf8)).isEmpty)
    }
}

/// Found by the outside review: each of these once stopped the server or lost data.
@Suite("Review findings")
struct ReviewFindingTests {
    @Test func anAuthorizationHeaderOnAWebPageIsIgnored() async throws {
        try await withForkcast { app in
            _ = try await app.signUp()
            for value in ["Bearer x", "Basic dXNlcjpwYXNz"] {
                let page = try await app.testing().sendRequest(.GET, "/login", headers: ["Authorization": value])
                #expect(page.status == .ok, "\(value)")
            }
        }
    }

    @Test func strayPercentSignsAndQuotesInFormsAreJustText() async throws {
        try await withForkcast { app in
            _ = try await app.signUp()
            var browser = Browser(app: app)
            let token = try await browser.csrf(from: "/login")
            var headers = HTTPHeaders()
            headers.replaceOrAdd(name: .cookie, value: browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
            headers.replaceOrAdd(name: .contentType, value: "application/x-www-form-urlencoded")
            let body = "_csrf=\(token)&email=100%&password=x\"{|%zz"
            let response = try await app.testing().sendRequest(.POST, "/login", headers: headers, body: ByteBuffer(string: body))
            #expect(response.status == .unauthorized)
            #expect(try await app.anonymous.get("/healthz").status == .ok)
            #expect(URLEncoded.pairs("a=100%&b=x+y&c=%E2%82%AC&d").map { "\($0.name)=\($0.value)" } == ["a=100%", "b=x y", "c=€", "d="])
        }
    }

    @Test func twoDevicesMayUseTheSameMutationIDs() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let now = ISO8601DateFormatter().string(from: Date().addingTimeInterval(1))
            for (device, name) in [("phone", "Phone soup"), ("tablet", "Tablet stew")] {
                let body = #"{"deviceId":"\#(device)","mutations":[{"mutationId":"1","kind":"meal","id":"\#(UUID())","op":"upsert","updatedAt":"\#(now)","record":{"description":"\#(name)"}}]}"#
                let response = try await client.send(.POST, "/api/v1/sync/push", raw: body)
                #expect(response.status == .ok)
            }
            #expect(Set(try await client.meals().items.map(\.description)) == ["Phone soup", "Tablet stew"])
        }
    }

    @Test func aWeighingCannotBeInTheFuture() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let later = ISO8601DateFormatter().string(from: Date().addingTimeInterval(3 * 86_400))
            let response = try await client.send(.POST, "/api/v1/weights", raw: #"{"weightKg":70,"measuredAt":"\#(later)"}"#)
            #expect(response.status == .unprocessableEntity && response.problem?.message(for: "measuredAt") != nil)
        }
    }

    @Test func aVeryLongPathIsNotFound() async throws {
        try await withForkcast { app in
            let long = "/" + String(repeating: "a", count: 300), file = "/css/" + String(repeating: "b", count: 256) + ".css"
            let first = try await app.anonymous.get(long), second = try await app.anonymous.get(file)
            #expect(first.status == .notFound && second.status == .notFound)
        }
    }

    /// Public's files are served; only paths starting with one of Public's entries are looked up on
    /// disk, and nothing outside Public can be reached.
    @Test func publicFilesAreServedAndNothingOutsideThem() async throws {
        try await withForkcast { app in
            for path in ["/css/app.css", "/sw.js", "/manifest.webmanifest"] {
                let response = try await app.anonymous.get(path)
                #expect(response.status == .ok && response.body.readableBytes > 0, "\(path)")
            }
            #expect(try await app.anonymous.get("/css/app.css").headers.contentType?.subType == "css")
            for path in ["/css/../../Package.swift", "/css/%2e%2e/%2e%2e/Package.swift", "/Package.swift", "/js/nothing.js"] {
                #expect(try await app.anonymous.get(path).status != .ok, "\(path)")
            }
        }
    }

    @Test func csvCellsNeverStartAFormula() {
        let entry = DiaryEntry(loggedAt: Date(), date: CalendarDate(iso: "2026-11-22")!, mealType: "lunch", note: "@SUM(A1)", kind: .quickAdd,
                               name: "=HYPERLINK(\"http://x\")", nutrients: Nutrients(energyKcal: 100))
        let csv = DiaryExport.csv([entry])
        #expect(csv.contains("\"'=HYPERLINK(\"\"http://x\"\")\"") && csv.contains("'@SUM(A1)"))
    }

    @Test func csvShowsLocalTimeBesideUTCAndAmountsRoundedAsShown() throws {
        let instant = try #require(ISO8601DateFormatter().date(from: "2026-11-22T23:30:00Z"))
        let entry = DiaryEntry(loggedAt: instant, date: CalendarDate(iso: "2026-11-23")!, mealType: "snack", note: nil, kind: .quickAdd,
                               name: "Toast", nutrients: Nutrients(energyKcal: Decimal(string: "151.6"), protein: Decimal(string: "5.25")))
        let csv = DiaryExport.csv([entry], zone: try #require(TimeZone(identifier: "Europe/Berlin")), mealTypeNames: ["snack": "Snack, late"])
        let row = csv.split(separator: "\r\n")[1]
        #expect(row.contains("2026-11-22T23:30:00Z") && row.hasSuffix(",2026-11-23 00:30,Europe/Berlin,\"Snack, late\""), "\(row)")
        #expect(row.contains(",Toast,quickAdd,,,152,5.3,") || row.contains(",Toast,quickAdd,,,152,5.2,"), "\(row)")
    }

    @Test func aZipWhoseHeaderUnderstatesItsSizeIsStillABomb() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("forkcast-liar-\(UUID()).zip")
        defer { try? FileManager.default.removeItem(at: url) }
        let size = 8 << 20
        let archive = try Archive(url: url, accessMode: .create)
        let head = Data("<?xml version=\"1.0\"?>\n<HealthData locale=\"en\">\n".utf8)
        try archive.addEntry(with: "apple_health_export/export.xml", type: .file, uncompressedSize: Int64(size), compressionMethod: .deflate) { position, chunk in
            position == 0 ? head + Data(repeating: 32, count: chunk - head.count) : Data(repeating: 32, count: chunk)
        }
        // Rewrite the stated uncompressed size (local header and central directory) to 100 bytes.
        var bytes = [UInt8](try Data(contentsOf: url))
        for i in 0..<(bytes.count - 30) {
            if bytes[i] == 0x50, bytes[i + 1] == 0x4B, bytes[i + 2] == 0x03, bytes[i + 3] == 0x04 { bytes.replaceSubrange((i + 22)..<(i + 26), with: [100, 0, 0, 0]) }
            if bytes[i] == 0x50, bytes[i + 1] == 0x4B, bytes[i + 2] == 0x01, bytes[i + 3] == 0x02 { bytes.replaceSubrange((i + 24)..<(i + 28), with: [100, 0, 0, 0]) }
        }
        try Data(bytes).write(to: url)
        do {
            _ = try AppleHealthImport.parse(fileAt: url)
            Issue.record("the bomb was accepted")
        } catch let failure as AppleHealthImport.Failure {
            #expect(failure.message.contains("zip bomb"), "\(failure.message)")
        } catch {
            Issue.record("refused for another reason than the inflation count: \(error)")
        }
    }
}
